import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The company a user belongs to, in a user's profile. */
export class CompanySummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['company', 'customer', 'driver', 'admin'] }) type: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone?: string | null;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) company_id?: string | null;
  @ApiPropertyOptional({ type: CompanySummaryDto, nullable: true }) company?: CompanySummaryDto | null;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() created_at: string;
}
