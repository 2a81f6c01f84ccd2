import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthService } from './admin-auth.service';

@Module({ imports: [AuthModule], controllers: [AdminAuthController], providers: [AdminAuthService] })
export class AdminModule {}
