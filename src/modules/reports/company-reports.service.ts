import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { CatalogueReadModel, wasteTypeNameSql } from '../catalogue';
import { CompaniesService } from '../companies';
import { JOB_TYPES } from '../jobs';
import { UsersService } from '../users';
import type { DuesTotalsDto } from '../payments';
import { ReportCounters } from './report-counters';
import { bps, datesOf, daysBetween, resolveRange, round, type DateRange } from './report-range';
import type { ReportMetric } from './report.entities';
import type {
  AnalyticsDto,
  CompanyDashboardDto,
  CompanyReportName,
  DriverFiguresDto,
  JobTypeCountDto,
  OnTimeDto,
  RangeQuery,
  ReportTableDto,
  RevenueDto,
  StatusCountDto,
  TonnageDto,
  TopCustomerDto,
  UtilisationDto,
} from './reports.dto';

const ORDER_STATUSES = ['pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled'] as const;
/** The small metrics of a company's range, read in one statement (customers are read apart: they are many). */
const DASHBOARD_METRICS: ReportMetric[] = ['orders', 'billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked'];
const TOP_CUSTOMERS = 10;
/** The customers table of `GET /reports` lists at most this many customers (the largest first). */
export const MAX_CUSTOMER_ROWS = 10_000;

/** The counter cells of a range: metric → rows (day, dim, count, amount). */
type Cells = Map<ReportMetric, { day: string; dim: string; count: number; amount: number }[]>;

const sumBy = <T>(rows: readonly T[], key: (r: T) => string, value: (r: T) => number) => {
  const out = new Map<string, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + value(r));
  return out;
};

/**
 * The company's figures over a date range (README "Dashboards, analytics and reports"): from the
 * daily counters (revenue, orders, jobs, drivers' jobs and km, tonnage, on-time deliveries, top
 * customers), and from indexed aggregates of the owning modules (worked time, asset utilisation,
 * dues ageing). `GET /company/dashboard`, `/analytics` and `/reports` share them.
 */
@Injectable()
export class CompanyReportsService {
  constructor(
    private readonly ds: DataSource,
    private readonly counters: ReportCounters,
    private readonly companies: CompaniesService,
    private readonly users: UsersService,
    private readonly catalogue: CatalogueReadModel,
  ) {}

  async timezone(scope: Scope): Promise<string> {
    return scope.timezone ?? this.companies.timezone(scope.companyId);
  }

  /** The range of the query in the company's dates (422 on a bad one). */
  async range(scope: Scope, q: RangeQuery): Promise<{ range: DateRange; today: string; timezone: string }> {
    const timezone = await this.timezone(scope);
    const today = todayIn(timezone);
    return { range: resolveRange(q, today), today, timezone };
  }

  async dashboard(scope: Scope, q: RangeQuery): Promise<CompanyDashboardDto> {
    const { range, today, timezone } = await this.range(scope, q);
    const c = scope.companyId;
    const [cells, company, utilisation, dues, top] = await Promise.all([
      this.cells(c, DASHBOARD_METRICS, range),
      this.companies.withPlatform(c),
      this.utilisation(c, range, today, timezone),
      this.dues(c, today),
      this.topCustomers(c, range, TOP_CUSTOMERS),
    ]);
    return {
      from: range.from,
      to: range.to,
      currency: company.currency,
      revenue: this.revenue(cells, range),
      orders_by_status: this.ordersByStatus(cells),
      jobs_by_type: this.jobsByType(cells),
      drivers: await this.drivers(cells),
      tonnage: await this.tonnage(cells),
      asset_utilisation: utilisation,
      on_time_delivery: this.onTime(cells),
      dues_ageing: dues,
      top_customers: top,
    };
  }

