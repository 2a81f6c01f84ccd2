import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { UsersModule } from '../users';
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
  constructor(private readonly actors: ActorResolver) {}

  /** The token's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). */
  onModuleInit(): void {
    this.actors.registerCallerSql('token', CALLER_TOKEN_SQL);
  }
}
