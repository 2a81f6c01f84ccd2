import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumField, EnumQuery, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { JOB_STATUSES, JOB_TYPES, type JobView } from '../jobs';
import { LINE_KINDS, ORDER_STATUSES, PAYMENT_STATUSES, TIME_WINDOWS, type Order, type OrderLine, type OrderStatusChange, type TimeWindow } from './order.entity';
import type { Bill, PricedLine } from './pricing-engine';
import type { OrderArrivalRow } from './orders.repository';

/** How an order's number is shown: `ORD-` and at least six digits (ORD-000042, ORD-1234567). */
export const orderNumber = (n: number) => `ORD-${String(n).padStart(6, '0')}`;
/** `orderNumber` in SQL, of the integer column `column` (`lpad` alone would cut a seventh digit off). */
export const orderNumberSql = (column: string) => `'ORD-' || lpad(${column}::text, greatest(6, length(${column}::text)), '0')`;
/** The order number a search text names (`ORD-000042`, `ord42`, `42`), or null. */
export function parseOrderNumber(text: string): number | null {
  const digits = text.trim().replace(/^ord-?/i, '');
  return /^\d{1,9}$/.test(digits) ? Number(digits) : null;
}
const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- bodies

/** What a customer orders; the billing preview takes the same body. */
export class PlaceOrderDto {
  @UuidField({ description: 'One of the customer\'s addresses.' }) address_id: string;
  @UuidField({ description: 'An active asset specification of the company.' }) asset_specification_id: string;
  @UuidField({ description: 'A waste type allowed in that specification.' }) waste_type_id: string;
  @DateField({ description: 'On or after today + the company\'s lead time (company time zone); not a holiday or closed day of the serving lot.' }) delivery_date: string;
  @DateField({ optional: true, nullable: true, description: 'Planned pickup; omit or null for "call when full". Not before the delivery date.' }) pickup_date?: string | null;
  @EnumField(TIME_WINDOWS, { optional: true, description: 'Preferred delivery window (default anytime).' }) time_window?: TimeWindow;
  @TextField({ optional: true, max: 2000, description: 'Placement notes for the driver and dispatch.' }) notes?: string;
  @TextField({ optional: true, max: 60, description: 'A promotion code (case-insensitive).' }) promotion_code?: string;
}

/** The company's edit of an order: dates and notes until delivery; container, waste type and address before scheduling. Repriced with the engine. */
export class UpdateOrderDto {
  @UuidField({ optional: true }) address_id?: string;
  @UuidField({ optional: true }) asset_specification_id?: string;
  @UuidField({ optional: true }) waste_type_id?: string;
  @DateField({ optional: true, description: 'The company may schedule inside the lead time; lot holidays still apply.' }) delivery_date?: string;
  @DateField({ optional: true, nullable: true }) pickup_date?: string | null;
  @EnumField(TIME_WINDOWS, { optional: true }) time_window?: TimeWindow;
  @TextField({ optional: true, nullable: true, max: 2000 }) notes?: string | null;
}

export class ReasonDto {
  @TextField({ optional: true, max: 1000 }) reason?: string;
}

export class FeedbackDto {
  @ApiProperty({ minimum: 1, maximum: 5 }) @IsInt() @Min(1) @Max(5) rating: number;
  @TextField({ optional: true, max: 2000 }) comment?: string;
}

export class OrderQuery extends PageQuery {
  @EnumQuery(ORDER_STATUSES) status?: string;
  @DateField({ optional: true, description: 'Delivery date from (inclusive).' })
  from?: string;
  @DateField({ optional: true, description: 'Delivery date to (inclusive).' })
  to?: string;
  @EnumQuery(PAYMENT_STATUSES) payment_status?: string;
  @UuidQuery() asset_specification_id?: string;
}

export class CompanyOrderQuery extends OrderQuery {
  @UuidQuery() customer_id?: string;
  @DateField({ optional: true, description: 'Delivery on this date.' })
  date?: string;
}

// ---------------------------------------------------------------- responses

export class OrderLineDto {
  @ApiProperty({ enum: LINE_KINDS }) kind: string;
  @ApiProperty() description: string;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'Minor units.' }) unit_amount: number;
  @ApiProperty({ description: 'Minor units, signed (a discount is negative).' }) amount: number;
  static of(l: PricedLine | OrderLine): OrderLineDto {
    return 'unitAmount' in l
      ? { kind: l.kind, description: l.description, quantity: l.quantity, unit_amount: l.unitAmount, amount: l.amount }
      : { kind: l.kind, description: l.description, quantity: l.quantity, unit_amount: l.unit_amount, amount: l.amount };
  }
}

export class StoredLineDto extends OrderLineDto {
  @ApiProperty({ enum: ['placement', 'change_request', 'final', 'cancellation'] }) source: string;
  @ApiProperty({ nullable: true, type: String }) change_request_id: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Voided lines do not count in the totals.' }) voided_at: string | null;
  static ofStored(l: OrderLine): StoredLineDto {
    return { ...OrderLineDto.of(l), source: l.source, change_request_id: l.changeRequestId, voided_at: iso(l.voidedAt) };
  }
}

