import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CompaniesModule, CompanyAdminModule } from '../companies';
import { DispatchModule } from '../dispatch';
import { DriversModule } from '../drivers';
import { JobsModule } from '../jobs';
import { MediaModule } from '../media';
import { UsersModule } from '../users';
import { LeaveCalendar } from './leave-calendar';
import { LeaveRequestRepository } from './leave-request.repository';
import { LeaveRepository } from './leave.repository';
import { LeaveRequestsService } from './leave-requests.service';
import { CompanyLeaveRequestsController, CompanyLeavesController, DriverLeavesController } from './leaves.controller';
import { LeavesService } from './leaves.service';

/**
 * Drivers' leave (layer 5, issue #12): requests with a decision per date, the leaves approved dates
 * become, cancellation and revocation, yearly stats (against the allowances in company settings). It plugs its calendar into dispatch's leave hook
 * (`DriverLeaveCheck`, imported from DispatchModule; dispatch never imports leaves).
 */
@Module({
  imports: [CompaniesModule, CompanyAdminModule, DriversModule, JobsModule, MediaModule, DispatchModule, UsersModule],
  controllers: [DriverLeavesController, CompanyLeaveRequestsController, CompanyLeavesController],
  providers: [LeaveRequestsService, LeavesService, LeaveCalendar, LeaveRepository, LeaveRequestRepository],
  exports: [LeaveRequestsService, LeavesService],
})
export class LeavesModule {}
