import { Controller, Get, Injectable, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Endpoint } from '../../common/http/openapi';
import { IsDateOnly } from '../../common/validation/fields';
import { AssetPlaces } from './asset-places';
import { ContainerCalendarRepository, type ContainerHold } from './container-calendar.repository';

export type { ContainerHold } from './container-calendar.repository';

/** The longest range one availability answer covers (days, both ends included). */
export const MAX_AVAILABILITY_DAYS = 90;
/** At most this many dates are named in a refusal's message (`details.dates` has them all). */
const NAMED_DATES = 5;

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export class AvailabilityQuery {
  @ApiProperty({ format: 'uuid', description: 'The asset specification (the company\'s).' }) @IsUUID('all') asset_specification_id: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the containers based at this lot and the holds served from it (default: the whole company, which is what placement checks).' })
  @IsOptional()
  @IsUUID('all')
  lot_id?: string;
  @ApiProperty({ type: String, format: 'date', example: '2027-03-01' }) @IsDateOnly() from: string;
  @ApiProperty({ type: String, format: 'date', example: '2027-03-31', description: `On or after \`from\`, at most ${MAX_AVAILABILITY_DAYS} days in all.` }) @IsDateOnly() to: string;
}

export class AvailabilityDayDto {
  @ApiProperty({ format: 'date', example: '2027-03-15' }) date: string;
  @ApiProperty({ description: 'Containers of the specification, not in maintenance or retired.', example: 12 }) total: number;
  @ApiProperty({ description: 'Orders holding one on the day (delivery date to pickup date; open-ended without a pickup date, and once the pickup date has passed without the pickup completing).', example: 9 }) held: number;
  @ApiProperty({ description: 'total − held, never below 0.', example: 3 }) free: number;
}

export class AvailabilityDto {
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) lot_id: string | null;
  @ApiProperty({ format: 'date', example: '2027-03-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2027-03-31' }) to: string;
  @ApiProperty({
    type: [AvailabilityDayDto],
    example: [
      { date: '2027-03-15', total: 12, held: 9, free: 3 },
      { date: '2027-03-16', total: 12, held: 12, free: 0 },
    ],
  })
  days: AvailabilityDayDto[];
}

