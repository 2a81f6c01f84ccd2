import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthService } from './admin-auth.service';
import { AdminRepository } from './admin.repository';

@Module({ imports: [AuthModule], controllers: [AdminAuthController], providers: [AdminAuthService, AdminRepository] })
export class AdminModule {}
