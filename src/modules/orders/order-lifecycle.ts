import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { INT4_MAX } from '../../common/validation/fields';
import type { OrderStatusExtras } from './events';
import { ContainerCalendar, type ContainerHold } from '../catalogue';
import { JobsService, type JobType, type JobView, type NewJob } from '../jobs';
import { OrderBillRepository } from './order-bill.repository';
import { Order, type LineSource, type OrderStatus, type PaymentStatus } from './order.entity';
import { OrdersRepository } from './orders.repository';
import { addDays, type Bill } from './pricing-engine';

/** The only status moves there are (domain.md §4); anything else is 409 INVALID_TRANSITION. */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['approved', 'rejected', 'cancelled'],
  approved: ['scheduled', 'cancelled'],
  scheduled: ['delivered', 'cancelled'],
  delivered: ['completed'],
  rejected: [],
  completed: [],
  cancelled: [],
};

/** Who made a change: a user, or the system (auto-approval, jobs). */
export type ChangeActor = Pick<Actor, 'id' | 'type'> | 'system';

/**
 * Amounts, quantities and totals are `int` columns: a bill beyond them (a large price times a rental of
 * centuries) is refused with 422 AMOUNT_TOO_LARGE instead of failing in the database.
 */
function assertStorable(values: number[]): void {
  if (values.every((v) => Number.isSafeInteger(v) && Math.abs(v) <= INT4_MAX)) return;
  throw ApiError.unprocessable('AMOUNT_TOO_LARGE', `The order's amounts would exceed the largest storable amount (${INT4_MAX} minor units).`);
}

export function paymentStatusOf(total: number, paid: number): PaymentStatus {
  if (paid <= 0) return 'unpaid';
  return paid >= total ? 'paid' : 'partially_paid';
}

type HeldOrder = Pick<Order, 'id' | 'companyId' | 'assetSpecificationId' | 'lotId' | 'deliveredOn' | 'deliveryDate' | 'pickupDate'>;

/** The order's hold over its dates: delivery (or the day it was delivered) to pickup, open-ended without one. */
const holdOf = (order: HeldOrder): ContainerHold => ({ orderId: order.id, specificationId: order.assetSpecificationId, lotId: order.lotId, from: order.deliveredOn ?? order.deliveryDate, to: order.pickupDate });

/** Statuses that end an order's hold on the container calendar. */
const RELEASING: OrderStatus[] = ['completed', 'cancelled', 'rejected'];

const historyOf = (from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null) => ({
  fromStatus: from,
  toStatus: to,
  actorId: actor === 'system' ? null : actor.id,
  actorType: actor === 'system' ? 'system' : actor.type,
  reason,
});

/**
 * The write side every order change goes through, inside the caller's unit of work: status moves
 * (checked, recorded in the history, with an event), bill lines and totals, and the jobs an order
 * owns (their rows are the jobs module's: this decides which jobs, `JobsService` writes them). The
 * dispatch module calls `move` for scheduled/delivered/completed. Each method takes the order row its
 * caller locked (or just inserted) with its scope, and writes within that row's company
 * (`Scope.company(order.companyId)`).
 */
@Injectable()
export class OrderLifecycle {
  constructor(
    private readonly jobs: JobsService,
    private readonly orders: OrdersRepository,
    private readonly bill: OrderBillRepository,
    private readonly calendar: ContainerCalendar,
  ) {}

  /** The order, locked for the rest of the unit of work; 404 when absent or not the caller's. Pass the locked row on to what follows. */
  lock(scope: Scope, id: string): Promise<Order> {
    return this.orders.lock(scope, id);
  }

  /** The orders among `ids`, locked in id order in one statement; 404 when one is absent or not the caller's. */
  async lockMany(scope: Scope, ids: readonly string[]): Promise<Order[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    const rows = await this.orders.lockMany(scope, unique);
    if (rows.length !== unique.length) throw ApiError.notFound('Order');
    return rows;
  }

