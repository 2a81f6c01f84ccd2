import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { AssignDriverDto, AssignmentResultDto, MultiReassignDto, ReassignOrderDto } from './assignment.dto';
import { AssignmentService } from './assignment.service';

/** The rules every assignment follows (AssignmentService.placeJob). */
export const ASSIGNMENT_RULES =
  'Rules: the driver an active driver of the company (422 naming the field), not on leave that day (422 `DRIVER_ON_LEAVE` naming the field); the truck active and of a type that carries ' +
  "the order's asset specification (422 with the reason); a delivery or swap reserves an asset: the chosen one (`asset_id`, 422 when not the company's) or the first free " +
  "one of the specification, those based at the job's lot first, free on the container calendar over the days the order's container is out (its delivery job's date, or the day it was delivered, to its pickup job's date; " +
  "the order's dates without those jobs; open-ended without a pickup: a container out on another order until before them is free); 409 `NO_CONTAINER_AVAILABLE` naming the days (`details.dates`) when none is, `ASSET_UNAVAILABLE` " +
  "when the chosen one is not (race-free); a new date today or later with the job's lot open that day " +
  "(a delivery not after its pickup job, a pickup not before the delivery: 422 on the date); moving a delivery's or pickup's date moves the order's hold on the calendar to the new days " +
  "(409 `NO_CONTAINER_AVAILABLE` when the specification refuses and none is free; the order's own dates and bill stay) " +
  "(422 `HOLIDAY`, `CLOSED_DAY`, `INACTIVE`). The first assignment of the order's delivery moves the order to `scheduled`. Each job change is recorded (history, `job.assigned`, " +
  '`job.reassigned`, `job.updated`) in one transaction; the order is locked first, then its jobs.';

/** 409 codes of the assignment rules. */
export const ASSIGNMENT_409 = ['INVALID_TRANSITION', 'ORDER_STATE', 'ASSET_UNAVAILABLE', 'NO_CONTAINER_AVAILABLE'];
/** 422 codes of the assignment rules. */
export const ASSIGNMENT_422 = ['VALIDATION_FAILED', 'HOLIDAY', 'CLOSED_DAY', 'INACTIVE', 'DRIVER_ON_LEAVE'];

@ApiTags('Dispatch')
@Controller('api/v1')
export class AssignmentController {
  constructor(private readonly assignment: AssignmentService) {}

  @Post('driver/assign/:order')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({
    summary: "Assign a driver and truck to the order's next unassigned job (its delivery first, then by date)",
    description:
      `${ASSIGNMENT_RULES} \`date\` defaults to the job's date; \`sequence\` to after the driver's last job that day. ` +
      'An order without unassigned jobs is 409 `NOTHING_TO_ASSIGN`; an order that is not approved, scheduled or delivered 409 `ORDER_STATE`.',
    type: AssignmentResultDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: [...ASSIGNMENT_409, 'NOTHING_TO_ASSIGN'], 422: ASSIGNMENT_422 },
  })
  assign(@CurrentActor() actor: Actor, @IdParam('order') id: string, @Body() dto: AssignDriverDto) {
    return this.assignment.assign(actor, id, dto);
  }

  @Post('order/jobs/:driverJob/assign')
  @Access('CO')
  @ApiIdParam('driverJob')
  @Endpoint({
    summary: 'Assign a driver and truck to one unassigned job, named by id (e.g. a pickup on its own)',
    description:
      `${ASSIGNMENT_RULES} \`date\` defaults to the job's date; \`sequence\` to after the driver's last job that day. ` +
      'A job that is not unassigned is 409 `INVALID_TRANSITION` (move it with `POST /driver/reassign/{order}` or `PUT /order/jobs/{driverJob}`); a job of an order that is ' +
      'not approved, scheduled or delivered 409 `ORDER_STATE`. Extension (issue #25): `POST /driver/assign/{order}` always takes the order\'s delivery first.',
    type: AssignmentResultDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: ASSIGNMENT_409, 422: ASSIGNMENT_422 },
  })
  assignJob(@CurrentActor() actor: Actor, @IdParam('driverJob') id: string, @Body() dto: AssignDriverDto) {
    return this.assignment.assignJob(actor, id, dto);
  }

  @Post('driver/reassign/:order')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({
    summary: "Move the order's assigned jobs (or the listed ones) to another driver and truck",
    description:
      `${ASSIGNMENT_RULES} Without \`job_ids\`, every assigned job of the order moves (409 \`NOTHING_TO_REASSIGN\` when there is none); a job in progress stays with its driver ` +
      '(409 `INVALID_TRANSITION` when listed). Listed jobs must be this order\'s (422 on `job_ids.<i>`); an unassigned one is assigned. Without `truck_id` each job keeps its truck. ' +
      'The moved jobs go after the new driver\'s last job of their day.',
    type: AssignmentResultDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: [...ASSIGNMENT_409, 'NOTHING_TO_REASSIGN'], 422: ASSIGNMENT_422 },
  })
  reassign(@CurrentActor() actor: Actor, @IdParam('order') id: string, @Body() dto: ReassignOrderDto) {
    return this.assignment.reassign(actor, id, dto);
  }

  @Post('multi/reassign')
  @Access('CO')
  @Endpoint({
    summary: "Move one driver's assigned jobs of a day, or a list of jobs, to another driver; all or nothing",
    description:
      `${ASSIGNMENT_RULES} Either \`from_driver_id\` with \`date\` (that driver's assigned jobs of the day; jobs in progress stay) or \`job_ids\` (jobs of the company, ` +
      'unassigned or assigned; 422 on `job_ids.<i>` when not found, 409 `INVALID_TRANSITION` for one in progress or finished). One transaction: the orders are locked in id order, then the jobs.',
    type: AssignmentResultDto,
    status: 200,
    errors: [409, 422],
    codes: { 409: [...ASSIGNMENT_409, 'NOTHING_TO_REASSIGN'], 422: ASSIGNMENT_422 },
  })
  multi(@CurrentActor() actor: Actor, @Body() dto: MultiReassignDto) {
    return this.assignment.multiReassign(actor, dto);
  }
}