  async analytics(scope: Scope, q: RangeQuery): Promise<AnalyticsDto> {
    const { range } = await this.range(scope, q);
    const metrics: ReportMetric[] = ['billed', 'collected', 'orders', 'jobs', 'tonnage'];
    const cells = await this.cells(scope.companyId, metrics, range, metrics);
    const dates = datesOf(range);
    const series = (name: string, metric: ReportMetric, value: (r: { count: number; amount: number }) => number) => {
      const byDay = sumBy(cells.get(metric)!, (r) => r.day, value);
      return { name, points: dates.map((d): [string, number] => [d, byDay.get(d) ?? 0]) };
    };
    return {
      from: range.from,
      to: range.to,
      series: [
        series('billed_amount', 'billed', (r) => r.amount),
        series('collected_amount', 'collected', (r) => r.amount),
        series('orders', 'orders', (r) => r.count),
        series('jobs_completed', 'jobs', (r) => r.count),
        series('net_kg', 'tonnage', (r) => r.amount),
      ],
    };
  }

  /** One report table over the range (the same figures as the dashboard, as columns and rows). */
  async table(scope: Scope, q: RangeQuery, report: CompanyReportName): Promise<ReportTableDto> {
    const { range, today, timezone } = await this.range(scope, q);
    const c = scope.companyId;
    const base = { report, from: range.from, to: range.to };
    switch (report) {
      case 'revenue': {
        const cells = await this.cells(c, ['billed', 'collected'], range);
        const rev = this.revenue(cells, range);
        const orders = sumBy(cells.get('billed')!, (r) => r.day, (r) => r.count);
        return { ...base, columns: ['date', 'billed_amount', 'collected_amount', 'orders_billed'], rows: rev.by_day.map((d) => [d.date, d.billed_amount, d.collected_amount, orders.get(d.date) ?? 0]) };
      }
      case 'orders':
        return { ...base, columns: ['status', 'orders'], rows: this.ordersByStatus(await this.cells(c, ['orders'], range)).map((s) => [s.status, s.count]) };
      case 'jobs':
        return { ...base, columns: ['type', 'completed'], rows: this.jobsByType(await this.cells(c, ['jobs'], range)).map((s) => [s.type, s.count]) };
      case 'drivers': {
        const rows = await this.drivers(await this.cells(c, ['driver_jobs', 'driver_tonnage', 'worked'], range));
        return {
          ...base,
          columns: ['driver_id', 'name', 'jobs', 'km', 'net_kg', 'worked_minutes', 'jobs_per_hour', 'km_per_hour'],
          rows: rows.map((d) => [d.driver_id, d.name, d.jobs, d.km, d.net_kg, d.worked_minutes, d.jobs_per_hour, d.km_per_hour]),
        };
      }
      case 'tonnage':
        return { ...base, columns: ['waste_type_id', 'name', 'tickets', 'net_kg'], rows: (await this.tonnage(await this.cells(c, ['tonnage'], range))).map((t) => [t.waste_type_id, t.name, t.tickets, t.net_kg]) };
      case 'utilisation':
        return {
          ...base,
          columns: ['asset_specification_id', 'name', 'assets', 'owned_days', 'rented_days', 'utilisation_bps'],
          rows: (await this.utilisation(c, range, today, timezone)).map((u) => [u.asset_specification_id, u.name, u.assets, u.owned_days, u.rented_days, u.utilisation_bps]),
        };
      case 'customers':
        return { ...base, columns: ['customer_id', 'name', 'orders', 'billed_amount'], rows: (await this.topCustomers(c, range, MAX_CUSTOMER_ROWS)).map((t) => [t.customer_id, t.name, t.orders, t.billed_amount]) };
      case 'dues': {
        const d = await this.dues(c, today);
        const buckets: [string, number][] = [
          ['not_yet_due', d.not_yet_due_amount],
          ['1-30', d.aged_0_30_amount],
          ['31-60', d.aged_31_60_amount],
          ['61-90', d.aged_61_90_amount],
          ['90+', d.aged_90_plus_amount],
        ];
        return { ...base, columns: ['age_days', 'amount'], rows: buckets };
      }
    }
  }

  // ------------------------------------------------------------------ figures

