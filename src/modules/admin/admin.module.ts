import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { AuthModule } from '../auth';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthService } from './admin-auth.service';
import { CALLER_ADMIN_SQL, AdminRepository } from './admin.repository';

@Module({ imports: [AuthModule], controllers: [AdminAuthController], providers: [AdminAuthService, AdminRepository] })
export class AdminModule implements OnModuleInit {
  constructor(private readonly actors: ActorResolver) {}

  /** The administrator's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). */
  onModuleInit(): void {
    this.actors.registerCallerSql('admin', CALLER_ADMIN_SQL);
  }
}
