import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMinSize, IsString, Matches } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { BoolField, BoolQuery, DateField, EnumField, Given, EnumQuery, IntField, NestedList, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { JOB_STATUSES, JOB_TYPES, type JobRow, type JobStatus, type JobType, type JobView } from '../jobs';
import { orderNumber, type OrderForJobs } from '../orders';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- queries

/** `GET /jobs`, `GET /order/jobs/all`: the company's jobs, filtered (no text search). */
export class CompanyJobQuery extends OmitType(PageQuery, ['q'] as const) {
  @DateField({ optional: true, description: 'Scheduled on or after this date.' }) from?: string;
  @DateField({ optional: true, description: 'Scheduled on or before this date.' }) to?: string;
  @UuidQuery() driver_id?: string;
  @EnumQuery(JOB_STATUSES) status?: JobStatus;
  @EnumQuery(JOB_TYPES) type?: JobType;
  @UuidQuery() order_id?: string;
}

/** `GET /order/jobs`: the job tree over a date range (default today; at most 31 days). */
export class JobTreeQuery {
  @DateField({ optional: true, description: 'One day (instead of from/to).' }) date?: string;
  @DateField({ optional: true, description: 'First day (default today, the company\'s local date).' }) from?: string;
  @DateField({ optional: true, description: 'Last day (default `from`); at most 31 days after `from`.' }) to?: string;
  @UuidQuery() driver_id?: string;
  @BoolQuery('Include aborted jobs (default false).') include_aborted?: boolean;
}

// ---------------------------------------------------------------- bodies

/** The job types the company may add to an order. */
export const ADDABLE_JOB_TYPES = ['swap', 'dump_return', 'relocate', 'delivery', 'pickup'] as const;

/** `POST /order/jobs`: the company adds a job to one of its orders (unassigned). */
export class CreateCompanyJobDto {
  @UuidField({ description: 'One of the company\'s orders (approved, scheduled or delivered).' }) order_id: string;
  @EnumField(ADDABLE_JOB_TYPES, { example: 'swap', description: 'swap, dump_return, relocate, or an extra delivery or pickup.' }) type: (typeof ADDABLE_JOB_TYPES)[number];
  @DateField({ description: 'The day of the job: today or later, on or after the order\'s delivery (except a delivery), the order\'s lot open that day.' }) date: string;
  @UuidField({ optional: true, description: 'relocate only (required there): an address of the order\'s customer, other than the order\'s.' }) destination_address_id?: string;
  @TextField({ optional: true, max: 2000, example: 'Gate code 1234' }) notes?: string;
  @BoolField({
    optional: true,
    default: true,
    description: 'Add the service fee line of the price book frozen on the order (swap, dump and return, relocation) when it has one; extra deliveries and pickups have no fee.',
  })
  charge_fee?: boolean;
}

/** `PUT /order/jobs/{driverJob}`: what the company changes on a job (omitted = unchanged). */
export class UpdateCompanyJobDto {
  @UuidField({ optional: true, description: 'An active driver of the company, not on leave that day. On an unassigned job, assigns it (a truck is then needed).' }) driver_id?: string;
  @UuidField({ optional: true, description: 'An active truck of the company whose type carries the order\'s specification.' }) truck_id?: string;
  @DateField({ optional: true, description: 'Move the job to this day (today or later; the job\'s lot open that day).' }) date?: string;
  @IntField({ optional: true, min: 1, max: 10000, example: 3, description: 'Position in the driver\'s day; default after the day\'s last job when the driver or the date changes.' }) sequence?: number;
  @TextField({ nullable: true, emptyClears: true, max: 2000, example: 'Call the site manager on arrival' }) notes?: string | null;
}

/** One job of `PUT /order/jobs/bulk`. */
export class BulkJobItemDto extends UpdateCompanyJobDto {
  @UuidField() job_id: string;
}

/** `PUT /order/jobs/bulk`: many job changes, all or nothing. */
export class BulkUpdateJobsDto {
  @ApiProperty({ type: [BulkJobItemDto], minItems: 1, maxItems: 100, description: 'At most 100 jobs, each once.' })
  @NestedList(() => BulkJobItemDto, { max: 100 })
  @ArrayMinSize(1)
  items: BulkJobItemDto[];
}

/** `POST /order/jobs/{driverJob}/abort`. */
export class AbortCompanyJobDto {
  @TextField({ max: 500, example: 'Customer not on site; gate locked' }) reason: string;
  @BoolField({ optional: true, default: false, description: 'Add the wasted-trip fee line of the order\'s price book (when it has one).' }) wasted_trip_fee?: boolean;
}

/** `PUT /order/jobs/route-collapse`. */
/** A plan id as `planIdOf` makes it: 32 lower-case hex digits. */
export const PLAN_ID = /^[0-9a-f]{32}$/;

export class RouteCollapseDto {
  @UuidField({ description: 'A driver of the company.' }) driver_id: string;
  @DateField() date: string;
  @BoolField({ optional: true, default: true, description: 'false previews the plan without saving it.' }) apply?: boolean;
  @ApiPropertyOptional({
    type: String,
    pattern: PLAN_ID.source,
    example: '9f2c4e7a1b3d5f60718293a4b5c6d7e8',
    description:
      'The `plan_id` of a preview: the plan is saved only if the day still gives exactly that plan, else 409 `PLAN_STALE` and nothing is saved. ' +
      'Without it the plan of the day as it stands is saved (the same plan a preview of that day shows).',
  })
  @Given()
  @IsString()
  @Matches(PLAN_ID, { message: 'must be the plan_id of a preview (32 hexadecimal digits)' })
  plan_id?: string;
}

// ---------------------------------------------------------------- responses

export class DispatchAddressDto {
  @ApiPropertyOptional({ nullable: true, type: String }) label: string | null;
  @ApiProperty({ example: '1 Site Rd' }) line1: string;
  @ApiPropertyOptional({ nullable: true, type: String }) line2: string | null;
  @ApiProperty({ example: 'Springfield' }) city: string;
  @ApiPropertyOptional({ nullable: true, type: String }) region: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) postal_code: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) country: string | null;
  @ApiProperty({ example: 40.18 }) latitude: number;
  @ApiProperty({ example: -89.0 }) longitude: number;
  @ApiPropertyOptional({ nullable: true, type: String }) instructions: string | null;
}

