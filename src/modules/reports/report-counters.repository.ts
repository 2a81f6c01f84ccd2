import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { preparedByText } from '../../database/prepared-query';
import { companyTimezoneSql } from '../companies';
import { CustomersService } from '../customers';
import type { DateRange } from './report-range';
import type { ReportMetric } from './report.entities';

/** The metrics also kept per month (`report_monthly_counters`): all but those read over their whole history. */
export const MONTHLY = new Set<ReportMetric>(['orders', 'billed', 'customer_billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked']);

/** One summed cell of the counters. */
export interface CounterRow {
  day: string;
  dim: string;
  count: number;
  amount: number;
}

/**
 * The daily counters (`report_daily_counters`): written by the subscribers (`add`, an upsert that adds
 * to the cell), read by range over the primary key (company, metric, day): a read costs the days and
 * dimensions of the range, never the orders or jobs behind them.
 */
@Injectable()
export class ReportCounters {
  constructor(private readonly ds: DataSource) {}

  /**
   * Adds `count` and `amount` to a cell (created at zero), and to its month's cell for the metrics kept
   * per month (one statement). No-op when both are 0. `prune`: a cell back at zero is removed (the dues:
   * only open balances stay).
   */
  async add(m: EntityManager, companyId: string, metric: ReportMetric, day: string, dim: string, count: number, amount = 0, prune = false): Promise<void> {
    if (!count && !amount) return;
    const daily = `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET count = report_daily_counters.count + EXCLUDED.count, amount = report_daily_counters.amount + EXCLUDED.amount`;
    await m.query(
      MONTHLY.has(metric)
        ? `WITH d AS (${daily} RETURNING 1)
           INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount) VALUES ($1, $2, date_trunc('month', $3::date)::date, $4, $5, $6)
           ON CONFLICT (company_id, metric, month, dim) DO UPDATE SET count = report_monthly_counters.count + EXCLUDED.count, amount = report_monthly_counters.amount + EXCLUDED.amount`
        : daily,
      [companyId, metric, day, dim, count, amount],
    );
    if (prune) await m.query(`DELETE FROM report_daily_counters WHERE company_id = $1 AND metric = $2 AND day = $3 AND dim = $4 AND count = 0 AND amount = 0`, [companyId, metric, day, dim]);
  }

  /**
   * Sets a cell to the larger of its amount and `amount` (count 1): a day's worked minutes, which only
   * grow; then its month's cell is summed again from the month's days (a maximum is not a delta).
   */
  async keepMax(m: EntityManager, companyId: string, metric: ReportMetric, day: string, dim: string, amount: number): Promise<void> {
    await m.query(
      `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, 1, $5)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET amount = greatest(report_daily_counters.amount, EXCLUDED.amount)`,
      [companyId, metric, day, dim, amount],
    );
    await m.query(
      `INSERT INTO report_monthly_counters (company_id, metric, month, dim, count, amount)
       SELECT $1::uuid, $2::text, date_trunc('month', $3::date)::date, $4::text, sum(count), sum(amount) FROM report_daily_counters
        WHERE company_id = $1::uuid AND metric = $2::text AND dim = $4::text AND day >= date_trunc('month', $3::date)::date AND day < (date_trunc('month', $3::date) + interval '1 month')::date
       ON CONFLICT (company_id, metric, month, dim) DO UPDATE SET count = EXCLUDED.count, amount = EXCLUDED.amount`,
      [companyId, metric, day, dim],
    );
  }

