import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { CompaniesModule } from '../companies';
import { UsersModule } from '../users';
import { MembersService } from './members.service';

/** Customers and drivers as company members (shared by the Customers and Drivers modules). */
@Module({ imports: [AuthModule, UsersModule, CompaniesModule], providers: [MembersService], exports: [MembersService, UsersModule, CompaniesModule] })
export class MembersModule {}
