import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { BoolField, DateField, Given } from '../../common/validation/fields';
import { JOB_TYPES } from '../jobs';
import { PLAN_ID, RouteLegDto, RoutePlaceDto } from './company-jobs.dto';

/** `POST /dispatch/plan` (issue #26): a date, preview (default) or apply, and the previewed plan's id. */
export class FleetPlanDto {
  @DateField({ description: 'The day to plan: today or later (the company\'s local date).' }) date: string;
  @BoolField({ optional: true, default: false, description: 'true saves the plan (every assignment and sequence); false (default) previews it.' }) apply?: boolean;
  @ApiPropertyOptional({
    type: String,
    pattern: PLAN_ID.source,
    example: '3b8e0c5d7a2f4e6b9c1d0a2b4c6d8e0f',
    description:
      'The `plan_id` of a preview: the plan is saved only if the day still gives exactly that plan, else 409 `PLAN_STALE` and nothing is saved. ' +
      'Without it (with `apply: true`) the plan of the day as it stands is saved. With `apply: false` it checks the preview is still good (409 when not).',
  })
  @Given()
  @IsString()
  @Matches(PLAN_ID, { message: 'must be the plan_id of a preview (32 hexadecimal digits)' })
  plan_id?: string;
}

export class FleetStopDto {
  @ApiProperty({ example: 1 }) sequence: number;
  @ApiProperty({ format: 'uuid', example: '5d0c1f7e-2a34-4b8e-9f61-0c2d3e4f5a6b' }) job_id: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'delivery' }) job_type: string;
  @ApiProperty({ example: false, description: 'The job was already the driver\'s (assigned or in progress): kept with them, only re-sequenced.' }) pinned: boolean;
  @ApiProperty({ type: [RouteLegDto], description: 'The job\'s legs in driving order (as route collapse makes them).' }) legs: RouteLegDto[];
}

export class FleetRouteDto {
  @ApiProperty({ format: 'uuid', example: '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }) driver_id: string;
  @ApiProperty({ format: 'uuid', example: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9', description: 'The driver\'s truck of the day (see the description of the route).' }) truck_id: string;
  @ApiProperty({ type: RoutePlaceDto, description: 'The truck\'s home lot: the day starts and ends there.' }) home_lot: RoutePlaceDto;
  @ApiProperty({ type: [FleetStopDto], description: 'In driving order.' }) stops: FleetStopDto[];
  @ApiProperty({ example: 142.318, description: 'Home lot → every leg of every stop → home lot (haversine), km.' }) km: number;
  @ApiProperty({ example: 213.5, description: 'km ÷ the company\'s average speed.' }) driving_minutes: number;
  @ApiProperty({ example: 245, description: 'Service minutes of each stop\'s kind plus the station minutes of each station visit.' }) service_minutes: number;
  @ApiProperty({ example: 458.5, description: 'driving_minutes + service_minutes.' }) minutes: number;
  @ApiProperty({ example: 141.5, description: 'The shift minutes left (negative only when the driver\'s own jobs already exceed the shift).' }) slack_minutes: number;
}

export const UNPLANNED_REASONS = ['no_truck_carries_specification', 'no_station', 'no_container', 'shift_full', 'order_state'] as const;

export class FleetUnassignedDto {
  @ApiProperty({ format: 'uuid', example: '0b8f3c2e-5a7d-4e4b-9d7e-2f1c6a9b8e10' }) job_id: string;
  @ApiProperty({
    enum: UNPLANNED_REASONS,
    example: 'shift_full',
    description:
      '`no_truck_carries_specification`: no available driver\'s truck is of a type carrying the job\'s specification; `no_station`: no station open that day accepts its waste; ' +
      '`no_container`: a delivery or swap no container of its specification is free for on its order\'s days (the container calendar; the containers free are shared among the day\'s jobs); ' +
      '`shift_full`: it fits in no driver\'s shift beside the jobs planned; `order_state`: its order is not approved, scheduled or delivered.',
  })
  reason: string;
}

export const UNAVAILABLE_REASONS = ['on_leave', 'checked_out', 'no_truck', 'no_home_lot'] as const;

export class FleetDriverLeftOutDto {
  @ApiProperty({ format: 'uuid', example: '8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }) driver_id: string;
  @ApiProperty({ enum: UNAVAILABLE_REASONS, example: 'checked_out', description: 'Why the active driver is not planned: on leave, checked out for the day, no truck free, or the truck\'s home lot unusable (unset, inactive or without a position).' }) reason: string;
}

export class FleetPlanResultDto {
  @ApiProperty({
    example: '3b8e0c5d7a2f4e6b9c1d0a2b4c6d8e0f',
    description: "A digest of the day's inputs (jobs with their stored state, drivers and trucks, lots and stations open that day, the company's planning settings, the planner's settings) and of this plan. Pass it back with `apply: true` to save exactly this plan.",
  })
  plan_id: string;
  @ApiProperty({ format: 'date', example: '2027-03-15' }) date: string;
  @ApiProperty({ example: false, description: 'true: the plan was saved.' }) applied: boolean;
  @ApiProperty({ example: false, description: 'true: proven optimal (small days); false: the heuristic\'s plan.' }) exact: boolean;
  @ApiProperty({ type: [FleetRouteDto], description: 'One per available driver (by driver id), also those given no job.' }) routes: FleetRouteDto[];
  @ApiProperty({ type: [FleetUnassignedDto], description: 'The day\'s jobs left unassigned, each with why.' }) unassigned: FleetUnassignedDto[];
  @ApiProperty({ type: [FleetDriverLeftOutDto], description: 'Active drivers not planned, with why (their own jobs are left as they are).' }) drivers_left_out: FleetDriverLeftOutDto[];
  @ApiProperty({ example: 96.204, description: 'Total km of the day as assigned now: each available driver\'s jobs in their current sequence.' }) distance_before_km: number;
  @ApiProperty({ example: 318.77, description: 'Total km of the plan.' }) distance_after_km: number;
  @ApiProperty({ example: 14, description: 'Jobs saving the plan changes: assigned, or given another sequence.' }) moves: number;
}