  /** Several metrics of one dimension (a driver) over a range, per day: metric → rows. One statement. */
  async readDim(companyId: string, metrics: readonly ReportMetric[], dim: string, r: DateRange): Promise<Map<ReportMetric, CounterRow[]>> {
    const rows = await preparedByText<{ metric: ReportMetric; day: string; count: string; amount: string }>(
      this.ds,
      'report_counters',
      `SELECT metric, day::text AS day, count::text AS count, amount::text AS amount
         FROM report_daily_counters
        WHERE company_id = $1 AND metric = ANY($2) AND day BETWEEN $3 AND $4 AND dim = $5
        ORDER BY metric, day`,
      [companyId, [...metrics], r.from, r.to, dim],
    );
    const out = new Map<ReportMetric, CounterRow[]>(metrics.map((k) => [k, []]));
    for (const x of rows) out.get(x.metric)!.push({ day: x.day, dim, count: Number(x.count), amount: Number(x.amount) });
    return out;
  }

  /**
   * Per customer of a report page, in one statement: `customer_billed` over the range, the open balance
   * and its part past due on the company's date (`customer_dues` cells; idx_report_daily_counters_dim
   * for both), and the demerit standing (customers module SQL).
   */
  async customerFigures(customers: readonly { companyId: string; customerId: string }[], r: DateRange): Promise<Map<string, { count: number; billed: number; balance: number; overdue: number; points: number }>> {
    if (!customers.length) return new Map();
    const rows = await preparedByText<{ id: string; count: string; billed: string; balance: string; overdue: string; demerit: { points: number } }>(
      this.ds,
      'report_counters',
      `SELECT c.id::text AS id, b.count, b.billed, d.balance, d.overdue, ${CustomersService.demeritSql('c.company_id', 'c.id')} AS demerit
         FROM unnest($1::uuid[], $2::uuid[]) AS c(company_id, id)
         CROSS JOIN LATERAL (SELECT coalesce(sum(x.count), 0)::bigint::text AS count, coalesce(sum(x.amount), 0)::bigint::text AS billed FROM report_daily_counters x
                              WHERE x.company_id = c.company_id AND x.metric = 'customer_billed' AND x.dim = c.id::text AND x.day BETWEEN $3 AND $4) b
         CROSS JOIN LATERAL (SELECT coalesce(sum(x.amount), 0)::bigint::text AS balance,
                                    coalesce(sum(x.amount) FILTER (WHERE x.day < (now() AT TIME ZONE ${companyTimezoneSql('c.company_id')})::date), 0)::bigint::text AS overdue
                               FROM report_daily_counters x WHERE x.company_id = c.company_id AND x.metric = 'customer_dues' AND x.dim = c.id::text) d`,
      [customers.map((c) => c.companyId), customers.map((c) => c.customerId), r.from, r.to],
    );
    return new Map(rows.map((x) => [x.id, { count: Number(x.count), billed: Number(x.billed), balance: Number(x.balance), overdue: Number(x.overdue), points: Number(x.demerit.points) }]));
  }

  /** A metric summed per company over a range, for these companies. */
  async acrossCompanies(metric: ReportMetric, r: DateRange, companyIds: readonly string[]): Promise<Map<string, { count: number; amount: number }>> {
    if (!companyIds.length) return new Map();
    const rows = await preparedByText<{ company_id: string; count: string; amount: string }>(
      this.ds,
      'report_counters',
      `SELECT company_id, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters
        WHERE company_id = ANY($1) AND metric = $2 AND day BETWEEN $3 AND $4
        GROUP BY company_id`,
      [[...companyIds], metric, r.from, r.to],
    );
    return new Map(rows.map((x) => [x.company_id, { count: Number(x.count), amount: Number(x.amount) }]));
  }

  /** A metric of every company summed per day (the platform's figures; idx_report_daily_counters_metric_day). */
  async platformByDay(metric: ReportMetric, r: DateRange): Promise<CounterRow[]> {
    const rows = await preparedByText<{ day: string; count: string; amount: string }>(
      this.ds,
      'report_counters',
      `SELECT day::text AS day, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters WHERE metric = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day`,
      [metric, r.from, r.to],
    );
    return rows.map((x) => ({ day: x.day, dim: '', count: Number(x.count), amount: Number(x.amount) }));
  }
}
