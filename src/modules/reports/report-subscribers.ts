import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { EventSubscriber, type EventHandler, type RelayedEvent } from '../../common/outbox/event-subscriber';
import { CompaniesService } from '../companies';
import { DispatchReadModel } from '../dispatch';
import { OrdersReadModel } from '../orders';
import { ReportCountersRepository } from './report-counters.repository';
import { addDays } from './report-range';
import type { ReportMetric } from './report.entities';

/** Events after which an order's status, service date, total, payments or rental dates may have changed. */
const ORDER_EVENTS = [
  'order.placed',
  'order.pending',
  'order.approved',
  'order.rejected',
  'order.scheduled',
  'order.delivered',
  'order.completed',
  'order.cancelled',
  'order.updated',
  'order.overdue',
  'order_change_request.approved',
  'job.created',
  'job.aborted',
  'policy_violation.recorded',
  'policy_violation.removed',
  'policy_violation.resolved',
  'payment_transaction.recorded',
] as const;
type OrderEvent = (typeof ORDER_EVENTS)[number];

/** Statuses in which an order's total is not billed (not accepted yet, or refused). */
const UNBILLED = new Set(['pending', 'rejected']);

/** What an order adds to the counters, as cells (metric, day, dimension) with a count and an amount. */
type Contribution = [ReportMetric, string, string, number, number];

/** What the counters hold of an order (a fact row, or the order now). */
interface Counted {
  customerId: string;
  day: string;
  status: string;
  billed: number;
  balance: number;
  dueDate: string | null;
  specificationId: string | null;
  deliveredOn: string | null;
  endedOn: string | null;
  /** The day of its `billed` cells (null: `day`, as counted before the billing basis). */
  billedOn: string | null;
}

/**
 * An order's cells: `orders` (its service date, by status); `billed` and `customer_billed` (once
 * accepted, on the day its bill became final: a completed order's completion day, a cancelled one's
 * cancellation day; an open order with its current total on its service date: billing basis `completed_on`); `dues` and `customer_dues` (its due date, while it has a balance and is not rejected); `rent` (per
 * specification, +1 on its delivery date and −1 the day after its completion: the running sum of a
 * date is the containers on rent that day).
 */
function contributions(f: Counted): Contribution[] {
  if (f.status === 'none') return [];
  const out: Contribution[] = [['orders', f.day, f.status, 1, 0]];
  const billedOn = f.billedOn ?? f.day;
  if (!UNBILLED.has(f.status)) out.push(['billed', billedOn, '', 1, f.billed], ['customer_billed', billedOn, f.customerId, 1, f.billed]);
  if (f.balance > 0 && f.status !== 'rejected' && f.dueDate) out.push(['dues', f.dueDate, '', 1, f.balance], ['customer_dues', f.dueDate, f.customerId, 1, f.balance]);
  if (f.deliveredOn && f.specificationId) {
    out.push(['rent', f.deliveredOn, f.specificationId, 1, 0]);
    if (f.endedOn) out.push(['rent', addDays(f.endedOn, 1), f.specificationId, -1, 0]);
  }
  return out;
}

/**
 * Keeps the order cells (see `contributions`) equal to the orders: on any event that may change an
 * order, it reads the order now and moves the order's contribution from what was last counted
 * (`report_order_facts`, locked) to what is true now. Being a diff of states, it is right whatever the
 * order in which events arrive, and a repeated event changes nothing.
 */
@Injectable()
@EventSubscriber({ name: 'reports.order-counters', events: ORDER_EVENTS })
export class OrderCountersSubscriber implements EventHandler<OrderEvent> {
  constructor(
    private readonly companies: CompaniesService,
    private readonly orders: OrdersReadModel,
    private readonly counters: ReportCountersRepository,
  ) {}

  /** In the relay's unit of work (the repositories join it by themselves). */
  async handle(event: RelayedEvent<OrderEvent>): Promise<void> {
    if (!event.companyId) return;
    const c = event.companyId;
    const scope = Scope.company(c);
    const orderId = event.aggregateType === 'order' ? event.aggregateId : (event.payload as { order_id?: string | null }).order_id;
    if (!orderId) return;
    const now = await this.orders.facts(scope, orderId, await this.companies.timezone(scope));
    if (!now) return;
    await this.counters.startOrderFacts(scope, orderId, now.customerId, now.day);
    const was = (await this.counters.lockOrderFacts(scope, orderId))!;
    const before: Counted = {
      customerId: was.customer_id,
      day: was.day,
      status: was.status,
      billed: Number(was.billed_amount),
      balance: Number(was.balance_amount),
      dueDate: was.due_date,
      specificationId: was.asset_specification_id,
      deliveredOn: was.delivered_on,
      endedOn: was.ended_on,
      billedOn: was.billed_on,
    };
    const after: Counted = {
      customerId: now.customerId,
      day: now.day,
      status: now.status,
      billed: UNBILLED.has(now.status) ? 0 : now.totalAmount,
      balance: now.totalAmount - now.paidAmount,
      dueDate: now.dueDate,
      specificationId: now.assetSpecificationId,
      deliveredOn: now.deliveredOn,
      endedOn: now.endedOn,
      billedOn: now.billedOn,
    };
    const delta = new Map<string, Contribution>();
    const put = (sign: number) => (x: Contribution) => {
      const key = `${x[0]}|${x[1]}|${x[2]}`;
      const cur = delta.get(key) ?? [x[0], x[1], x[2], 0, 0];
      delta.set(key, [cur[0], cur[1], cur[2], cur[3] + sign * x[3], cur[4] + sign * x[4]]);
    };
    contributions(before).forEach(put(-1));
    contributions(after).forEach(put(1));
    const changes = [...delta.values()].filter((x) => x[3] || x[4]);
    for (const [metric, day, dim, count, amount] of changes) await this.counters.add(scope, metric, day, dim, count, amount, metric === 'dues' || metric === 'customer_dues');
    if (!changes.length && before.status !== 'none') return;
    await this.counters.updateOrderFacts(scope, orderId, {
      customerId: after.customerId,
      day: after.day,
      status: after.status,
      billedAmount: String(after.billed),
      balanceAmount: String(after.balance),
      dueDate: after.dueDate,
      assetSpecificationId: after.specificationId,
      deliveredOn: after.deliveredOn,
      endedOn: after.endedOn,
      billedOn: after.billedOn,
    });
  }
}

