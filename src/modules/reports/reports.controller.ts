import { Controller, Get, Headers, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
import { ApiErrors, Endpoint } from '../../common/http/openapi';
import { AdminReportsService } from './admin-reports.service';
import { CompanyReportsService } from './company-reports.service';
import { CsvAlternative, csvFile, wantsCsv } from './csv';
import { MemberDashboardsService } from './member-dashboards.service';
import {
  AdminDashboardDto,
  AnalyticsDto,
  CompaniesReportQuery,
  CompanyDashboardDto,
  CompanyReportRowDto,
  CustomerDashboardDto,
  CustomerReportRowDto,
  CustomersReportQuery,
  DriverDashboardDto,
  DriverReportDto,
  DriverReportQuery,
  RangeQuery,
  ReportQuery,
  ReportTableDto,
} from './reports.dto';

const RANGE = 'Over `from`..`to` (the company\'s dates; default the 30 days ending today); `to` before `from` or more than 366 days is 422.';
const SOURCES = 'Figures from the daily rollups kept by event subscribers (they follow changes within the relay\'s delay) and indexed aggregates (`docs/reports.md`).';

@ApiTags('Reports')
@Controller('api/v1')
export class CompanyReportsController {
  constructor(private readonly reports: CompanyReportsService) {}

  @Get('company/dashboard')
  @Access('CO')
  @Endpoint({
    summary: 'The company dashboard over a date range',
    description: `${RANGE} Revenue by day (billed: totals of the orders served that day, approved or later; collected: money received), orders by status, jobs completed by type, drivers (jobs, km, tonnage, worked time, jobs and km per worked hour), tonnage by waste type (station tickets), asset utilisation per specification, on-time deliveries, dues ageing now, top customers. ${SOURCES}`,
    type: CompanyDashboardDto,
    errors: [422],
  })
  dashboard(@CurrentScope() scope: Scope, @Query() q: RangeQuery) {
    return this.reports.dashboard(scope, q);
  }

  @Get('analytics')
  @Access('CO')
  @Endpoint({
    summary: 'Chart series by day: billed, collected, orders, jobs completed, net kg',
    description: `${RANGE} \`{series: [{name, points: [[date, value]]}]}\`, a point for every day of the range (0 on a day without any).`,
    type: AnalyticsDto,
    errors: [422],
  })
  analytics(@CurrentScope() scope: Scope, @Query() q: RangeQuery) {
    return this.reports.analytics(scope, q);
  }

  @Get('reports')
  @Access('CO')
  @CsvAlternative('date,billed_amount,collected_amount,orders_billed\n2026-11-24,86600,43300,2\n')
  @Endpoint({
    summary: 'A report table over a date range, as JSON or a CSV download',
    description:
      `${RANGE} \`report\`: \`revenue\` (default; by day), \`orders\` (by status), \`jobs\` (completed by type), \`drivers\`, \`tonnage\`, \`utilisation\`, \`customers\` (billed, largest first, at most 10,000), \`dues\` (ageing now). ` +
      'With `format=csv`, or no `format` and `Accept: text/csv`, the same table is streamed as CSV (header row = `columns`) named `<report>-<from>-to-<to>.csv`.',
    type: ReportTableDto,
    errors: [422],
  })
  async table(@CurrentScope() scope: Scope, @Query() q: ReportQuery, @Headers('accept') accept?: string): Promise<ReportTableDto | StreamableFile> {
    const table = await this.reports.table(scope, q, q.report ?? 'revenue');
    if (!wantsCsv(q.format, accept)) return table;
    return csvFile(`${table.report}-${table.from}-to-${table.to}.csv`, table.columns, table.rows);
  }
}

@ApiTags('Dashboards (customer)')
@Controller('api/v1/customer')
export class CustomerDashboardController {
  constructor(private readonly dashboards: MemberDashboardsService) {}

  @Get('dashboard')
  @Access('CU')
  @Endpoint({ summary: 'My dashboard: containers on site, next jobs, balance and overdue, demerit points, latest orders', type: CustomerDashboardDto })
  dashboard(@CurrentScope() scope: Scope) {
    return this.dashboards.customer(scope);
  }
}

const DRIVER_RANGE = 'Over `from`..`to` (the company\'s dates; default this month); `to` before `from` or more than 366 days is 422.';
const DRIVER_DAY = 'Per day: jobs completed, km along the location points sent for them, net kg of their station tickets, worked minutes (breaks excluded).';

@ApiTags('Dashboards (driver)')
@Controller('api/v1/driver')
export class DriverDashboardController {
  constructor(private readonly dashboards: MemberDashboardsService) {}

  @Get('dashboard')
  @Access('DR')
  @Endpoint({ summary: "My dashboard: today's jobs and progress, attendance and worked time, this month's jobs, km and tonnage", type: DriverDashboardDto })
  dashboard(@CurrentScope() scope: Scope) {
    return this.dashboards.driver(scope);
  }

  @Get('report/get')
  @Access('DR')
  @Endpoint({ summary: 'My report by day: jobs, km, tonnage, worked time', description: `${DRIVER_RANGE} ${DRIVER_DAY}`, type: DriverReportDto, errors: [422] })
  report(@CurrentScope() scope: Scope, @Query() q: DriverReportQuery) {
    return this.dashboards.driverReport(scope, q);
  }

  @Get('report/download')
  @Access('DR')
  @ApiOperation({ summary: 'My report by day as a CSV download', description: `${DRIVER_RANGE} ${DRIVER_DAY} Columns \`date,jobs,km,net_kg,worked_minutes\`, named \`driver-report-<from>-to-<to>.csv\`.` })
  @ApiResponse({
    status: 200,
    description: 'The CSV, `Content-Disposition: attachment; filename="driver-report-2026-11-01-to-2026-11-30.csv"`.',
    content: { 'text/csv': { schema: { type: 'string' }, example: 'date,jobs,km,net_kg,worked_minutes\n2026-11-24,4,61.2,5100,480\n' } },
  })
  @ApiErrors({ 422: [] })
  async download(@CurrentScope() scope: Scope, @Query() q: DriverReportQuery): Promise<StreamableFile> {
    const r = await this.dashboards.driverReport(scope, q);
    return csvFile(
      `driver-report-${r.from}-to-${r.to}.csv`,
      ['date', 'jobs', 'km', 'net_kg', 'worked_minutes'],
      r.days.map((d) => [d.date, d.jobs, d.km, d.net_kg, d.worked_minutes]),
    );
  }
}

const ADMIN_RANGE = 'Figures over `from`..`to` (UTC dates; default the 30 days ending today); `to` before `from` or more than 366 days is 422.';
const ADMIN_CSV = 'With `format=csv` (or no `format` and `Accept: text/csv`) every page is streamed as CSV (the same columns as the JSON rows).';

@ApiTags('Reports (admin)')
@Controller('api/v1/admin')
export class AdminReportsController {
  constructor(private readonly reports: AdminReportsService) {}

  @Get('dashboard')
  @Access('AD')
  @Endpoint({ summary: 'The platform dashboard: companies, users, orders and GMV by day, plans and their states', description: ADMIN_RANGE, type: AdminDashboardDto, errors: [422] })
  dashboard(@Query() q: RangeQuery) {
    return this.reports.dashboard(q);
  }

  @Get('get/companies/report')
  @Access('AD')
  @CsvAlternative('company_id,name,status,currency,plan,plan_state,orders,revenue_amount,drivers,assets,created_at\n')
  @Endpoint({
    summary: 'Companies report: per company orders and revenue in the range, drivers, assets, plan and status',
    description: `${ADMIN_RANGE} Companies newest first; \`status\` and \`q\` (name, e-mail) filter them. ${ADMIN_CSV}`,
    type: CompanyReportRowDto,
    list: true,
    errors: [422],
  })
  async companies(@Query() q: CompaniesReportQuery, @Headers('accept') accept?: string): Promise<Page<CompanyReportRowDto> | StreamableFile> {
    if (!wantsCsv(q.format, accept)) return this.reports.companiesReport(q);
    const rows = await this.reports.allPages(q, (p) => this.reports.companiesReport(p));
    return csvFile(`companies-report-${rows.range.from}-to-${rows.range.to}.csv`, COMPANY_COLUMNS, mapRows(rows.items, COMPANY_COLUMNS));
  }

  @Get('get/customers/report')
  @Access('AD')
  @CsvAlternative('customer_id,company_id,name,email,status,orders,billed_amount,balance_amount,overdue_amount,demerit_points,created_at\n')
  @Endpoint({
    summary: 'Customers report: per customer orders and billed in the range, balance, overdue and demerit points',
    description: `${ADMIN_RANGE} Customers newest first, of every company or \`company_id\`'s; \`q\` searches name and e-mail. ${ADMIN_CSV}`,
    type: CustomerReportRowDto,
    list: true,
    errors: [422],
  })
  async customers(@Query() q: CustomersReportQuery, @Headers('accept') accept?: string): Promise<Page<CustomerReportRowDto> | StreamableFile> {
    if (!wantsCsv(q.format, accept)) return this.reports.customersReport(q);
    const rows = await this.reports.allPages(q, (p) => this.reports.customersReport(p));
    return csvFile(`customers-report-${rows.range.from}-to-${rows.range.to}.csv`, CUSTOMER_COLUMNS, mapRows(rows.items, CUSTOMER_COLUMNS));
  }
}

const COMPANY_COLUMNS = ['company_id', 'name', 'status', 'currency', 'plan', 'plan_state', 'orders', 'revenue_amount', 'drivers', 'assets', 'created_at'] as const;
const CUSTOMER_COLUMNS = ['customer_id', 'company_id', 'name', 'email', 'status', 'orders', 'billed_amount', 'balance_amount', 'overdue_amount', 'demerit_points', 'created_at'] as const;

async function* mapRows<R>(rows: AsyncIterable<R>, columns: readonly (keyof R & string)[]) {
  for await (const r of rows) yield columns.map((c) => (r[c] ?? null) as string | number | null);
}
