import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { JobStatus, JobType } from '../jobs';
import type { OrderSummaryRow } from '../orders';
import { addDays, monthOf, type DateRange } from './report-range';
import type { ReportMetric } from './report.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_RANGE: DateRange = { from: '2026-11-15', to: '2027-01-10' };

/**
 * A parallel-unsafe call (side-effect free: null unless the transaction wrote) that keeps a report's
 * statement on one process: on a small machine serving many requests, parallel workers of a 5 ms query
 * cost more than they save (measured: 10 → 6 ms at 1M orders).
 */
const SERIAL = 'txid_current_if_assigned() AS serial';

/** What one statement reads for a dashboard or report (see `ReportsRepository.figures`). */
export interface Want {
  /** Counter metrics over the range: per day for `perDay`, per dimension for the others. */
  metrics?: ReportMetric[];
  perDay?: ReportMetric[];
  utilisation?: boolean;
  dues?: boolean;
  /** The top customers by billed amount, at most this many. */
  top?: number;
  currency?: boolean;
}


/**
 * The whole months a range covers (`from`, `to`: their first days), and the days of the range outside
 * them (before, after); null when it covers none.
 */
function wholeMonths(r: DateRange): { from: string; to: string; days: DateRange[] } | null {
  const first = r.from.endsWith('-01') ? r.from : addDays(monthOf(r.from).to, 1);
  const lastEnd = monthOf(r.to).to === r.to ? r.to : addDays(monthOf(r.to).from, -1);
  if (first > lastEnd) return null;
  return { from: first, to: monthOf(lastEnd).from, days: [{ from: r.from, to: addDays(first, -1) }, { from: addDays(lastEnd, 1), to: r.to }] };
}


/** Metrics whose dimension is a driver (their names are read with the cells). */
export const DRIVER_METRICS: ReportMetric[] = ['driver_jobs', 'driver_tonnage', 'worked'];

/** A row of the figures' statement: one part (`cell`, `rent`, `owned`, `dues`, `top`, `currency`) in one row shape. */
export interface FigureRow {
  part: string;
  metric: ReportMetric;
  day: string;
  dim: string;
  name: string | null;
  count: string;
  amount: string;
  ord: number;
}

/** The customer's dashboard, as one statement reads it. */
export interface CustomerDashboardRow {
  active: OrderSummaryRow[];
  recent: OrderSummaryRow[];
  next: { id: string; order_id: string; type: JobType; status: JobStatus; scheduled_date: string }[];
  dues: { count: number; amount: number; overdue_count: number; overdue_amount: number };
  demerit: { points: number; blocked: boolean };
  currency: string;
}

/**
 * The reports' composed reads (README "Dashboards, analytics and reports"): a company's figures and a
 * customer's dashboard, each one statement over the counters (`report_daily_counters`,
 * `report_monthly_counters`) and the owning modules' SQL APIs (their declared SQL functions, src/database/sql-api.ts;
 * issue #24). Outside a unit of work a named prepared statement (planned once per connection,
 * one per shape of the text); inside one, through its manager.
 */