/**
 * Money collected (`collected`, on the company's date of the ledger row's success): succeeded charges
 * by card and offline payments add, succeeded refunds to a card subtract; wallet movements are money
 * already collected and do not count. A ledger row succeeds once (pending → succeeded, or recorded
 * succeeded), and the relay delivers each event once to this subscriber.
 */
@Injectable()
@EventSubscriber({ name: 'reports.collected', events: ['payment_transaction.recorded'] })
export class CollectedSubscriber implements EventHandler<'payment_transaction.recorded'> {
  constructor(
    private readonly companies: CompaniesService,
    private readonly counters: ReportCountersRepository,
  ) {}

  async handle(event: RelayedEvent<'payment_transaction.recorded'>): Promise<void> {
    const p = event.payload;
    if (!event.companyId || p.status !== 'succeeded' || p.method === 'wallet') return;
    const sign = p.kind === 'charge' || p.kind === 'offline_payment' ? 1 : p.kind === 'refund' ? -1 : 0;
    if (!sign) return;
    const scope = Scope.company(event.companyId);
    const day = todayIn(await this.companies.timezone(scope), new Date(event.createdAt));
    await this.counters.add(scope, 'collected', day, '', sign, sign * p.amount);
  }
}

/**
 * A completed job, on the company's date of its completion: `jobs` per type, `driver_jobs` per driver
 * (amount: metres along its location points), `tonnage` per waste type and `driver_tonnage` per driver
 * (its station ticket's net kg), `deliveries` `on_time` (completed on or before the scheduled date)
 * or `late`. A job completes once.
 */
@Injectable()
@EventSubscriber({ name: 'reports.job-counters', events: ['job.completed'] })
export class JobCountersSubscriber implements EventHandler<'job.completed'> {
  constructor(
    private readonly companies: CompaniesService,
    private readonly dispatch: DispatchReadModel,
    private readonly counters: ReportCountersRepository,
  ) {}

  /** In the relay's unit of work (the repositories join it by themselves). */
  async handle(event: RelayedEvent<'job.completed'>): Promise<void> {
    if (!event.companyId) return;
    const c = event.companyId;
    const scope = Scope.company(c);
    const job = await this.dispatch.completedJobFacts(scope, event.aggregateId, await this.companies.timezone(scope));
    if (!job) return;
    const day = job.completedOn;
    await this.counters.add(scope, 'jobs', day, job.type, 1);
    if (job.driverId) await this.counters.add(scope, 'driver_jobs', day, job.driverId, 1, job.meters);
    if (job.netKg !== null) {
      if (job.wasteTypeId) await this.counters.add(scope, 'tonnage', day, job.wasteTypeId, 1, job.netKg);
      if (job.driverId) await this.counters.add(scope, 'driver_tonnage', day, job.driverId, 1, job.netKg);
    }
    if (job.type === 'delivery') await this.counters.add(scope, 'deliveries', day, job.completedOn <= job.scheduledDate ? 'on_time' : 'late', 1);
  }
}

/**
 * A driver's worked minutes per day (`worked`, on the attendance's work date), from the check-out's
 * payload (the day's worked time, breaks excluded). A day re-opened (resume) and closed again sends a
 * larger total: the cell keeps the largest, whatever the order of arrival. An open day is not counted.
 */
@Injectable()
@EventSubscriber({ name: 'reports.worked-time', events: ['attendance.checked_out'] })
export class WorkedTimeSubscriber implements EventHandler<'attendance.checked_out'> {
  constructor(private readonly counters: ReportCountersRepository) {}

  async handle(event: RelayedEvent<'attendance.checked_out'>): Promise<void> {
    if (!event.companyId) return;
    await this.counters.keepMax(Scope.company(event.companyId), 'worked', event.payload.work_date, event.payload.driver_id, event.payload.worked_minutes);
  }
}
