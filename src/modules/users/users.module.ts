import { Module } from '@nestjs/common';
import { CompanySummaries } from './company-summaries';
import { MemberProfiles } from './member-profiles';
import { UserRepository } from './user.repository';
import { UsersService } from './users.service';

@Module({ providers: [UsersService, UserRepository, MemberProfiles, CompanySummaries], exports: [UsersService, MemberProfiles, CompanySummaries] })
export class UsersModule {}
