import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import {
  AssignableOrderDto,
  AssignableOrdersQuery,
  DispatchContextDto,
  DispatchDayQuery,
  DispatchDriverDto,
  DriverDatesDto,
  DriverDatesQuery,
  DriverWithJobsDto,
  OrderAssetsDto,
  OrderAssetsQuery,
} from './dispatch-context.dto';
import { DispatchContextService } from './dispatch-context.service';

const TODAY = "`date` defaults to today, the company's local date (its time zone).";

@ApiTags('Dispatch')
@Controller('api/v1')
export class DispatchContextController {
  constructor(private readonly context: DispatchContextService) {}

  @Get('dispatch/context')
  @Access('CO')
  @Endpoint({
    summary: 'The dispatch context of a day',
    description:
      `${TODAY} Active drivers with their attendance that day, approved leave that day (\`on_leave\`) and load (jobs, stops, planned km); ` +
      'trucks with their type, the specifications it carries and home lot; the day\'s unassigned and assigned jobs with their orders; active lots (open that day or why not); ' +
      'the stations open that day with the waste types they accept; assets free that day by the container calendar per specification. A fixed handful of statements, whatever the size of the day.',
    type: DispatchContextDto,
    errors: [422],
  })
  show(@CurrentScope() scope: Scope, @Query() q: DispatchDayQuery) {
    return this.context.context(scope, q.date);
  }

  @Get('available/drivers')
  @Access('CO')
  @Endpoint({
    summary: 'Drivers available on a day: active and not on leave, with their attendance and load',
    description: `${TODAY} By name. The load counts the day's jobs (aborted ones left out), its stops (merged pickups left out) and the planned km of the stops in sequence.`,
    type: DispatchDriverDto,
    array: true,
    errors: [422],
  })
  available(@CurrentScope() scope: Scope, @Query() q: DispatchDayQuery) {
    return this.context.availableDrivers(scope, q.date);
  }

  @Get('drivers-orders-dates')
  @Access('CO')
  @Endpoint({
    summary: 'Per driver, the dates that have jobs (for a calendar)',
    description: 'Optional `from`/`to` bound the dates; aborted jobs are left out. One entry per driver with jobs, by name.',
    type: DriverDatesDto,
    array: true,
    errors: [422],
  })
  dates(@CurrentScope() scope: Scope, @Query() q: DriverDatesQuery) {
    return this.context.driverDates(scope, q);
  }

  @Get('drivers-with-orders')
  @Access('CO')
  @Endpoint({
    summary: 'Drivers with their jobs of a day, in sequence',
    description: `${TODAY} Only drivers with jobs that day (assigned, in progress or completed), by name; each job with its order.`,
    type: DriverWithJobsDto,
    array: true,
    errors: [422],
  })
  withOrders(@CurrentScope() scope: Scope, @Query() q: DispatchDayQuery) {
    return this.context.driversWithOrders(scope, q.date);
  }

  @Get('orders/assignable')
  @Access('CO')
  @Endpoint({
    summary: 'Orders with unassigned jobs (filters: date of an unassigned job, asset_specification_id; q on number or customer)',
    description: 'Approved, scheduled or delivered orders that still have unassigned jobs, each with them in assignment order. Sorts: `delivery_date` (default), `created_at`, `number`.',
    type: AssignableOrderDto,
    list: true,
    errors: [422],
  })
  assignable(@CurrentScope() scope: Scope, @Query() q: AssignableOrdersQuery) {
    return this.context.assignable(scope, q);
  }

  @Get('orders/:orderId/assets-with-availability')
  @Access('CO')
  @ApiIdParam('orderId')
  @Endpoint({
    summary: "The assets of an order's specification, each with its status and whether it is free for the job's date",
    description:
      "The date is that of the order's next unassigned delivery or swap (or `date`). `free` reads the container calendar, as assignment does: from the date to the order's pickup " +
      "(its pickup job's date, else the order's; open-ended without one) no other order's hold pins the asset, it is not in maintenance or retired, and one out now (on a site, at a station, on its way) " +
      "only when another order's pin says when it is back. So an asset reserved for a later order can be free, and one pinned on those days is not.",
    type: OrderAssetsDto,
    errors: [404, 422],
  })
  assets(@CurrentScope() scope: Scope, @IdParam('orderId') id: string, @Query() q: OrderAssetsQuery) {
    return this.context.orderAssets(scope, id, q.date);
  }
}
