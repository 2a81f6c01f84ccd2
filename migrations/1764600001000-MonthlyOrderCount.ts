import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #24 (placement past the production floor): the plan's `monthly_orders` limit counted on the
 * company's order counter instead of by `count(*)` over the month's orders. Placement already locks the
 * counter row to take the order's number; the same statement now moves `month_placed` (the orders placed
 * in `month`, the first day of the company's current calendar month in its time zone), so the limit
 * costs no statement and no second lock, and does not grow with the month's volume.
 *
 * Existing counters start from the orders of the current month (each company's time zone), as the
 * count did.
 */
export class MonthlyOrderCount1764600001000 implements MigrationInterface {
  name = 'MonthlyOrderCount1764600001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE order_counters ADD COLUMN month date, ADD COLUMN month_placed int NOT NULL DEFAULT 0`);
    await q.query(
      `UPDATE order_counters oc
          SET month = m.month, month_placed = (SELECT count(*) FROM orders o WHERE o.company_id = oc.company_id AND o.created_at >= m.month::timestamp AT TIME ZONE m.tz)
         FROM (SELECT c.id, coalesce(c.timezone, 'UTC') AS tz, date_trunc('month', now() AT TIME ZONE coalesce(c.timezone, 'UTC'))::date AS month FROM companies c) m
        WHERE m.id = oc.company_id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE order_counters DROP COLUMN month, DROP COLUMN month_placed`);
  }
}
