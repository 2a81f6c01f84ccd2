import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsUrl, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { ExclusiveFields } from '../../common/http/openapi-strict';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumField, EnumQuery, Given, IntField, TextField, UuidField } from '../../common/validation/fields';
import { JOB_STATUSES, JOB_TYPES, type JobView } from '../jobs';
import { AddressSnapshotDto } from '../orders';
import { EVIDENCE_KINDS, type JobEvidence, type JobLocation, type StationTicket } from './dispatch.entities';
import { JobIssueDto } from './job-issues.dto';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- limits (README "Dispatch (driver side)")

/** Location points kept per job: at most one a second per driver, so a little under three hours of continuous tracking. */
export const MAX_POINTS_PER_JOB = 10_000;
/** A point's `recorded_at` may be at most this far ahead of the server's clock (phone clocks drift) … */
export const RECORDED_AT_MAX_AHEAD_MS = 5 * 60_000;
/** … and at most this old (a phone that was offline sends its backlog). */
export const RECORDED_AT_MAX_AGE_MS = 7 * 86_400_000;

// ---------------------------------------------------------------- field helpers

/**
 * A number in [min, max] (or [min, max) with `below`). `optional`: may be omitted, not null. `pair`:
 * optional, but given together with `pair` (one without the other is 422 on the missing one).
 */
