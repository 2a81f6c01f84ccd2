import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { CustomersModule } from '../customers';
import { DriversModule } from '../drivers';
import { FleetModule } from '../fleet';
import { JobsModule } from '../jobs';
import { OrdersModule } from '../orders';
import { SitesModule } from '../sites';

/**
 * Dispatch (layer 5, issue #11): assignment, the job tree, driver execution (start, evidence, issues,
 * station tickets, completion), locations and route optimisation. It moves jobs (JobsService), orders
 * (OrderOperations) and assets (AssetsService) in one transaction per request; it owns the evidence,
 * issue, station-ticket and location rows (dispatch.entities.ts).
 */
/** Company side: assignment, the job tree, lists, the dispatch context, route collapse. */
const COMPANY_SIDE = { controllers: [], providers: [] };
/** Driver side: the driver's jobs, execution, evidence, issues, tickets, locations; an order's jobs. */
const DRIVER_SIDE = { controllers: [], providers: [] };

@Module({
  imports: [JobsModule, OrdersModule, CatalogueModule, SitesModule, FleetModule, DriversModule, CustomersModule],
  controllers: [...COMPANY_SIDE.controllers, ...DRIVER_SIDE.controllers],
  providers: [...COMPANY_SIDE.providers, ...DRIVER_SIDE.providers],
})
export class DispatchModule {}
