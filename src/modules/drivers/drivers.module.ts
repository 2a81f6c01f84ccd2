import { Module } from '@nestjs/common';
import { MembersModule } from '../customers';
import { DriversController } from './drivers.controller';
import { DriversService } from './drivers.service';

@Module({ imports: [MembersModule], controllers: [DriversController], providers: [DriversService], exports: [DriversService] })
export class DriversModule {}
