import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumQuery, UuidQuery } from '../../common/validation/fields';
import { DuesTotalsDto } from '../payments';

// ---------------------------------------------------------------- queries

const RANGE_RULE = 'Dates in the company\'s time zone; `to` defaults to today, `from` to 29 days before `to`. `to` before `from`, or more than 366 days (both included), is 422.';

/** A date range (dashboards, analytics). */
export class RangeQuery {
  @DateField({ optional: true, example: '2026-11-01', description: `First day (included). ${RANGE_RULE}` }) from?: string;
  @DateField({ optional: true, example: '2026-11-30', description: 'Last day (included).' }) to?: string;
}

export const REPORT_FORMATS = ['json', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The company's report tables. */
export const COMPANY_REPORTS = ['revenue', 'orders', 'jobs', 'drivers', 'tonnage', 'utilisation', 'customers', 'dues'] as const;
export type CompanyReportName = (typeof COMPANY_REPORTS)[number];

/** `GET /reports`: one table over a range, as JSON or CSV. */
export class ReportQuery extends RangeQuery {
  @EnumQuery(COMPANY_REPORTS) report?: CompanyReportName;
  @EnumQuery(REPORT_FORMATS) format?: ReportFormat;
}

/** `GET /driver/report/get` and `/download`: the driver's days over a range (default: this month). */
export class DriverReportQuery {
  @DateField({ optional: true, example: '2026-11-01', description: 'First day (included); default the first of this month. At most 366 days; `to` before `from` is 422.' }) from?: string;
  @DateField({ optional: true, example: '2026-11-30', description: 'Last day (included); default the last of this month.' }) to?: string;
}

/** `GET /admin/get/companies/report`: a page of companies with their figures over a range (UTC dates). */
export class CompaniesReportQuery extends OmitType(PageQuery, ['sort'] as const) {
  @DateField({ optional: true, example: '2026-11-01', description: 'First day of the figures (UTC dates; default 29 days before `to`). At most 366 days.' }) from?: string;
  @DateField({ optional: true, example: '2026-11-30', description: 'Last day (default today, UTC).' }) to?: string;
  @EnumQuery(['active', 'inactive']) status?: 'active' | 'inactive';
  @EnumQuery(REPORT_FORMATS) format?: ReportFormat;
}

/** `GET /admin/get/customers/report`: a page of customers (optionally one company's) with their figures. */
export class CustomersReportQuery extends OmitType(PageQuery, ['sort'] as const) {
  @DateField({ optional: true, example: '2026-11-01', description: 'First day of the figures (UTC dates; default 29 days before `to`). At most 366 days.' }) from?: string;
  @DateField({ optional: true, example: '2026-11-30', description: 'Last day (default today, UTC).' }) to?: string;
  @UuidQuery() company_id?: string;
  @EnumQuery(REPORT_FORMATS) format?: ReportFormat;
}

// ---------------------------------------------------------------- company dashboard

/** What billed figures count, and on which day (docs/api-conventions.md, "Billing basis"). */
export const BILLING_BASIS = 'completed_on' as const;
const BILLING_BASIS_DOC = {
  enum: [BILLING_BASIS],
  example: BILLING_BASIS,
  description:
    'The day billed amounts count on: the day the bill became final (a completed order on its completion day, with its final bill; a cancelled one on its cancellation day, with its fee). ' +
    'An order still open (approved, scheduled, delivered) counts its current total on its planned delivery date until then.',
};

export class RevenueDayDto {
  @ApiProperty({ format: 'date', example: '2026-11-24' }) date: string;
  @ApiProperty({ example: 86600, description: 'Totals of the orders billed that day (see `billing_basis`): completed that day, cancelled that day (their fee), or still open and planned for that day.' }) billed_amount: number;
  @ApiProperty({ example: 43300, description: 'Money received that day (card charges and offline payments, less card refunds).' }) collected_amount: number;
}

export class RevenueDto {
  @ApiProperty(BILLING_BASIS_DOC) billing_basis: typeof BILLING_BASIS;
  @ApiProperty({ example: 259800 }) billed_amount: number;
  @ApiProperty({ example: 129900 }) collected_amount: number;
  @ApiProperty({ type: [RevenueDayDto], description: 'Every day of the range, oldest first.' }) by_day: RevenueDayDto[];
}

export class StatusCountDto {
  @ApiProperty({ enum: ['pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled'], example: 'delivered' }) status: string;
  @ApiProperty({ example: 12 }) count: number;
}

export class JobTypeCountDto {
  @ApiProperty({ enum: ['delivery', 'pickup', 'swap', 'dump_return', 'relocate'], example: 'delivery' }) type: string;
  @ApiProperty({ example: 18, description: 'Jobs of this type completed in the range.' }) count: number;
}

export class DriverFiguresDto {
  @ApiProperty({ format: 'uuid' }) driver_id: string;
  @ApiProperty({ example: 'Luis Moreno' }) name: string;
  @ApiProperty({ example: 14, description: 'Jobs completed.' }) jobs: number;
  @ApiProperty({ example: 182.4, description: 'Kilometres along the location points sent for those jobs (0.1 km).' }) km: number;
  @ApiProperty({ example: 12400, description: 'Net kg of the station tickets of those jobs.' }) net_kg: number;
  @ApiProperty({ example: 2400, description: 'Worked minutes of the days checked out (breaks excluded).' }) worked_minutes: number;
  @ApiProperty({ example: 0.35, description: 'Jobs per worked hour (0.01); 0 without worked time.' }) jobs_per_hour: number;
  @ApiProperty({ example: 4.56, description: 'Kilometres per worked hour (0.01); 0 without worked time.' }) km_per_hour: number;
}

export class TonnageDto {
  @ApiProperty({ format: 'uuid' }) waste_type_id: string;
  @ApiProperty({ example: 'General debris' }) name: string;
  @ApiProperty({ example: 6, description: 'Station tickets.' }) tickets: number;
  @ApiProperty({ example: 15200, description: 'Net kg weighed.' }) net_kg: number;
}

export class UtilisationDto {
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiProperty({ example: '20 yd roll-off' }) name: string;
  @ApiProperty({ example: 12, description: 'Assets of the specification (deleted ones until their deletion).' }) assets: number;
  @ApiProperty({ example: 360, description: 'Days the assets were owned in the range.' }) owned_days: number;
  @ApiProperty({ example: 250, description: 'Days on rent (each date a container was at a customer\'s, delivery and pickup days included).' }) rented_days: number;
  @ApiProperty({ example: 6944, description: 'rented_days ÷ owned_days in basis points (6944 = 69.44 %).' }) utilisation_bps: number;
}

export class OnTimeDto {
  @ApiProperty({ example: 20, description: 'Deliveries completed in the range.' }) completed: number;
  @ApiProperty({ example: 18, description: 'Completed on or before their scheduled date.' }) on_time: number;
  @ApiProperty({ example: 2 }) late: number;
  @ApiProperty({ example: 9000, description: 'on_time ÷ completed in basis points.' }) on_time_bps: number;
}

export class TopCustomerDto {
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ example: 'Riverside Builders' }) name: string;
  @ApiProperty({ example: 8, description: 'Orders billed in the range.' }) orders: number;
  @ApiProperty({ example: 346400 }) billed_amount: number;
}

