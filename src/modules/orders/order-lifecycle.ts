import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { Job, UNFINISHED_JOB_STATUSES, type JobType } from '../jobs/job.entity';
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

export function paymentStatusOf(total: number, paid: number): PaymentStatus {
  if (paid <= 0) return 'unpaid';
  return paid >= total ? 'paid' : 'partially_paid';
}

/**
 * The write side every order change goes through, inside the caller's transaction: status moves
 * (checked, recorded in the history, with an event), bill lines and totals, and the jobs an order
 * owns. The dispatch module calls `move` for scheduled/delivered/completed.
 */
@Injectable()
export class OrderLifecycle {
  /** The order, locked for the rest of the transaction; 404 when absent or not the caller's. */
  async lock(m: EntityManager, companyId: string, id: string, customerId?: string): Promise<Order> {
    const order = await m.findOne(Order, { where: { id, companyId, ...(customerId ? { customerId } : {}) }, lock: { mode: 'pessimistic_write' } });
    if (!order) throw ApiError.notFound('Order');
    return order;
  }

  async move(m: EntityManager, order: Order, to: OrderStatus, actor: ChangeActor, reason: string | null = null, payload: Record<string, unknown> = {}): Promise<void> {
    const from = order.status;
    if (!ORDER_TRANSITIONS[from].includes(to)) throw ApiError.invalidTransition(from, to, 'Order');
    order.status = to;
    await m.update(Order, { id: order.id }, { status: to });
    await this.recordStatus(m, order, from, to, actor, reason, payload);
  }

  /** History row and event for a status (also the initial `pending`, from null). */
  async recordStatus(m: EntityManager, order: Order, from: OrderStatus | null, to: OrderStatus, actor: ChangeActor, reason: string | null, payload: Record<string, unknown> = {}): Promise<void> {
    const actorId = actor === 'system' ? null : actor.id;
    await m.insert(OrderStatusChange, { companyId: order.companyId, orderId: order.id, fromStatus: from, toStatus: to, actorId, actorType: actor === 'system' ? 'system' : actor.type, reason });
    await recordEvents(m, {
      type: from === null ? 'order.placed' : `order.${to}`,
      aggregateType: 'order',
      aggregateId: order.id,
      companyId: order.companyId,
      actorId,
      payload: { number: order.number, customer_id: order.customerId, from, to, reason, ...payload },
    });
  }

  /** Appends a bill's lines to the order (after its existing ones). */
  async addLines(m: EntityManager, order: Order, bill: Bill, source: LineSource, changeRequestId: string | null = null): Promise<void> {
    if (bill.lines.length === 0) return;
    const [{ next }] = await m.query(`SELECT coalesce(max(position), -1) + 1 AS next FROM order_lines WHERE order_id = $1`, [order.id]);
    await m.insert(
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
  }

  /** Voids live lines (all of them, or those of some sources); they stay on record. */
  async voidLines(m: EntityManager, order: Order, sources?: LineSource[]): Promise<void> {
    await m.update(OrderLine, { orderId: order.id, voidedAt: IsNull(), ...(sources ? { source: In(sources) } : {}) }, { voidedAt: new Date() });
  }

  /** Recomputes the order's totals from its live lines (they add up exactly), and its payment status. */
  async refreshTotals(m: EntityManager, order: Order): Promise<void> {
    const [t] = await m.query(
      `SELECT coalesce(sum(amount) FILTER (WHERE kind NOT IN ('discount', 'tax')), 0)::int AS subtotal,
              coalesce(-sum(amount) FILTER (WHERE kind = 'discount'), 0)::int AS discount,
              coalesce(sum(amount) FILTER (WHERE kind = 'tax'), 0)::int AS tax,
              coalesce(sum(amount), 0)::int AS total
         FROM order_lines WHERE order_id = $1 AND voided_at IS NULL`,
      [order.id],
    );
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

  /** Creates an unassigned job for the order. */
  async createJob(m: EntityManager, order: Order, type: JobType, scheduledDate: string, extra: Partial<Job> = {}): Promise<Job> {
    const job = m.create(Job, { companyId: order.companyId, orderId: order.id, type, status: 'unassigned', scheduledDate, lotId: order.lotId, ...extra });
    const saved = await m.save(job);
    await recordEvents(m, { type: 'job.created', aggregateType: 'job', aggregateId: saved.id, companyId: order.companyId, payload: { order_id: order.id, type, scheduled_date: scheduledDate } });
    return saved;
  }

  /** Approval's jobs: the delivery, and the pickup when a pickup date is set. */
  async createApprovalJobs(m: EntityManager, order: Order): Promise<void> {
    await this.createJob(m, order, 'delivery', order.deliveryDate);
    if (order.pickupDate) await this.createJob(m, order, 'pickup', order.pickupDate);
  }

  /** The order's unfinished job of a type (delivery, pickup), if any. */
  unfinishedJob(m: EntityManager, order: Order, type: JobType): Promise<Job | null> {
    return m.findOne(Job, { where: { orderId: order.id, type, status: In(UNFINISHED_JOB_STATUSES) }, order: { createdAt: 'DESC' }, lock: { mode: 'pessimistic_write' } });
  }

  /** Keeps the delivery and pickup jobs in step with the order's dates (after approval). */
  async syncDateJobs(m: EntityManager, order: Order, reason: string): Promise<void> {
    if (!['approved', 'scheduled', 'delivered'].includes(order.status)) return;
    const delivery = await this.unfinishedJob(m, order, 'delivery');
    if (delivery && delivery.scheduledDate !== order.deliveryDate) await m.update(Job, { id: delivery.id }, { scheduledDate: order.deliveryDate });
    const pickup = await this.unfinishedJob(m, order, 'pickup');
    if (order.pickupDate && !pickup) await this.createJob(m, order, 'pickup', order.pickupDate);
    else if (order.pickupDate && pickup && pickup.scheduledDate !== order.pickupDate) await m.update(Job, { id: pickup.id }, { scheduledDate: order.pickupDate });
    else if (!order.pickupDate && pickup) await this.abortJobs(m, [pickup], reason);
  }

  /** Aborts jobs and releases the assets they reserved. */
  async abortJobs(m: EntityManager, jobs: Job[], reason: string): Promise<void> {
    if (jobs.length === 0) return;
    const ids = jobs.map((j) => j.id);
    await m.update(Job, { id: In(ids) }, { status: 'aborted', abortReason: reason, abortedAt: new Date() });
    await this.releaseAssets(m, jobs.map((j) => j.assetId).filter((a): a is string => !!a));
    await recordEvents(m, ...jobs.map((j) => ({ type: 'job.aborted', aggregateType: 'job', aggregateId: j.id, companyId: j.companyId, payload: { order_id: j.orderId, reason } })));
  }

  /** Reserved assets back to available (an asset already out on site keeps its status). */
  async releaseAssets(m: EntityManager, assetIds: string[]): Promise<void> {
    if (assetIds.length) await m.query(`UPDATE assets SET status = 'available', updated_at = now() WHERE id = ANY($1) AND status = 'reserved'`, [assetIds]);
  }

  /** Aborts every unfinished job of the order (cancellation). */
  async abortOrderJobs(m: EntityManager, order: Order, reason: string): Promise<void> {
    const jobs = await m.find(Job, { where: { orderId: order.id, status: In(UNFINISHED_JOB_STATUSES) }, lock: { mode: 'pessimistic_write' } });
    await this.abortJobs(m, jobs, reason);
  }
}
