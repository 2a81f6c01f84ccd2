import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { PlatformReach } from '../../common/access/tenant-policy';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { DateRange } from './report-range';
import { ReportOrderFact, type ReportMetric } from './report.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId);
const SAMPLE_RANGE: DateRange = { from: SQL_SAMPLE.date, to: SQL_SAMPLE.date };

/** The metrics also kept per month (`report_monthly_counters`): all but those read over their whole history. */
export const MONTHLY = new Set<ReportMetric>(['orders', 'billed', 'customer_billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked']);

/** One summed cell of the counters. */
export interface CounterRow {
  day: string;
  dim: string;
  count: number;
  amount: number;
}

/** What the counters last counted of an order (`report_order_facts`), as read back. */
export interface OrderFactRow {
  customer_id: string;
  day: string;
  status: string;
  billed_amount: string;
  balance_amount: string;
  due_date: string | null;
  asset_specification_id: string | null;
  delivered_on: string | null;
  ended_on: string | null;
  billed_on: string | null;
}

/**
 * The daily counters (`report_daily_counters`, and the monthly ones): written by the subscribers (`add`,
 * an upsert that adds to the cell), read by range over the primary key (company, metric, day): a read
 * costs the days and dimensions of the range, never the orders or jobs behind them. Also the order facts
 * (`report_order_facts`) the order subscriber diffs against. Writes run in the relay's unit of work; the
 * reads outside one are named prepared statements (planned once per connection).
 */
@Injectable()
export class ReportCountersRepository extends ModuleRepository {
  /**
   * Adds `count` and `amount` to a cell (created at zero), and to its month's cell for the metrics kept
   * per month (one statement). No-op when both are 0. `prune`: a cell back at zero is removed (the dues:
   * only open balances stay).
   */
  @GenerateSql({ name: 'monthly metric', params: [SAMPLE_SCOPE, 'billed', SQL_SAMPLE.date, '', 1, 100] }, { name: 'daily metric, pruned', params: [SAMPLE_SCOPE, 'dues', SQL_SAMPLE.date, '', -1, -100, true] })
  async add(scope: Scope, metric: ReportMetric, day: string, dim: string, count: number, amount = 0, prune = false): Promise<void> {
    const companyId = scope.companyId;
    if (!count && !amount) return;
    const daily = `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET count = report_daily_counters.count + EXCLUDED.count, amount = report_daily_counters.amount + EXCLUDED.amount`;
    await this.m.query(
      MONTHLY.has(metric)
        ? `WITH d AS (${daily} RETURNING 1)
           INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount) VALUES ($1, $2, date_trunc('month', $3::date)::date, $4, $5, $6)
           ON CONFLICT (company_id, metric, month, dim) DO UPDATE SET count = report_monthly_counters.count + EXCLUDED.count, amount = report_monthly_counters.amount + EXCLUDED.amount`
        : daily,
      [companyId, metric, day, dim, count, amount],
    );
    if (prune) await this.m.query(`DELETE FROM report_daily_counters WHERE company_id = $1 AND metric = $2 AND day = $3 AND dim = $4 AND count = 0 AND amount = 0`, [companyId, metric, day, dim]);
  }

  /**
   * Sets a cell to the larger of its amount and `amount` (count 1): a day's worked minutes, which only
   * grow; then its month's cell is summed again from the month's days (a maximum is not a delta).
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'worked', SQL_SAMPLE.date, SQL_SAMPLE.id, 60] })
  async keepMax(scope: Scope, metric: ReportMetric, day: string, dim: string, amount: number): Promise<void> {
    const companyId = scope.companyId;
    await this.m.query(
      `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, 1, $5)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET amount = greatest(report_daily_counters.amount, EXCLUDED.amount)`,
      [companyId, metric, day, dim, amount],
    );
    await this.m.query(
      `INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount)
       SELECT $1::uuid, $2::text, date_trunc('month', $3::date)::date, $4::text, sum(count), sum(amount) FROM report_daily_counters
        WHERE company_id = $1::uuid AND metric = $2::text AND dim = $4::text AND day >= date_trunc('month', $3::date)::date AND day < (date_trunc('month', $3::date) + interval '1 month')::date
       ON CONFLICT (company_id, metric, month, dim) DO UPDATE SET count = EXCLUDED.count, amount = EXCLUDED.amount`,
      [companyId, metric, day, dim],
    );
  }

  /** Several metrics of one dimension (a driver) over a range, per day: metric → rows. One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, ['driver_jobs', 'worked'], SQL_SAMPLE.id, SAMPLE_RANGE] })
  async readDim(scope: Scope, metrics: readonly ReportMetric[], dim: string, r: DateRange): Promise<Map<ReportMetric, CounterRow[]>> {
    const rows = await this.prepared<{ metric: ReportMetric; day: string; count: string; amount: string }>(
      'report_counters',
      `SELECT metric, day::text AS day, count::text AS count, amount::text AS amount
         FROM report_daily_counters
        WHERE company_id = $1 AND metric = ANY($2) AND day BETWEEN $3 AND $4 AND dim = $5
        ORDER BY metric, day`,
      [scope.companyId, [...metrics], r.from, r.to, dim],
    );
    const out = new Map<ReportMetric, CounterRow[]>(metrics.map((k) => [k, []]));
    for (const x of rows) out.get(x.metric)!.push({ day: x.day, dim, count: Number(x.count), amount: Number(x.amount) });
    return out;
  }

  /**
   * Per customer of a report page, in one statement: `customer_billed` over the range, the open balance
   * and its part past due on the company's date (`customer_dues` cells; idx_report_daily_counters_dim
   * for both), and the demerit standing (the customers module's `customers_demerit`). Only the customers
   * of companies the administrator's `reach` covers.
   */
  @GenerateSql({ params: () => [new PlatformReach(), [{ companyId: SQL_SAMPLE.companyId, customerId: SQL_SAMPLE.id }], SAMPLE_RANGE] })
  async customerFigures(reach: PlatformReach, of: readonly { companyId: string; customerId: string }[], r: DateRange): Promise<Map<string, { count: number; billed: number; balance: number; overdue: number; points: number }>> {
    const customers = reach.companyId ? of.filter((c) => c.companyId === reach.companyId) : of;
    if (!customers.length) return new Map();
    const rows = await this.prepared<{ id: string; count: string; billed: string; balance: string; overdue: string; demerit: { points: number } }>(
      'report_counters',
      `SELECT c.id::text AS id, b.count, b.billed, d.balance, d.overdue, customers_demerit(c.company_id, c.id) AS demerit
         FROM unnest($1::uuid[], $2::uuid[]) AS c(company_id, id)
         CROSS JOIN LATERAL (SELECT coalesce(sum(x.count), 0)::bigint::text AS count, coalesce(sum(x.amount), 0)::bigint::text AS billed FROM report_daily_counters x
                              WHERE x.company_id = c.company_id AND x.metric = 'customer_billed' AND x.dim = c.id::text AND x.day BETWEEN $3 AND $4) b
         CROSS JOIN LATERAL (SELECT coalesce(sum(x.amount), 0)::bigint::text AS balance,
                                    coalesce(sum(x.amount) FILTER (WHERE x.day < (now() AT TIME ZONE companies_timezone(c.company_id))::date), 0)::bigint::text AS overdue
                               FROM report_daily_counters x WHERE x.company_id = c.company_id AND x.metric = 'customer_dues' AND x.dim = c.id::text) d`,
      [customers.map((c) => c.companyId), customers.map((c) => c.customerId), r.from, r.to],
    );
    return new Map(rows.map((x) => [x.id, { count: Number(x.count), billed: Number(x.billed), balance: Number(x.balance), overdue: Number(x.overdue), points: Number(x.demerit.points) }]));
  }

