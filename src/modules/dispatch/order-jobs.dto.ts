import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES, JOB_TYPES } from '../jobs';
import { PositionAtDto } from './driver-jobs.dto';

export class OrderJobDriverDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Not shown to the customer.' }) id?: string;
  @ApiPropertyOptional({ example: 'Cy Rivers', description: 'Not shown to the customer.' }) name?: string;
  @ApiProperty({ example: 'Cy' }) first_name: string;
}

export class OrderJobTruckDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Not shown to the customer.' }) id?: string;
  @ApiProperty({ example: 'IL-RO-101' }) plate: string;
  @ApiProperty({ nullable: true, type: String, example: 'Hoist 3' }) name: string | null;
}

/** What the company and the order's drivers see of a job besides what its customer sees. */
export class OrderJobDispatchDto {
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ nullable: true, type: Number, example: 2 }) sequence: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) asset_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The asset a completed pickup or swap took away.' }) removed_asset_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) lot_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) destination_address_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The swap a pickup was merged into by route collapse.' }) merged_into_job_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) assigned_at: string | null;
  @ApiProperty({ nullable: true, type: String }) abort_reason: string | null;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
}

/**
 * A job of an order as the caller may see it. Everyone: type, status, dates, the driver's first name,
 * the truck; the customer sees the latest location only on a job in progress. The company and the
 * order's drivers also see `dispatch` (ids, sequence, notes), the driver's and truck's ids and the
 * latest location of every job.
 */
export class OrderJobDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'delivery' }) type: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'in_progress' }) status: string;
  @ApiProperty({ format: 'date', example: '2027-03-15' }) scheduled_date: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) aborted_at: string | null;
  @ApiProperty({ nullable: true, type: OrderJobDriverDto }) driver: OrderJobDriverDto | null;
  @ApiProperty({ nullable: true, type: OrderJobTruckDto }) truck: OrderJobTruckDto | null;
  @ApiProperty({ nullable: true, type: PositionAtDto, description: 'The latest point the driver sent for the job (for the customer: only while the job is in progress).' }) location: PositionAtDto | null;
  @ApiPropertyOptional({ type: OrderJobDispatchDto, description: 'Company and the order\'s drivers only (absent for the customer).' }) dispatch?: OrderJobDispatchDto;
}
