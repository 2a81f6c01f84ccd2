import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import type { Scope } from '../../common/access/scope';
import { findScoped } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { INT4_MAX } from '../../common/validation/fields';
import type { OrderStatusExtras } from './events';
import { recordEvents } from '../../common/outbox/outbox';
import { JobsService, type JobType, type JobView, type NewJob } from '../jobs';
import { Order, OrderLine, OrderStatusChange, type LineSource, type OrderStatus, type PaymentStatus } from './order.entity';
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

/**
 * The write side every order change goes through, inside the caller's transaction: status moves
 * (checked, recorded in the history, with an event), bill lines and totals, and the jobs an order
 * owns (their rows are the jobs module's: this decides which jobs, `JobsService` writes them). The
 * dispatch module calls `move` for scheduled/delivered/completed.
 */
@Injectable()
export class OrderLifecycle {
  constructor(private readonly jobs: JobsService) {}

  /** The order, locked for the rest of the transaction; 404 when absent or not the caller's. */
  lock(m: EntityManager, scope: Scope, id: string): Promise<Order> {
    return findScoped(m, Order, scope, id, { what: 'Order', lock: true });
  }

  /** A status move; `set` are further columns written in the same UPDATE (e.g. `approvedAt`). */
  async move(m: EntityManager, order: Order, to: OrderStatus, actor: ChangeActor, reason: string | null = null, payload: OrderStatusExtras = {}, set: Partial<Pick<Order, 'approvedAt' | 'rejectionReason' | 'cancelledAt' | 'cancellationReason' | 'completedAt' | 'deliveredOn'>> = {}): Promise<void> {
    const from = order.status;
    if (!ORDER_TRANSITIONS[from].includes(to)) throw ApiError.invalidTransition(from, to, 'Order');
    order.status = to;
    Object.assign(order, set);
    await m.update(Order, { id: order.id }, { status: to, ...set });
    await this.recordStatus(m, order, from, to, actor, reason, payload);
  }

  /** History row and event for a status (also the initial `pending`, from null). */
  async recordStatus(m: EntityManager, order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null, payload: OrderStatusExtras = {}): Promise<void> {
    await this.recordHistory(m, order, from, to, actor, reason);
    await this.recordStatusEvent(m, order, from, to, actor, reason, payload);
  }

  /** The history row of a status move. */
  async recordHistory(m: EntityManager, order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null): Promise<void> {
    await m.insert(OrderStatusChange, { companyId: order.companyId, orderId: order.id, fromStatus: from, toStatus: to, actorId: actor === 'system' ? null : actor.id, actorType: actor === 'system' ? 'system' : actor.type, reason });
  }

  /** The event of a status move (`order.placed` for the initial one); it carries the order's number. */
  async recordStatusEvent(m: EntityManager, order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null, payload: OrderStatusExtras = {}): Promise<void> {
    await recordEvents(m, {
      type: from === null ? 'order.placed' : `order.${to}`,
      aggregateType: 'order',
      aggregateId: order.id,
      companyId: order.companyId,
      actorId: actor === 'system' ? null : actor.id,
      payload: { number: order.number, customer_id: order.customerId, from, to, reason, ...payload },
    });
  }

  /**
   * Gives a new order (inserted with a placeholder number) the company's next number, in one
   * statement. The counter row stays locked until the commit: call it last, just before the commit,
   * so that placements of one company queue on it as briefly as possible. Numbers are gap-free: a
   * transaction that fails gives its number back.
   */
  async takeNumber(m: EntityManager, order: Order): Promise<void> {
    const result = await m.query<[{ number: number }[], number] | { number: number }[]>(
      `WITH next_number AS (
         INSERT INTO order_counters (company_id, last_number) VALUES ($1, 1)
         ON CONFLICT (company_id) DO UPDATE SET last_number = order_counters.last_number + 1 RETURNING last_number)
       UPDATE orders SET number = next_number.last_number FROM next_number WHERE orders.id = $2 RETURNING orders.number`,
      [order.companyId, order.id],
    );
    // An UPDATE answers [rows, count] through TypeORM's query runner.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as { number: number }[];
    order.number = Number(rows[0].number);
  }

  /** Appends a bill's lines to the order (after its existing ones); returns their ids, in order. */
  async addLines(m: EntityManager, order: Order, bill: Bill, source: LineSource, changeRequestId: string | null = null): Promise<string[]> {
    if (bill.lines.length === 0) return [];
    assertStorable(bill.lines.flatMap((l) => [l.quantity, l.unit_amount, l.amount]));
    const [{ next }] = await m.query<{ next: number }[]>(`SELECT coalesce(max(position), -1) + 1 AS next FROM order_lines WHERE order_id = $1`, [order.id]);
    const inserted = await m.insert(
      OrderLine,
      bill.lines.map((l, i) => ({
        companyId: order.companyId,
        orderId: order.id,
        kind: l.kind,
        source,
        changeRequestId,
        description: l.description,
        quantity: l.quantity,
        unitAmount: l.unit_amount,
        amount: l.amount,
        position: Number(next) + i,
        voidedAt: null,
      })),
    );
    return inserted.identifiers.map((x) => (x as { id: string }).id);
  }

