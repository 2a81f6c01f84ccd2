/** The stored times of a job's arrival (job_arrivals), as the reads take them. */
export interface ArrivalTimes {
  plannedAt: Date | null;
  expectedAt: Date | null;
  arrivedAt: Date | null;
}

/**
 * The width of an arrival window in minutes, centred on the expected arrival (on the arrival itself once
 * the driver is there). The order read's `jobs_next_arrival` (migration ArrivalTimes) has the same 30.
 */
export const ARRIVAL_WINDOW_MINUTES = 30;

/** A stop's arrival as dispatch and the order read show it. */
export interface ArrivalView {
  planned_at: string | null;
  expected_at: string;
  window_start: string;
  window_end: string;
  late_minutes: number | null;
  arrived_at: string | null;
}

/** The window and lateness of stored arrival times (null without an expected arrival). */
export function arrivalView(a: ArrivalTimes | null | undefined): ArrivalView | null {
  const at = a?.arrivedAt ?? a?.expectedAt;
  if (!a || !at) return null;
  const half = (ARRIVAL_WINDOW_MINUTES / 2) * 60_000;
  return {
    planned_at: a.plannedAt?.toISOString() ?? null,
    expected_at: at.toISOString(),
    window_start: new Date(at.getTime() - half).toISOString(),
    window_end: new Date(at.getTime() + half).toISOString(),
    late_minutes: a.plannedAt ? Math.max(0, Math.round((at.getTime() - a.plannedAt.getTime()) / 60_000)) : null,
    arrived_at: a.arrivedAt?.toISOString() ?? null,
  };
}
