import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { PhoneField } from '../auth/auth.dto';
import { latest } from '../customers/customer.dto';
import { Loaded, memberUserFields } from '../customers/member-directory';
import { OptionalDate, OptionalLoginEmail, OptionalName, OptionalText } from '../customers/member-fields';
import { USER_STATUSES, UserStatus } from '../users/user.entity';
import { Driver } from './driver.entity';

/** The driver's own view: user fields and licence. */
export class DriverProfileDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ enum: USER_STATUSES }) status: string;
  @ApiProperty() email_verified: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) license_number: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) license_expires_on: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) hired_on: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(d: Loaded<Driver>): DriverProfileDto {
    return {
      id: d.id,
      ...memberUserFields(d.user),
      license_number: d.licenseNumber,
      license_expires_on: d.licenseExpiresOn,
      hired_on: d.hiredOn,
      created_at: d.createdAt.toISOString(),
      updated_at: latest(d.updatedAt, d.user.updatedAt),
    };
  }
}

/** A driver as its company sees it: the profile plus the company's notes. */
export class DriverDto extends DriverProfileDto {
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Internal notes of the company (not shown to the driver).' }) notes: string | null;

  static of(d: Loaded<Driver>): DriverDto {
    return { ...DriverProfileDto.of(d), notes: d.notes };
  }
}

export class DriverListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: USER_STATUSES }) @IsOptional() @IsIn(USER_STATUSES) status?: UserStatus;
}

/** `POST /driver/profile/update`: what a driver may change. Omitted fields stay; null clears. */
export class UpdateDriverProfileDto {
  @OptionalName() name?: string;
  @PhoneField() phone?: string | null;
  @OptionalText(50, 'D1234-5678-9012') license_number?: string | null;
  @OptionalDate() license_expires_on?: string | null;
}

/** `PUT /driver/{driverId}/update`: the company edits a driver. Omitted fields stay; null clears. */
export class UpdateDriverDto extends UpdateDriverProfileDto {
  @OptionalLoginEmail() email?: string;
  @OptionalDate() hired_on?: string | null;
  @OptionalText(2000) notes?: string | null;
}
