import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #26 item 2: arrival times. One row per assigned job (the jobs module owns it; dispatch computes
 * it in the relay): the planned arrival (the day's plan from the shift start), the expected one (from
 * the driver's progress and position), when the driver reached the site, and what the customer was last
 * told (for "on the way" and the slip notifications). `jobs_next_arrival` gives an order's next arrival
 * window inside the order read's one statement (docs/dispatch.md, "Arrival times").
 */
export class ArrivalTimes1764800400000 implements MigrationInterface {
  name = 'ArrivalTimes1764800400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_arrivals (
        job_id uuid PRIMARY KEY CONSTRAINT job_arrivals_job_id_fkey REFERENCES jobs (id) ON DELETE CASCADE,
        company_id uuid NOT NULL CONSTRAINT job_arrivals_company_id_fkey REFERENCES companies (id),
        driver_id uuid NOT NULL CONSTRAINT job_arrivals_driver_id_fkey REFERENCES drivers (id),
        scheduled_date date NOT NULL,
        planned_at timestamptz,
        expected_at timestamptz,
        arrived_at timestamptz,
        told_at timestamptz,
        on_the_way_at timestamptz,
        computed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_job_arrivals_company ON job_arrivals (company_id)`);
    await q.query(`CREATE INDEX idx_job_arrivals_driver_date ON job_arrivals (driver_id, scheduled_date)`);
    // The window is 30 minutes wide, centred on the expected arrival (on the arrival itself once the driver is there).
    await q.query(
      `CREATE FUNCTION jobs_next_arrival(order_id uuid)
         RETURNS TABLE (job_id uuid, kind text, expected_at timestamptz, window_start timestamptz, window_end timestamptz, late_minutes int, arrived_at timestamptz)
         LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT j.id, j.type, coalesce(a.arrived_at, a.expected_at),
                coalesce(a.arrived_at, a.expected_at) - interval '15 minutes', coalesce(a.arrived_at, a.expected_at) + interval '15 minutes',
                greatest(0, round(extract(epoch FROM coalesce(a.arrived_at, a.expected_at) - a.planned_at) / 60))::int, a.arrived_at
           FROM jobs j JOIN job_arrivals a ON a.job_id = j.id
          WHERE j.order_id = $1 AND j.status IN ('assigned', 'in_progress') AND a.expected_at IS NOT NULL
          ORDER BY j.scheduled_date, a.expected_at, j.id
          LIMIT 1 $$`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION jobs_next_arrival(uuid)`);
    await q.query(`DROP TABLE job_arrivals`);
  }
}