/** The order a job belongs to, as dispatch shows it. */
export class DispatchOrderDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ORD-000042' }) number: string;
  @ApiProperty({ example: 'scheduled' }) status: string;
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ format: 'uuid', description: 'The customer address of the order (the site).' }) address_id: string;
  @ApiProperty({ type: DispatchAddressDto }) address: DispatchAddressDto;
  @ApiProperty({ format: 'uuid' }) lot_id: string;
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiProperty({ format: 'uuid' }) waste_type_id: string;
  @ApiProperty({ format: 'date' }) delivery_date: string;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) pickup_date: string | null;

  static of(o: OrderForJobs): DispatchOrderDto {
    const a = o.address;
    return {
      id: o.id,
      number: orderNumber(o.number),
      status: o.status,
      customer_id: o.customerId,
      address_id: o.addressId,
      address: { label: a.label, line1: a.line1, line2: a.line2, city: a.city, region: a.region, postal_code: a.postal_code, country: a.country, latitude: a.latitude, longitude: a.longitude, instructions: a.instructions },
      lot_id: o.lotId,
      asset_specification_id: o.assetSpecificationId,
      waste_type_id: o.wasteTypeId,
      delivery_date: o.deliveryDate,
      pickup_date: o.pickupDate,
    };
  }
}

export class DispatchPointDto {
  @ApiProperty({ example: 40.1 }) lat: number;
  @ApiProperty({ example: -89.02 }) lng: number;
  @ApiProperty({ example: '2027-03-15T14:05:00.000Z' }) at: string;
}

