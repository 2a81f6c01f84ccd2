import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { AttendanceService } from '../attendance';
import { CompaniesService } from '../companies';
import { JobsService } from '../jobs';
import { orderNumber, type OrderSummaryRow } from '../orders';
import { ReportCountersRepository } from './report-counters.repository';
import { ReportsRepository } from './reports.repository';
import { bps, datesOf, monthOf, resolveRange, round, type DateRange } from './report-range';
import type { CustomerDashboardDto, CustomerOrderRowDto, DriverDashboardDto, DriverReportDto, DriverReportQuery } from './reports.dto';

const NEXT_JOBS = 10;
const RECENT_ORDERS = 5;
const ACTIVE_RENTALS = 50;

/** A row of the orders module's `orders_of_customer` as the dashboard lists it (its rank left out). */
const orderRow = ({ ord: _, ...o }: OrderSummaryRow & { ord?: number }): CustomerOrderRowDto => ({ ...o, number: orderNumber(o.number), total_amount: Number(o.total_amount), balance_amount: Number(o.balance_amount) });

/** The customer's and the driver's dashboards, and the driver's report (README "Dashboards, analytics and reports"). */
@Injectable()
export class MemberDashboardsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly counters: ReportCountersRepository,
    private readonly companies: CompaniesService,
    private readonly jobs: JobsService,
    private readonly attendance: AttendanceService,
  ) {}

  private async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
  }

  /**
   * Containers on site, the next jobs, balance and overdue, demerit points, the latest orders, the
   * currency: one statement (`ReportsRepository#customerDashboard`).
   */
  async customer(scope: Scope): Promise<CustomerDashboardDto> {
    const today = await this.today(scope);
    const row = await this.reports.customerDashboard(scope, today, { active: ACTIVE_RENTALS, recent: RECENT_ORDERS, next: NEXT_JOBS });
    const d = row.dues;
    return {
      currency: row.currency,
      active_rentals: row.active.map(orderRow),
      next_jobs: row.next.map((j) => ({ id: j.id, order_id: j.order_id, type: j.type, status: j.status, scheduled_date: j.scheduled_date })),
      balance: { orders_count: Number(d.count), balance_amount: Number(d.amount), overdue_count: Number(d.overdue_count), overdue_amount: Number(d.overdue_amount) },
      demerit: row.demerit,
      recent_orders: row.recent.map(orderRow),
    };
  }

  /** Today's jobs and progress, attendance and worked time, this month's jobs, km and tonnage. */
  async driver(scope: Scope): Promise<DriverDashboardDto> {
    const driverId = scope.driverId!;
    const today = await this.today(scope);
    const month = { from: monthOf(today).from, to: today };
    const [counts, states, worked, report] = await Promise.all([
      this.jobs.driverCounts(scope, today),
      this.attendance.statesOn(Scope.company(scope.companyId), today, [driverId]),
      this.attendance.workedMinutes(Scope.company(scope.companyId), today, today, driverId),
      this.report(scope, month),
    ]);
    const total = counts.assigned + counts.in_progress + counts.completed;
    return {
      date: today,
      today: { total, assigned: counts.assigned, in_progress: counts.in_progress, completed: counts.completed, progress_bps: bps(counts.completed, total) },
      attendance_status: states.get(driverId)?.status ?? 'not_checked_in',
      worked_minutes_today: worked[0]?.workedMinutes ?? 0,
      month: { from: month.from, to: month.to, ...report.totals },
    };
  }

  /** The driver's days over the range (default: this month): jobs, km, tonnage, worked minutes (days checked out). */
  async driverReport(scope: Scope, q: DriverReportQuery): Promise<DriverReportDto> {
    const today = await this.today(scope);
    const month = monthOf(today);
    const given = q.from || q.to ? q : { from: month.from, to: month.to };
    return this.report(scope, resolveRange(given, today, (to) => monthOf(to).from));
  }

  private async report(scope: Scope, range: DateRange): Promise<DriverReportDto> {
    const driverId = scope.driverId!;
    const cells = await this.counters.readDim(scope, ['driver_jobs', 'driver_tonnage', 'worked'], driverId, range);
    const jobs = new Map(cells.get('driver_jobs')!.map((x) => [x.day, x]));
    const kg = new Map(cells.get('driver_tonnage')!.map((x) => [x.day, x.amount]));
    const minutes = new Map(cells.get('worked')!.map((x) => [x.day, x.amount]));
    const days = datesOf(range).map((date) => ({ date, jobs: jobs.get(date)?.count ?? 0, km: round((jobs.get(date)?.amount ?? 0) / 1000, 1), net_kg: kg.get(date) ?? 0, worked_minutes: minutes.get(date) ?? 0 }));
    const meters = [...jobs.values()].reduce((s, x) => s + x.amount, 0);
    return {
      from: range.from,
      to: range.to,
      days,
      totals: { jobs: days.reduce((s, d) => s + d.jobs, 0), km: round(meters / 1000, 1), net_kg: days.reduce((s, d) => s + d.net_kg, 0), worked_minutes: days.reduce((s, d) => s + d.worked_minutes, 0) },
    };
  }
}
