import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reports (issue #15): the rollups the dashboards read instead of scanning orders and jobs, kept by
 * the reports module's event subscribers:
 * - `report_daily_counters`: per company, metric, day (the company's local date) and dimension (a
 *   status, a customer, a driver, a waste type, a job type, or '' for the company), a count and an amount;
 * - `report_order_facts`: what the counters last counted of each order (its day, status, billed amount,
 *   customer, balance and due date, rental dates), so that a change moves the order's contribution from
 *   the old cells to the new ones.
 */
export class Reports1764400006000 implements MigrationInterface {
  name = 'Reports1764400006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE report_daily_counters (
        company_id uuid NOT NULL CONSTRAINT report_daily_counters_company_id_fkey REFERENCES companies (id),
        metric text NOT NULL CONSTRAINT report_daily_counters_metric_check CHECK (metric IN ('orders', 'billed', 'customer_billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked', 'dues', 'customer_dues', 'rent')),
        day date NOT NULL,
        dim text NOT NULL DEFAULT '',
        count int NOT NULL DEFAULT 0,
        amount bigint NOT NULL DEFAULT 0,
        CONSTRAINT pk_report_daily_counters PRIMARY KEY (company_id, metric, day, dim)
      )`);
    await q.query(`CREATE INDEX idx_report_daily_counters_metric_day ON report_daily_counters (metric, day)`);
    // One dimension's cells (a driver's days, a customer's open dues) without reading the others'.
    await q.query(`CREATE INDEX idx_report_daily_counters_dim ON report_daily_counters (company_id, metric, dim, day)`);
    await q.query(`
      CREATE TABLE report_order_facts (
        order_id uuid NOT NULL CONSTRAINT report_order_facts_order_id_fkey REFERENCES orders (id) ON DELETE CASCADE,
        company_id uuid NOT NULL CONSTRAINT report_order_facts_company_id_fkey REFERENCES companies (id),
        customer_id uuid NOT NULL,
        day date NOT NULL,
        status text NOT NULL,
        billed_amount bigint NOT NULL DEFAULT 0,
        balance_amount bigint NOT NULL DEFAULT 0,
        due_date date,
        asset_specification_id uuid,
        delivered_on date,
        ended_on date,
        CONSTRAINT pk_report_order_facts PRIMARY KEY (order_id)
      )`);
    await q.query(`CREATE INDEX idx_report_order_facts_company ON report_order_facts (company_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE report_order_facts`);
    await q.query(`DROP TABLE report_daily_counters`);
  }
}