/** A job's own fields (without its order). */
export class CompanyJobFieldsDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ enum: JOB_TYPES }) type: string;
  @ApiProperty({ enum: JOB_STATUSES }) status: string;
  @ApiProperty({ format: 'date' }) scheduled_date: string;
  @ApiPropertyOptional({ nullable: true, type: 'integer', description: 'Position in the driver\'s day.' }) sequence: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) driver_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) driver_name: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) truck_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The asset reserved for (or used by) the job.' }) asset_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The lot a delivery leaves from, or a pickup returns to.' }) lot_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'A relocation\'s new address.' }) destination_address_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) change_request_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'A pickup merged into this swap by route collapse (it completes with it).' }) merged_into_job_id: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    format: 'uuid',
    description:
      "A swap's side coming back: the order whose on-site container it takes away and dumps (its waste type chooses the station and must be accepted by the ticket's station; its final bill takes the ticket's overage). The swap's own order, or, for a swap made by route collapse, the merged pickup's order. Null for other job types. The side going out is `order_id` (specification, `asset_id`).",
    example: '0b8f3c2e-5a7d-4e4b-9d7e-2f1c6a9b8e10',
  })
  pickup_order_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The asset a pickup or swap took away.' }) removed_asset_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) abort_reason: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) assigned_at: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) started_at: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) completed_at: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) aborted_at: string | null;
  @ApiPropertyOptional({ nullable: true, type: DispatchPointDto, description: 'The latest location the driver sent for the job.' }) last_location: DispatchPointDto | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

/** A job as the company's dispatch routes show it, with its order. */
export class CompanyJobDto extends CompanyJobFieldsDto {
  @ApiPropertyOptional({ nullable: true, type: DispatchOrderDto }) order: DispatchOrderDto | null;

  static of(j: JobRow | JobView, order: OrderForJobs | undefined): CompanyJobDto {
    return {
      id: j.id,
      order_id: j.orderId,
      type: j.type,
      status: j.status,
      scheduled_date: j.scheduledDate,
      sequence: j.sequence,
      driver_id: j.driverId,
      driver_name: 'driverName' in j ? j.driverName : null,
      truck_id: j.truckId,
      asset_id: j.assetId,
      lot_id: j.lotId,
      destination_address_id: j.destinationAddressId,
      change_request_id: j.changeRequestId,
      merged_into_job_id: j.mergedIntoJobId,
      pickup_order_id: j.pickupOrderId,
      removed_asset_id: j.removedAssetId,
      notes: j.notes,
      abort_reason: j.abortReason,
      assigned_at: iso(j.assignedAt),
      started_at: iso(j.startedAt),
      completed_at: iso(j.completedAt),
      aborted_at: iso(j.abortedAt),
      last_location: j.lastLat !== null && j.lastLng !== null && j.lastLocationAt ? { lat: j.lastLat, lng: j.lastLng, at: j.lastLocationAt.toISOString() } : null,
      order: order ? DispatchOrderDto.of(order) : null,
      created_at: j.createdAt.toISOString(),
      updated_at: j.updatedAt.toISOString(),
    };
  }
}

/** A job with the fee line its creation or abort added (0 when none). */
export class CompanyJobWithFeeDto extends CompanyJobDto {
  @ApiProperty({ example: 15000, description: 'Minor units, taxes included, added to the order\'s bill; 0 when no fee line was added.' }) fee_amount: number;
}

export class DispatchOrderNamedDto extends DispatchOrderDto {
  @ApiProperty({ example: 'Jane Customer' }) customer_name: string;
  @ApiProperty({ example: '20 yd roll-off' }) specification_name: string;
  @ApiProperty({ example: 'General debris' }) waste_type_name: string;
}