  /** A status move; `set` are further columns written in the same UPDATE (e.g. `approvedAt`). */
  async move(order: Order, to: OrderStatus, actor: ChangeActor, reason: string | null = null, payload: OrderStatusExtras = {}, set: Partial<Pick<Order, 'approvedAt' | 'rejectionReason' | 'cancelledAt' | 'cancellationReason' | 'completedAt' | 'deliveredOn'>> = {}): Promise<void> {
    const from = order.status;
    if (!ORDER_TRANSITIONS[from].includes(to)) throw ApiError.invalidTransition(from, to, 'Order');
    order.status = to;
    Object.assign(order, set);
    await this.orders.moveStatus(companyOf(order), order.id, { status: to, ...set }, historyOf(from, to, actor, reason));
    await this.recordStatusEvent(order, from, to, actor, reason, payload);
    // The container calendar: a finished order holds no container any more.
    if (RELEASING.includes(to)) await this.calendar.release(companyOf(order), order.id);
  }

  /**
   * The container calendar's hold of the order over its dates (delivery, or the day it was delivered, to
   * pickup; open-ended without one), for approval and date or container changes: 409
   * `NO_CONTAINER_AVAILABLE` naming the days when the specification refuses (`check_availability`, or automatic: a live container recorded) and none is free.
   */
  holdContainer(order: Order): Promise<void> {
    return this.calendar.hold(companyOf(order), holdOf(order));
  }

  /** The check of `holdContainer` for the order as it would be, writing nothing (a change request when asked). */
  assertContainerFree(order: HeldOrder): Promise<void> {
    return this.calendar.assertFree(companyOf(order), holdOf(order));
  }

  /** History row and event for a status (also the initial `pending`, from null). */
  async recordStatus(order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null, payload: OrderStatusExtras = {}): Promise<void> {
    await this.recordHistory(order, from, to, actor, reason);
    await this.recordStatusEvent(order, from, to, actor, reason, payload);
  }

  /** The history row of a status move. */
  async recordHistory(order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null): Promise<void> {
    await this.bill.insertHistory(companyOf(order), { orderId: order.id, ...historyOf(from, to, actor, reason) });
  }

  /** The event of a status move (`order.placed` for the initial one); it carries the order's number. */
  async recordStatusEvent(order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null, payload: OrderStatusExtras = {}): Promise<void> {
    await this.bill.recordEvents({
      type: from === null ? 'order.placed' : `order.${to}`,
      aggregateType: 'order',
      aggregateId: order.id,
      companyId: order.companyId,
      actorId: actor === 'system' ? null : actor.id,
      payload: { number: order.number, customer_id: order.customerId, from, to, reason, ...payload },
    });
  }

  /** Appends a bill's lines to the order (after its existing ones); returns their ids, in order. */
  async addLines(order: Order, bill: Bill, source: LineSource, changeRequestId: string | null = null): Promise<string[]> {
    if (bill.lines.length === 0) return [];
    assertStorable(bill.lines.flatMap((l) => [l.quantity, l.unit_amount, l.amount]));
    const company = companyOf(order);
    const next = await this.bill.nextPosition(company, order.id);
    return this.bill.insertLines(
      company,
      bill.lines.map((l, i) => ({
        orderId: order.id,
        kind: l.kind,
        source,
        changeRequestId,
        description: l.description,
        quantity: l.quantity,
        unitAmount: l.unit_amount,
        amount: l.amount,
        position: next + i,
        voidedAt: null,
      })),
    );
  }

  /**
   * Writes a new order, its first history row, its placement lines and its number in one statement
   * (`OrdersRepository#insertPlacement`): from there the company's counter row is locked to the commit, so
   * only the event and the COMMIT should follow. Sets the order's id, number and timestamps; returns the
   * month's placements of the company with this one.
   */
  async insertPlacement(order: Order, bill: Bill, actor: Pick<Actor, 'id' | 'type'>, timezone: string): Promise<{ monthPlaced: number }> {
    assertStorable(bill.lines.flatMap((l) => [l.quantity, l.unit_amount, l.amount]));
    const { monthPlaced, busy, ...written } = await this.orders.insertPlacement(companyOf(order), order, bill.lines, actor, timezone);
    // The container calendar held the order in that statement, or named the days none is free.
    if (busy.length) throw ContainerCalendar.refusal(order.assetSpecificationId, busy);
    Object.assign(order, written);
    return { monthPlaced };
  }

  /** Voids live lines (all of them, or those of some sources); they stay on record. */
  async voidLines(order: Order, sources?: LineSource[]): Promise<void> {
    await this.bill.voidLines(companyOf(order), order.id, sources ? { sources } : {});
  }

