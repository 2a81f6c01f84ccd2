/** What other modules may use of users (never its entities). */
export { UsersModule } from './users.module';
export { UsersService, type NewUser, type ProfileRow, type UserCredentials } from './users.service';

export { CompanySummaryDto, UserDto } from './user.dto';
export { USER_STATUSES, USER_TYPES, type ContactChanges, type UserStatus, type UserType } from './user.types';
export { MemberProfiles, type MemberAdmission, type MemberProfileFactory } from './member-profiles';
export { CompanySummaries, type CompanySummaryLookup, type CompanySummarySql } from './company-summaries';
/** The users row type (for joins and relations; the entity class stays inside users). */
export type { User } from './user.entity';
/** The base of the role-record tables (customers, drivers) that their modules extend. */
export { MemberProfile } from './member-profile.base';
