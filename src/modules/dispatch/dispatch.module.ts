import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import './notifications'; // who is told of its events (src/common/outbox/notification-rules.ts)
import { Module, Type } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { CustomersModule } from '../customers';
import { DriversModule } from '../drivers';
import { FleetModule } from '../fleet';
import { JobsModule } from '../jobs';
import { OrdersModule } from '../orders';
import { SitesModule } from '../sites';
import { AttendanceModule } from '../attendance';
import { MediaModule } from '../media';
import { QrCodesModule } from '../qr-codes';
import { UsersModule } from '../users';
import { DriverEvidenceService } from './driver-evidence.service';
import { DriverJobsController } from './driver-jobs.controller';
import { DriverJobsService } from './driver-jobs.service';
import { JobCompletion } from './job-completion';
import { JobIssuesController } from './job-issues.controller';
import { JobIssuesService } from './job-issues.service';
import { OrderJobsController } from './order-jobs.controller';
import { OrderJobsService } from './order-jobs.service';
import { CompaniesModule, CompanyAdminModule } from '../companies';
import { AssignmentController } from './assignment.controller';
import { DriverLeaveCheck } from './assignment-leave-check';
import { AssignmentService } from './assignment.service';
import { CompanyJobsController } from './company-jobs.controller';
import { CompanyJobsService } from './company-jobs.service';
import { DispatchContextController } from './dispatch-context.controller';
import { DispatchContextService } from './dispatch-context.service';
import { RouteCollapseService } from './route-collapse.service';
import { ArrivalTimesService, RecomputeArrivals } from './arrival-times.service';
import { FleetPlanController } from './fleet-plan.controller';
import { FleetPlanService } from './fleet-plan.service';
import { DispatchReadModel } from './dispatch-read-model';
import { JobEvidenceRepository } from './job-evidence.repository';
import { JobFactsRepository } from './job-facts.repository';
import { JobIssueRepository } from './job-issue.repository';
import { JobLocationRepository } from './job-location.repository';

/** Dispatch's SQL (docs/data-layer.md): its own tables only; provided here, not exported. */
const REPOSITORIES = [JobEvidenceRepository, JobIssueRepository, JobLocationRepository, JobFactsRepository];

/**
 * Dispatch (layer 5, issue #11): assignment, the job tree, driver execution (start, evidence, issues,
 * station tickets, completion), locations and route optimisation. It moves jobs (JobsService), orders
 * (OrderOperations) and assets (AssetsService) in one transaction per request; it owns the evidence,
 * issue, station-ticket and location rows (dispatch.entities.ts).
 */
/** Company side: assignment, the job tree, lists, the dispatch context, route collapse, the fleet's day plan. */
const COMPANY_SIDE = {
  controllers: [DispatchContextController, AssignmentController, CompanyJobsController, FleetPlanController] as Type[],
  providers: [DriverLeaveCheck, AssignmentService, CompanyJobsService, DispatchContextService, RouteCollapseService, FleetPlanService] as Type[],
};
/** Driver side: the driver's jobs, execution, evidence, issues, tickets, locations; an order's jobs. */
const DRIVER_SIDE = {
  controllers: [DriverJobsController, JobIssuesController, OrderJobsController] as Type[],
  providers: [DriverJobsService, DriverEvidenceService, JobCompletion, JobIssuesService, OrderJobsService] as Type[],
};

@Module({
  imports: [JobsModule, OrdersModule, CatalogueModule, SitesModule, FleetModule, DriversModule, CustomersModule, AttendanceModule, MediaModule, QrCodesModule, UsersModule, CompaniesModule, CompanyAdminModule],
  controllers: [...COMPANY_SIDE.controllers, ...DRIVER_SIDE.controllers],
  // Arrival times (issue #26): recomputed in the relay after the day's changes (arrival-times.service.ts).
  providers: [...REPOSITORIES, ...COMPANY_SIDE.providers, ...DRIVER_SIDE.providers, DispatchReadModel, ArrivalTimesService, RecomputeArrivals],
  // The leave hook of assignment: the leaves module registers its calendar with it (assignment-leave-check.ts).
  exports: [DriverLeaveCheck, DispatchReadModel],
})
export class DispatchModule {}
