import { Module } from '@nestjs/common';
import { MembersModule } from '../customers';
import { DriversController } from './drivers.controller';
import { DriverRepository } from './driver.repository';
import { DriversService } from './drivers.service';

@Module({ imports: [MembersModule], controllers: [DriversController], providers: [DriversService, DriverRepository], exports: [DriversService] })
export class DriversModule {}
