import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { BodyExamples, Endpoint } from '../../common/http/openapi';
import { OrderDetailsDto } from '../orders';
import { DriverEvidenceService } from './driver-evidence.service';
import { AddEvidenceDto, DriverHistoryQuery, EVIDENCE_EXAMPLES, LOCATION_EXAMPLES, DriverJobDetailDto, DriverJobDto, DriverJobsQuery, JobEvidenceDto, JobLocationDto, MAX_POINTS_PER_JOB, SendLocationDto, TrackingWrapperDto } from './driver-jobs.dto';
import { DriverJobsService } from './driver-jobs.service';
import { JobCompletion } from './job-completion';
import { JobIssueDto, ReportIssueDto } from './job-issues.dto';
import { JobIssuesService } from './job-issues.service';

const OWN = 'Own jobs only: another driver\'s or company\'s job is 404.';
const WORKABLE = 'While on a break 409 `ON_BREAK`; a pickup merged into a swap by route collapse is worked through its swap (409 `JOB_MERGED`).';
const WORK_CODES = ['ON_BREAK', 'JOB_MERGED'] as const;
const JOB = 'The driver job (`driverJob`): one of the caller\'s jobs.';

@ApiTags('Driver jobs')
@Controller('api/v1/driver')
export class DriverJobsController {
  constructor(
    private readonly driverJobs: DriverJobsService,
    private readonly completion: JobCompletion,
    private readonly evidence: DriverEvidenceService,
    private readonly issues: JobIssuesService,
  ) {}

  @Get('jobs')
  @Access('DR')
  @Endpoint({
    summary: 'My jobs of a day, in sequence',
    description: "Today by default (the company's time zone), or `?date=`. Sorted by `sequence` (unsequenced jobs last). Pickups merged into a swap by route collapse are not listed on their own: they show in their swap's `merged_jobs`.",
    type: DriverJobDto,
    list: true,
    errors: [422],
  })
  day(@CurrentScope() scope: Scope, @Query() q: DriverJobsQuery) {
    return this.driverJobs.day(scope, q);
  }

