import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { ActorResolver } from '../../common/access/jwt.strategy';
import { SystemReach } from '../../common/access/scope';
import { CompaniesModule } from '../companies';
import { DriversModule } from '../drivers';
import { FleetModule } from '../fleet';
import { UsersModule } from '../users';
import { CompanyAttendanceController, DriverAttendanceController } from './attendance.controller';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceService } from './attendance.service';

/** The `checkedIn` rule's read: layer 0's guard names the caller's driver id only, no scope. */
const CHECKED_IN = SystemReach.of('the checkedIn access rule (the caller\'s own driver id)');

/** Drivers' days (layer 5): check-in, breaks, check-out, resume; the company's view; states for dispatch. */
@Module({ imports: [CompaniesModule, DriversModule, FleetModule, UsersModule], controllers: [DriverAttendanceController, CompanyAttendanceController], providers: [AttendanceService, AttendanceRepository], exports: [AttendanceService] })
export class AttendanceModule implements OnModuleInit {
  constructor(
    private readonly actors: ActorResolver,
    private readonly days: AttendanceRepository,
  ) {}

  /** The `checkedIn` access rule asks this module whether the driver has an open day (src/common/access/access.guard.ts). */
  onModuleInit(): void {
    this.actors.registerCheckedIn((driverId) => this.days.hasOpenDay(CHECKED_IN, driverId));
  }
}