export class FreeDatesQuery {
  @ApiProperty({ format: 'uuid', description: 'The quoted (active) specification.' }) @IsUUID('all') asset_specification_id: string;
  @ApiProperty({ type: String, format: 'date', example: '2027-03-01', description: 'The first date to look at (e.g. the earliest delivery date).' }) @IsDateOnly() from: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 60, default: 1, description: 'The rental\'s days: a date is given when a container is free on it and the days after it, `days` in all.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60)
  days?: number;
  @ApiPropertyOptional({ minimum: 1, maximum: 31, default: 5, description: 'How many dates to give.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(31)
  limit?: number;
}

export class FreeDatesDto {
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiProperty({ format: 'date', example: '2027-03-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2027-05-29', description: `The last date looked at (${MAX_AVAILABILITY_DAYS} days from \`from\`).` }) to: string;
  @ApiProperty({ type: [String], example: ['2027-03-03', '2027-03-04', '2027-03-08'], description: 'The first dates (ascending) a container is free for the whole rental; empty when none in the range.' })
  dates: string[];
}

/**
 * The container calendar (docs/orders-and-pricing.md "Container calendar"): each unfinished order holds
 * one unit of its specification from its delivery date to its pickup date (open-ended without one, or late),
 * pinned to an asset at assignment, released when it completes, is cancelled or rejected. Holds and
 * pins of a specification queue on its row lock inside catalogue's SQL API, so the last container
 * goes to exactly one of concurrent callers, on PostgreSQL and on the embedded database alike.
 */
@Injectable()
export class ContainerCalendar {
  constructor(
    private readonly calendar: ContainerCalendarRepository,
    private readonly places: AssetPlaces,
  ) {}

  /** The 409 of a specification no container of is free on `dates` (all named in `details.dates`). */
  static refusal(specificationId: string, dates: readonly string[]): ApiError {
    const named = dates.slice(0, NAMED_DATES).join(', ') + (dates.length > NAMED_DATES ? ` and ${dates.length - NAMED_DATES} more days` : '');
    return ApiError.conflict('NO_CONTAINER_AVAILABLE', `No container of the specification is free on ${named}.`, { asset_specification_id: specificationId, dates: [...dates] });
  }

  /**
   * Sets the order's hold to its dates (placement, approval, date and container changes), in the caller's
   * unit; 409 `NO_CONTAINER_AVAILABLE` naming the days none is free when the specification refuses (`check_availability`, or automatic: a live container of it recorded).
   */
  async hold(scope: Scope, h: ContainerHold): Promise<void> {
    const busy = await this.calendar.hold(scope, h);
    if (busy.length) throw ContainerCalendar.refusal(h.specificationId, busy);
  }

  /**
   * Checks that a container would be free for the hold without writing it (a customer's change request
   * when it is asked; approval holds, and checks again): 409 `NO_CONTAINER_AVAILABLE` naming the days.
   */
  async assertFree(scope: Scope, h: ContainerHold): Promise<void> {
    const busy = await this.calendar.busy(scope, h);
    if (busy.length) throw ContainerCalendar.refusal(h.specificationId, busy);
  }

  /** Pins an asset on the order's hold (assignment): the chosen one, or the first free one; null when none is (`busy`: the days no unit is). */
  pin(scope: Scope, h: ContainerHold, assetId: string | null): Promise<{ assetId: string | null; fromStatus: string | null; busy: string[] }> {
    return this.calendar.pin(scope, h, assetId);
  }

  /** The assets of the specification the calendar offers the order over [from, to]: what assignment would pin (dispatch's "assets with availability"). */
  async freeAssets(scope: Scope, orderId: string, specificationId: string, from: string, to: string | null): Promise<Set<string>> {
    return new Set(await this.calendar.freeAssets(scope, orderId, specificationId, from, to));
  }

  /**
   * The fleet plan's view of the calendar (one statement): per order with a live hold, the assets free for
   * it over the hold's days, in the order assignment pins from. Orders without a hold are absent.
   */
  async freeForHolds(scope: Scope, orderIds: readonly string[]): Promise<Map<string, string[]>> {
    if (!orderIds.length) return new Map();
    return new Map((await this.calendar.freeForHolds(scope, [...new Set(orderIds)].sort())).map((r) => [r.order_id, r.assets]));
  }

  /**
   * The lots each order's container can be loaded at on `date` (route planning): the home lot of the asset
   * pinned on its hold, else those of the assets free for it that day; an empty list when none is free; orders without a hold are absent.
   */
  async loadingLots(scope: Scope, date: string, orderIds: readonly string[]): Promise<Map<string, string[]>> {
    if (!orderIds.length) return new Map();
    return new Map((await this.calendar.loadingLots(scope, date, [...new Set(orderIds)])).map((r) => [r.order_id, r.lots]));
  }

  /**
   * The dispatch context's day in one statement: the company's assets free on `date` by the calendar,
   * counted per specification and home lot, and the loading lots of `orderIds` (as `loadingLots`).
   */
  async dispatchDay(scope: Scope, date: string, orderIds: readonly string[]): Promise<{ free: { specificationId: string; homeLotId: string | null; available: number }[]; loadLots: Map<string, string[]> }> {
    const day = await this.calendar.dispatchDay(scope, date, [...new Set(orderIds)]);
    return { free: day.free.map((r) => ({ specificationId: r.spec, homeLotId: r.lot, available: r.n })), loadLots: new Map(day.loading.map((r) => [r.order_id, r.lots])) };
  }

  /** Releases the order's hold (completed, cancelled, rejected), in the caller's unit. */
  release(scope: Scope, orderId: string): Promise<void> {
    return this.calendar.release(scope, orderId);
  }

  /** Per day: total, held, free (company users). 404 for a specification or lot not the company's; 422 for a range over 90 days. */
  async availability(scope: Scope, q: AvailabilityQuery): Promise<AvailabilityDto> {
    const span = daysBetween(q.from, q.to);
    if (span < 0) throw ApiError.validation({ to: ['must not be before from'] });
    if (span >= MAX_AVAILABILITY_DAYS) throw ApiError.validation({ to: [`must be within ${MAX_AVAILABILITY_DAYS} days of from (both included)`] });
    if (q.lot_id) {
      await this.places.assertOwned(scope, 'lot', [{ field: 'lot_id', id: q.lot_id }]).catch((e: unknown) => {
        throw e instanceof ApiError && e.getStatus() === 422 ? ApiError.notFound('Lot') : e;
      });
    }
    const rows = await this.calendar.days(scope, q.asset_specification_id, q.lot_id ?? null, q.from, q.to, false);
    if (!rows.length) throw ApiError.notFound('Asset specification');
    return { asset_specification_id: q.asset_specification_id, lot_id: q.lot_id ?? null, from: q.from, to: q.to, days: rows.map(dayOf) };
  }

  /** The first dates a container of the active specification is free for a rental of `days` (customers, on the quote). 404 for another company's or an inactive specification. */
  async firstFree(scope: Scope, q: FreeDatesQuery): Promise<FreeDatesDto> {
    const days = q.days ?? 1;
    const limit = q.limit ?? 5;
    const to = addDays(q.from, MAX_AVAILABILITY_DAYS - 1);
    const rows = await this.calendar.days(scope, q.asset_specification_id, null, q.from, addDays(to, days - 1), true);
    if (!rows.length) throw ApiError.notFound('Asset specification');
    const free = rows.map((r) => r.held < r.total);
    const dates: string[] = [];
    // A run of free days: a date is given when the `days` from it are all free.
    let run = 0;
    for (let i = free.length - 1; i >= 0; i--) {
      run = free[i] ? run + 1 : 0;
      if (i < MAX_AVAILABILITY_DAYS && run >= days) dates.push(rows[i].day);
    }
    return { asset_specification_id: q.asset_specification_id, from: q.from, to, dates: dates.reverse().slice(0, limit) };
  }
}

const dayOf = (r: { day: string; total: number; held: number }): AvailabilityDayDto => ({ date: r.day, total: r.total, held: r.held, free: Math.max(0, r.total - r.held) });

@ApiTags('Assets')
@Controller('api/v1/company')
export class AvailabilityController {
  constructor(private readonly calendar: ContainerCalendar) {}

  @Get('availability')
  @Access('CO')
  @Endpoint({
    summary: 'Containers of a specification per day: total, held by orders, free',
    description:
      'The container calendar (issue #25): for each day of [`from`, `to`] (at most 90 days), the containers of the specification not in maintenance or retired, ' +
      'the unfinished orders holding one that day (delivery date to pickup date, open-ended without a pickup date or once the pickup date has passed, the company\'s date, without the pickup completing; released when the order completes, is cancelled or rejected), ' +
      'and the difference. `lot_id`: the containers based at the lot and the holds served from it. One statement.',
    type: AvailabilityDto,
    errors: [404, 422],
  })
  availability(@CurrentScope() scope: Scope, @Query() query: AvailabilityQuery) {
    return this.calendar.availability(scope, query);
  }
}

@ApiTags('Customer catalogue')
@Controller('api/v1/customer')
export class CustomerAvailabilityController {
  constructor(private readonly calendar: ContainerCalendar) {}

  @Get('availability')
  @Access('CU')
  @Endpoint({
    summary: 'The first dates a container of the quoted specification is free',
    description:
      'For the quote: from `from`, the first dates (up to `limit`, within 90 days) on which a container of the specification is free for `days` days running. ' +
      'A specification that refuses (`check_availability` true, or null once the company records a container of it) refuses an order on other dates (409 `NO_CONTAINER_AVAILABLE`).',
    type: FreeDatesDto,
    errors: [404, 422],
  })
  freeDates(@CurrentScope() scope: Scope, @Query() query: FreeDatesQuery) {
    return this.calendar.firstFree(Scope.company(scope.companyId), query);
  }
}
