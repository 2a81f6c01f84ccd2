import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumQuery, TextField } from '../../common/validation/fields';
import { PhoneField } from '../auth';
import { Loaded } from '../customers';
import { OptionalLoginEmail, OptionalName } from '../customers';
import { MemberProfileDto, memberProfileFields } from '../customers';
import { USER_STATUSES, type UserStatus } from '../users';
import { Driver } from './driver.entity';

/** The driver's own view: user fields and licence. */
export class DriverProfileDto extends MemberProfileDto {
  @ApiPropertyOptional({ nullable: true, type: String }) license_number: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) license_expires_on: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) hired_on: string | null;

  static of(d: Loaded<Driver>): DriverProfileDto {
    return { ...memberProfileFields(d), license_number: d.licenseNumber, license_expires_on: d.licenseExpiresOn, hired_on: d.hiredOn };
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
  @EnumQuery(USER_STATUSES) status?: UserStatus;
}

/** `POST /driver/profile/update`: what a driver may change. Omitted fields stay; null clears. */
export class UpdateDriverProfileDto {
  @OptionalName() name?: string;
  @PhoneField() phone?: string | null;
  @TextField({ nullable: true, emptyClears: true, max: 50, example: 'D1234-5678-9012' }) license_number?: string | null;
  @DateField({ nullable: true, example: '2027-06-30' }) license_expires_on?: string | null;
}

/** `PUT /driver/{driverId}/update`: the company edits a driver. Omitted fields stay; null clears. */
export class UpdateDriverDto extends UpdateDriverProfileDto {
  @OptionalLoginEmail() email?: string;
  @DateField({ nullable: true, example: '2027-06-30' }) hired_on?: string | null;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) notes?: string | null;
}