  /**
   * The cells of some metrics over the range, summed in SQL: per day (dimensions summed, `dim` '') for
   * the `perDay` metrics, per dimension (days summed, `day` '') for the others. One statement over the
   * primary key; the answer has days + dimensions rows, not days × dimensions.
   */
  private async cells(companyId: string, metrics: ReportMetric[], r: DateRange, perDay: ReportMetric[] = ['billed', 'collected']): Promise<Cells> {
    const rows = await this.ds.query<{ metric: ReportMetric; day: string; dim: string; count: string; amount: string }[]>(
      `SELECT metric, CASE WHEN metric = ANY($5) THEN day::text ELSE '' END AS day, CASE WHEN metric = ANY($5) THEN '' ELSE dim END AS dim,
              sum(count)::bigint::text AS count, sum(amount)::bigint::text AS amount
         FROM report_daily_counters WHERE company_id = $1 AND metric = ANY($2) AND day BETWEEN $3 AND $4
        GROUP BY 1, 2, 3`,
      [companyId, metrics, r.from, r.to, perDay],
    );
    const out: Cells = new Map(metrics.map((k) => [k, []]));
    for (const x of rows) out.get(x.metric)!.push({ day: x.day, dim: x.dim, count: Number(x.count), amount: Number(x.amount) });
    return out;
  }

  private revenue(cells: Cells, r: DateRange): RevenueDto {
    const billed = sumBy(cells.get('billed')!, (x) => x.day, (x) => x.amount);
    const collected = sumBy(cells.get('collected')!, (x) => x.day, (x) => x.amount);
    const byDay = datesOf(r).map((date) => ({ date, billed_amount: billed.get(date) ?? 0, collected_amount: collected.get(date) ?? 0 }));
    return { billed_amount: byDay.reduce((s, d) => s + d.billed_amount, 0), collected_amount: byDay.reduce((s, d) => s + d.collected_amount, 0), by_day: byDay };
  }

  private ordersByStatus(cells: Cells): StatusCountDto[] {
    const by = sumBy(cells.get('orders')!, (x) => x.dim, (x) => x.count);
    return ORDER_STATUSES.map((status) => ({ status, count: by.get(status) ?? 0 }));
  }

  private jobsByType(cells: Cells): JobTypeCountDto[] {
    const by = sumBy(cells.get('jobs')!, (x) => x.dim, (x) => x.count);
    return JOB_TYPES.map((type) => ({ type, count: by.get(type) ?? 0 }));
  }

  private onTime(cells: Cells): OnTimeDto {
    const by = sumBy(cells.get('deliveries')!, (x) => x.dim, (x) => x.count);
    const onTime = by.get('on_time') ?? 0;
    const late = by.get('late') ?? 0;
    return { completed: onTime + late, on_time: onTime, late, on_time_bps: bps(onTime, onTime + late) };
  }

  /** Jobs, km and tonnage per driver with their worked minutes (closed days), most jobs first. */
  private async drivers(cells: Cells): Promise<DriverFiguresDto[]> {
    const jobs = sumBy(cells.get('driver_jobs')!, (x) => x.dim, (x) => x.count);
    const meters = sumBy(cells.get('driver_jobs')!, (x) => x.dim, (x) => x.amount);
    const kg = sumBy(cells.get('driver_tonnage')!, (x) => x.dim, (x) => x.amount);
    const worked = sumBy(cells.get('worked')!, (x) => x.dim, (x) => x.amount);
    const ids = [...new Set([...jobs.keys(), ...worked.keys()])];
    const names = await this.users.names(ids);
    return ids
      .map((id) => {
        const minutes = worked.get(id) ?? 0;
        const km = (meters.get(id) ?? 0) / 1000;
        const n = jobs.get(id) ?? 0;
        return {
          driver_id: id,
          name: names.get(id) ?? '',
          jobs: n,
          km: round(km, 1),
          net_kg: kg.get(id) ?? 0,
          worked_minutes: minutes,
          jobs_per_hour: minutes ? round((n * 60) / minutes, 2) : 0,
          km_per_hour: minutes ? round((km * 60) / minutes, 2) : 0,
        };
      })
      .sort((a, b) => b.jobs - a.jobs || a.name.localeCompare(b.name) || a.driver_id.localeCompare(b.driver_id));
  }