export class CompanyDashboardDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: RevenueDto }) revenue: RevenueDto;
  @ApiProperty({ type: [StatusCountDto], description: 'Orders served (delivery date) in the range, by current status; every status listed.' }) orders_by_status: StatusCountDto[];
  @ApiProperty({ type: [JobTypeCountDto], description: 'Every job type listed.' }) jobs_by_type: JobTypeCountDto[];
  @ApiProperty({ type: [DriverFiguresDto], description: 'Drivers with completed jobs or worked time in the range, most jobs first: jobs by driver and their productivity.' }) drivers: DriverFiguresDto[];
  @ApiProperty({ type: [TonnageDto], description: 'By waste type, heaviest first.' }) tonnage: TonnageDto[];
  @ApiProperty({ type: [UtilisationDto], description: 'Per live specification, by name.' }) asset_utilisation: UtilisationDto[];
  @ApiProperty({ type: OnTimeDto }) on_time_delivery: OnTimeDto;
  @ApiProperty({ type: DuesTotalsDto, description: 'Dues now (not limited to the range), aged by days past due (the same totals as `GET /total-pending-dues`).' }) dues_ageing: DuesTotalsDto;
  @ApiProperty({ type: [TopCustomerDto], description: 'The 10 customers billed most in the range.' }) top_customers: TopCustomerDto[];
}

// ---------------------------------------------------------------- analytics and report tables

const POINT = { type: 'array', minItems: 2, maxItems: 2, items: { anyOf: [{ type: 'string', format: 'date' }, { type: 'number' }] }, example: ['2026-11-24', 86600] };

export class SeriesDto {
  @ApiProperty({ enum: ['billed_amount', 'collected_amount', 'orders', 'jobs_completed', 'net_kg'], example: 'billed_amount' }) name: string;
  @ApiProperty({ type: 'array', items: POINT, description: '`[date, value]` for every day of the range, oldest first.', example: [['2026-11-24', 86600], ['2026-11-25', 0]] }) points: [string, number][];
}

