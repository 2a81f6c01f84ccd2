import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { companyTimezoneSql } from '../companies';
import type { DateRange } from './report-range';
import type { ReportMetric } from './report.entities';

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

  /** Adds `count` and `amount` to a cell (created at zero). No-op when both are 0. `prune`: a cell back at zero is removed (the dues: only open balances stay). */
  async add(m: EntityManager, companyId: string, metric: ReportMetric, day: string, dim: string, count: number, amount = 0, prune = false): Promise<void> {
    if (!count && !amount) return;
    await m.query(
      `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET count = report_daily_counters.count + EXCLUDED.count, amount = report_daily_counters.amount + EXCLUDED.amount`,
      [companyId, metric, day, dim, count, amount],
    );
    if (prune) await m.query(`DELETE FROM report_daily_counters WHERE company_id = $1 AND metric = $2 AND day = $3 AND dim = $4 AND count = 0 AND amount = 0`, [companyId, metric, day, dim]);
  }

  /** Sets a cell to the larger of its amount and `amount` (count 1): a day's worked minutes, which only grow. */
  async keepMax(m: EntityManager, companyId: string, metric: ReportMetric, day: string, dim: string, amount: number): Promise<void> {
    await m.query(
      `INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount) VALUES ($1, $2, $3, $4, 1, $5)
       ON CONFLICT (company_id, metric, day, dim) DO UPDATE SET amount = greatest(report_daily_counters.amount, EXCLUDED.amount)`,
      [companyId, metric, day, dim, amount],
    );
  }

  /** Several metrics of one dimension (a driver) over a range, per day: metric → rows. One statement. */
  async readDim(companyId: string, metrics: readonly ReportMetric[], dim: string, r: DateRange): Promise<Map<ReportMetric, CounterRow[]>> {
    const rows = await this.ds.query<{ metric: ReportMetric; day: string; count: string; amount: string }[]>(
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

  /** Every cell of a metric up to `to` (the whole history: the open dues by due date, the rental deltas), per day and dimension. */
  async history(companyId: string, metric: ReportMetric, to: string): Promise<CounterRow[]> {
    const rows = await this.ds.query<{ day: string; dim: string; count: number; amount: string }[]>(
      `SELECT day::text AS day, dim, count, amount::text AS amount FROM report_daily_counters WHERE company_id = $1 AND metric = $2 AND day <= $3 ORDER BY day`,
      [companyId, metric, to],
    );
    return rows.map((x) => ({ day: x.day, dim: x.dim, count: Number(x.count), amount: Number(x.amount) }));
  }

  /**
   * Open balances of these customers (`customer_dues` cells, idx_report_daily_counters_dim): orders,
   * amount, and the part past due on each company's date (its time zone, companies module SQL).
   */
  async customerDues(customers: readonly { companyId: string; customerId: string }[]): Promise<Map<string, { count: number; amount: number; overdueCount: number; overdueAmount: number }>> {
    if (!customers.length) return new Map();
    const rows = await this.ds.query<{ dim: string; count: string; amount: string; overdue_count: string; overdue_amount: string }[]>(
      `SELECT x.dim, sum(x.count)::bigint::text AS count, sum(x.amount)::bigint::text AS amount,
              coalesce(sum(x.count) FILTER (WHERE x.day < (now() AT TIME ZONE ${companyTimezoneSql('x.company_id')})::date), 0)::bigint::text AS overdue_count,
              coalesce(sum(x.amount) FILTER (WHERE x.day < (now() AT TIME ZONE ${companyTimezoneSql('x.company_id')})::date), 0)::bigint::text AS overdue_amount
         FROM unnest($1::uuid[], $2::text[]) AS c(company_id, dim)
         JOIN report_daily_counters x ON x.company_id = c.company_id AND x.metric = 'customer_dues' AND x.dim = c.dim
        GROUP BY x.dim`,
      [customers.map((c) => c.companyId), customers.map((c) => c.customerId)],
    );
    return new Map(rows.map((x) => [x.dim, { count: Number(x.count), amount: Number(x.amount), overdueCount: Number(x.overdue_count), overdueAmount: Number(x.overdue_amount) }]));
  }

  /** A metric summed per company over a range, for these companies. */
  async acrossCompanies(metric: ReportMetric, r: DateRange, companyIds: readonly string[]): Promise<Map<string, { count: number; amount: number }>> {
    if (!companyIds.length) return new Map();
    const rows = await this.ds.query<{ company_id: string; count: string; amount: string }[]>(
      `SELECT company_id, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters
        WHERE company_id = ANY($1) AND metric = $2 AND day BETWEEN $3 AND $4
        GROUP BY company_id`,
      [[...companyIds], metric, r.from, r.to],
    );
    return new Map(rows.map((x) => [x.company_id, { count: Number(x.count), amount: Number(x.amount) }]));
  }

  /** `customer_billed` summed per customer over a range, for these customers of these companies. */
  async customerTotals(companyIds: readonly string[], customerIds: readonly string[], r: DateRange): Promise<Map<string, { count: number; amount: number }>> {
    if (!customerIds.length) return new Map();
    const rows = await this.ds.query<{ dim: string; count: string; amount: string }[]>(
      `SELECT dim, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters
        WHERE company_id = ANY($1) AND metric = 'customer_billed' AND day BETWEEN $3 AND $4 AND dim = ANY($2)
        GROUP BY dim`,
      [[...new Set(companyIds)], [...customerIds], r.from, r.to],
    );
    return new Map(rows.map((x) => [x.dim, { count: Number(x.count), amount: Number(x.amount) }]));
  }

  /** A metric of every company summed per day (the platform's figures; idx_report_daily_counters_metric_day). */
  async platformByDay(metric: ReportMetric, r: DateRange): Promise<CounterRow[]> {
    const rows = await this.ds.query<{ day: string; count: string; amount: string }[]>(
      `SELECT day::text AS day, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters WHERE metric = $1 AND day BETWEEN $2 AND $3 GROUP BY day ORDER BY day`,
      [metric, r.from, r.to],
    );
    return rows.map((x) => ({ day: x.day, dim: '', count: Number(x.count), amount: Number(x.amount) }));
  }

  /** The customers of a metric with the largest amounts over a range (top customers), with their counts. */
  async top(companyId: string, metric: ReportMetric, r: DateRange, limit: number): Promise<{ dim: string; count: number; amount: number }[]> {
    const rows = await this.ds.query<{ dim: string; count: string; amount: string }[]>(
      `SELECT dim, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters
        WHERE company_id = $1 AND metric = $2 AND day BETWEEN $3 AND $4
        GROUP BY dim ORDER BY sum(amount) DESC, dim LIMIT $5`,
      [companyId, metric, r.from, r.to, limit],
    );
    return rows.map((x) => ({ dim: x.dim, count: Number(x.count), amount: Number(x.amount) }));
  }
}
