import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { USER_STATUSES } from '../users';
import type { Loaded } from './member-directory';
import type { MemberProfile } from '../users';

/** What customer and driver responses share: the user fields and the timestamps. */
export class MemberProfileDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ enum: USER_STATUSES }) status: string;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() created_at: string;
  /** The later of the profile's and the user's changes. */
  @ApiProperty() updated_at: string;
}

export function memberProfileFields(p: Loaded<MemberProfile>): MemberProfileDto {
  const u = p.user;
  return {
    id: p.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    status: u.status,
    email_verified: u.emailVerifiedAt !== null,
    created_at: p.createdAt.toISOString(),
    updated_at: (p.updatedAt > u.updatedAt ? p.updatedAt : u.updatedAt).toISOString(),
  };
}