export class AnalyticsDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty(BILLING_BASIS_DOC) billing_basis: typeof BILLING_BASIS;
  @ApiProperty({ type: [SeriesDto] }) series: SeriesDto[];
}

const CELL = { anyOf: [{ type: 'string' }, { type: 'number' }] };

export class ReportTableDto {
  @ApiProperty({ example: 'revenue', description: 'The table (`report` of the query).' }) report: string;
  @ApiProperty(BILLING_BASIS_DOC) billing_basis: typeof BILLING_BASIS;
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({ type: [String], example: ['date', 'billed_amount', 'collected_amount'] }) columns: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: CELL }, description: 'One array per row, in the order of `columns` (amounts in minor units, weights in kg).', example: [['2026-11-24', 86600, 43300]] })
  rows: (string | number)[][];
}

// ---------------------------------------------------------------- customer and driver

export class CustomerOrderRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ORD-000042' }) number: string;
  @ApiProperty({ example: 'delivered' }) status: string;
  @ApiProperty({ example: '20 yd roll-off' }) specification_name: string;
  @ApiProperty({ format: 'date', example: '2026-11-20' }) delivery_date: string;
  @ApiProperty({ format: 'date', nullable: true, type: String, example: '2026-11-20' }) delivered_on: string | null;
  @ApiProperty({ format: 'date', nullable: true, type: String, example: '2026-11-27' }) pickup_date: string | null;
  @ApiProperty({ example: 43300 }) total_amount: number;
  @ApiProperty({ example: 0 }) balance_amount: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class UpcomingJobDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ example: 'pickup' }) type: string;
  @ApiProperty({ example: 'assigned' }) status: string;
  @ApiProperty({ format: 'date', example: '2026-11-27' }) scheduled_date: string;
}

export class CustomerBalanceDto {
  @ApiProperty({ example: 2, description: 'Orders with a balance.' }) orders_count: number;
  @ApiProperty({ example: 86600 }) balance_amount: number;
  @ApiProperty({ example: 1, description: 'Of those, past their due date.' }) overdue_count: number;
  @ApiProperty({ example: 43300 }) overdue_amount: number;
}

export class DemeritDto {
  @ApiProperty({ example: 3, description: 'Live demerit points (violations not waived in the company\'s window).' }) points: number;
  @ApiProperty({ example: false, description: 'At or over the block threshold: new orders are refused.' }) blocked: boolean;
}

export class CustomerDashboardDto {
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: [CustomerOrderRowDto], description: 'Containers on site now (delivered orders).' }) active_rentals: CustomerOrderRowDto[];
  @ApiProperty({ type: [UpcomingJobDto], description: 'The next 10 unfinished jobs of my orders, from today on.' }) next_jobs: UpcomingJobDto[];
  @ApiProperty({ type: CustomerBalanceDto }) balance: CustomerBalanceDto;
  @ApiProperty({ type: DemeritDto }) demerit: DemeritDto;
  @ApiProperty({ type: [CustomerOrderRowDto], description: 'My 5 latest orders.' }) recent_orders: CustomerOrderRowDto[];
}

export class JobProgressDto {
  @ApiProperty({ example: 6, description: 'Today\'s jobs assigned to me (aborted ones left out).' }) total: number;
  @ApiProperty({ example: 3 }) assigned: number;
  @ApiProperty({ example: 1 }) in_progress: number;
  @ApiProperty({ example: 2 }) completed: number;
  @ApiProperty({ example: 3333, description: 'completed ÷ total in basis points.' }) progress_bps: number;
}

export class DriverMonthDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({ example: 41 }) jobs: number;
  @ApiProperty({ example: 612.3 }) km: number;
  @ApiProperty({ example: 38200 }) net_kg: number;
  @ApiProperty({ example: 9120 }) worked_minutes: number;
}

export class DriverDashboardDto {
  @ApiProperty({ format: 'date', example: '2026-11-25' }) date: string;
  @ApiProperty({ type: JobProgressDto }) today: JobProgressDto;
  @ApiProperty({ example: 'checked_in', enum: ['not_checked_in', 'checked_in', 'on_break', 'checked_out'] }) attendance_status: string;
  @ApiProperty({ example: 245, description: 'Worked minutes today (up to now while checked in).' }) worked_minutes_today: number;
  @ApiProperty({ type: DriverMonthDto, description: 'This month up to today.' }) month: DriverMonthDto;
}

