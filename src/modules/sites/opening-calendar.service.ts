import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { OpeningHours, WEEKDAYS, Weekday } from './site.entity';
import { Scope } from '../../common/access/scope';
import { LotRepository, StationRepository } from './site.repository';
import { DATE_MESSAGE, isDateOnly } from '../../common/validation/fields';

export type SiteKindName = 'lot' | 'station';
export type ClosedReason = 'HOLIDAY' | 'CLOSED_DAY' | 'INACTIVE';
export interface OpenResult {
  open: boolean;
  reason?: ClosedReason;
  /** The holiday's name when reason is HOLIDAY. */
  holiday?: string;
}

const TABLES: Record<SiteKindName, { label: string }> = {
  lot: { label: 'Lot' },
  station: { label: 'Station' },
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

/** A date's opening exception as read with its site (one jsonb value): special hours, or closed (`open` and `close` null). */
export interface DateException {
  open: string | null;
  close: string | null;
  note: string | null;
}

/** What the calendar reads of a site for a date. */
export interface SiteOnDate {
  active: boolean;
  opening_hours: OpeningHours | null;
  holiday: string | null;
  /** The date's exception, when it has one (absent or null: none). */
  exception?: DateException | null;
}

/**
 * A site's day from what was read of it, the one place opening is decided: closed when inactive, on a
 * holiday (its name); else the date's exception wins over the weekday's hours (special hours: open; closed:
 * answered as a holiday named by its note); else closed on a weekday its hours leave closed.
 */
export function openResult(site: SiteOnDate, date: string): OpenResult {
  if (!site.active) return { open: false, reason: 'INACTIVE' };
  if (site.holiday !== null) return { open: false, reason: 'HOLIDAY', holiday: site.holiday };
  if (site.exception) return site.exception.open !== null ? { open: true } : { open: false, reason: 'HOLIDAY', holiday: site.exception.note ?? 'closed on this date' };
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
  constructor(
    private readonly lots: LotRepository,
    private readonly stations: StationRepository,
  ) {}

  private repo(kind: SiteKindName): LotRepository | StationRepository {
    return kind === 'lot' ? this.lots : this.stations;
  }

  /** 404 when the site is absent, deleted or not the scope's. Inside a unit of work, reads through it. */
  async isOpen(kind: SiteKindName, id: string, scope: Scope, date: string): Promise<OpenResult> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    const site = await this.repo(kind).opening(scope, id, date);
    if (!site) throw ApiError.notFound(TABLES[kind].label);
    return openResult(site, date);
  }

  /**
   * Throws 422 unless the site is open that day. The error code is the reason: `HOLIDAY`,
   * `CLOSED_DAY` or `INACTIVE`; with `field`, the error also names it (`errors: {[field]: [...]}`).
   */
  async assertOpen(kind: SiteKindName, id: string, scope: Scope, date: string, field?: string): Promise<void> {
    assertOpenResult(kind, await this.isOpen(kind, id, scope, date), date, field);
  }

  /** Ids of the scope's active sites of a kind that are open on `date` (e.g. stations open that day). */
  async openIds(kind: SiteKindName, scope: Scope, date: string): Promise<string[]> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    const rows = await this.repo(kind).withoutHolidayOn(scope, date);
    return rows.filter((r) => openResult({ active: true, opening_hours: r.opening_hours, holiday: null, exception: r.exception }, date).open).map((r) => r.id);
  }
}
