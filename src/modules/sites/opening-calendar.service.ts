import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Lot, LotHoliday, OpeningHours, Station, StationHoliday, WEEKDAYS, Weekday } from './site.entity';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { DATE_MESSAGE, isDateOnly } from '../../common/validation/fields';

export type SiteKindName = 'lot' | 'station';
export type ClosedReason = 'HOLIDAY' | 'CLOSED_DAY' | 'INACTIVE';
export interface OpenResult {
  open: boolean;
  reason?: ClosedReason;
  /** The holiday's name when reason is HOLIDAY. */
  holiday?: string;
}

const TABLES: Record<SiteKindName, { site: typeof Lot | typeof Station; holiday: typeof LotHoliday | typeof StationHoliday; parentKey: string; label: string }> = {
  lot: { site: Lot, holiday: LotHoliday, parentKey: 'lotId', label: 'Lot' },
  station: { site: Station, holiday: StationHoliday, parentKey: 'stationId', label: 'Station' },
};

/** The weekday key (`mon`..`sun`) of a YYYY-MM-DD date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(date + 'T00:00:00Z').getUTCDay() + 6) % 7];
}

/** Whether opening hours have the date's weekday open (a day left out or null is closed). */
export function openOnWeekday(hours: OpeningHours | null | undefined, date: string): boolean {
  return !!hours?.[weekdayOf(date)];
}

const MESSAGES: Record<ClosedReason, (label: string, date: string, holiday?: string) => string> = {
  HOLIDAY: (label, date, holiday) => `${label} is closed on ${date} (holiday${holiday ? `: ${holiday}` : ''}).`,
  CLOSED_DAY: (label, date) => `${label} is closed on ${weekdayOf(date)}days (${date}).`,
  INACTIVE: (label) => `${label} is inactive.`,
};

/** A site's day from what was read of it: closed when inactive, on a holiday (its name) or on a weekday its hours leave closed. */
export function openResult(site: { active: boolean; opening_hours: OpeningHours | null; holiday: string | null }, date: string): OpenResult {
  if (!site.active) return { open: false, reason: 'INACTIVE' };
  if (site.holiday !== null) return { open: false, reason: 'HOLIDAY', holiday: site.holiday };
  if (!openOnWeekday(site.opening_hours, date)) return { open: false, reason: 'CLOSED_DAY' };
  return { open: true };
}

/** 422 with the reason as the code (`HOLIDAY`, `CLOSED_DAY`, `INACTIVE`) unless `result` is open; with `field`, the error names it. */
export function assertOpenResult(kind: SiteKindName, result: OpenResult, date: string, field?: string): void {
  if (result.open) return;
  const message = MESSAGES[result.reason!](TABLES[kind].label, date, result.holiday);
  throw ApiError.unprocessable(result.reason!, message, field ? { [field]: [message] } : undefined);
}

/**
 * "Is this lot or station open on date D": for scheduling modules (orders, jobs, dispatch).
 * Closed when the site is inactive, on one of its holidays, or on a weekday its opening hours leave
 * closed. Dates are YYYY-MM-DD service dates (the company's time zone).
 */
@Injectable()
export class OpeningCalendar {
  constructor(private readonly ds: DataSource) {}

  /** 404 when the site is absent, deleted or another company's. Pass `m` inside a transaction. */
  async isOpen(kind: SiteKindName, id: string, companyId: string, date: string, m: EntityManager = this.ds.manager): Promise<OpenResult> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    const t = TABLES[kind];
    const site: { active: boolean; opening_hours: OpeningHours; holiday: string | null } | undefined = await scopedQuery(m, t.site, Scope.company(companyId), 's')
      .leftJoin(t.holiday, 'h', `h.${t.parentKey} = s.id AND h.date = CAST(:date AS date)`, { date })
      .select(['s.active AS active', 's.openingHours AS opening_hours', 'h.name AS holiday'])
      .andWhere('s.id = :id', { id })
      .getRawOne();
    if (!site) throw ApiError.notFound(t.label);
    return openResult(site, date);
  }

  /**
   * Throws 422 unless the site is open that day. The error code is the reason: `HOLIDAY`,
   * `CLOSED_DAY` or `INACTIVE`; with `field`, the error also names it (`errors: {[field]: [...]}`).
   */
  async assertOpen(kind: SiteKindName, id: string, companyId: string, date: string, m?: EntityManager, field?: string): Promise<void> {
    assertOpenResult(kind, await this.isOpen(kind, id, companyId, date, m), date, field);
  }

  /** Ids of the company's active sites of a kind that are open on `date` (e.g. stations open that day). */
  async openIds(kind: SiteKindName, companyId: string, date: string, m: EntityManager = this.ds.manager): Promise<string[]> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    const t = TABLES[kind];
    const holidays = m.getRepository(t.holiday).metadata;
    const parent = holidays.findColumnWithPropertyName(t.parentKey)!.databaseName;
    const rows: { id: string; opening_hours: OpeningHours }[] = await scopedQuery(m, t.site, Scope.company(companyId), 's')
      .select(['s.id AS id', 's.openingHours AS opening_hours'])
      .andWhere('s.active')
      .andWhere(`NOT EXISTS (SELECT 1 FROM ${holidays.tableName} h WHERE h.${parent} = s.id AND h.date = CAST(:date AS date))`, { date })
      .orderBy('s.name')
      .addOrderBy('s.id')
      .getRawMany();
    return rows.filter((r) => openOnWeekday(r.opening_hours, date)).map((r) => r.id);
  }
}
