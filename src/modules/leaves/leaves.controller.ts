import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { BodyExamples, Endpoint } from '../../common/http/openapi';
import {
  CreateLeaveRequestDto,
  DriverLeaveQuery,
  DriverLeaveRequestQuery,
  EndLeaveDto,
  LeaveDatesDecisionDto,
  LeaveDto,
  LeaveQuery,
  LeaveRequestDto,
  LeaveRequestQuery,
  LeaveStatsDto,
  UpdateLeaveRequestDto,
  LEAVE_REQUEST_EXAMPLES,
  LEAVE_UPDATE_EXAMPLES,
} from './leave.dto';
import { LeaveRequestsService } from './leave-requests.service';
import { LeavesService } from './leaves.service';
import { MAX_LEAVE_DATES, SICK_BACKDATE_DAYS } from './leave.types';

const DATES =
  `Dates: \`dates\` (a list) or \`from\` and \`to\` (a range, inclusive), at most ${MAX_LEAVE_DATES}; none before the company's today, ` +
  `except \`sick\` leave, up to ${SICK_BACKDATE_DAYS} days back (422). A date on which you are on approved leave or that another of your live requests ` +
  'asks for (pending or in review) is 422 `DATES_TAKEN` naming the dates. `attachment_media_id`: an upload (POST /upload-media), else 422.';
const STATUS_RULE = "The request's status follows its dates (all approved `approved`, some `partially_approved`; none approved: all rejected `rejected`, any in review `in_review`, else `pending`).";
const EDITABLE = 'Only while none of its dates is approved and it is not cancelled: 409 `INVALID_TRANSITION` otherwise.';

@ApiTags('Leave (driver)')
@Controller('api/v1/driver')
export class DriverLeavesController {
  constructor(
    private readonly requests: LeaveRequestsService,
    private readonly leaves: LeavesService,
  ) {}

