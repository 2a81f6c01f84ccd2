import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { CompaniesService } from '../companies';
import { JOB_TYPES } from '../jobs';
import type { DuesTotalsDto } from '../payments';
import { bps, datesOf, resolveRange, round, type DateRange } from './report-range';
import { DRIVER_METRICS, ReportsRepository, type Want } from './reports.repository';
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
import { BILLING_BASIS } from './reports.dto';

const ORDER_STATUSES = ['pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled'] as const;
/** The small metrics of a company's range, read in one statement (customers are read apart: they are many). */
const DASHBOARD_METRICS: ReportMetric[] = ['orders', 'billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked'];
const TOP_CUSTOMERS = 10;
/** The customers table of `GET /reports` lists at most this many customers (the largest first). */
export const MAX_CUSTOMER_ROWS = 10_000;

/** The counter cells of a range: metric → rows (day, dim, count, amount). */
type Cells = Map<ReportMetric, { day: string; dim: string; count: number; amount: number }[]>;
/** Dues by days past due: the buckets of `DuesTotalsDto`. */
const DUE_BUCKETS = ['not_yet_due_amount', 'aged_0_30_amount', 'aged_31_60_amount', 'aged_61_90_amount', 'aged_90_plus_amount'] as const;

/** What one statement read: the cells with the names of their dimensions, and the other parts. */
interface Read {
  cells: Cells;
  names: Map<string, string>;
  currency: string;
  rent: Map<string, number>;
  owned: { specificationId: string; name: string; assets: number; ownedDays: number }[];
  dues: DuesTotalsDto;
  top: TopCustomerDto[];
}

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
    private readonly reports: ReportsRepository,
    private readonly companies: CompaniesService,
  ) {}

  async timezone(scope: Scope): Promise<string> {
    return scope.timezone ?? this.companies.timezone(scope);
  }

  /** The range of the query in the company's dates (422 on a bad one). */
  async range(scope: Scope, q: RangeQuery): Promise<{ range: DateRange; today: string; timezone: string }> {
    const timezone = await this.timezone(scope);
    const today = todayIn(timezone);
    return { range: resolveRange(q, today), today, timezone };
  }

  /** Every figure in one statement (`read`); the range's days and the dimensions are the only per-row work here. */
  async dashboard(scope: Scope, q: RangeQuery): Promise<CompanyDashboardDto> {
    const { range, today, timezone } = await this.range(scope, q);
    const x = await this.read(scope, range, today, timezone, { metrics: DASHBOARD_METRICS, utilisation: true, dues: true, top: TOP_CUSTOMERS, currency: true });
    return {
      from: range.from,
      to: range.to,
      currency: x.currency,
      revenue: this.revenue(x.cells, range),
      orders_by_status: this.ordersByStatus(x.cells),
      jobs_by_type: this.jobsByType(x.cells),
      drivers: this.drivers(x),
      tonnage: this.tonnage(x),
      asset_utilisation: this.utilisation(x),
      on_time_delivery: this.onTime(x.cells),
      dues_ageing: x.dues,
      top_customers: x.top,
    };
  }

  async analytics(scope: Scope, q: RangeQuery): Promise<AnalyticsDto> {
    const { range, today, timezone } = await this.range(scope, q);
    const metrics: ReportMetric[] = ['billed', 'collected', 'orders', 'jobs', 'tonnage'];
    const { cells } = await this.read(scope, range, today, timezone, { metrics, perDay: metrics });
    const dates = datesOf(range);
    const series = (name: string, metric: ReportMetric, value: (r: { count: number; amount: number }) => number) => {
      const byDay = sumBy(cells.get(metric)!, (r) => r.day, value);
      return { name, points: dates.map((d): [string, number] => [d, byDay.get(d) ?? 0]) };
    };
    return {
      from: range.from,
      to: range.to,
      billing_basis: BILLING_BASIS,
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
    const read = (want: Want) => this.read(scope, range, today, timezone, want);
    const base = { report, billing_basis: BILLING_BASIS, from: range.from, to: range.to };
    switch (report) {
      case 'revenue': {
        const { cells } = await read({ metrics: ['billed', 'collected'] });
        const rev = this.revenue(cells, range);
        const orders = sumBy(cells.get('billed')!, (r) => r.day, (r) => r.count);
        return { ...base, columns: ['date', 'billed_amount', 'collected_amount', 'orders_billed'], rows: rev.by_day.map((d) => [d.date, d.billed_amount, d.collected_amount, orders.get(d.date) ?? 0]) };
      }
      case 'orders':
        return { ...base, columns: ['status', 'orders'], rows: this.ordersByStatus((await read({ metrics: ['orders'] })).cells).map((s) => [s.status, s.count]) };
      case 'jobs':
        return { ...base, columns: ['type', 'completed'], rows: this.jobsByType((await read({ metrics: ['jobs'] })).cells).map((s) => [s.type, s.count]) };
      case 'drivers': {
        const rows = this.drivers(await read({ metrics: DRIVER_METRICS }));
        return {
          ...base,
          columns: ['driver_id', 'name', 'jobs', 'km', 'net_kg', 'worked_minutes', 'jobs_per_hour', 'km_per_hour'],
          rows: rows.map((d) => [d.driver_id, d.name, d.jobs, d.km, d.net_kg, d.worked_minutes, d.jobs_per_hour, d.km_per_hour]),
        };
      }
      case 'tonnage':
        return { ...base, columns: ['waste_type_id', 'name', 'tickets', 'net_kg'], rows: this.tonnage(await read({ metrics: ['tonnage'] })).map((t) => [t.waste_type_id, t.name, t.tickets, t.net_kg]) };
      case 'utilisation':
        return {
          ...base,
          columns: ['asset_specification_id', 'name', 'assets', 'owned_days', 'rented_days', 'utilisation_bps'],
          rows: this.utilisation(await read({ utilisation: true })).map((u) => [u.asset_specification_id, u.name, u.assets, u.owned_days, u.rented_days, u.utilisation_bps]),
        };
      case 'customers':
        return { ...base, columns: ['customer_id', 'name', 'orders', 'billed_amount'], rows: (await read({ top: MAX_CUSTOMER_ROWS })).top.map((t) => [t.customer_id, t.name, t.orders, t.billed_amount]) };
      case 'dues': {
        const d = (await read({ dues: true })).dues;
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

  /** Every figure `want` names, read in one statement (`ReportsRepository#figures`) and sorted into its parts. */
  private async read(scope: Scope, r: DateRange, today: string, timezone: string, want: Want): Promise<Read> {
    const rows = await this.reports.figures(scope, r, today, timezone, want);
    const out: Read = {
      cells: new Map((want.metrics ?? []).map((k) => [k, []])),
      names: new Map(),
      currency: '',
      rent: new Map(),
      owned: [],
      dues: { orders_count: 0, total_due_amount: 0, overdue_count: 0, overdue_amount: 0, not_yet_due_amount: 0, aged_0_30_amount: 0, aged_31_60_amount: 0, aged_61_90_amount: 0, aged_90_plus_amount: 0 },
      top: [],
    };
    const owned: (Read['owned'][number] & { ord: number })[] = [];
    const top: (TopCustomerDto & { ord: number })[] = [];
    for (const x of rows) {
      const count = Number(x.count);
      const amount = Number(x.amount);
      switch (x.part) {
        case 'cell':
          out.cells.get(x.metric)!.push({ day: x.day, dim: x.dim, count, amount });
          if (x.name !== null) out.names.set(x.dim, x.name);
          break;
        case 'rent':
          out.rent.set(x.dim, count);
          break;
        case 'owned':
          owned.push({ specificationId: x.dim, name: x.name ?? '', assets: count, ownedDays: amount, ord: x.ord });
          break;
        case 'dues': {
          const bucket = Number(x.dim);
          out.dues.orders_count += count;
          out.dues.total_due_amount += amount;
          out.dues[DUE_BUCKETS[bucket]] += amount;
          if (bucket > 0) {
            out.dues.overdue_count += count;
            out.dues.overdue_amount += amount;
          }
          break;
        }
        case 'top':
          top.push({ customer_id: x.dim, name: x.name ?? '', orders: count, billed_amount: amount, ord: x.ord });
          break;
        case 'currency':
          out.currency = x.name ?? '';
          break;
      }
    }
    out.owned = owned.sort((a, b) => a.ord - b.ord).map(({ ord: _, ...o }) => o);
    out.top = top.sort((a, b) => a.ord - b.ord).map(({ ord: _, ...t }) => t);
    return out;
  }

  private revenue(cells: Cells, r: DateRange): RevenueDto {
    const billed = sumBy(cells.get('billed')!, (x) => x.day, (x) => x.amount);
    const collected = sumBy(cells.get('collected')!, (x) => x.day, (x) => x.amount);
    const byDay = datesOf(r).map((date) => ({ date, billed_amount: billed.get(date) ?? 0, collected_amount: collected.get(date) ?? 0 }));
    return { billing_basis: BILLING_BASIS, billed_amount: byDay.reduce((s, d) => s + d.billed_amount, 0), collected_amount: byDay.reduce((s, d) => s + d.collected_amount, 0), by_day: byDay };
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
  private drivers({ cells, names }: Read): DriverFiguresDto[] {
    const jobs = sumBy(cells.get('driver_jobs')!, (x) => x.dim, (x) => x.count);
    const meters = sumBy(cells.get('driver_jobs')!, (x) => x.dim, (x) => x.amount);
    const kg = sumBy(cells.get('driver_tonnage')!, (x) => x.dim, (x) => x.amount);
    const worked = sumBy(cells.get('worked')!, (x) => x.dim, (x) => x.amount);
    const ids = [...new Set([...jobs.keys(), ...worked.keys()])];
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

  private tonnage({ cells, names }: Read): TonnageDto[] {
    const tickets = sumBy(cells.get('tonnage')!, (x) => x.dim, (x) => x.count);
    const kg = sumBy(cells.get('tonnage')!, (x) => x.dim, (x) => x.amount);
    return [...kg.entries()]
      .map(([id, netKg]) => ({ waste_type_id: id, name: names.get(id) ?? '', tickets: tickets.get(id) ?? 0, net_kg: netKg }))
      .sort((a, b) => b.net_kg - a.net_kg || a.waste_type_id.localeCompare(b.waste_type_id));
  }

  /** Days on rent ÷ days owned per specification (see `read`). */
  private utilisation({ owned, rent }: Read): UtilisationDto[] {
    return owned.map((s) => {
      const n = rent.get(s.specificationId) ?? 0;
      return { asset_specification_id: s.specificationId, name: s.name, assets: s.assets, owned_days: s.ownedDays, rented_days: n, utilisation_bps: bps(n, s.ownedDays) };
    });
  }
}
