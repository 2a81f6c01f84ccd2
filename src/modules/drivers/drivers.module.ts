import { Module } from '@nestjs/common';
import { MembersModule } from '../users/members.module';
import { DriversController } from './drivers.controller';

@Module({ imports: [MembersModule], controllers: [DriversController] })
export class DriversModule {}