  @Get('leave-requests')
  @Access('DR')
  @Endpoint({ summary: 'My leave requests, newest first (filters status, type, from/to on their span; sort created_at or first_date)', type: LeaveRequestDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: DriverLeaveRequestQuery) {
    return this.requests.list(scope, q);
  }

  @Post('leave-requests')
  @Access('DR')
  @Endpoint({ summary: 'Ask for leave: a type, dates, a reason and an optional attachment', description: `${DATES} Every date starts \`pending\`.`, type: LeaveRequestDto, status: 201, errors: [422], codes: { 422: ['DATES_TAKEN'] } })
  @BodyExamples(CreateLeaveRequestDto, LEAVE_REQUEST_EXAMPLES)
  create(@CurrentScope() scope: Scope, @Body() dto: CreateLeaveRequestDto) {
    return this.requests.create(scope, dto);
  }

  @Get('leave-requests/:leaveRequest')
  @Access('DR')
  @ApiIdParam('leaveRequest', 'One of my leave requests.')
  @Endpoint({ summary: 'One of my leave requests, with the decision on each date', description: STATUS_RULE, type: LeaveRequestDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string) {
    return this.requests.get(scope, id);
  }

  @Put('leave-requests/:leaveRequest')
  @Access('DR')
  @ApiIdParam('leaveRequest', 'One of my leave requests.')
  @Endpoint({
    summary: 'Change my leave request (type, dates, reason, attachment)',
    description: `${EDITABLE} New dates replace the set: dates kept keep their decision, added ones are pending. Added dates follow the rules of a new request: ${DATES}`,
    type: LeaveRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'], 422: ['DATES_TAKEN'] },
  })
  @BodyExamples(UpdateLeaveRequestDto, LEAVE_UPDATE_EXAMPLES)
  update(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string, @Body() dto: UpdateLeaveRequestDto) {
    return this.requests.update(scope, id, dto);
  }

  @Post('leave-requests/:leaveRequest/cancel')
  @Access('DR')
  @ApiIdParam('leaveRequest', 'One of my leave requests.')
  @Endpoint({ summary: 'Cancel my leave request', description: `${EDITABLE} Its dates are free to ask for again.`, type: LeaveRequestDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  cancel(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string) {
    return this.requests.cancel(scope, id);
  }

  @Get('leaves')
  @Access('DR')
  @Endpoint({ summary: 'My leaves (approved dates), latest start first (filters status, type, from/to: leaves overlapping the range)', type: LeaveDto, list: true, errors: [422] })
  listLeaves(@CurrentScope() scope: Scope, @Query() q: DriverLeaveQuery) {
    return this.leaves.list(scope, q);
  }

  @Get('leaves/stats')
  @Access('DR')
  @Endpoint({
    summary: "My leave this year by type: days taken and pending against the company's allowance",
    description:
      "The current year in the company's time zone. `taken_days`: approved leave days in the year, past and planned (a revoked leave counts the days it kept, a cancelled one none); " +
      '`pending_days`: requested days still pending or in review; `allowance_days`: the company\'s yearly allowance for the type, a company setting (`POST /company/settings`: `annual_leave_allowance_days` default 20, `sick_…` 10, `unpaid_…` 0, `other_…` 0); `remaining_days`: allowance − taken.',
    type: LeaveStatsDto,
  })
  stats(@CurrentScope() scope: Scope) {
    return this.leaves.stats(scope);
  }
}

const DECISION_RULES =
  '`dates`: dates of this request (422 otherwise). The request must not be cancelled (409 `INVALID_TRANSITION`). ' + `${STATUS_RULE} The request is locked for the decision: concurrent decisions queue.`;

@ApiTags('Leave')
@Controller('api/v1/leave-requests')
export class CompanyLeaveRequestsController {
  constructor(private readonly requests: LeaveRequestsService) {}

  @Get()
  @Access('CO')
  @Endpoint({
    summary: "Drivers' leave requests, newest first (filters status, type, driver_id, from/to on their span; q on the driver's name or e-mail; sort created_at or first_date)",
    type: LeaveRequestDto,
    list: true,
    errors: [422],
  })
  list(@CurrentScope() scope: Scope, @Query() q: LeaveRequestQuery) {
    return this.requests.list(scope, q);
  }

  @Get(':leaveRequest')
  @Access('CO')
  @ApiIdParam('leaveRequest')
  @Endpoint({ summary: 'One leave request, with the decision on each date', description: STATUS_RULE, type: LeaveRequestDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string) {
    return this.requests.get(scope, id);
  }

  @Post(':leaveRequest/approve-dates')
  @Access('CO')
  @ApiIdParam('leaveRequest')
  @Endpoint({
    summary: 'Approve dates of a leave request: they become leaves',
    description:
      `${DECISION_RULES} Pending or in-review dates only (409 \`INVALID_TRANSITION\` naming the others). A date on which the driver has assigned or in-progress jobs is ` +
      "409 `DRIVER_HAS_JOBS` listing them (reassign them first). Consecutive approved dates of the request form one leave (joining the request's leave that ends the day before or starts the day after).",
    type: LeaveRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION', 'DRIVER_HAS_JOBS'] },
  })
  approve(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string, @Body() dto: LeaveDatesDecisionDto) {
    return this.requests.decide(scope, 'approve', id, dto);
  }

  @Post(':leaveRequest/reject-dates')
  @Access('CO')
  @ApiIdParam('leaveRequest')
  @Endpoint({
    summary: 'Reject dates of a leave request',
    description: `${DECISION_RULES} Pending or in-review dates only (409 \`INVALID_TRANSITION\` naming the others).`,
    type: LeaveRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  reject(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string, @Body() dto: LeaveDatesDecisionDto) {
    return this.requests.decide(scope, 'reject', id, dto);
  }

  @Post(':leaveRequest/review-dates')
  @Access('CO')
  @ApiIdParam('leaveRequest')
  @Endpoint({
    summary: 'Put dates of a leave request in review (decided later)',
    description: `${DECISION_RULES} Pending dates only (409 \`INVALID_TRANSITION\` naming the others).`,
    type: LeaveRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  review(@CurrentScope() scope: Scope, @IdParam('leaveRequest') id: string, @Body() dto: LeaveDatesDecisionDto) {
    return this.requests.decide(scope, 'review', id, dto);
  }
}

@ApiTags('Leave')
@Controller('api/v1/leaves')
export class CompanyLeavesController {
  constructor(private readonly leaves: LeavesService) {}

  @Get()
  @Access('CO')
  @Endpoint({
    summary: "Drivers' leaves, latest start first (filters status, type, driver_id, leave_request_id, from/to: leaves overlapping the range; q on the driver's name or e-mail)",
    type: LeaveDto,
    list: true,
    errors: [422],
  })
  list(@CurrentScope() scope: Scope, @Query() q: LeaveQuery) {
    return this.leaves.list(scope, q);
  }

  @Get(':leave')
  @Access('CO')
  @ApiIdParam('leave')
  @Endpoint({ summary: 'One leave', type: LeaveDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('leave') id: string) {
    return this.leaves.get(scope, id);
  }

  @Post(':leave/cancel')
  @Access('CO')
  @ApiIdParam('leave')
  @Endpoint({
    summary: 'Cancel a leave that has not started',
    description: "Its start date must be after the company's today; a leave under way is revoked instead, a cancelled or revoked one stays as it is (409 `INVALID_TRANSITION`). Its days are free to ask for again.",
    type: LeaveDto,
    errors: [404, 409],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  cancel(@CurrentScope() scope: Scope, @IdParam('leave') id: string, @Body() dto: EndLeaveDto) {
    return this.leaves.cancel(scope, id, dto);
  }

  @Post(':leave/revoke')
  @Access('CO')
  @ApiIdParam('leave')
  @Endpoint({
    summary: 'Revoke the rest of a leave under way, from tomorrow',
    description:
      "The leave then ends today (the company's date); the days given back are recorded (`revoked_from`..`revoked_to`) and the driver can be assigned on them. " +
      'A leave not started is cancelled instead, one ending today has nothing left to revoke, a cancelled or revoked one stays as it is (409 `INVALID_TRANSITION`).',
    type: LeaveDto,
    errors: [404, 409],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  revoke(@CurrentScope() scope: Scope, @IdParam('leave') id: string, @Body() dto: EndLeaveDto) {
    return this.leaves.revoke(scope, id, dto);
  }
}
