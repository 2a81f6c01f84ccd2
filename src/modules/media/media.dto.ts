import { ApiProperty } from '@nestjs/swagger';

export class MediaDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '/api/v1/media/0b6f3c1e-8a54-4c1e-9d8e-2f1b7c3a9e10', description: 'Where the file is served (no token needed).' }) url: string;
  @ApiProperty({ enum: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'], description: 'Detected from the content.' }) type: string;
  @ApiProperty({ example: 48213, description: 'Bytes.' }) size: number;
}