const NumberIn = (o: { min: number; max: number; below?: boolean; optional?: boolean; pair?: string; example: number; description: string }) => {
  const range = `${o.min} to ${o.max}${o.below ? ' (exclusive)' : ''}`;
  const message = `must be a number from ${range}`;
  return applyDecorators(
    (o.optional || o.pair ? ApiPropertyOptional : ApiProperty)({
      type: Number,
      minimum: o.min,
      maximum: o.max,
      example: o.example,
      description: `${o.description}${o.below ? ` Less than ${o.max}.` : ''}${o.pair ? ` Optional; with \`${o.pair}\`.` : ''}`,
    }),
    ...(o.pair ? [ValidateIf((d: Record<string, unknown>, v: unknown) => v !== undefined || d[o.pair!] !== undefined)] : o.optional ? [Given()] : []),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message }),
    Min(o.min, { message }),
    o.below ? ValidateBy({ name: 'below', validator: { validate: (v: unknown) => typeof v === 'number' && v < o.max, defaultMessage: () => message } }) : Max(o.max, { message }),
  );
};

/** An ISO 8601 time with its offset, at most RECORDED_AT_MAX_AGE_MS old and RECORDED_AT_MAX_AHEAD_MS ahead. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const RecentTime = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      example: '2027-03-15T14:05:09Z',
      description: 'When the phone took the point (ISO 8601 with offset); default: when the server receives it. At most 7 days old and 5 minutes ahead of the server.',
    }),
    Given(),
    ValidateBy({
      name: 'recentTime',
      validator: {
        validate: (v: unknown) => {
          if (typeof v !== 'string' || !ISO_TIME.test(v)) return false;
          const t = Date.parse(v);
          return Number.isFinite(t) && t <= Date.now() + RECORDED_AT_MAX_AHEAD_MS && t >= Date.now() - RECORDED_AT_MAX_AGE_MS;
        },
        defaultMessage: () => 'must be an ISO 8601 time with its offset, at most 7 days old and 5 minutes ahead',
      },
    }),
  );

// ---------------------------------------------------------------- queries and bodies

/** `GET /driver/jobs`. */
export class DriverJobsQuery extends PageQuery {
  @DateField({ optional: true, description: "The jobs' date; default today (the company's time zone)." }) date?: string;
}

export const FINISHED_JOB_STATUSES = ['completed', 'aborted'] as const;

/** `GET /driver/history/jobs/get`. */
export class DriverHistoryQuery extends PageQuery {
  @EnumQuery(FINISHED_JOB_STATUSES) status?: 'completed' | 'aborted';
}

/**
 * `POST /driver/jobs/{driverJob}/evidence`. What each kind takes:
 * photo, signature: `media_id` or `url`; qr_scan: `code`; ticket: `station_id`, `ticket_number`,
 * `gross_kg`, `tare_kg` (and optionally a photo of it as `media_id` or `url`). `note`, `lat`/`lng` for all.
 */
/** One example per kind of evidence (`@BodyExamples`): each takes its own fields. */
export const EVIDENCE_EXAMPLES = {
  photo: { summary: 'A photo of the drop-off', value: { kind: 'photo', media_id: '6a2f4c8e-9b1d-4e3f-a5c7-d9e1f3a5b7c9', note: 'Placed on the driveway, left side, boards under the rails.', lat: 39.7817, lng: -89.6501 } },
  signature: { summary: "The customer's signature, by URL", value: { kind: 'signature', url: 'https://files.acme-hauling.test/signatures/ord-000042.png', note: 'Signed by the site foreman, M. Ortiz.' } },
  qr_scan: { summary: "The container's QR code", value: { kind: 'qr_scan', code: 'HQ1.eyJhIjoiUk8yMC0wMDQyIn0.Zx9kT2', lat: 39.7817, lng: -89.6501 } },
  ticket: { summary: "The station's weight ticket", value: { kind: 'ticket', station_id: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f', ticket_number: 'T-2027-004512', gross_kg: 15400, tare_kg: 11900, media_id: '7b3e5d9f-0c2e-4f4a-b6d8-e0f2a4b6c8d0' } },
};

@ExclusiveFields(['media_id', 'url'])
export class AddEvidenceDto {
  @EnumField(EVIDENCE_KINDS, { example: 'photo' }) kind: string;
  @UuidField({ optional: true, description: 'An upload from `POST /upload-media` (photo, signature, picture of the ticket).' }) media_id?: string;
  @ApiPropertyOptional({ example: 'https://files.example.test/drop-off.jpg', maxLength: 2000, description: 'Instead of `media_id`: where the file is (http or https).' })
  @Given()
  @MaxLength(2000)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  url?: string;
  @TextField({ optional: true, max: 1000, example: 'HQ1.eyJxIjoi….Zx9…', description: 'kind qr_scan: the text read from the asset\'s QR code.' }) code?: string;
  @TextField({ optional: true, max: 2000, example: 'Placed on the driveway, left side.' }) note?: string;
  @NumberIn({ min: -90, max: 90, pair: 'lng', example: 39.7817, description: 'Latitude, degrees (WGS 84).' }) lat?: number;
  @NumberIn({ min: -180, max: 180, pair: 'lat', example: -89.6501, description: 'Longitude, degrees (WGS 84).' }) lng?: number;
  @UuidField({ optional: true, description: 'kind ticket: the station that weighed the load (the company\'s, accepting the order\'s waste type, open today).' }) station_id?: string;
  @TextField({ optional: true, max: 60, example: 'T-2027-004512', description: 'kind ticket.' }) ticket_number?: string;
  @IntField({ optional: true, min: 1, example: 15400, description: 'kind ticket: loaded truck, kg.' }) gross_kg?: number;
  @IntField({ optional: true, min: 0, example: 11900, description: 'kind ticket: empty truck, kg (less than `gross_kg`: net = gross − tare > 0).' }) tare_kg?: number;
}

/** `recorded_at` is left out: it must be recent (a fixed time would be refused), and the server's time is the default. */
export const LOCATION_EXAMPLES = {
  now: { summary: 'A point taken now', value: { lat: 39.7817, lng: -89.6501, accuracy: 8.5, heading: 184.2, speed: 12.4 } },
  parked: { summary: 'Parked at the site', value: { lat: 39.8012, lng: -89.6437, accuracy: 4 } },
};

/** `POST /driver/send-location/{driverJob}`. */
export class SendLocationDto {
  @NumberIn({ min: -90, max: 90, example: 39.7817, description: 'Latitude, degrees (WGS 84).' }) lat: number;
  @NumberIn({ min: -180, max: 180, example: -89.6501, description: 'Longitude, degrees (WGS 84).' }) lng: number;
  @NumberIn({ min: 0, max: 100_000, optional: true, example: 8.5, description: 'Accuracy radius, metres.' }) accuracy?: number;
  @NumberIn({ min: 0, max: 360, below: true, optional: true, example: 184.2, description: 'Heading, degrees clockwise from north.' }) heading?: number;
  @NumberIn({ min: 0, max: 200, optional: true, example: 12.4, description: 'Speed, metres per second.' }) speed?: number;
  @RecentTime() recorded_at?: string;
}

// ---------------------------------------------------------------- responses

export class DriverJobNamedDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '20 yd roll-off' }) name: string;
}

export class DriverJobAssetDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'RO20-001' }) code: string;
  @ApiProperty({ example: 'reserved' }) status: string;
}

export class PositionAtDto {
  @ApiProperty({ example: 39.7817 }) lat: number;
  @ApiProperty({ example: -89.6501 }) lng: number;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class StationTicketDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) job_id: string;
  @ApiProperty({ format: 'uuid' }) station_id: string;
  @ApiProperty({ example: 'T-2027-004512' }) ticket_number: string;
  @ApiProperty({ example: 15400 }) gross_kg: number;
  @ApiProperty({ example: 11900 }) tare_kg: number;
  @ApiProperty({ example: 3500, description: 'gross − tare.' }) net_kg: number;
  @ApiProperty({ format: 'date-time' }) weighed_at: string;
  static of(t: StationTicket): StationTicketDto {
    return { id: t.id, job_id: t.jobId, station_id: t.stationId, ticket_number: t.ticketNumber, gross_kg: t.grossKg, tare_kg: t.tareKg, net_kg: t.netKg, weighed_at: t.weighedAt.toISOString() };
  }
}

export class JobEvidenceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) job_id: string;
  @ApiProperty({ enum: EVIDENCE_KINDS, example: 'photo' }) kind: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) media_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: '/api/v1/media/6f1c…', description: 'Where the file is: the upload\'s URL for a `media_id`, else the URL given.' }) url: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The scanned code (kind qr_scan).' }) code: string | null;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 39.7817 }) lat: number | null;
  @ApiProperty({ nullable: true, type: Number, example: -89.6501 }) lng: number | null;
  @ApiProperty({ nullable: true, type: StationTicketDto, description: 'Kind ticket: the job\'s station ticket as recorded.' }) ticket: StationTicketDto | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  static of(e: JobEvidence, ticket: StationTicket | null = null): JobEvidenceDto {
    return { id: e.id, job_id: e.jobId, kind: e.kind, media_id: e.mediaId, url: e.url, code: e.code, note: e.note, lat: e.lat, lng: e.lng, ticket: ticket ? StationTicketDto.of(ticket) : null, created_at: e.createdAt.toISOString() };
  }
}

export class JobLocationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) job_id: string;
  @ApiProperty({ example: 39.7817 }) lat: number;
  @ApiProperty({ example: -89.6501 }) lng: number;
  @ApiProperty({ nullable: true, type: Number, example: 8.5, description: 'Metres.' }) accuracy: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 184.2, description: 'Degrees.' }) heading: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 12.4, description: 'Metres per second.' }) speed: number | null;
  @ApiProperty({ format: 'date-time' }) recorded_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the server received it.' }) created_at: string;
  static of(p: JobLocation): JobLocationDto {
    return { id: p.id, job_id: p.jobId, lat: p.lat, lng: p.lng, accuracy: p.accuracyM, heading: p.heading, speed: p.speedMps, recorded_at: p.recordedAt.toISOString(), created_at: p.createdAt.toISOString() };
  }
}

/** A pickup merged into a swap by route collapse: it completes with the swap (with its order's effects). */
export class DriverMergedJobDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000041' }) order_number: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'pickup' }) type: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'assigned' }) status: string;
  @ApiProperty({ type: AddressSnapshotDto }) address: AddressSnapshotDto;
}

/** What a driver's job shows: the job, its order's site, container and waste, and the merged pickups it carries. */
export class DriverJobDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'ORD-000042' }) order_number: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'delivery' }) type: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'assigned' }) status: string;
  @ApiProperty({ format: 'date', example: '2027-03-15' }) scheduled_date: string;
  @ApiProperty({ nullable: true, type: Number, example: 1, description: 'Order of the stop in the driver\'s day (null: not sequenced yet).' }) sequence: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) truck_id: string | null;
  @ApiProperty({ nullable: true, type: DriverJobAssetDto, description: 'The asset the job brings (delivery, swap), or works on once set.' }) asset: DriverJobAssetDto | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The asset a completed pickup or swap took away.' }) removed_asset_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The lot a delivery leaves from, or a pickup returns to.' }) lot_id: string | null;
  @ApiProperty({ type: AddressSnapshotDto, description: 'The site: the order\'s address.' }) address: AddressSnapshotDto;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'A relocation\'s new address.' }) destination_address_id: string | null;
  @ApiProperty({ type: DriverJobNamedDto }) specification: DriverJobNamedDto;
  @ApiProperty({ type: DriverJobNamedDto, description: "The order's waste type (what the container the job brings or serves is for)." }) waste_type: DriverJobNamedDto;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: "A swap's side coming back: the order whose container it takes away (its own, or the merged pickup's for a swap made by route collapse); null for other types.",
    example: '0b8f3c2e-5a7d-4e4b-9d7e-2f1c6a9b8e10',
  })
  pickup_order_id: string | null;
  @ApiProperty({
    nullable: true,
    type: DriverJobNamedDto,
    description: "What the job takes to a station (pickup, swap, dump_return): the waste type of the container it takes away, a swap's pickup side's. The station ticket's station must accept it. Null for a delivery or relocation.",
  })
  dump_waste_type: DriverJobNamedDto | null;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) assigned_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) aborted_at: string | null;
  @ApiProperty({ nullable: true, type: String }) abort_reason: string | null;
  @ApiProperty({ nullable: true, type: PositionAtDto, description: 'The latest point the driver sent for the job.' }) last_location: PositionAtDto | null;
  @ApiProperty({ type: [DriverMergedJobDto], description: 'Pickups merged into this swap by route collapse (they are not listed on their own).' }) merged_jobs: DriverMergedJobDto[];
}

/** One job of the driver with what the driver needs on site. */
export class DriverJobDetailDto extends DriverJobDto {
  @ApiProperty({ nullable: true, type: AddressSnapshotDto, description: 'A relocation\'s new address.' }) destination_address: AddressSnapshotDto | null;
  @ApiProperty({ nullable: true, type: DriverJobAssetDto, description: 'The asset the order has on site now (what a pickup, swap, dump-return or relocation takes).' }) on_site_asset: DriverJobAssetDto | null;
  @ApiProperty({ type: [JobEvidenceDto], description: 'Oldest first.' }) evidence: JobEvidenceDto[];
  @ApiProperty({ type: [JobIssueDto], description: 'Open issues, oldest first.' }) open_issues: JobIssueDto[];
  @ApiProperty({ nullable: true, type: StationTicketDto }) ticket: StationTicketDto | null;
  @ApiProperty({ type: [String], enum: ['photo', 'station_ticket', 'issues_resolved'], description: 'What completion still needs (empty: it can complete once in progress).' }) missing: string[];
}

export class DriverDayCountsDto {
  @ApiProperty({ example: 6 }) total: number;
  @ApiProperty({ example: 3 }) assigned: number;
  @ApiProperty({ example: 1 }) in_progress: number;
  @ApiProperty({ example: 2 }) completed: number;
  @ApiProperty({ example: 0 }) aborted: number;
}

export class TrackingWrapperDto {
  @ApiProperty({ format: 'date', example: '2027-03-15', description: 'Today (the company\'s time zone).' }) date: string;
  @ApiProperty({ nullable: true, type: DriverJobDto, description: 'The job in progress.' }) current_job: DriverJobDto | null;
  @ApiProperty({ type: [DriverJobDto], description: 'Today\'s assigned jobs not started yet, in sequence (at most 10).' }) next_stops: DriverJobDto[];
  @ApiProperty({ nullable: true, type: JobLocationDto, description: 'The last point the driver sent (any job).' }) last_location: JobLocationDto | null;
  @ApiProperty({ type: DriverDayCountsDto, description: 'Today\'s jobs by status.' }) counts: DriverDayCountsDto;
}

/** The parts of a JobView the views print (times as ISO strings). */
export const jobTimes = (j: JobView) => ({
  assigned_at: iso(j.assignedAt),
  started_at: iso(j.startedAt),
  completed_at: iso(j.completedAt),
  aborted_at: iso(j.abortedAt),
});
