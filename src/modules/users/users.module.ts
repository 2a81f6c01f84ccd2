import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { CompanySummaries } from './company-summaries';
import { MemberProfiles } from './member-profiles';
import { CALLER_USER_SQL, UserRepository } from './user.repository';
import { UsersService } from './users.service';

@Module({ providers: [UsersService, UserRepository, MemberProfiles, CompanySummaries], exports: [UsersService, MemberProfiles, CompanySummaries] })
export class UsersModule implements OnModuleInit {
  constructor(private readonly actors: ActorResolver) {}

  /** The user's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). */
  onModuleInit(): void {
    this.actors.registerCallerSql('user', CALLER_USER_SQL);
  }
}