  @Get('jobs/:driverJob')
  @Access('DR')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'One of my jobs: its site, container, waste type, asset, evidence, open issues, station ticket, and what completion still needs',
    description: OWN,
    type: DriverJobDetailDto,
    errors: [404],
  })
  show(@CurrentScope() scope: Scope, @IdParam('driverJob') id: string) {
    return this.driverJobs.detail(scope, id);
  }

  @Post('jobs/:driverJob/start')
  @Access('DR-IN')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'Start a job (assigned → in_progress)',
    description:
      `${OWN} ${WORKABLE} A job not assigned is 409 \`INVALID_TRANSITION\`; another job of mine in progress is 409 \`JOB_IN_PROGRESS\`. ` +
      'A delivery or swap takes its reserved asset on the truck (asset `in_transit`); without a reserved asset 409 `ASSET_REQUIRED`.',
    type: DriverJobDetailDto,
    errors: [404, 409],
    codes: { 409: [...WORK_CODES, 'INVALID_TRANSITION', 'JOB_IN_PROGRESS', 'ASSET_REQUIRED'] },
  })
  start(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('driverJob') id: string) {
    return this.completion.start(actor, scope, id);
  }

  @Post('jobs/:driverJob/evidence')
  @Access('DR-IN')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'Add evidence to a job in progress: photo, signature, QR scan or station ticket',
    description:
      `${OWN} ${WORKABLE} A job not in progress is 409 \`JOB_STATE\`. ` +
      'photo and signature: `media_id` (an upload from `/upload-media`) or `url`. qr_scan: `code`, the text read from the asset\'s QR code; it must be a code of the company (422) of the job\'s asset (the one it brings, or the one its order has on site), else 422 `QR_MISMATCH`. ' +
      'ticket (pickup, swap and dump_return only): `station_id`, `ticket_number`, `gross_kg`, `tare_kg` (net = gross − tare > 0); the station must be the company\'s, accept the order\'s waste type (422 `WASTE_NOT_ACCEPTED`) and be open today (422 `HOLIDAY`, `CLOSED_DAY`, `INACTIVE`). ' +
      'A job has one station ticket: a later ticket replaces it (each stays as evidence).',
    type: JobEvidenceDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: [...WORK_CODES, 'JOB_STATE'], 422: ['QR_MISMATCH', 'WASTE_NOT_ACCEPTED', 'HOLIDAY', 'CLOSED_DAY', 'INACTIVE'] },
  })
  @BodyExamples(AddEvidenceDto, EVIDENCE_EXAMPLES)
  addEvidence(@CurrentScope() scope: Scope, @IdParam('driverJob') id: string, @Body() dto: AddEvidenceDto) {
    return this.evidence.add(scope, id, dto);
  }

  @Post('jobs/:driverJob/issues')
  @Access('DR-IN')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'Report an issue on a job (assigned or in progress), blocking or not',
    description: `${OWN} ${WORKABLE} A finished job is 409 \`JOB_STATE\`. A blocking issue stops the job's completion (409 \`JOB_BLOCKED\`) until the company resolves it.`,
    type: JobIssueDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: [...WORK_CODES, 'JOB_STATE'] },
  })
  reportIssue(@CurrentScope() scope: Scope, @IdParam('driverJob') id: string, @Body() dto: ReportIssueDto) {
    return this.issues.report(scope, id, dto);
  }

  @Post('jobs/:driverJob/complete')
  @Access('DR-IN')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'Complete a job in progress (→ completed): moves its asset and its order',
    description:
      `${OWN} ${WORKABLE} A job not in progress is 409 \`INVALID_TRANSITION\`. An open blocking issue: 409 \`JOB_BLOCKED\`; a delivery without a photo: 409 \`EVIDENCE_REQUIRED\`; a pickup, swap or dump_return without its station ticket: 409 \`TICKET_REQUIRED\`; nothing of the order on site to take: 409 \`NOTHING_ON_SITE\`. ` +
      'delivery → asset `on_site` at the address, order `delivered` (today, the company\'s date); pickup → the order\'s on-site asset `at_station` then `available` at the lot, and when nothing of the order is left on site the order is `completed` with its final bill (extra days from the real delivery date, overage from the ticket\'s net weight); ' +
      'swap → the new asset `on_site`, the old one `at_station` then `available` at the lot (pickups merged into the swap complete with it, with their orders\' effects); dump_return → the same asset `at_station` then back `on_site`; relocate → `on_site` at the new address.',
    type: DriverJobDetailDto,
    errors: [404, 409],
    codes: { 409: [...WORK_CODES, 'INVALID_TRANSITION', 'JOB_BLOCKED', 'EVIDENCE_REQUIRED', 'TICKET_REQUIRED', 'ASSET_REQUIRED', 'NOTHING_ON_SITE', 'NO_DESTINATION'] },
  })
  complete(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('driverJob') id: string) {
    return this.completion.complete(actor, scope, id);
  }

  @Post('send-location/:driverJob')
  @Access('DR')
  @ApiIdParam('driverJob', JOB)
  @Endpoint({
    summary: 'Send a location point for my job in progress',
    description:
      `${OWN} A job not in progress is 409 \`JOB_STATE\`. At most one point a second per driver (429 \`THROTTLED\`, \`Retry-After: 1\`) and ${MAX_POINTS_PER_JOB} points per job (409 \`LOCATION_LIMIT\`). ` +
      'The newest point (by `recorded_at`) becomes the job\'s latest location, and the truck\'s position follows; the first point of each minute of `recorded_at` has the day\'s arrival times recomputed (event `job.position_sampled`).',
    type: JobLocationDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['JOB_STATE', 'LOCATION_LIMIT'], 429: ['THROTTLED'] },
  })
  @BodyExamples(SendLocationDto, LOCATION_EXAMPLES)
  sendLocation(@CurrentScope() scope: Scope, @IdParam('driverJob') id: string, @Body() dto: SendLocationDto) {
    return this.driverJobs.sendLocation(scope, id, dto);
  }

  @Get('order/:order')
  @Access('DR')
  @ApiIdParam('order')
  @Endpoint({ summary: 'An order I have a job on (now or before), with its bill lines and jobs', description: 'Any other order is 404.', type: OrderDetailsDto, errors: [404] })
  order(@CurrentActor() actor: Actor, @IdParam('order') id: string) {
    return this.driverJobs.order(actor, id);
  }

  @Get('tracking/wrapper')
  @Access('DR')
  @Endpoint({ summary: 'My day at a glance: the job in progress, the next stops, my last sent location, today\'s counts', type: TrackingWrapperDto })
  tracking(@CurrentScope() scope: Scope) {
    return this.driverJobs.tracking(scope);
  }

  @Get('history/jobs/get')
  @Access('DR')
  @Endpoint({ summary: 'My finished jobs (completed or aborted), newest first', description: 'Sorted by when they finished (`sort=finished_at` or `-finished_at`, the default); `?status=completed|aborted`.', type: DriverJobDto, list: true, errors: [422] })
  history(@CurrentScope() scope: Scope, @Query() q: DriverHistoryQuery) {
    return this.driverJobs.history(scope, q);
  }
}
