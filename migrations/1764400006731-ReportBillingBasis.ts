import { MigrationInterface, QueryRunner } from 'typeorm';

interface Sql {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The company's time zone of a row (its `company_id` column), as the subscribers read it. */
const tz = (companyId: string) => `coalesce((SELECT c.timezone FROM companies c WHERE c.id = ${companyId}), 'UTC')`;

/**
 * Re-keys the `billed` and `customer_billed` cells (daily and monthly) by the billing basis `completed_on`:
 * each order's bill on the day it became final (a completed order's completion day, a cancelled one's
 * cancellation day, in the company's time zone), an open order's on its service date as before. Sets
 * `report_order_facts.billed_on` from the orders, then rebuilds those two metrics from the facts (the
 * other metrics are left as they are). Running it again gives the same rows. Used by the migration and
 * by the test that empties and refills the rollups (after `backfillReportRollups`).
 */
export async function rekeyBilledByFinalDay(q: Sql): Promise<void> {
  await q.query(`
    UPDATE report_order_facts f
       SET billed_on = CASE WHEN o.status = 'completed' AND o.completed_at IS NOT NULL THEN (o.completed_at AT TIME ZONE ${tz('o.company_id')})::date
                            WHEN o.status = 'cancelled' AND o.cancelled_at IS NOT NULL THEN (o.cancelled_at AT TIME ZONE ${tz('o.company_id')})::date
                            ELSE o.delivery_date END
      FROM orders o
     WHERE o.id = f.order_id`);
  await rebuildBilledCells(q);
}

/** The `billed` and `customer_billed` cells made again from the facts, each order on `billed_on` (null: its `day`). */
async function rebuildBilledCells(q: Sql): Promise<void> {
  await q.query(`DELETE FROM report_daily_counters WHERE metric IN ('billed', 'customer_billed')`);
  await q.query(`DELETE FROM report_monthly_counters WHERE metric IN ('billed', 'customer_billed')`);
  // The facts' status and amount are the ones last counted (the `orders` cells were made from them too).
  await q.query(`
    INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
    SELECT company_id, 'billed', coalesce(billed_on, day), '', count(*), sum(billed_amount) FROM report_order_facts WHERE status NOT IN ('none', 'pending', 'rejected') GROUP BY 1, 3
    UNION ALL
    SELECT company_id, 'customer_billed', coalesce(billed_on, day), customer_id::text, count(*), sum(billed_amount) FROM report_order_facts WHERE status NOT IN ('none', 'pending', 'rejected') GROUP BY 1, 3, 4`);
  await q.query(`
    INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount)
    SELECT company_id, metric, date_trunc('month', day)::date, dim, sum(count), sum(amount) FROM report_daily_counters
     WHERE metric IN ('billed', 'customer_billed') GROUP BY 1, 2, 3, 4`);
}

/**
 * Reports: billing counted on the day the bill became final (issue #23). The Reports migration keyed
 * `billed` and `customer_billed` by the planned delivery date, so an order delivered and completed
 * today with its delivery planned for tomorrow showed nothing billed today. `report_order_facts` gets
 * `billed_on` (the day its billed cells are on) and the two metrics are re-keyed from the orders.
 */
export class ReportBillingBasis1764400006731 implements MigrationInterface {
  name = 'ReportBillingBasis1764400006731';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE report_order_facts ADD COLUMN billed_on date`);
    await rekeyBilledByFinalDay(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE report_order_facts SET billed_on = NULL`);
    await rebuildBilledCells(q);
    await q.query(`ALTER TABLE report_order_facts DROP COLUMN billed_on`);
  }
}
