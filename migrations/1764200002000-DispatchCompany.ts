import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dispatch, company side (#11): indexes for the company's job lists (`GET /jobs`, `GET /order/jobs/all`),
 * one per sort they offer (`scheduled_date`, `created_at`; `id` last, so that one ascending index serves
 * both directions) and per filter (status, type) combined with the default sort. The driver filter uses
 * `idx_jobs_driver_date`, the order filter `idx_jobs_order`, the date range `idx_jobs_company_date_id`.
 */
export class DispatchCompany1764200002000 implements MigrationInterface {
  name = 'DispatchCompany1764200002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX idx_jobs_company_date_id ON jobs (company_id, scheduled_date, id)`);
    await q.query(`CREATE INDEX idx_jobs_company_created ON jobs (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_jobs_company_status_date ON jobs (company_id, status, scheduled_date, id)`);
    await q.query(`CREATE INDEX idx_jobs_company_type_date ON jobs (company_id, type, scheduled_date, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const name of ['idx_jobs_company_type_date', 'idx_jobs_company_status_date', 'idx_jobs_company_created', 'idx_jobs_company_date_id']) {
      await q.query(`DROP INDEX IF EXISTS ${name}`);
    }
  }
}
