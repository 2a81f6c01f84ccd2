import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { withMessage } from '../../common/http/envelope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { ASSIGNMENT_409, ASSIGNMENT_422, ASSIGNMENT_RULES } from './assignment.controller';
import { AssignmentService } from './assignment.service';
import {
  AbortCompanyJobDto,
  BulkUpdateJobsDto,
  CompanyJobDetailDto,
  CompanyJobDto,
  CompanyJobQuery,
  CompanyJobWithFeeDto,
  CreateCompanyJobDto,
  JobTreeDayDto,
  JobTreeQuery,
  RouteCollapseDto,
  RoutePlanDto,
  UpdateCompanyJobDto,
} from './company-jobs.dto';
import { CompanyJobsService } from './company-jobs.service';
import { RouteCollapseService } from './route-collapse.service';

const LIST =
  'Filters: `from`/`to` on the scheduled date, `driver_id`, `status`, `type`, `order_id`. Sorts: `scheduled_date` (default), `created_at` (`-` for descending), each with an index. ' +
  'Each job with its driver\'s name and its order (number, status, customer, site address, specification, waste type, dates).';

@ApiTags('Jobs')
@Controller('api/v1')
export class CompanyJobsController {
  constructor(
    private readonly jobs: CompanyJobsService,
    private readonly assignment: AssignmentService,
    private readonly routes: RouteCollapseService,
  ) {}

  @Get('jobs')
  @Access('CO')
  @Endpoint({ summary: "The company's jobs", description: LIST, type: CompanyJobDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: CompanyJobQuery) {
    return this.jobs.list(scope, q);
  }

  @Get('jobs/:driverJob')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({
    summary: 'One job with its order, status history, merged pickups and evidence and issue counts',
    type: CompanyJobDetailDto,
    errors: [404],
  })
  show(@CompanyId() companyId: string, @IdParam('driverJob') id: string) {
    return this.jobs.detail(Scope.company(companyId), id);
  }

  @Get('order/jobs')
  @Access('CO')
  @Endpoint({
    summary: 'The job tree: date → driver → jobs in sequence',
    description:
      "`date`, or `from`/`to` (default today, the company's local date; at most 31 days). Each day lists its unassigned jobs first (driver_id null), then its drivers by name, " +
      'each with jobs in sequence. Aborted jobs only with `include_aborted=true`. Only days with jobs appear.',
    type: JobTreeDayDto,
    array: true,
    errors: [422],
  })
  tree(@CurrentScope() scope: Scope, @Query() q: JobTreeQuery) {
    return this.jobs.tree(scope, q);
  }

  @Post('order/jobs')
  @Access('CO')
  @Endpoint({
    summary: 'Add a job to one of the company\'s orders: swap, dump_return, relocate, or an extra delivery or pickup (unassigned)',
    description:
      'The order must be approved, scheduled or delivered (409 `ORDER_STATE`); `order_id` not the company\'s is 422. The date today or later, on or after the order\'s delivery ' +
      "(except a delivery), the order's lot open that day (422 `HOLIDAY`, `CLOSED_DAY`, `INACTIVE`). A relocation needs `destination_address_id`, another address of the order's customer. " +
      "Swap, dump and return and relocation add the service fee line of the price book frozen on the order (with its taxes) when that price book has one and `charge_fee` is not false; " +
      'extra deliveries and pickups add no fee. `fee_amount` is what was added. The container calendar: a pickup ends the order\'s hold on its date, a delivery (or a swap ' +
      'before delivery) earlier than the hold starts it then, an extra delivery never shortens it, a relocation leaves it; a changed hold is checked (409 `NO_CONTAINER_AVAILABLE` naming ' +
      'the days in `details.dates`, nothing saved), and a delivery after the pickup or a pickup before the delivery is 422 on `date`.',
    type: CompanyJobWithFeeDto,
    status: 201,
    errors: [409, 422],
    codes: { 409: ['ORDER_STATE', 'NO_CONTAINER_AVAILABLE'], 422: ['VALIDATION_FAILED', 'HOLIDAY', 'CLOSED_DAY', 'INACTIVE'] },
  })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateCompanyJobDto) {
    return this.jobs.create(actor, dto);
  }

  @Get('order/jobs/all')
  @Access('CO')
  @Endpoint({ summary: "The company's jobs as a flat list", description: LIST, type: CompanyJobDto, list: true, errors: [422] })
  all(@CurrentScope() scope: Scope, @Query() q: CompanyJobQuery) {
    return this.jobs.list(scope, q);
  }

  @Put('order/jobs/bulk')
  @Access('CO')
  @Endpoint({
    summary: 'Update many jobs (driver, truck, date, sequence, notes): all or nothing',
    description: `${ASSIGNMENT_RULES} Errors name the item (\`items.<i>.driver_id\`). A job in progress changes only its sequence and notes; a finished one nothing (409 \`INVALID_TRANSITION\`).`,
    type: CompanyJobDto,
    array: true,
    errors: [409, 422],
    codes: { 409: ASSIGNMENT_409, 422: ASSIGNMENT_422 },
  })
  bulk(@CurrentActor() actor: Actor, @Body() dto: BulkUpdateJobsDto) {
    return this.assignment.bulk(actor, dto);
  }