@Injectable()
export class ReportsRepository extends ModuleRepository {
  /**
   * What a dashboard or report needs, in one statement (UNION ALL of the parts asked for, one row
   * shape): the counter cells of `metrics` over the range, summed in SQL per day (`perDay`, dimensions
   * summed) or per dimension (days summed), with the names of drivers and waste types; the rented days
   * per specification (the running sum of the `rent` deltas over the range up to today, in closed form:
   * deltas before the range × days + each delta in the range × the days it counts for) and the owned
   * days (catalogue SQL); the open dues by days past due (`dues` cells by due date); the top customers
   * with their names; the currency. Each part reads the primary key or idx_report_daily_counters_dim.
   */
  @GenerateSql(
    { name: 'dashboard', params: [SAMPLE_SCOPE, SAMPLE_RANGE, SQL_SAMPLE.date, 'UTC', { metrics: ['orders', 'billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked'], utilisation: true, dues: true, top: 10, currency: true }] },
    { name: 'per day', params: [SAMPLE_SCOPE, { from: SQL_SAMPLE.date, to: SQL_SAMPLE.date }, SQL_SAMPLE.date, 'UTC', { metrics: ['billed', 'orders'], perDay: ['billed', 'orders'] }] },
  )
  figures(scope: Scope, r: DateRange, today: string, timezone: string, want: Want): Promise<FigureRow[]> {
    const params: unknown[] = [];
    const p = (v: unknown) => `$${params.push(v)}`;
    const c = p(scope.companyId);
    const parts: string[] = [];
    if (want.metrics?.length) {
      const perDayMetrics = want.perDay ?? ['billed', 'collected'];
      const perDay = p(perDayMetrics);
      const byDay = want.metrics.filter((k) => perDayMetrics.includes(k));
      const byDim = want.metrics.filter((k) => !perDayMetrics.includes(k));
      // The per-dimension metrics: the months the range covers whole from the monthly cells, the other days from the daily ones.
      const months = wholeMonths(r);
      const sources: string[] = [];
      if (byDay.length) sources.push(`SELECT metric, day, dim, count, amount FROM report_daily_counters WHERE company_id = ${c} AND metric = ANY(${p(byDay)}) AND day BETWEEN ${p(r.from)} AND ${p(r.to)}`);
      if (byDim.length) {
        const dims = p(byDim);
        const days = months ? months.days.filter((d) => d.from <= d.to) : [r];
        if (days.length) sources.push(`SELECT metric, day, dim, count, amount FROM report_daily_counters WHERE company_id = ${c} AND metric = ANY(${dims}) AND (${days.map((d) => `day BETWEEN ${p(d.from)} AND ${p(d.to)}`).join(' OR ')})`);
        if (months) sources.push(`SELECT metric, month AS day, dim, count, amount FROM report_monthly_counters WHERE company_id = ${c} AND metric = ANY(${dims}) AND month BETWEEN ${p(months.from)} AND ${p(months.to)}`);
      }
      parts.push(`SELECT 'cell'::text, g.metric, g.day, g.dim,
                         CASE WHEN g.dim = '' THEN NULL WHEN g.metric = ANY(${p(DRIVER_METRICS)}) THEN users_name(g.dim::uuid) WHEN g.metric = 'tonnage' THEN catalogue_waste_type_name(g.dim::uuid) END AS name,
                         g.count, g.amount, 0
                    FROM (SELECT metric, CASE WHEN metric = ANY(${perDay}) THEN day::text ELSE '' END AS day, CASE WHEN metric = ANY(${perDay}) THEN '' ELSE dim END AS dim,
                                 sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
                            FROM (${sources.join(' UNION ALL ')}) s
                           GROUP BY 1, 2, 3) g`);
    }
    if (want.utilisation) {
      const last = r.to < today ? r.to : today;
      if (r.from <= last) {
        const from = p(r.from);
        const to = p(last);
        parts.push(`SELECT 'rent', NULL, '', dim, NULL,
                           (coalesce(sum(count) FILTER (WHERE day < ${from}::date), 0) * (${to}::date - ${from}::date + 1) + coalesce(sum(count * (${to}::date - day + 1)) FILTER (WHERE day >= ${from}::date), 0))::bigint::text, '0', 0
                      FROM report_daily_counters WHERE company_id = ${c} AND metric = 'rent' AND day <= ${to}::date GROUP BY dim`);
      }
      parts.push(`SELECT 'owned', NULL, '', o.id, o.name, o.assets::text, o.owned_days::text, o.ord FROM catalogue_owned_days(${c}::uuid, ${p(r.from)}::date, ${p(r.to)}::date, ${p(timezone)}::text) o`);
    }
    if (want.dues) {
      const t = p(today);
      parts.push(`SELECT 'dues', NULL, '', b.bucket, NULL, sum(b.count)::bigint::text, sum(b.amount)::bigint::text, 0
                    FROM (SELECT CASE WHEN day >= ${t}::date THEN 0 WHEN ${t}::date - day <= 30 THEN 1 WHEN ${t}::date - day <= 60 THEN 2 WHEN ${t}::date - day <= 90 THEN 3 ELSE 4 END::text AS bucket, count, amount
                            FROM report_daily_counters WHERE company_id = ${c} AND metric = 'dues') b
                   GROUP BY b.bucket`);
    }
    if (want.top) {
      // The months the range covers whole from the monthly cells, the other days from the daily ones.
      const months = wholeMonths(r);
      const days = months ? months.days.filter((d) => d.from <= d.to) : [r];
      const sources = [
        ...(days.length ? [`SELECT dim, count, amount FROM report_daily_counters WHERE company_id = ${c} AND metric = 'customer_billed' AND (${days.map((d) => `day BETWEEN ${p(d.from)} AND ${p(d.to)}`).join(' OR ')})`] : []),
        ...(months ? [`SELECT dim, count, amount FROM report_monthly_counters WHERE company_id = ${c} AND metric = 'customer_billed' AND month BETWEEN ${p(months.from)} AND ${p(months.to)}`] : []),
      ];
      parts.push(`SELECT 'top', NULL, '', t.dim, users_name(t.dim::uuid), t.count, t.amount, t.ord
                    FROM (SELECT dim, sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount, (row_number() OVER (ORDER BY sum(amount) DESC, dim))::int AS ord
                            FROM (${sources.join(' UNION ALL ')}) s
                           GROUP BY dim ORDER BY sum(amount) DESC, dim LIMIT ${p(want.top)}) t`);
    }
    if (want.currency) parts.push(`SELECT 'currency', NULL, '', '', companies_currency(${c}), '0', '0', 0`);
    if (!parts.length) return Promise.resolve([]);
    return this.prepared<FigureRow>('report', `SELECT ${SERIAL}, * FROM (${parts.join('\n UNION ALL\n')}) AS x (part, metric, day, dim, name, count, amount, ord)`, params);
  }

