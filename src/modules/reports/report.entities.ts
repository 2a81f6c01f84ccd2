import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../common/access/tenant-policy';

/** What the daily counters count (README "Dashboards, analytics and reports"). */
export const REPORT_METRICS = ['orders', 'billed', 'customer_billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked', 'dues', 'customer_dues', 'rent'] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

/**
 * A rollup cell: per company, metric, day (the company's local date) and dimension, a count and an
 * amount. Written only by the reports module's event subscribers (and the Reports migration's backfill).
 */
@Tenant({ customer: false, driver: false })
@Entity('report_daily_counters')
@Index('idx_report_daily_counters_metric_day', ['metric', 'day'])
@Index('idx_report_daily_counters_dim', ['companyId', 'metric', 'dim', 'day'])
@Check('report_daily_counters_metric_check', `metric IN ('orders', 'billed', 'customer_billed', 'collected', 'jobs', 'driver_jobs', 'driver_tonnage', 'tonnage', 'deliveries', 'worked', 'dues', 'customer_dues', 'rent')`)
export class ReportDailyCounter {
  @ForeignKey('companies', { name: 'report_daily_counters_company_id_fkey' })
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_report_daily_counters' })
  companyId: string;
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_report_daily_counters' }) metric: ReportMetric;
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'pk_report_daily_counters' }) day: string;
  @PrimaryColumn({ type: 'text', default: '', primaryKeyConstraintName: 'pk_report_daily_counters' }) dim: string;
  @Column({ type: 'int', default: 0 }) count: number;
  @Column({ type: 'bigint', default: 0 }) amount: string;
}

/** The daily cells summed per month (its first day), for the metrics read over ranges (not `dues`, `customer_dues`, `rent`). Written with the daily cells. */
@Tenant({ customer: false, driver: false })
@Entity('report_monthly_counters')
export class ReportMonthlyCounter {
  @ForeignKey('companies', { name: 'report_monthly_counters_company_id_fkey' })
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_report_monthly_counters' })
  companyId: string;
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_report_monthly_counters' }) metric: ReportMetric;
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'pk_report_monthly_counters' }) month: string;
  @PrimaryColumn({ type: 'text', default: '', primaryKeyConstraintName: 'pk_report_monthly_counters' }) dim: string;
  @Column({ type: 'int', default: 0 }) count: number;
  @Column({ type: 'bigint', default: 0 }) amount: string;
}

/** What the counters last counted of an order: moving it (day, status, amount) moves its contribution. */
@Tenant({ customer: false, driver: false })
@Entity('report_order_facts')
export class ReportOrderFact {
  @ForeignKey('orders', { name: 'report_order_facts_order_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_report_order_facts' })
  orderId: string;
  @Index('idx_report_order_facts_company') @ForeignKey('companies', { name: 'report_order_facts_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'uuid' }) customerId: string;
  @Column({ type: 'date' }) day: string;
  @Column({ type: 'text' }) status: string;
  @Column({ type: 'bigint', default: 0 }) billedAmount: string;
  @Column({ type: 'bigint', default: 0 }) balanceAmount: string;
  @Column({ type: 'date', nullable: true }) dueDate: string | null;
  @Column({ type: 'uuid', nullable: true }) assetSpecificationId: string | null;
  @Column({ type: 'date', nullable: true }) deliveredOn: string | null;
  @Column({ type: 'date', nullable: true }) endedOn: string | null;
  /** The day its `billed` cells are on (billing basis `completed_on`: the day the bill became final, else the service day); null: `day`. */
  @Column({ type: 'date', nullable: true }) billedOn: string | null;
}
