import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies';
import { DriversModule } from '../drivers';
import { FleetModule } from '../fleet';
import { UsersModule } from '../users';
import { CompanyAttendanceController, DriverAttendanceController } from './attendance.controller';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceService } from './attendance.service';

/** Drivers' days (layer 5): check-in, breaks, check-out, resume; the company's view; states for dispatch. */
@Module({ imports: [CompaniesModule, DriversModule, FleetModule, UsersModule], controllers: [DriverAttendanceController, CompanyAttendanceController], providers: [AttendanceService, AttendanceRepository], exports: [AttendanceService] })
export class AttendanceModule {}