  /**
   * Containers on site, the next jobs, balance and overdue, demerit points, the latest orders, the
   * currency: one statement reading through the owning modules' SQL APIs (orders, jobs, customers, companies)
   * and the customer's `customer_dues` cells (idx_report_daily_counters_dim). The text is the same for
   * every customer.
   */
  @GenerateSql({ params: [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.id), SQL_SAMPLE.date, { active: 50, recent: 5, next: 10 }] })
  async customerDashboard(scope: Scope, today: string, limits: { active: number; recent: number; next: number }): Promise<CustomerDashboardRow> {
    const [row] = await this.prepared<CustomerDashboardRow>(
      'customer_dashboard',
      `SELECT (SELECT coalesce(json_agg(x ORDER BY x.ord), '[]') FROM orders_of_customer($1::uuid, $2::uuid, $3::text[], $4::int) x) AS active,
              (SELECT coalesce(json_agg(x ORDER BY x.ord), '[]') FROM orders_of_customer($1::uuid, $2::uuid, NULL::text[], $5::int) x) AS recent,
              (SELECT coalesce(json_agg(x ORDER BY x.ord), '[]')
                 FROM (SELECT array_agg(i.id) AS ids FROM orders_ids_of_customer($1::uuid, $2::uuid, $6::text[]) i) oi
                 CROSS JOIN LATERAL jobs_upcoming_of_orders($1::uuid, oi.ids, $7::date, $8::int) x) AS next,
              (SELECT json_build_object('count', coalesce(sum(d.count), 0), 'amount', coalesce(sum(d.amount), 0),
                                        'overdue_count', coalesce(sum(d.count) FILTER (WHERE d.day < $7::date), 0), 'overdue_amount', coalesce(sum(d.amount) FILTER (WHERE d.day < $7::date), 0))
                 FROM report_daily_counters d WHERE d.company_id = $1::uuid AND d.metric = 'customer_dues' AND d.dim = ($2::uuid)::text) AS dues,
              customers_demerit($1::uuid, $2::uuid) AS demerit,
              companies_currency($1::uuid) AS currency`,
      [scope.companyId, scope.customerId, ['delivered'], limits.active, limits.recent, ['approved', 'scheduled', 'delivered'], today, limits.next],
    );
    return row;
  }
}
