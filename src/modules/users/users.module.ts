import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { CompanySummaries } from './company-summaries';
import { MemberProfiles } from './member-profiles';
import { CALLER_USER_SQL, UserRepository } from './user.repository';
import { UsersService, type ProfileRow } from './users.service';

@Module({ providers: [UsersService, UserRepository, MemberProfiles, CompanySummaries], exports: [UsersService, MemberProfiles, CompanySummaries] })
export class UsersModule implements OnModuleInit {
  constructor(
    private readonly actors: ActorResolver,
    private readonly users: UsersService,
  ) {}

  /**
   * The user's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`), and the
   * profile it brings on `/auth/me` (`@WithCallerProfile()`: one statement instead of two). The profile's
   * columns are read at the first request: the company summary's SQL is registered by another module's init.
   */
  onModuleInit(): void {
    this.actors.registerCallerSql('user', CALLER_USER_SQL);
    this.actors.registerProfile({ columns: () => this.users.profileColumnsSql('u'), map: (row) => this.users.profileOf(row as unknown as ProfileRow) });
  }
}