  private async tonnage(cells: Cells): Promise<TonnageDto[]> {
    const tickets = sumBy(cells.get('tonnage')!, (x) => x.dim, (x) => x.count);
    const kg = sumBy(cells.get('tonnage')!, (x) => x.dim, (x) => x.amount);
    if (!kg.size) return [];
    const names = await this.ds.query<{ id: string; name: string | null }[]>(`SELECT x.id::text AS id, ${wasteTypeNameSql('x.id')} AS name FROM unnest($1::uuid[]) AS x(id)`, [[...kg.keys()]]);
    const nameOf = new Map(names.map((n) => [n.id, n.name ?? '']));
    return [...kg.entries()]
      .map(([id, netKg]) => ({ waste_type_id: id, name: nameOf.get(id) ?? '', tickets: tickets.get(id) ?? 0, net_kg: netKg }))
      .sort((a, b) => b.net_kg - a.net_kg || a.waste_type_id.localeCompare(b.waste_type_id));
  }

  /**
   * Days on rent ÷ days owned per specification. Days on rent: over the dates of the range up to today,
   * the running sum of the `rent` deltas (containers on rent that day), summed in SQL in closed form:
   * (deltas before the range) × days + Σ each delta in the range × the days it counts for.
   */
  private async utilisation(companyId: string, r: DateRange, today: string, timezone: string): Promise<UtilisationDto[]> {
    const last = r.to < today ? r.to : today;
    const [owned, rows] = await Promise.all([
      this.catalogue.ownedDaysBySpecification(companyId, r.from, r.to, timezone),
      r.from > last
        ? Promise.resolve([])
        : this.ds.query<{ dim: string; days: string }[]>(
            `SELECT dim, (coalesce(sum(count) FILTER (WHERE day < $3), 0) * ($4::date - $3::date + 1) + coalesce(sum(count * ($4::date - day + 1)) FILTER (WHERE day >= $3), 0))::bigint::text AS days
               FROM report_daily_counters WHERE company_id = $1 AND metric = $2 AND day <= $4 GROUP BY dim`,
            [companyId, 'rent', r.from, last],
          ),
    ]);
    const rented = new Map(rows.map((x) => [x.dim, Number(x.days)]));
    return owned.map((s) => {
      const n = rented.get(s.specificationId) ?? 0;
      return { asset_specification_id: s.specificationId, name: s.name, assets: s.assets, owned_days: s.ownedDays, rented_days: n, utilisation_bps: bps(n, s.ownedDays) };
    });
  }

  /** Dues now by days past due (the open balances by due date, from the `dues` cells). */
  private async dues(companyId: string, today: string): Promise<DuesTotalsDto> {
    const out: DuesTotalsDto = { orders_count: 0, total_due_amount: 0, overdue_count: 0, overdue_amount: 0, not_yet_due_amount: 0, aged_0_30_amount: 0, aged_31_60_amount: 0, aged_61_90_amount: 0, aged_90_plus_amount: 0 };
    for (const x of await this.counters.history(companyId, 'dues', '9999-12-31')) {
      const age = daysBetween(x.day, today);
      out.orders_count += x.count;
      out.total_due_amount += x.amount;
      if (age <= 0) {
        out.not_yet_due_amount += x.amount;
        continue;
      }
      out.overdue_count += x.count;
      out.overdue_amount += x.amount;
      if (age <= 30) out.aged_0_30_amount += x.amount;
      else if (age <= 60) out.aged_31_60_amount += x.amount;
      else if (age <= 90) out.aged_61_90_amount += x.amount;
      else out.aged_90_plus_amount += x.amount;
    }
    return out;
  }

  private async topCustomers(companyId: string, r: DateRange, limit: number): Promise<TopCustomerDto[]> {
    const top = await this.counters.top(companyId, 'customer_billed', r, limit);
    const names = await this.users.names(top.map((t) => t.dim));
    return top.map((t) => ({ customer_id: t.dim, name: names.get(t.dim) ?? '', orders: t.count, billed_amount: t.amount }));
  }
}