  @Put('order/jobs/route-collapse')
  @Access('CO')
  @Endpoint({
    summary: "Optimise a driver's day: merge pickups and deliveries into swaps, order the stops (and save the sequence)",
    description:
      "The driver's unfinished jobs of the date (pickups already merged left out). A pickup and a delivery of the same specification at the same address (of different orders) merge into a " +
      'swap (the delivery becomes the swap and carries the pickup\'s order as `pickup_order_id`, the container it takes back; the pickup keeps its order and gets `merged_into_job_id`). Each job is a block of legs (delivery lot → site; pickup site → station → lot; ' +
      'swap lot → site → station; dump_return site → station → site; relocate site → new site), the station the nearest open one accepting the waste (a swap\'s: the waste of the container it takes back), the lot the nearest active one open that day. ' +
      "The tour starts and ends at the home lot of the day's truck (the truck of the day's first job); the order of stops minimises the haversine length (exact up to 12 stops); " +
      'among equally short orders the current sequence wins, so planning a day saved from an optimal plan again changes nothing (`moves: 0`). The same day always gives the same plan (no time limit decides it). ' +
      '`apply` (default true) saves the merges and every sequence in one transaction, the jobs locked; `false` previews. ' +
      "Every plan has a `plan_id`, a digest of the day's inputs and of the plan: `apply` with the `plan_id` of a preview saves exactly that plan, or answers 409 `PLAN_STALE` and saves nothing when the day changed since " +
      '(a job added, removed, moved or edited, an order\'s site, a lot or station opened or closed, or the same plan already applied); without `plan_id` the plan of the day as it stands is saved. ' +
      'No unfinished job that day is 422; a truck without a usable home lot 422 `NO_HOME_LOT`; a job whose waste no open station accepts 422 `NO_STATION`.',
    type: RoutePlanDto,
    errors: [409, 422],
    codes: { 409: ['PLAN_STALE'], 422: ['VALIDATION_FAILED', 'NO_TRUCK', 'NO_HOME_LOT', 'NO_STATION'] },
  })
  collapse(@CurrentActor() actor: Actor, @Body() dto: RouteCollapseDto) {
    return this.routes.collapse(actor, dto);
  }

  @Get('order/jobs/:driverJob')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({ summary: 'One job of the tree, with its order, status history, merged pickups and evidence and issue counts', type: CompanyJobDetailDto, errors: [404] })
  item(@CompanyId() companyId: string, @IdParam('driverJob') id: string) {
    return this.jobs.detail(Scope.company(companyId), id);
  }

  @Put('order/jobs/:driverJob')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({
    summary: "Change a job's driver, truck, date, sequence or notes",
    description: `${ASSIGNMENT_RULES} A driver on an unassigned job assigns it (a truck is then needed). A job in progress changes only its sequence and notes; a finished one nothing (409 \`INVALID_TRANSITION\`). Moving a job's date does not change the order's dates.`,
    type: CompanyJobDto,
    errors: [404, 409, 422],
    codes: { 409: ASSIGNMENT_409, 422: ASSIGNMENT_422 },
  })
  update(@CurrentActor() actor: Actor, @IdParam('driverJob') id: string, @Body() dto: UpdateCompanyJobDto) {
    return this.assignment.update(actor, id, dto);
  }

  @Delete('order/jobs/:driverJob')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({
    summary: 'Delete an unassigned job that no order state depends on',
    description:
      "409 `JOB_NOT_DELETABLE` for a job that is assigned, started or finished, one created by an approved change request (the customer was billed for it), the order's only " +
      "unfinished delivery before delivery, or the only unfinished pickup of an order with a pickup date: abort those instead. A fee line added with the job stays on the order's bill.",
    errors: [404, 409],
    message: 'Job deleted.',
    codes: { 409: ['JOB_NOT_DELETABLE'] },
  })
  async remove(@CurrentActor() actor: Actor, @IdParam('driverJob') id: string) {
    await this.jobs.remove(actor, id);
    return withMessage(null, 'Job deleted.');
  }

  @Post('order/jobs/:driverJob/abort')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({
    summary: 'Abort a job before completion, with a reason (optionally the wasted-trip fee)',
    description:
      'Any job not completed or aborted (else 409 `INVALID_TRANSITION`). Its reserved asset is released; pickups merged into it become jobs of their own again. ' +
      "`wasted_trip_fee: true` adds the wasted-trip fee line of the order's price book (with taxes) when it has one; `fee_amount` is what was added. The order's status does not change.",
    type: CompanyJobWithFeeDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  abort(@CurrentActor() actor: Actor, @IdParam('driverJob') id: string, @Body() dto: AbortCompanyJobDto) {
    return this.jobs.abort(actor, id, dto);
  }
}
