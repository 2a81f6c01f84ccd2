import type { LeaveDateStatus, LeaveRequestStatus } from './leave.types';

/** Calendar arithmetic on `YYYY-MM-DD` dates (UTC, no time zone involved). */
const DAY_MS = 86_400_000;
const toMs = (date: string) => Date.parse(date + 'T00:00:00Z');

/** `date` plus `n` days. */
export const addDays = (date: string, n: number): string => new Date(toMs(date) + n * DAY_MS).toISOString().slice(0, 10);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((toMs(to) - toMs(from)) / DAY_MS);

/** Every date from `from` to `to`, inclusive (the caller bounds the span). */
export function expandRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Distinct dates, ascending. */
export const sortedDates = (dates: Iterable<string>): string[] => [...new Set(dates)].sort();

/** Runs of consecutive dates (ascending input, distinct): [[first, last], …]. */
export function runsOf(dates: readonly string[]): [string, string][] {
  const runs: [string, string][] = [];
  for (const d of sortedDates(dates)) {
    const last = runs.at(-1);
    if (last && addDays(last[1], 1) === d) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

/** The first and last day of the year of `date`. */
export const yearOf = (date: string) => ({ year: Number(date.slice(0, 4)), first: `${date.slice(0, 4)}-01-01`, last: `${date.slice(0, 4)}-12-31` });

/**
 * A request's status from its dates' decisions (domain.md §6): any approved date makes it `approved`
 * (all of them) or `partially_approved`; with none approved, all rejected is `rejected`, any in review
 * `in_review`, else `pending` (rejected dates beside pending ones leave it pending: decisions remain).
 */
export function requestStatusOf(statuses: readonly LeaveDateStatus[]): Exclude<LeaveRequestStatus, 'cancelled'> {
  const n = (s: LeaveDateStatus) => statuses.filter((x) => x === s).length;
  if (n('approved')) return n('approved') === statuses.length ? 'approved' : 'partially_approved';
  if (statuses.length && n('rejected') === statuses.length) return 'rejected';
  return n('in_review') ? 'in_review' : 'pending';
}
