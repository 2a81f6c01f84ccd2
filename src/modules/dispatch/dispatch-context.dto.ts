import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { DateField, UuidQuery } from '../../common/validation/fields';
import { AssetDto } from '../catalogue';
import { JOB_TYPES } from '../jobs';
import { CompanyJobDto, DispatchOrderNamedDto } from './company-jobs.dto';

// ---------------------------------------------------------------- queries

/** A dispatch day (default today, the company's local date). */
export class DispatchDayQuery {
  @DateField({ optional: true, description: 'Default today (the company\'s local date).' }) date?: string;
}

/** `GET /drivers-orders-dates`: an optional range of job dates. */
export class DriverDatesQuery {
  @DateField({ optional: true, description: 'Dates on or after.' }) from?: string;
  @DateField({ optional: true, description: 'Dates on or before.' }) to?: string;
}

/** `GET /orders/assignable`. */
export class AssignableOrdersQuery extends PageQuery {
  @DateField({ optional: true, description: 'Orders with an unassigned job on this date.' }) date?: string;
  @UuidQuery() asset_specification_id?: string;
}

// ---------------------------------------------------------------- responses

export class DispatchAttendanceDto {
  @ApiProperty({ enum: ['checked_in', 'on_break', 'checked_out'] }) status: string;
  @ApiProperty({ example: '2027-03-15T13:02:00.000Z' }) checked_in_at: string;
  @ApiPropertyOptional({ nullable: true, type: String }) checked_out_at: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) truck_id: string | null;
}

export class DispatchLoadDto {
  @ApiProperty({ example: 5, description: 'The driver\'s jobs of the day (aborted ones left out).' }) jobs: number;
  @ApiProperty({ example: 4, description: 'Stops: jobs that are not merged into another (a merged pickup completes with its swap).' }) stops: number;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    example: 84.512,
    description: 'Planned km: home lot of the day\'s truck → every leg of the stops in sequence → home lot (haversine); null without a truck with a usable home lot, or when a job has no station open that accepts its waste.',
  })
  planned_km: number | null;
}

export class DispatchDriverDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Dan Driver' }) name: string;
  @ApiProperty({ example: 'dan@example.com' }) email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiPropertyOptional({ nullable: true, type: DispatchAttendanceDto, description: 'The driver\'s attendance that day (null: not checked in).' }) attendance: DispatchAttendanceDto | null;
  @ApiProperty({ description: 'On approved leave that day (the leaves module\'s calendar; assignment refuses such a driver with 422 `DRIVER_ON_LEAVE`).' }) on_leave: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The truck of the driver\'s jobs that day, else the one they checked in with.' }) truck_id: string | null;
  @ApiProperty({ type: DispatchLoadDto }) load: DispatchLoadDto;
}

export class DispatchTruckDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'IL-RO-101' }) plate: string;
  @ApiPropertyOptional({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ enum: ['active', 'maintenance', 'retired'] }) status: string;
  @ApiProperty({ format: 'uuid' }) truck_type_id: string;
  @ApiProperty({ example: 'Roll-off hoist' }) truck_type_name: string;
  @ApiProperty({ type: [String], description: 'The asset specifications its type carries.' }) asset_specification_ids: string[];
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) home_lot_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lat: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lng: number | null;
}

export class DispatchSiteDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Main yard' }) name: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) latitude: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) longitude: number | null;
  @ApiProperty({ description: 'Open that day (weekday hours, holidays).' }) open: boolean;
  @ApiPropertyOptional({ nullable: true, enum: ['HOLIDAY', 'CLOSED_DAY', 'INACTIVE'] }) closed_reason: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The holiday\'s name when closed for one.' }) holiday: string | null;
}

export class DispatchStationDto extends DispatchSiteDto {
  @ApiProperty({ type: [String], description: 'Waste types the station accepts.' }) waste_type_ids: string[];
}

export class FreeAssetsAtLotDto {
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'Home lot (null: none).' }) home_lot_id: string | null;
  @ApiProperty({ example: 3 }) available: number;
}

export class FreeAssetsDto {
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiProperty({ example: 7, description: 'Assets of the specification free on the day by the container calendar: no order\'s hold pins it that day, not in maintenance or retired (one out now only when a pin says when it is back).' }) available: number;
  @ApiProperty({ type: [FreeAssetsAtLotDto] }) by_home_lot: FreeAssetsAtLotDto[];
}

