import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dispatch, the driver's side (#11): indexes for the lists it offers.
 * - `GET /driver/history/jobs/get`: a driver's finished jobs, newest first by when they finished
 *   (completed or aborted): idx_jobs_driver_finished (driver_id, coalesce(completed_at, aborted_at), id)
 *   on finished jobs only.
 * - `GET /order/jobs/issues?blocking=`: idx_job_issues_company_blocking_created (company_id, blocking,
 *   created_at, id); the other filters (status, driver, job) have the foundation's indexes.
 */
export class DispatchDriver1764200003000 implements MigrationInterface {
  name = 'DispatchDriver1764200003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX idx_jobs_driver_finished ON jobs (driver_id, (coalesce(completed_at, aborted_at)), id) WHERE status IN ('completed', 'aborted')`);
    await q.query(`CREATE INDEX idx_job_issues_company_blocking_created ON job_issues (company_id, blocking, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_job_issues_company_blocking_created`);
    await q.query(`DROP INDEX idx_jobs_driver_finished`);
  }
}