  /** A metric summed per company over a range, for these companies (those the administrator's `reach` covers). */
  @GenerateSql({ params: () => [new PlatformReach(), 'billed', SAMPLE_RANGE, [SQL_SAMPLE.companyId]] })
  async acrossCompanies(reach: PlatformReach, metric: ReportMetric, r: DateRange, ids: readonly string[]): Promise<Map<string, { count: number; amount: number }>> {
    const companyIds = reach.companyId ? ids.filter((id) => id === reach.companyId) : ids;
    if (!companyIds.length) return new Map();
    const rows = await this.prepared<{ company_id: string; count: string; amount: string }>(
      'report_counters',
      `SELECT company_id, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters
        WHERE company_id = ANY($1) AND metric = $2 AND day BETWEEN $3 AND $4
        GROUP BY company_id`,
      [[...companyIds], metric, r.from, r.to],
    );
    return new Map(rows.map((x) => [x.company_id, { count: Number(x.count), amount: Number(x.amount) }]));
  }

  /** A metric of every company the administrator's `reach` covers summed per day (the platform's figures; idx_report_daily_counters_metric_day). */
  @GenerateSql({ params: () => [new PlatformReach(), 'billed', SAMPLE_RANGE] }, { name: 'one company', params: () => [new PlatformReach(SQL_SAMPLE.companyId), 'billed', SAMPLE_RANGE] })
  async platformByDay(reach: PlatformReach, metric: ReportMetric, r: DateRange): Promise<CounterRow[]> {
    const rows = await this.prepared<{ day: string; count: string; amount: string }>(
      'report_counters',
      `SELECT day::text AS day, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters WHERE metric = $1 AND day BETWEEN $2 AND $3${reach.companyId ? ' AND company_id = $4' : ''} GROUP BY day ORDER BY day`,
      reach.companyId ? [metric, r.from, r.to, reach.companyId] : [metric, r.from, r.to],
    );
    return rows.map((x) => ({ day: x.day, dim: '', count: Number(x.count), amount: Number(x.amount) }));
  }

  // ------------------------------------------------------------------ order facts

  /** Starts the order's facts (status `none`: nothing counted yet) unless it has some. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId, SQL_SAMPLE.date] })
  async startOrderFacts(scope: Scope, orderId: string, customerId: string, day: string): Promise<void> {
    await this.m.query(`INSERT INTO report_order_facts (order_id, company_id, customer_id, day, status) VALUES ($1, $2, $3, $4, 'none') ON CONFLICT (order_id) DO NOTHING`, [orderId, scope.companyId, customerId, day]);
  }

  /** The facts of an order of the scope's company, locked (FOR UPDATE; inside a unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async lockOrderFacts(scope: Scope, orderId: string): Promise<OrderFactRow | undefined> {
    const [was] = await this.locked.query<OrderFactRow[]>(
      `SELECT customer_id, day::text AS day, status, billed_amount::text AS billed_amount, balance_amount::text AS balance_amount, due_date::text AS due_date,
              asset_specification_id, delivered_on::text AS delivered_on, ended_on::text AS ended_on, billed_on::text AS billed_on
         FROM report_order_facts WHERE order_id = $1 AND company_id = $2 FOR UPDATE`,
      [orderId, scope.companyId],
    );
    return was;
  }

  /** Changes the facts of an order of the scope's company (locked by `lockOrderFacts`). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'approved', billedAmount: '100' }] })
  async updateOrderFacts(scope: Scope, orderId: string, values: Partial<ReportOrderFact>): Promise<void> {
    await this.m.update(ReportOrderFact, { orderId, companyId: scope.companyId }, values);
  }
}
