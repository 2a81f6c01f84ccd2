import { Module } from '@nestjs/common';
import { MembersModule } from '../users/members.module';
import { CustomersController } from './customers.controller';

@Module({ imports: [MembersModule], controllers: [CustomersController] })
export class CustomersModule {}