  /** The totals of a new order's lines (as `refreshTotals` sums them in SQL), checked storable. */
  totalsOf(lines: readonly { kind: string; amount: number }[]): Pick<Order, 'subtotalAmount' | 'discountAmount' | 'taxAmount' | 'totalAmount'> {
    let subtotal = 0;
    let discount = 0;
    let tax = 0;
    for (const l of lines) {
      if (l.kind === 'discount') discount -= l.amount;
      else if (l.kind === 'tax') tax += l.amount;
      else subtotal += l.amount;
    }
    const total = subtotal - discount + tax;
    assertStorable([subtotal, discount, tax, total]);
    return { subtotalAmount: subtotal, discountAmount: discount, taxAmount: tax, totalAmount: total };
  }

  /** Recomputes the order's totals from its live lines (they add up exactly), and its payment status. */
  async refreshTotals(order: Order): Promise<void> {
    // Summed as bigint (strings from the driver), then checked: the sum of storable lines may not be.
    const company = companyOf(order);
    const sums = await this.bill.sums(company, order.id);
    const t = { subtotal: Number(sums.subtotal), discount: Number(sums.discount), tax: Number(sums.tax), total: Number(sums.total) };
    assertStorable(Object.values(t));
    order.subtotalAmount = t.subtotal;
    order.discountAmount = t.discount;
    order.taxAmount = t.tax;
    order.totalAmount = t.total;
    order.paymentStatus = paymentStatusOf(order.totalAmount, order.paidAmount);
    await this.orders.update(company, order.id, { subtotalAmount: t.subtotal, discountAmount: t.discount, taxAmount: t.tax, totalAmount: t.total, paymentStatus: order.paymentStatus });
  }

  /** The due date of a bill issued on `issuedOn` under the order's payment term. */
  dueDate(order: Pick<Order, 'terms'>, issuedOn: string): string {
    return addDays(issuedOn, order.terms.due_days);
  }

  /** Creates an unassigned job for the order (from the order's lot). */
  createJob(order: Order, type: JobType, scheduledDate: string, extra: Pick<NewJob, 'changeRequestId' | 'destinationAddressId'> = {}): Promise<JobView> {
    return this.jobs.create(companyOf(order), { orderId: order.id, type, scheduledDate, lotId: order.lotId, ...extra });
  }

  /** Approval's jobs: the delivery, and the pickup when a pickup date is set; the rows as inserted. */
  createApprovalJobs(order: Order): Promise<JobView[]> {
    const job = (type: JobType, scheduledDate: string): NewJob => ({ orderId: order.id, type, scheduledDate, lotId: order.lotId });
    return this.jobs.createMany(companyOf(order), order.pickupDate ? [job('delivery', order.deliveryDate), job('pickup', order.pickupDate)] : [job('delivery', order.deliveryDate)]);
  }

  /** Keeps the delivery and pickup jobs in step with the order's dates (after approval). */
  async syncDateJobs(order: Order, reason: string): Promise<void> {
    if (!['approved', 'scheduled', 'delivered'].includes(order.status)) return;
    const company = companyOf(order);
    const delivery = await this.jobs.unfinished(company, order.id, 'delivery');
    if (delivery && delivery.scheduledDate !== order.deliveryDate) await this.jobs.reschedule(company, delivery.id, order.deliveryDate);
    const pickup = await this.jobs.unfinished(company, order.id, 'pickup');
    if (order.pickupDate && !pickup) await this.createJob(order, 'pickup', order.pickupDate);
    else if (order.pickupDate && pickup && pickup.scheduledDate !== order.pickupDate) await this.jobs.reschedule(company, pickup.id, order.pickupDate);
    else if (!order.pickupDate && pickup) await this.jobs.abort(company, [pickup], reason);
  }

  /** Aborts every unfinished job of the order (cancellation), releasing the assets they reserved. */
  abortOrderJobs(order: Order, reason: string): Promise<void> {
    return this.jobs.abortUnfinished(companyOf(order), order.id, reason);
  }
}

/** The company of an order row its caller locked (or inserted) with its scope: what the writes that follow are limited to. */
function companyOf(order: Pick<Order, 'companyId'>): Scope {
  return Scope.company(order.companyId);
}
