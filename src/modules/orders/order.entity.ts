import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';
import type { AddressSnapshot } from '../customers';
import type { FrozenTax } from '../pricing';

export const ORDER_STATUSES = ['pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const TIME_WINDOWS = ['anytime', 'morning', 'afternoon'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];
/** Orders a customer still has running (the "ongoing" list). */
export const ONGOING_STATUSES: OrderStatus[] = ['pending', 'approved', 'scheduled', 'delivered'];

/** The service address as it was when the order was placed (or relocated): the customers module's snapshot. */
export type { AddressSnapshot };

/**
 * The prices an order was placed with, frozen: later edits of the price book, taxes or promotion do
 * not change the order. Change requests and the final bill are priced from these terms.
 */
export interface FrozenTerms {
  pricing_profile_id: string;
  pricing_profile_item_id: string;
  base_price_amount: number;
  included_days: number;
  included_weight_kg: number;
  extra_day_amount: number;
  overage_per_tonne_amount: number;
  swap_fee_amount: number;
  dump_return_fee_amount: number;
  relocation_fee_amount: number;
  wasted_trip_fee_amount: number;
  delivery_free_radius_m: number;
  delivery_price_per_km_amount: number;
  distance_m: number;
  taxes: FrozenTax[];
  tax_exempt: boolean;
  due_days: number;
  payment_term_id: string | null;
  /** The promotion applied at placement, re-applied when the company reprices the order. */
  promotion: { id: string; code: string; discount_type: 'percent' | 'fixed'; discount_value: number } | null;
}

/** A customer's rental of one container at one address (domain.md §4). */
@Tenant({ customer: 'customerId', driver: false })
@Entity('orders')
@Index('uq_orders_company_number', ['companyId', 'number'], { unique: true })
@Index('idx_orders_company_status_delivery', ['companyId', 'status', 'deliveryDate'])
@Index('idx_orders_customer', ['customerId', 'status'])
// One index per sort the lists offer (migration 1764150000000-OrderListCounts): a page in either
// direction is read from the index (the tiebreak id follows the sort's direction).
@Index('idx_orders_company_created', ['companyId', 'createdAt', 'id'])
// The platform administrators' list across companies (migration 1764400004000-Platform).
@Index('idx_orders_created', ['createdAt', 'id'])
@Index('idx_orders_company_customer_created', ['companyId', 'customerId', 'createdAt', 'id'])
@Index('idx_orders_company_delivery', ['companyId', 'deliveryDate', 'id'])
@Index('idx_orders_company_total', ['companyId', 'totalAmount', 'id'])
@Index('idx_orders_company_status_id', ['companyId', 'status', 'id'])
// Dues (payments, migration 1764300000000-Ledger): orders with a balance, by due date.
@Index('idx_orders_company_dues', ['companyId', 'dueDate', 'id'], { where: `total_amount > paid_amount AND status <> 'rejected'` })
@Index('idx_orders_customer_dues', ['companyId', 'customerId', 'dueDate', 'id'], { where: `total_amount > paid_amount AND status <> 'rejected'` })
// Overdue notices still to give (payments' overdue job, migration 1764400000000-MoneySchedule).
@Index('idx_orders_overdue_pending', ['dueDate', 'companyId'], { where: `total_amount > paid_amount AND status <> 'rejected' AND (overdue_for IS DISTINCT FROM due_date OR overdue_notices < 3)` })
@Check('orders_overdue_notices_check', `overdue_notices BETWEEN 0 AND 3`)
@Check('orders_status_check', `status IN ('pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled')`)
@Check('orders_payment_status_check', `payment_status IN ('unpaid', 'partially_paid', 'paid', 'refunded')`)
@Check('orders_time_window_check', `time_window IN ('anytime', 'morning', 'afternoon')`)
@Check('orders_feedback_rating_check', `feedback_rating BETWEEN 1 AND 5`)
@Check('orders_check', `pickup_date IS NULL OR pickup_date >= delivery_date`)
export class Order extends BaseEntity {
  @ForeignKey('companies', { name: 'orders_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('customers', { name: 'orders_customer_id_fkey' }) @Column({ type: 'uuid' }) customerId: string;
  /** Per company, from 1, without gaps: shown as ORD-000042. */
  @Column({ type: 'int' }) number: number;
  @Column({ type: 'text', default: 'pending' }) status: OrderStatus;
  @Column({ type: 'text', default: 'unpaid' }) paymentStatus: PaymentStatus;
  @Index('idx_orders_address') @ForeignKey('customer_addresses', { name: 'orders_address_id_fkey' }) @Column({ type: 'uuid' }) addressId: string;
  @Column({ type: 'jsonb' }) address: AddressSnapshot;
  /** The lot that serves the order (nearest active lot to the address). */
  @Index('idx_orders_lot') @ForeignKey('lots', { name: 'orders_lot_id_fkey' }) @Column({ type: 'uuid' }) lotId: string;
  @Index('idx_orders_spec')
  @ForeignKey('asset_specifications', { name: 'orders_asset_specification_id_fkey' })
  @Column({ type: 'uuid' })
  assetSpecificationId: string;
  @Index('idx_orders_waste_type') @ForeignKey('waste_types', { name: 'orders_waste_type_id_fkey' }) @Column({ type: 'uuid' }) wasteTypeId: string;
  @Column({ type: 'date' }) deliveryDate: string;
  /** null = "call when full". */
  @Column({ type: 'date', nullable: true }) pickupDate: string | null;
  @Column({ type: 'text', default: 'anytime' }) timeWindow: TimeWindow;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Index('idx_orders_promotion', { where: 'promotion_id IS NOT NULL' })
  @ForeignKey('promotions', { name: 'orders_promotion_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  promotionId: string | null;
  @Column({ type: 'text', nullable: true }) promotionCode: string | null;
  @Column({ type: 'jsonb' }) terms: FrozenTerms;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'int' }) subtotalAmount: number;
  @Column({ type: 'int' }) discountAmount: number;
  @Column({ type: 'int' }) taxAmount: number;
  @Column({ type: 'int' }) totalAmount: number;
  @Column({ type: 'int', default: 0 }) paidAmount: number;
  @Column({ type: 'date' }) dueDate: string;
  /** The due date the overdue notices were given for (null: none yet); see OrderOperations.markOverdue. */
  @Column({ type: 'date', nullable: true }) overdueFor: string | null;
  /** Overdue notices given for `overdueFor`: 1 marked overdue, 2 the 7-day reminder, 3 the 30-day one. */
  @Column({ type: 'smallint', default: 0 }) overdueNotices: number;
  /** The real delivery date (the rental clock starts), set when the delivery job completes. */
  @Column({ type: 'date', nullable: true }) deliveredOn: string | null;
  @Column({ type: 'timestamptz', nullable: true }) approvedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  @Column({ type: 'text', nullable: true }) cancellationReason: string | null;
  @Column({ type: 'text', nullable: true }) rejectionReason: string | null;
  @Column({ type: 'smallint', nullable: true }) feedbackRating: number | null;
  @Column({ type: 'text', nullable: true }) feedbackComment: string | null;
  @Column({ type: 'timestamptz', nullable: true }) feedbackAt: Date | null;
}

export const LINE_KINDS = [
  'rental',
  'extra_days',
  'delivery',
  'discount',
  'overage',
  'swap_fee',
  'dump_return_fee',
  'relocation_fee',
  'wasted_trip_fee',
  'policy_fee',
  'cancellation_fee',
  'tax',
] as const;
export type LineKind = (typeof LINE_KINDS)[number];
/** Where a line came from: placement (repriced by company updates), an approved change request, the final bill, a cancellation. */
export const LINE_SOURCES = ['placement', 'change_request', 'final', 'cancellation'] as const;
export type LineSource = (typeof LINE_SOURCES)[number];

/** One priced line of an order's bill. Amounts are signed minor units (a discount is negative); the bill's total is the sum of its live lines. */
@Tenant({ customer: false, driver: false })
@Entity('order_lines')
@Index('idx_order_lines_order', ['orderId', 'position'])
@Check('order_lines_source_check', `source IN ('placement', 'change_request', 'final', 'cancellation')`)
export class OrderLine extends BaseEntity {
  @Index('idx_order_lines_company') @ForeignKey('companies', { name: 'order_lines_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('orders', { name: 'order_lines_order_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text' }) kind: LineKind;
  @Column({ type: 'text' }) source: LineSource;
  @Index('idx_order_lines_change_request', { where: 'change_request_id IS NOT NULL' })
  @ForeignKey('order_change_requests', { name: 'fk_order_lines_change_request' })
  @Column({ type: 'uuid', nullable: true })
  changeRequestId: string | null;
  @Column({ type: 'text' }) description: string;
  @Column({ type: 'int' }) quantity: number;
  @Column({ type: 'int' }) unitAmount: number;
  @Column({ type: 'int' }) amount: number;
  @Column({ type: 'int' }) position: number;
  /** Voided lines (a cancelled order's rental, a repriced placement) stay for the record but do not count. */
  @Column({ type: 'timestamptz', nullable: true }) voidedAt: Date | null;
}

/** Every status move of an order: from, to, who, why, when. */
@Tenant({ customer: false, driver: false })
@Entity('order_status_history')
@Index('idx_order_status_history_order', ['orderId', 'createdAt'])
export class OrderStatusChange {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index('idx_order_status_history_company')
  @ForeignKey('companies', { name: 'order_status_history_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  @ForeignKey('orders', { name: 'order_status_history_order_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text', nullable: true }) fromStatus: OrderStatus | null;
  @Column({ type: 'text' }) toStatus: OrderStatus;
  @Column({ type: 'uuid', nullable: true }) actorId: string | null;
  @Column({ type: 'text' }) actorType: string;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  /** clock_timestamp(): moves made in one transaction (placement + auto-approval) keep their order. */
  @CreateDateColumn({ type: 'timestamptz', default: () => 'clock_timestamp()' }) createdAt: Date;
}

export const CHANGE_REQUEST_TYPES = [
  'reschedule_delivery',
  'schedule_pickup',
  'extend_rental',
  'swap',
  'dump_return',
  'relocate',
  'change_waste_type',
  'change_specification',
] as const;
export type ChangeRequestType = (typeof CHANGE_REQUEST_TYPES)[number];
export const CHANGE_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/** What the customer asks for; which keys are set depends on the type. */
export interface ChangeRequestDetails {
  delivery_date?: string;
  pickup_date?: string;
  days?: number;
  date?: string;
  address_id?: string;
  waste_type_id?: string;
  asset_specification_id?: string;
}

/** A customer's request to change an order; the company approves or rejects it. One pending per order. */
@Tenant({ customer: 'customerId', driver: false })
@Entity('order_change_requests')
@Index('uq_order_change_requests_pending', ['orderId'], { unique: true, where: `status = 'pending'` })
@Index('idx_order_change_requests_company_status', ['companyId', 'status', 'createdAt'])
@Index('idx_order_change_requests_customer', ['customerId', 'status'])
@Check('order_change_requests_type_check', `type IN ('reschedule_delivery', 'schedule_pickup', 'extend_rental', 'swap', 'dump_return', 'relocate', 'change_waste_type', 'change_specification')`)
@Check('order_change_requests_status_check', `status IN ('pending', 'approved', 'rejected')`)
export class OrderChangeRequest extends BaseEntity {
  @ForeignKey('companies', { name: 'order_change_requests_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Index('idx_order_change_requests_order')
  @ForeignKey('orders', { name: 'order_change_requests_order_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  orderId: string;
  @ForeignKey('customers', { name: 'order_change_requests_customer_id_fkey' }) @Column({ type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) type: ChangeRequestType;
  @Column({ type: 'text', default: 'pending' }) status: ChangeRequestStatus;
  @Column({ type: 'jsonb' }) details: ChangeRequestDetails;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'text', nullable: true }) rejectionReason: string | null;
  @Column({ type: 'uuid', nullable: true }) decidedBy: string | null;
  @Column({ type: 'timestamptz', nullable: true }) decidedAt: Date | null;
}

/**
 * How many orders each customer of a company has in each status: kept by the trigger
 * `orders_status_counts` (migration 1764150000000-OrderListCounts) in the transaction that changes the
 * order, read for the lists' `meta.total`. Never written by the application.
 */
@Tenant({ customer: 'customerId', driver: false })
@Entity('order_status_counts')
export class OrderStatusCount {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_order_status_counts' }) companyId: string;
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_order_status_counts' }) customerId: string;
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_order_status_counts' }) status: OrderStatus;
  @Column({ type: 'int', default: 0 }) n: number;
}

/**
 * A company's last order number (migration 1763900000000-OrdersJobs): a placement takes the next one
 * under this row's lock just before its commit (1764150000000-OrderListCounts), and counts itself in the
 * month's placements (the plan's monthly orders).
 */
@Tenant({ customer: false, driver: false })
@Entity('order_counters')
export class OrderCounter {
  @ForeignKey('companies', { name: 'order_counters_company_id_fkey' })
  @PrimaryColumn({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'int' }) lastNumber: number;

  /** The first day of the calendar month (the company's time zone) that `monthPlaced` counts; null before the first placement (1764600001000-MonthlyOrderCount). */
  @Column({ type: 'date', nullable: true }) month: string | null;

  /** Orders placed in `month`: the plan's `monthly_orders` usage, moved with the number under the counter row's lock. */
  @Column({ type: 'int', default: 0 }) monthPlaced: number;
}
