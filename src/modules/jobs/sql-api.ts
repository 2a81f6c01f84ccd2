import type { SqlApi } from '../../database/sql-api';

/** The jobs module's SQL functions (src/database/sql-api.ts; created by migrations/1764600002000-ModuleSqlApiMore.ts). Set-returning, inlined by the planner. */
export const SQL_API: SqlApi = {
  jobs_unassigned: {
    args: 'order_id uuid',
    returns: 'TABLE(id uuid, type text, scheduled_date date, created_at timestamp with time zone)',
    doc: "The order's unassigned jobs: `EXISTS (SELECT 1 FROM jobs_unassigned(o.id) uj)`; the assignment order is (uj.type <> 'delivery'), uj.scheduled_date, uj.created_at, uj.id.",
  },
  jobs_drivers_on_order: {
    args: 'order_id uuid',
    returns: 'TABLE(driver_id uuid)',
    doc: 'The drivers of the jobs on the order that are not aborted (null for an unassigned job): `EXISTS (SELECT 1 FROM jobs_drivers_on_order(c.order_id) dj WHERE dj.driver_id = :driver)`.',
  },
  jobs_upcoming_of_orders: {
    args: 'company_id uuid, order_ids uuid[], from_date date, max_rows integer',
    returns: 'TABLE(id uuid, order_id uuid, type text, status text, scheduled_date text, ord integer)',
    doc: "The orders' unfinished jobs from a date on (not merged into another), by date, sequence (unsequenced last) and id, at most max_rows; ord is the rank. idx_jobs_order.",
  },
  jobs_next_arrival: {
    args: 'order_id uuid',
    returns: 'TABLE(job_id uuid, kind text, expected_at timestamp with time zone, window_start timestamp with time zone, window_end timestamp with time zone, late_minutes integer, arrived_at timestamp with time zone)',
    doc: "The order's next arrival (issue #26; migration ArrivalTimes): its assigned or in-progress job with an expected arrival, the earliest by date and time; the window is 30 minutes centred on it (on arrived_at once there); late_minutes past the planned arrival. `LEFT JOIN LATERAL jobs_next_arrival(o.id) na ON true`.",
  },
};
