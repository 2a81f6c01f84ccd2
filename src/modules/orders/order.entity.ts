import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const ORDER_STATUSES = ['pending', 'approved', 'rejected', 'scheduled', 'delivered', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const TIME_WINDOWS = ['anytime', 'morning', 'afternoon'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];
/** Orders a customer still has running (the "ongoing" list). */
export const ONGOING_STATUSES: OrderStatus[] = ['pending', 'approved', 'scheduled', 'delivered'];

/** The service address as it was when the order was placed (or relocated). */
export interface AddressSnapshot {
  label: string | null;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
  instructions: string | null;
}

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
  taxes: { id: string; name: string; rate_bps: number; applies_to: 'all' | 'rental' | 'fees' }[];
  tax_exempt: boolean;
  due_days: number;
  payment_term_id: string | null;
  /** The promotion applied at placement, re-applied when the company reprices the order. */
  promotion: { id: string; code: string; discount_type: 'percent' | 'fixed'; discount_value: number } | null;
}

/** A customer's rental of one container at one address (domain.md §4). */
@Entity('orders')
@Index(['companyId', 'number'], { unique: true })
@Index(['companyId', 'status', 'deliveryDate'])
export class Order extends BaseEntity {
  @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) customerId: string;
  /** Per company, from 1, without gaps: shown as ORD-000042. */
  @Column({ type: 'int' }) number: number;
  @Column({ type: 'text', default: 'pending' }) status: OrderStatus;
  @Column({ type: 'text', default: 'unpaid' }) paymentStatus: PaymentStatus;
  @Index() @Column({ type: 'uuid' }) addressId: string;
  @Column({ type: 'jsonb' }) address: AddressSnapshot;
  /** The lot that serves the order (nearest active lot to the address). */
  @Index() @Column({ type: 'uuid' }) lotId: string;
  @Index() @Column({ type: 'uuid' }) assetSpecificationId: string;
  @Index() @Column({ type: 'uuid' }) wasteTypeId: string;
  @Column({ type: 'date' }) deliveryDate: string;
  /** null = "call when full". */
  @Column({ type: 'date', nullable: true }) pickupDate: string | null;
  @Column({ type: 'text', default: 'anytime' }) timeWindow: TimeWindow;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) promotionId: string | null;
  @Column({ type: 'text', nullable: true }) promotionCode: string | null;
  @Column({ type: 'jsonb' }) terms: FrozenTerms;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'int' }) subtotalAmount: number;
  @Column({ type: 'int' }) discountAmount: number;
  @Column({ type: 'int' }) taxAmount: number;
  @Column({ type: 'int' }) totalAmount: number;
  @Column({ type: 'int', default: 0 }) paidAmount: number;
  @Column({ type: 'date' }) dueDate: string;
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
@Entity('order_lines')
export class OrderLine extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text' }) kind: LineKind;
  @Column({ type: 'text' }) source: LineSource;
  @Index() @Column({ type: 'uuid', nullable: true }) changeRequestId: string | null;
  @Column({ type: 'text' }) description: string;
  @Column({ type: 'int' }) quantity: number;
  @Column({ type: 'int' }) unitAmount: number;
  @Column({ type: 'int' }) amount: number;
  @Column({ type: 'int' }) position: number;
  /** Voided lines (a cancelled order's rental, a repriced placement) stay for the record but do not count. */
  @Column({ type: 'timestamptz', nullable: true }) voidedAt: Date | null;
}

/** Every status move of an order: from, to, who, why, when. */
@Entity('order_status_history')
export class OrderStatusChange {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text', nullable: true }) fromStatus: OrderStatus | null;
  @Column({ type: 'text' }) toStatus: OrderStatus;
  @Column({ type: 'uuid', nullable: true }) actorId: string | null;
  @Column({ type: 'text' }) actorType: string;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
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
@Entity('order_change_requests')
export class OrderChangeRequest extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) orderId: string;
  @Index() @Column({ type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) type: ChangeRequestType;
  @Column({ type: 'text', default: 'pending' }) status: ChangeRequestStatus;
  @Column({ type: 'jsonb' }) details: ChangeRequestDetails;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'text', nullable: true }) rejectionReason: string | null;
  @Column({ type: 'uuid', nullable: true }) decidedBy: string | null;
  @Column({ type: 'timestamptz', nullable: true }) decidedAt: Date | null;
}