/** A stop's arrival (issue #26; docs/dispatch.md, "Arrival times"). */
export class StopArrivalDto {
  @ApiPropertyOptional({ nullable: true, type: String, example: '2027-03-15T13:30:01.000Z', description: "The arrival the day's plan gives the stop: from the truck's home lot at the shift start, the stops in sequence (legs at the average speed, service and station minutes)." }) planned_at: string | null;
  @ApiProperty({ example: '2027-03-15T13:42:00.000Z', description: "The expected arrival, from the driver's progress and last position (the arrival itself once the driver is at the site)." }) expected_at: string;
  @ApiProperty({ example: '2027-03-15T13:27:00.000Z', description: 'Start of the arrival window: 30 minutes centred on expected_at.' }) window_start: string;
  @ApiProperty({ example: '2027-03-15T13:57:00.000Z', description: 'End of the arrival window.' }) window_end: string;
  @ApiPropertyOptional({ nullable: true, type: Number, example: 12, description: 'Lateness: minutes expected_at is past planned_at (0 when on time or early).' }) late_minutes: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, example: null, description: 'When the driver reached the site (a point within 150 m of it); null: not yet.' }) arrived_at: string | null;
}

/** A job of the day with a driver, with its arrival. */
export class DispatchStopDto extends CompanyJobDto {
  @ApiPropertyOptional({ nullable: true, type: StopArrivalDto, description: "The stop's arrival and lateness (null until the relay timed the day, or when it cannot be timed: no truck with a usable home lot, no open station for its waste)." }) arrival: StopArrivalDto | null;
}

export class DispatchDayJobsDto {
  @ApiProperty({ type: [CompanyJobDto], description: 'Unassigned jobs of the day.' }) unassigned: CompanyJobDto[];
  @ApiProperty({ type: [DispatchStopDto], description: 'Jobs of the day with a driver (assigned, in progress, completed), by driver and sequence, each with its arrival.' }) assigned: DispatchStopDto[];
}

/** Everything a dispatcher needs for one day, in a handful of statements. */
export class DispatchContextDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ type: [DispatchDriverDto], description: 'Active drivers, by name.' }) drivers: DispatchDriverDto[];
  @ApiProperty({ type: [DispatchTruckDto], description: 'The company\'s trucks, by plate.' }) trucks: DispatchTruckDto[];
  @ApiProperty({ type: DispatchDayJobsDto }) jobs: DispatchDayJobsDto;
  @ApiProperty({ type: [DispatchSiteDto], description: 'Active lots, each open that day or not.' }) lots: DispatchSiteDto[];
  @ApiProperty({ type: [DispatchStationDto], description: 'Stations open that day, with the waste types they accept.' }) stations: DispatchStationDto[];
  @ApiProperty({ type: [FreeAssetsDto], description: 'Available assets per specification.' }) free_assets: FreeAssetsDto[];
}

export class DriverDatesDto {
  @ApiProperty({ format: 'uuid' }) driver_id: string;
  @ApiProperty({ example: 'Dan Driver' }) driver_name: string;
  @ApiProperty({ type: [String], format: 'date', description: 'Dates with jobs that were not aborted, ascending.' }) dates: string[];
}

export class DriverWithJobsDto {
  @ApiProperty({ format: 'uuid' }) driver_id: string;
  @ApiProperty({ example: 'Dan Driver' }) driver_name: string;
  @ApiProperty({ type: [CompanyJobDto], description: 'The day\'s jobs (aborted ones left out), in sequence.' }) jobs: CompanyJobDto[];
}

export class UnassignedJobRefDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: JOB_TYPES }) type: string;
  @ApiProperty({ format: 'date' }) scheduled_date: string;
}

export class AssignableOrderDto extends DispatchOrderNamedDto {
  @ApiProperty({ type: [UnassignedJobRefDto], description: 'Its unassigned jobs, in assignment order (the delivery first).' }) unassigned_jobs: UnassignedJobRefDto[];
}

export class AssetAvailabilityDto extends AssetDto {
  @ApiProperty({ description: 'Free for the order from `date` to its pickup by the container calendar (what assignment would pin): no other order\'s hold pins it on those days, not in maintenance or retired; one already reserved for this order is free.' }) free: boolean;
  @ApiProperty({ description: 'Reserved for one of this order\'s jobs.' }) reserved_for_this_order: boolean;
  @ApiProperty({ description: 'Based at the job\'s lot (reservation prefers those).' }) at_job_lot: boolean;
}

export class OrderAssetsDto {
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'The order\'s next unassigned delivery or swap, whose date is asked about (null: none).' }) job_id: string | null;
  @ApiProperty({ format: 'date', description: 'The job\'s date (or the `date` asked for, else today).' }) date: string;
  @ApiProperty({ type: [AssetAvailabilityDto], description: 'The company\'s assets of the specification, by code.' }) assets: AssetAvailabilityDto[];
}

/** `GET /orders/{orderId}/assets-with-availability`. */
export class OrderAssetsQuery {
  @DateField({ optional: true, description: 'Default the date of the order\'s next unassigned delivery or swap, else today.' }) date?: string;
}
