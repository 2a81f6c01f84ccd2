import { ApiProperty } from '@nestjs/swagger';
import { ArrayMinSize } from 'class-validator';
import { DateField, IntField, UuidField, UuidListField } from '../../common/validation/fields';
import { CompanyJobDto } from './company-jobs.dto';

/** `POST /driver/assign/{order}` (the order's next unassigned job, its delivery first, then by date) and `POST /order/jobs/{driverJob}/assign` (one job by id). */
export class AssignDriverDto {
  @UuidField({ description: 'An active driver of the company, not on leave that day.' }) driver_id: string;
  @UuidField({ description: 'An active truck of the company whose type carries the order\'s asset specification.' }) truck_id: string;
  @UuidField({
    optional: true,
    description: 'Delivery and swap: the asset to reserve (available, of the order\'s specification); default the first free one, those based at the job\'s lot first.',
  })
  asset_id?: string;
  @DateField({ optional: true, description: 'Default the job\'s scheduled date; another date moves the job (today or later, its lot open that day).' }) date?: string;
  @IntField({ optional: true, min: 1, max: 10000, example: 2, description: 'Position in the driver\'s day; default after the day\'s last job.' }) sequence?: number;
}

/** `POST /driver/reassign/{order}`: the order's assigned jobs (or the listed ones) to another driver. */
export class ReassignOrderDto {
  @UuidField({ description: 'The new driver: active, of the company, not on leave that day.' }) driver_id: string;
  @UuidField({ optional: true, description: 'The new truck (active, carrying the specification); default each job keeps its truck.' }) truck_id?: string;
  @UuidListField({
    optional: true,
    description: 'Jobs of this order to move (unassigned or assigned; an unassigned one is assigned, a truck is then needed). Default: every assigned job of the order.',
  })
  job_ids?: string[];
}

/** `POST /multi/reassign`: one driver's assigned jobs of a day, or listed jobs, to another driver; all or nothing. */
export class MultiReassignDto {
  @UuidField({ optional: true, description: 'With `date`: move this driver\'s assigned jobs of that day.' }) from_driver_id?: string;
  @DateField({ optional: true, description: 'With `from_driver_id`.' }) date?: string;
  @UuidListField({ optional: true, description: 'Instead of from_driver_id/date: these jobs of the company (unassigned or assigned).' })
  @ArrayMinSize(1)
  job_ids?: string[];
  @UuidField({ description: 'The new driver: active, of the company, not on leave on the jobs\' days.' }) driver_id: string;
  @UuidField({ optional: true, description: 'The new truck (active, carrying each job\'s specification); default each job keeps its truck.' }) truck_id?: string;
}

/** What an assignment or reassignment changed. */
export class AssignmentResultDto {
  @ApiProperty({ type: [CompanyJobDto], description: 'The jobs assigned or moved, as they now are.' }) jobs: CompanyJobDto[];
}
