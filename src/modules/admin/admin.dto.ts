import { ApiProperty } from '@nestjs/swagger';

export class AdminDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'admin' }) type: 'admin';
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty() created_at: string;
}

export class AdminTokenDto {
  @ApiProperty() token: string;
  @ApiProperty({ example: 'bearer' }) token_type: string;
  @ApiProperty({ example: 2592000 }) expires_in: number;
  @ApiProperty({ type: AdminDto }) user: AdminDto;
}

/** `POST /admin/auth/verify-code`: the code is valid (an invalid one is 422). */
export class CodeCheckDto {
  @ApiProperty({ enum: [true], example: true }) valid: boolean;
}
