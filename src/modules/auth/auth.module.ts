import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { UsersModule, UsersService, type ProfileRow } from '../users';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AuthTokenRepository } from './auth-token.repository';
import { OneTimeCodeRepository } from './one-time-code.repository';
import { OneTimeCodeService } from './one-time-code.service';
import { TokenService } from './token.service';
import { CALLER_TOKEN_SQL } from './caller-sql';

@Module({
  imports: [UsersModule],
  controllers: [AuthController],
  providers: [AuthService, TokenService, OneTimeCodeService, AuthTokenRepository, OneTimeCodeRepository],
  exports: [AuthService, TokenService, OneTimeCodeService],
})
export class AuthModule implements OnModuleInit {
  constructor(
    private readonly actors: ActorResolver,
    private readonly users: UsersService,
  ) {}

  /**
   * `/auth/me` (`@WithCallerProfile()`): the caller's query brings the user's profile, one statement instead of
   * two. The columns are read at the first request: the company summary's SQL is registered by another module's init.
   */
  onModuleInit(): void {
    this.actors.registerCallerSql('token', CALLER_TOKEN_SQL);
    this.actors.registerProfile({ columns: () => this.users.profileColumnsSql('u'), map: (row) => this.users.profileOf(row as unknown as ProfileRow) });
  }
}