/** A priced bill (preview or difference); amounts in minor units of `currency`. */
export class BillDto {
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: [OrderLineDto] }) lines: OrderLineDto[];
  @ApiProperty() subtotal_amount: number;
  @ApiProperty() discount_amount: number;
  @ApiProperty() tax_amount: number;
  @ApiProperty() total_amount: number;
  static of(b: Bill, currency: string): BillDto {
    return { currency, lines: b.lines.map(OrderLineDto.of), subtotal_amount: b.subtotal_amount, discount_amount: b.discount_amount, tax_amount: b.tax_amount, total_amount: b.total_amount };
  }
}

export class QuoteDto extends BillDto {
  @ApiProperty({ format: 'date' }) due_date: string;
  @ApiProperty({ format: 'uuid', description: 'The lot that serves the address (nearest active lot).' }) lot_id: string;
  @ApiProperty({ description: 'Delivery distance from the lot, km (haversine).' }) distance_km: number;
  @ApiProperty({ nullable: true, type: String }) promotion_code: string | null;
}

export class AddressSnapshotDto {
  @ApiProperty({ nullable: true, type: String }) label: string | null;
  @ApiProperty() line1: string;
  @ApiProperty({ nullable: true, type: String }) line2: string | null;
  @ApiProperty() city: string;
  @ApiProperty({ nullable: true, type: String }) region: string | null;
  @ApiProperty({ nullable: true, type: String }) postal_code: string | null;
  @ApiProperty({ nullable: true, type: String }) country: string | null;
  @ApiProperty() latitude: number;
  @ApiProperty() longitude: number;
  @ApiProperty({ nullable: true, type: String }) instructions: string | null;
}

class NamedRef {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export interface OrderNames {
  customer: string;
  specification: string;
  wasteType: string;
}

export class OrderDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ORD-000042' }) number: string;
  @ApiProperty({ enum: ORDER_STATUSES }) status: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) payment_status: string;
  @ApiProperty({ type: NamedRef }) customer: NamedRef;
  @ApiProperty({ format: 'uuid' }) address_id: string;
  @ApiProperty({ type: AddressSnapshotDto }) address: AddressSnapshotDto;
  @ApiProperty({ format: 'uuid' }) lot_id: string;
  @ApiProperty({ type: NamedRef }) asset_specification: NamedRef;
  @ApiProperty({ type: NamedRef }) waste_type: NamedRef;
  @ApiProperty({ format: 'date' }) delivery_date: string;
  @ApiProperty({ format: 'date', nullable: true, type: String }) pickup_date: string | null;
  @ApiProperty({ enum: TIME_WINDOWS }) time_window: string;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ nullable: true, type: String }) promotion_code: string | null;
  @ApiProperty() currency: string;
  @ApiProperty() subtotal_amount: number;
  @ApiProperty() discount_amount: number;
  @ApiProperty() tax_amount: number;
  @ApiProperty() total_amount: number;
  @ApiProperty() paid_amount: number;
  @ApiProperty({ description: 'total − paid' }) balance_amount: number;
  @ApiProperty({ format: 'date' }) due_date: string;
  @ApiProperty({ description: 'A balance past its due date.' }) overdue: boolean;
  @ApiProperty({ format: 'date', nullable: true, type: String }) delivered_on: string | null;
  @ApiProperty({ nullable: true, type: String }) rejection_reason: string | null;
  @ApiProperty({ nullable: true, type: String }) cancellation_reason: string | null;
  @ApiProperty({ nullable: true, type: Number }) feedback_rating: number | null;
  @ApiProperty({ nullable: true, type: String }) feedback_comment: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(o: Order, names: OrderNames, today: string): OrderDto {
    const balance = o.totalAmount - o.paidAmount;
    return {
      id: o.id,
      number: orderNumber(o.number),
      status: o.status,
      payment_status: o.paymentStatus,
      customer: { id: o.customerId, name: names.customer },
      address_id: o.addressId,
      address: o.address,
      lot_id: o.lotId,
      asset_specification: { id: o.assetSpecificationId, name: names.specification },
      waste_type: { id: o.wasteTypeId, name: names.wasteType },
      delivery_date: o.deliveryDate,
      pickup_date: o.pickupDate,
      time_window: o.timeWindow,
      notes: o.notes,
      promotion_code: o.promotionCode,
      currency: o.currency,
      subtotal_amount: o.subtotalAmount,
      discount_amount: o.discountAmount,
      tax_amount: o.taxAmount,
      total_amount: o.totalAmount,
      paid_amount: o.paidAmount,
      balance_amount: balance,
      due_date: o.dueDate,
      overdue: balance > 0 && o.dueDate < today,
      delivered_on: o.deliveredOn,
      rejection_reason: o.rejectionReason,
      cancellation_reason: o.cancellationReason,
      feedback_rating: o.feedbackRating,
      feedback_comment: o.feedbackComment,
      created_at: o.createdAt.toISOString(),
      updated_at: o.updatedAt.toISOString(),
    };
  }
}