  /**
   * A new order's bill lines (positions from 0) and its first history row (`pending`), in one
   * statement: placement's writes before its number is taken (see `takeNumber`).
   */
  async recordPlacement(m: EntityManager, order: Order, bill: Bill, actor: Pick<Actor, 'id' | 'type'>): Promise<void> {
    assertStorable(bill.lines.flatMap((l) => [l.quantity, l.unit_amount, l.amount]));
    await m.query(
      `WITH history AS (
         INSERT INTO order_status_history (company_id, order_id, from_status, to_status, actor_id, actor_type, reason)
         VALUES ($1, $2, NULL, 'pending', $3, $4, NULL))
       INSERT INTO order_lines (company_id, order_id, kind, source, change_request_id, description, quantity, unit_amount, amount, position)
       SELECT $1, $2, l.kind, 'placement', NULL, l.description, l.quantity, l.unit_amount, l.amount, e.ord - 1
         FROM jsonb_array_elements($5::jsonb) WITH ORDINALITY AS e(line, ord),
              jsonb_to_record(e.line) AS l(kind text, description text, quantity int, unit_amount int, amount int)`,
      [order.companyId, order.id, actor.id, actor.type, JSON.stringify(bill.lines)],
    );
  }

  /** Voids live lines (all of them, or those of some sources); they stay on record. */
  async voidLines(m: EntityManager, order: Order, sources?: LineSource[]): Promise<void> {
    await m.update(OrderLine, { orderId: order.id, voidedAt: IsNull(), ...(sources ? { source: In(sources) } : {}) }, { voidedAt: new Date() });
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
  async refreshTotals(m: EntityManager, order: Order): Promise<void> {
    // Summed as bigint (strings from the driver), then checked: the sum of storable lines may not be.
    const [sums] = await m.query<{ subtotal: string; discount: string; tax: string; total: string }[]>(
      `SELECT coalesce(sum(amount) FILTER (WHERE kind NOT IN ('discount', 'tax')), 0)::bigint::text AS subtotal,
              coalesce(-sum(amount) FILTER (WHERE kind = 'discount'), 0)::bigint::text AS discount,
              coalesce(sum(amount) FILTER (WHERE kind = 'tax'), 0)::bigint::text AS tax,
              coalesce(sum(amount), 0)::bigint::text AS total
         FROM order_lines WHERE order_id = $1 AND voided_at IS NULL`,
      [order.id],
    );
    const t = { subtotal: Number(sums.subtotal), discount: Number(sums.discount), tax: Number(sums.tax), total: Number(sums.total) };
    assertStorable(Object.values(t));
    order.subtotalAmount = t.subtotal;
    order.discountAmount = t.discount;
    order.taxAmount = t.tax;
    order.totalAmount = t.total;
    order.paymentStatus = paymentStatusOf(order.totalAmount, order.paidAmount);
    await m.update(Order, { id: order.id }, { subtotalAmount: t.subtotal, discountAmount: t.discount, taxAmount: t.tax, totalAmount: t.total, paymentStatus: order.paymentStatus });
  }

  /** The due date of a bill issued on `issuedOn` under the order's payment term. */
  dueDate(order: Pick<Order, 'terms'>, issuedOn: string): string {
    return addDays(issuedOn, order.terms.due_days);
  }

  /** Creates an unassigned job for the order (from the order's lot). */
  createJob(m: EntityManager, order: Order, type: JobType, scheduledDate: string, extra: Pick<NewJob, 'changeRequestId' | 'destinationAddressId'> = {}): Promise<JobView> {
    return this.jobs.create(m, { companyId: order.companyId, orderId: order.id, type, scheduledDate, lotId: order.lotId, ...extra });
  }

  /** Approval's jobs: the delivery, and the pickup when a pickup date is set. */
  async createApprovalJobs(m: EntityManager, order: Order): Promise<void> {
    const job = (type: JobType, scheduledDate: string): NewJob => ({ companyId: order.companyId, orderId: order.id, type, scheduledDate, lotId: order.lotId });
    await this.jobs.createMany(m, order.pickupDate ? [job('delivery', order.deliveryDate), job('pickup', order.pickupDate)] : [job('delivery', order.deliveryDate)]);
  }

  /** Keeps the delivery and pickup jobs in step with the order's dates (after approval). */
  async syncDateJobs(m: EntityManager, order: Order, reason: string): Promise<void> {
    if (!['approved', 'scheduled', 'delivered'].includes(order.status)) return;
    const delivery = await this.jobs.unfinished(m, order.id, 'delivery');
    if (delivery && delivery.scheduledDate !== order.deliveryDate) await this.jobs.reschedule(m, delivery.id, order.deliveryDate);
    const pickup = await this.jobs.unfinished(m, order.id, 'pickup');
    if (order.pickupDate && !pickup) await this.createJob(m, order, 'pickup', order.pickupDate);
    else if (order.pickupDate && pickup && pickup.scheduledDate !== order.pickupDate) await this.jobs.reschedule(m, pickup.id, order.pickupDate);
    else if (!order.pickupDate && pickup) await this.jobs.abort(m, [pickup], reason);
  }

  /** Aborts every unfinished job of the order (cancellation), releasing the assets they reserved. */
  abortOrderJobs(m: EntityManager, order: Order, reason: string): Promise<void> {
    return this.jobs.abortUnfinished(m, order.id, reason);
  }
}
