import { ApiError } from '../../common/http/api-error';

/** The longest range a dashboard, analytics or report covers: 366 days (a leap year), `from` and `to` included. */
export const MAX_RANGE_DAYS = 366;
/** Days a range covers when `from` is not given: `to` and the 29 days before it. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY = 86_400_000;
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
/** Days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The range of a dashboard or report, in the company's dates: `to` defaults to `today`, `from` to
 * `defaultFrom(to)` (the 30 days ending on `to`). 422 when `to` is before `from`, or when the range
 * covers more than 366 days.
 */
export function resolveRange(q: { from?: string; to?: string }, today: string, defaultFrom: (to: string) => string = (to) => addDays(to, 1 - DEFAULT_RANGE_DAYS)): DateRange {
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? defaultFrom(to);
  if (to < from) throw ApiError.validation({ to: ['must be on or after from'] });
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) throw ApiError.validation({ to: [`must be at most ${MAX_RANGE_DAYS} days from from (both included)`] });
  return { from, to };
}

/** The first and last day of the month of `date`. */
export function monthOf(date: string): DateRange {
  const first = `${date.slice(0, 7)}-01`;
  const next = new Date(Date.parse(`${first}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { from: first, to: addDays(next.toISOString().slice(0, 10), -1) };
}

/** Every date of the range, in order. */
export function datesOf(r: DateRange): string[] {
  const out: string[] = [];
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** `part ÷ whole` in basis points, half up (0 when `whole` is 0). */
export const bps = (part: number, whole: number) => (whole > 0 ? Math.round((part * 10_000) / whole) : 0);
/** `value` rounded half up to `places` decimals. */
export const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