export class CompanyJobHistoryDto {
  @ApiPropertyOptional({ nullable: true, enum: JOB_STATUSES }) from: string | null;
  @ApiProperty({ enum: JOB_STATUSES }) to: string;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The job\'s driver after the move.' }) driver_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) actor_id: string | null;
  @ApiProperty({ example: 'company' }) actor_type: string;
  @ApiPropertyOptional({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ example: '2027-03-15T14:05:00.000Z' }) at: string;
}

/** One job with its order (and names), status history, merged pickups and evidence/issue counts. */
export class CompanyJobDetailDto extends CompanyJobFieldsDto {
  @ApiPropertyOptional({ nullable: true, type: DispatchOrderNamedDto }) order: DispatchOrderNamedDto | null;
  @ApiProperty({ type: [CompanyJobHistoryDto], description: 'Status moves, oldest first.' }) status_history: CompanyJobHistoryDto[];
  @ApiProperty({ type: [String], description: 'Pickups merged into this job by route collapse.' }) merged_job_ids: string[];
  @ApiProperty({ example: 2 }) evidence_count: number;
  @ApiProperty({ example: 1 }) issue_count: number;
  @ApiProperty({ example: 0, description: 'Open blocking issues: the job cannot complete while there are any.' }) open_blocking_issue_count: number;
}

export class JobTreeDriverDto {
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'null: the day\'s unassigned jobs.' }) driver_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) driver_name: string | null;
  @ApiProperty({ type: [CompanyJobDto], description: 'In sequence.' }) jobs: CompanyJobDto[];
}

/** One day of the job tree: its drivers (unassigned jobs first, under driver_id null), each with jobs in sequence. */
export class JobTreeDayDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ type: [JobTreeDriverDto] }) drivers: JobTreeDriverDto[];
}

export class RouteLegDto {
  @ApiProperty({ enum: ['lot', 'site', 'station'] }) kind: string;
  @ApiProperty({ format: 'uuid', description: 'The lot, station, or customer address (site).' }) id: string;
  @ApiProperty({ example: 40.18 }) lat: number;
  @ApiProperty({ example: -89.0 }) lng: number;
}

export class RouteStopDto {
  @ApiProperty({ example: 1 }) sequence: number;
  @ApiProperty({ format: 'uuid' }) job_id: string;
  @ApiProperty({ enum: JOB_TYPES }) job_type: string;
  @ApiProperty({ type: [RouteLegDto], description: 'The job\'s legs in driving order.' }) legs: RouteLegDto[];
}

export class RoutePlaceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 40.0 }) lat: number;
  @ApiProperty({ example: -89.0 }) lng: number;
}

export class RouteMergeDto {
  @ApiProperty({ format: 'uuid', description: 'The delivery that became a swap.' }) swap_job_id: string;
  @ApiProperty({ type: [String], description: 'The delivery and the pickup merged.' }) from_job_ids: string[];
}

export class RoutePlanDto {
  @ApiProperty({
    example: '9f2c4e7a1b3d5f60718293a4b5c6d7e8',
    description:
      "A digest of the day's inputs (its jobs with their stored state, the driver, the home lot, the lots and stations open that day, the optimiser's settings) and of this plan. " +
      'The same while nothing changes; pass it back with `apply` to save exactly this plan.',
  })
  plan_id: string;
  @ApiProperty({ format: 'uuid' }) driver_id: string;
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ type: RoutePlaceDto }) home_lot: RoutePlaceDto;
  @ApiProperty({ type: [RouteMergeDto] }) merged: RouteMergeDto[];
  @ApiProperty({ example: 84.512, description: 'The tour of the jobs as they stood (unmerged, in their sequence), km.' }) distance_before_km: number;
  @ApiProperty({ example: 61.204, description: 'Home lot → every leg of every stop in order → home lot (haversine, R = 6,371 km).' }) distance_after_km: number;
  @ApiProperty({ example: 3, description: 'The jobs saving this plan changes (merged, turned into a swap, or given another sequence); 0: the day already is this plan.' }) moves: number;
  @ApiProperty({ type: [RouteStopDto], description: 'In the new order.' }) stops: RouteStopDto[];
}
