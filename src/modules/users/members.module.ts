import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from './users.module';
import { MembersService } from './members.service';

/** Customers and drivers as company members (shared by the Customers and Drivers modules). */
@Module({ imports: [AuthModule, UsersModule], providers: [MembersService], exports: [MembersService] })
export class MembersModule {}