export class DriverReportDayDto {
  @ApiProperty({ format: 'date', example: '2026-11-24' }) date: string;
  @ApiProperty({ example: 4 }) jobs: number;
  @ApiProperty({ example: 61.2 }) km: number;
  @ApiProperty({ example: 5100 }) net_kg: number;
  @ApiProperty({ example: 480 }) worked_minutes: number;
}

export class DriverReportTotalsDto {
  @ApiProperty({ example: 41 }) jobs: number;
  @ApiProperty({ example: 612.3 }) km: number;
  @ApiProperty({ example: 38200 }) net_kg: number;
  @ApiProperty({ example: 9120 }) worked_minutes: number;
}

export class DriverReportDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({ type: [DriverReportDayDto], description: 'Every day of the range, oldest first.', example: [{ date: '2026-11-24', jobs: 4, km: 61.2, net_kg: 5100, worked_minutes: 480 }] }) days: DriverReportDayDto[];
  @ApiProperty({ type: DriverReportTotalsDto }) totals: DriverReportTotalsDto;
}

// ---------------------------------------------------------------- admin

export class CountByDto {
  @ApiProperty({ example: 'active', description: 'The status, type or plan counted.' }) key: string;
  @ApiProperty({ example: 52 }) total: number;
  @ApiProperty({ example: 3, description: 'Created in the range.' }) created: number;
}

export class UserCountDto {
  @ApiProperty({ enum: ['company', 'customer', 'driver'], example: 'customer' }) type: string;
  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' }) status: string;
  @ApiProperty({ example: 1840 }) total: number;
  @ApiProperty({ example: 120, description: 'Created in the range.' }) created: number;
}

export class PlatformDayDto {
  @ApiProperty({ format: 'date', example: '2026-11-24' }) date: string;
  @ApiProperty({ example: 311, description: 'Orders billed (served that day, every company).' }) orders: number;
  @ApiProperty({ example: 13468300, description: 'Gross merchandise value: their totals, summed over currencies\' minor units as they are.' }) gmv_amount: number;
}

export class PlanStateDto {
  @ApiProperty({ example: 'pro' }) plan: string;
  @ApiProperty({ enum: ['trialing', 'active', 'past_due', 'cancelled'], example: 'active' }) state: string;
  @ApiProperty({ example: 31 }) count: number;
}

export class AdminDashboardDto {
  @ApiProperty({ format: 'date', example: '2026-11-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2026-11-30' }) to: string;
  @ApiProperty({ type: [CountByDto], description: 'Companies per status.' }) companies: CountByDto[];
  @ApiProperty({ type: [UserCountDto] }) users: UserCountDto[];
  @ApiProperty({ example: 9330 }) orders: number;
  @ApiProperty({ example: 404049000 }) gmv_amount: number;
  @ApiProperty(BILLING_BASIS_DOC) billing_basis: typeof BILLING_BASIS;
  @ApiProperty({ type: [PlatformDayDto], description: 'Every day of the range.' }) by_day: PlatformDayDto[];
  @ApiProperty({ type: [PlanStateDto], description: 'Subscriptions per plan and state (companies without one are on the free plan).' }) plans: PlanStateDto[];
}

export class CompanyReportRowDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
  @ApiProperty({ example: 'Prairie Roll-Off' }) name: string;
  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' }) status: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'pro', description: 'The live subscription\'s plan, else `free`.' }) plan: string;
  @ApiPropertyOptional({ nullable: true, type: String, enum: ['trialing', 'active', 'past_due'], example: 'active', description: 'Null on the free plan.' }) plan_state: string | null;
  @ApiProperty({ example: 211, description: 'Orders billed in the range.' }) orders: number;
  @ApiProperty({ example: 9130000, description: 'Their totals (billed revenue).' }) revenue_amount: number;
  @ApiProperty({ example: 8 }) drivers: number;
  @ApiProperty({ example: 60 }) assets: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CustomerReportRowDto {
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ format: 'uuid' }) company_id: string;
  @ApiProperty({ example: 'Riverside Builders' }) name: string;
  @ApiProperty({ example: 'ops@riverside.example' }) email: string;
  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' }) status: string;
  @ApiProperty({ example: 8, description: 'Orders billed in the range.' }) orders: number;
  @ApiProperty({ example: 346400 }) billed_amount: number;
  @ApiProperty({ example: 43300, description: 'Balance now.' }) balance_amount: number;
  @ApiProperty({ example: 0, description: 'Of it, past due (the company\'s date).' }) overdue_amount: number;
  @ApiProperty({ example: 3 }) demerit_points: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
