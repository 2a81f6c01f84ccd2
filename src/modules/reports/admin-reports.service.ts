import { Injectable } from '@nestjs/common';
import { PlatformReach } from '../../common/access/tenant-policy';
import { todayIn } from '../../common/dates';
import { Page } from '../../common/http/envelope';
import { CatalogueReadModel } from '../catalogue';
import { CompaniesService } from '../companies';
import { CustomersService } from '../customers';
import { DriversService } from '../drivers';
import { SubscriptionsService } from '../payments';
import { UsersService } from '../users';
import { ReportCountersRepository } from './report-counters.repository';
import { datesOf, resolveRange, type DateRange } from './report-range';
import { BILLING_BASIS, type AdminDashboardDto, type CompaniesReportQuery, type CompanyReportRowDto, type CustomerReportRowDto, type CustomersReportQuery, type RangeQuery } from './reports.dto';

/** The administrators' reach of the platform's figures: every company. */
const PLATFORM = new PlatformReach();

/** Rows per page when a whole report is streamed as CSV. */
const CSV_PAGE = 100;

/**
 * The platform's figures for administrators (dates in UTC): the dashboard, and the companies and
 * customers reports, a page at a time (JSON) or every page streamed (CSV). Companies and customers
 * are listed by their modules (the administrators' lists), their figures come from the counters and
 * the owning modules' aggregates, for the page's ids only.
 */
@Injectable()
export class AdminReportsService {
  constructor(
    private readonly counters: ReportCountersRepository,
    private readonly companies: CompaniesService,
    private readonly customers: CustomersService,
    private readonly drivers: DriversService,
    private readonly users: UsersService,
    private readonly catalogue: CatalogueReadModel,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  private range(q: RangeQuery): DateRange {
    return resolveRange(q, todayIn('UTC'));
  }

  async dashboard(q: RangeQuery): Promise<AdminDashboardDto> {
    const r = this.range(q);
    const [companies, users, days, plans] = await Promise.all([this.companies.statusCounts(r.from, r.to), this.users.typeCounts(PLATFORM, r.from, r.to), this.counters.platformByDay(PLATFORM, 'billed', r), this.subscriptions.planStates(PLATFORM)]);
    const byDay = new Map(days.map((d) => [d.day, d]));
    const byDate = datesOf(r).map((date) => ({ date, orders: byDay.get(date)?.count ?? 0, gmv_amount: byDay.get(date)?.amount ?? 0 }));
    return {
      from: r.from,
      to: r.to,
      companies: companies.map((c) => ({ key: c.status, total: c.total, created: c.created })),
      users,
      orders: byDate.reduce((s, d) => s + d.orders, 0),
      gmv_amount: byDate.reduce((s, d) => s + d.gmv_amount, 0),
      billing_basis: BILLING_BASIS,
      by_day: byDate,
      plans,
    };
  }

  /** A page of companies with orders and revenue in the range, drivers, assets, plan and status. */
  async companiesReport(q: CompaniesReportQuery): Promise<Page<CompanyReportRowDto>> {
    const r = this.range(q);
    const page = await this.companies.listAcross({ page: q.page, per_page: q.per_page, q: q.q, status: q.status });
    const ids = page.items.map((c) => c.id);
    const reach = PLATFORM;
    const [billed, drivers, assets, plans] = await Promise.all([this.counters.acrossCompanies(reach, 'billed', r, ids), this.drivers.countsByCompany(reach, ids), this.catalogue.assetCounts(reach, ids), this.subscriptions.livePlansOf(reach, ids)]);
    return new Page(
      page.items.map((c) => ({
        company_id: c.id,
        name: c.name,
        status: c.status,
        currency: c.currency,
        plan: plans.get(c.id)?.plan ?? 'free',
        plan_state: plans.get(c.id)?.state ?? null,
        orders: billed.get(c.id)?.count ?? 0,
        revenue_amount: billed.get(c.id)?.amount ?? 0,
        drivers: drivers.get(c.id) ?? 0,
        assets: assets.get(c.id) ?? 0,
        created_at: c.created_at,
      })),
      page.meta,
    );
  }

  /** A page of customers (optionally one company's) with orders and billed in the range, balance, overdue and demerit points. */
  async customersReport(q: CustomersReportQuery): Promise<Page<CustomerReportRowDto>> {
    const r = this.range(q);
    const reach = new PlatformReach(q.company_id ?? null);
    const page = await this.customers.listAcross(reach, { page: q.page, per_page: q.per_page, q: q.q });
    const figures = await this.counters.customerFigures(reach, page.items.map((c) => ({ companyId: c.company_id, customerId: c.id })), r);
    return new Page(
      page.items.map((c) => ({
        customer_id: c.id,
        company_id: c.company_id,
        name: c.name,
        email: c.email,
        status: c.status,
        orders: figures.get(c.id)?.count ?? 0,
        billed_amount: figures.get(c.id)?.billed ?? 0,
        balance_amount: figures.get(c.id)?.balance ?? 0,
        overdue_amount: figures.get(c.id)?.overdue ?? 0,
        demerit_points: figures.get(c.id)?.points ?? 0,
        created_at: c.created_at,
      })),
      page.meta,
    );
  }

  /**
   * Every page of a report, for the CSV stream: the first page is read here (a bad range is a 422
   * before any byte is sent), the others as the client takes the rows.
   */
  async allPages<Q extends RangeQuery & { page?: number; per_page?: number }, R>(q: Q, load: (q: Q) => Promise<Page<R>>): Promise<{ range: DateRange; items: AsyncIterable<R> }> {
    const range = this.range(q);
    const first = await load({ ...q, page: 1, per_page: CSV_PAGE });
    async function* items(): AsyncGenerator<R> {
      yield* first.items;
      for (let page = 2; page <= first.meta.last_page; page++) yield* (await load({ ...q, page, per_page: CSV_PAGE })).items;
    }
    return { range, items: items() };
  }
}
