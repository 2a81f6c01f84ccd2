import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { BoolField, BoolQuery, EnumField, EnumQuery, TextField, UuidQuery } from '../../common/validation/fields';
import { ISSUE_STATUSES, ISSUE_TYPES, type JobIssue } from './dispatch.entities';

// ---------------------------------------------------------------- bodies and queries

/** `POST /driver/jobs/{driverJob}/issues`. */
export class ReportIssueDto {
  @EnumField(ISSUE_TYPES, { example: 'blocked', description: 'What is wrong (domain.md §5).' }) type: string;
  @BoolField({ optional: true, default: false, example: true, description: 'A blocking issue stops the job\'s completion (409 `JOB_BLOCKED`) until the company resolves it.' })
  blocking?: boolean;
  @TextField({ optional: true, max: 2000, example: 'A car is parked on the drop spot; the customer does not answer.' }) description?: string;
}

/** `PATCH /order/jobs/issues/{issue}`: resolve with a note. */
export class ResolveIssueDto {
  @TextField({ max: 2000, example: 'Customer moved the car; go ahead.', description: 'How it was resolved (kept as `resolution_note`).' }) note: string;
}

/** `GET /order/jobs/issues` filters. */
export class JobIssueQuery extends PageQuery {
  @EnumQuery(ISSUE_STATUSES) status?: string;
  @BoolQuery('Only blocking (true) or only non-blocking (false) issues.') blocking?: boolean;
  @UuidQuery() driver_id?: string;
  @UuidQuery() job_id?: string;
}

// ---------------------------------------------------------------- responses

export class JobIssueDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) job_id: string;
  @ApiProperty({ format: 'uuid', description: 'The driver who reported it.' }) driver_id: string;
  @ApiProperty({ example: 'Cy Driver' }) driver_name: string;
  @ApiProperty({ enum: ISSUE_TYPES, example: 'blocked' }) type: string;
  @ApiProperty({ example: true }) blocking: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'A car is parked on the drop spot.' }) description: string | null;
  @ApiProperty({ enum: ISSUE_STATUSES, example: 'open' }) status: string;
  @ApiProperty({ nullable: true, type: String, example: null }) resolution_note: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', example: null }) resolved_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The company user who resolved it.', example: null }) resolved_by: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(i: JobIssue, driverName: string): JobIssueDto {
    return {
      id: i.id,
      job_id: i.jobId,
      driver_id: i.driverId,
      driver_name: driverName,
      type: i.type,
      blocking: i.blocking,
      description: i.description,
      status: i.status,
      resolution_note: i.resolutionNote,
      resolved_at: i.resolvedAt ? i.resolvedAt.toISOString() : null,
      resolved_by: i.resolvedBy,
      created_at: i.createdAt.toISOString(),
      updated_at: i.updatedAt.toISOString(),
    };
  }
}
