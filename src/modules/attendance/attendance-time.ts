import type { PauseKind } from './attendance.types';

/** A day's span, as stored. */
export interface DaySpan {
  checkedInAt: Date;
  checkedOutAt: Date | null;
}

/** A pause of the day (a break, or the time checked out before a resume). */
export interface Pause {
  kind: PauseKind;
  startedAt: Date;
  endedAt: Date | null;
}

export interface DayTime {
  /** (check-out or now) − check-in − every pause, in whole minutes (rounded down, never negative). */
  workedMinutes: number;
  /** The breaks' time (kind `break`), in whole minutes. */
  breakMinutes: number;
  /** Each pause's length in whole minutes, in the order given. */
  pauseMinutes: number[];
}

const MINUTE = 60_000;
const clamp = (t: number, lo: number, hi: number) => Math.min(Math.max(t, lo), hi);

/**
 * The one computation of worked time (every route shows this): the day runs from check-in to check-out,
 * or to `now` while it is open; pauses are taken out, an open one counting up to now (each clipped to the
 * day, so that a pause never counts twice or outside the day). Minutes are rounded down.
 */
export function dayTime(day: DaySpan, pauses: readonly Pause[], now: Date): DayTime {
  const start = day.checkedInAt.getTime();
  const end = Math.max(start, (day.checkedOutAt ?? now).getTime());
  let paused = 0;
  let breaks = 0;
  const pauseMinutes: number[] = [];
  for (const p of pauses) {
    const from = clamp(p.startedAt.getTime(), start, end);
    const to = clamp((p.endedAt ?? now).getTime(), from, end);
    paused += to - from;
    if (p.kind === 'break') breaks += to - from;
    pauseMinutes.push(Math.floor((to - from) / MINUTE));
  }
  return { workedMinutes: Math.floor(Math.max(0, end - start - paused) / MINUTE), breakMinutes: Math.floor(breaks / MINUTE), pauseMinutes };
}
