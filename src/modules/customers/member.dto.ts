import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { EmailField, NameField, PasswordField, PhoneField } from '../auth';

/** Body of `/customer/create` and `/driver/create` (domain.md §2). */
export class CreateMemberDto {
  @NameField() name: string;
  @EmailField() email: string;
  @PhoneField() phone?: string;
  @IsOptional() @PasswordField('password', { optional: true, description: 'Without it the user is e-mailed a code to set one.' }) password?: string;
}

/** A customer or driver as the company sees it. */
export class MemberDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['customer', 'driver'] }) type: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
  @ApiProperty({ format: 'uuid' }) company_id: string;
  @ApiProperty({ description: 'False until the user has a password (set through the mailed code).' }) has_password: boolean;
  @ApiProperty() created_at: string;
}