/** An order's next arrival (issue #26): its next assigned job's expected arrival and window (docs/dispatch.md, "Arrival times"). */
export class OrderArrivalDto {
  @ApiProperty({ format: 'uuid', description: 'The job the driver comes for.' }) job_id: string;
  @ApiProperty({ enum: JOB_TYPES, example: 'delivery' }) kind: string;
  @ApiProperty({ example: '2027-03-15T15:40:00.000Z', description: 'When the driver is expected at the site (when they got there, once there): recomputed from the day\'s plan, the driver\'s progress and position.' }) expected_at: string;
  @ApiProperty({ example: '2027-03-15T15:25:00.000Z', description: 'Start of the arrival window: 30 minutes centred on expected_at.' }) window_start: string;
  @ApiProperty({ example: '2027-03-15T15:55:00.000Z', description: 'End of the arrival window.' }) window_end: string;
  @ApiProperty({ nullable: true, type: Number, example: 10, description: 'Minutes expected_at is past the planned arrival (0 when on time or early).' }) late_minutes: number | null;
  @ApiProperty({ nullable: true, type: String, example: null, description: 'When the driver reached the site (null: not yet).' }) arrived_at: string | null;

  static of(a: OrderArrivalRow | null | undefined): OrderArrivalDto | null {
    return a
      ? { job_id: a.jobId, kind: a.kind, expected_at: a.expectedAt.toISOString(), window_start: a.windowStart.toISOString(), window_end: a.windowEnd.toISOString(), late_minutes: a.lateMinutes, arrived_at: a.arrivedAt?.toISOString() ?? null }
      : null;
  }
}

export class OrderWithLinesDto extends OrderDto {
  @ApiProperty({ type: [OrderLineDto], description: 'The live lines of the bill; they add up to total_amount.' }) lines: OrderLineDto[];
  @ApiProperty({ nullable: true, type: OrderArrivalDto, description: "The order's next arrival: its next assigned or in-progress job's expected arrival and window (null: none assigned yet)." }) arrival: OrderArrivalDto | null;
}

export class StatusChangeDto {
  @ApiProperty({ nullable: true, enum: ORDER_STATUSES }) from_status: string | null;
  @ApiProperty({ enum: ORDER_STATUSES }) to_status: string;
  @ApiProperty({ nullable: true, type: String }) actor_id: string | null;
  @ApiProperty({ example: 'company', enum: ['company', 'customer', 'driver', 'admin', 'system'] }) actor_type: string;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty() created_at: string;
  static of(h: OrderStatusChange): StatusChangeDto {
    return { from_status: h.fromStatus, to_status: h.toStatus, actor_id: h.actorId, actor_type: h.actorType, reason: h.reason, created_at: h.createdAt.toISOString() };
  }
}

export class JobSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: JOB_TYPES }) type: string;
  @ApiProperty({ enum: JOB_STATUSES }) status: string;
  @ApiProperty({ format: 'date' }) scheduled_date: string;
  @ApiProperty({ nullable: true, type: String }) driver_id: string | null;
  @ApiProperty({ nullable: true, type: String }) truck_id: string | null;
  @ApiProperty({ nullable: true, type: String }) asset_id: string | null;
  @ApiProperty({ nullable: true, type: String }) lot_id: string | null;
  @ApiProperty({ nullable: true, type: String }) destination_address_id: string | null;
  @ApiProperty({ nullable: true, type: String }) change_request_id: string | null;
  static of(j: JobView): JobSummaryDto {
    return {
      id: j.id,
      type: j.type,
      status: j.status,
      scheduled_date: j.scheduledDate,
      driver_id: j.driverId,
      truck_id: j.truckId,
      asset_id: j.assetId,
      lot_id: j.lotId,
      destination_address_id: j.destinationAddressId,
      change_request_id: j.changeRequestId,
    };
  }
}

/** `PATCH /approve/order/{orderId}`: the approved order with the jobs approval created (no second read needed). */
export class ApprovedOrderDto extends OrderDto {
  @ApiProperty({ type: [JobSummaryDto], description: 'The jobs approval created, unassigned: the delivery, and the pickup when the order has a pickup date.' }) jobs: JobSummaryDto[];
}

/** Everything about an order for the back office. */
export class OrderFullDto extends OrderWithLinesDto {
  @ApiProperty({ type: [StoredLineDto], description: 'Every line ever written, voided ones included.' }) all_lines: StoredLineDto[];
  @ApiProperty({ type: [StatusChangeDto] }) status_history: StatusChangeDto[];
  @ApiProperty({ type: [JobSummaryDto] }) jobs: JobSummaryDto[];
  @ApiProperty({ description: 'Change requests by status.', example: { pending: 1, approved: 0, rejected: 2 } }) change_requests: Record<string, number>;
}

/** `GET /orders/{order}/details`: the order with its bill lines and its jobs (for the company, its customer or a driver on it). */
export class OrderDetailsDto extends OrderWithLinesDto {
  @ApiProperty({ type: [JobSummaryDto], description: 'The order\'s jobs (delivery, pickup, swaps…), oldest first.' }) jobs: JobSummaryDto[];
}
