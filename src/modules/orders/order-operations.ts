import { Injectable } from '@nestjs/common';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import type { PageQuery } from '../../common/http/pagination';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AddressSnapshot } from '../customers';
import { JobsService } from '../jobs';
import { CompaniesService } from '../companies';
import { OrderBillRepository } from './order-bill.repository';
import { OrderLifecycle, paymentStatusOf, type ChangeActor } from './order-lifecycle';
import { OrderOperationsRepository } from './order-operations.repository';
import type { Order, OrderStatus, PaymentStatus } from './order.entity';
import { OrdersRepository } from './orders.repository';
import { finalBill, flatFee, serviceFee, totalsOf } from './pricing-engine';

export { OVERDUE_NOTICE_DAYS } from './order-operations.repository';

/** What dispatch needs to know of an order to run its jobs (a plain copy, never the entity). */
export interface OrderForJobs {
  id: string;
  companyId: string;
  customerId: string;
  number: number;
  status: OrderStatus;
  addressId: string;
  address: AddressSnapshot;
  lotId: string;
  assetSpecificationId: string;
  wasteTypeId: string;
  deliveryDate: string;
  pickupDate: string | null;
  deliveredOn: string | null;
  totalAmount: number;
  currency: string;
}

/** An order that still has unassigned jobs (dispatch's `GET /orders/assignable`), with names and those jobs. */
export interface AssignableOrder extends OrderForJobs {
  customerName: string;
  specificationName: string;
  wasteTypeName: string;
  unassignedJobs: { id: string; type: string; scheduled_date: string }[];
}

/** Filters of the assignable orders: an unassigned job on `date`, the specification, `q` (number, customer name or e-mail). */
export interface AssignableQuery extends PageQuery {
  date?: string;
  asset_specification_id?: string;
}

/** An order's money side, for payments (a plain copy). `balanceAmount` = total - paid (negative when overpaid). */
export interface OrderBalance {
  id: string;
  companyId: string;
  customerId: string;
  number: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  totalAmount: number;
  paidAmount: number;
  balanceAmount: number;
  currency: string;
  dueDate: string;
}

/** An order with a balance, for the dues lists: its balance, days past due and the customer's name. */
export interface OrderDue extends OrderBalance {
  customerName: string;
  daysPastDue: number;
}

/** Filters of the dues lists: the customer, only overdue ones; sorts due_date (default), balance_amount, created_at. */
export interface DuesQuery extends PageQuery {
  customer_id?: string;
  overdue?: boolean;
}

/** Totals of the dues (minor units) with the overdue part in ageing buckets of days past due. */
export interface DuesTotals {
  orders_count: number;
  total_due_amount: number;
  overdue_count: number;
  overdue_amount: number;
  not_yet_due_amount: number;
  aged_0_30_amount: number;
  aged_31_60_amount: number;
  aged_61_90_amount: number;
  aged_90_plus_amount: number;
}

/** An order marked overdue (or reminded) by the overdue job: `notice` 1 marked, 2 the 7-day reminder, 3 the 30-day one. */
export interface OverdueOrder {
  id: string;
  companyId: string;
  customerId: string;
  number: number;
  balanceAmount: number;
  currency: string;
  dueDate: string;
  daysOverdue: number;
  notice: 1 | 2 | 3;
}

const balanceOf = (o: Pick<Order, 'id' | 'companyId' | 'customerId' | 'number' | 'status' | 'paymentStatus' | 'totalAmount' | 'paidAmount' | 'currency' | 'dueDate'>): OrderBalance => ({
  id: o.id,
  companyId: o.companyId,
  customerId: o.customerId,
  number: o.number,
  status: o.status,
  paymentStatus: o.paymentStatus,
  totalAmount: o.totalAmount,
  paidAmount: o.paidAmount,
  balanceAmount: o.totalAmount - o.paidAmount,
  currency: o.currency,
  dueDate: o.dueDate,
});

const forJobs = (o: Order): OrderForJobs => ({
  id: o.id,
  companyId: o.companyId,
  customerId: o.customerId,
  number: o.number,
  status: o.status,
  addressId: o.addressId,
  address: o.address,
  lotId: o.lotId,
  assetSpecificationId: o.assetSpecificationId,
  wasteTypeId: o.wasteTypeId,
  deliveryDate: o.deliveryDate,
  pickupDate: o.pickupDate,
  deliveredOn: o.deliveredOn,
  totalAmount: o.totalAmount,
  currency: o.currency,
});

/**
 * An order as a call names it: its id, or what `lock` (`lockForPayment`, `lockDues`) returned in the
 * same unit of work (the locked row is then passed on: neither locked nor read again). After a failed
 * savepoint of the unit that was caught and went on, pass the id: the row is then locked and read again.
 */
export type OrderRef = string | OrderForJobs | OrderBalance;

/** How a driver reaches an order: a job of theirs on it, found with their scope (the caller's proof; else the jobs are asked). */
export interface DriverReach {
  orderId: string;
  driverId: string | null;
}

const HELD = Symbol('orders.lockedRow');

/** What `lock` hands out: the copy, with the locked row and the unit it was locked in (not enumerable: a spread copy drops it). */
type Held = { id: string; [HELD]?: { order: Order; unit: unknown } };

/**
 * The order side of dispatch, payments and accountability (they call it inside their own unit of
 * work): reading orders for their jobs, the status moves jobs cause, through `OrderLifecycle`
 * (history row and event each): first assignment → `scheduled`; delivery completed → `delivered` (the
 * rental clock starts on the real date); final pickup completed → `completed` with the final bill from
 * the pricing engine; fees, balances and dues.
 *
 * Every method takes a `Scope`. A driver's scope reaches the orders of their jobs only (`DriverReach`),
 * never the whole company. An order `lock` returned may be passed on to the calls that follow in the same
 * unit (`OrderRef`): it is not locked and read again. No method takes a manager: the unit of work
 * carries it; system work (the scheduler, a relay subscriber) passes `Scope.company(companyId)`.
 */
@Injectable()
export class OrderOperations {
  constructor(
    private readonly lifecycle: OrderLifecycle,
    private readonly companies: CompaniesService,
    private readonly jobs: JobsService,
    private readonly orders: OrdersRepository,
    private readonly bill: OrderBillRepository,
    private readonly repo: OrderOperationsRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** The rows this service locked in each open unit of work (by the unit's manager: a new one per transaction), one per order. */
  private readonly rows = new WeakMap<object, Map<string, Order>>();

  /** The rows of the open unit, or null outside one. */
  private unitRows(): Map<string, Order> | null {
    if (!this.uow.active) return null;
    const unit = this.uow.manager;
    let rows = this.rows.get(unit);
    if (!rows) this.rows.set(unit, (rows = new Map()));
    return rows;
  }

  /**
   * One row per order in a unit of work: an order locked again by id refreshes the row handed out
   * before (and is that row), so a locked row passed on (`OrderRef`) is never behind the unit's writes.
   */
  private kept(order: Order): Order {
    const rows = this.unitRows();
    if (!rows) return order;
    const known = rows.get(order.id);
    if (!known) {
      rows.set(order.id, order);
      return order;
    }
    Object.assign(known, order);
    return known;
  }

  /** The scope that reaches the order: a driver's, widened to the company once a job of theirs is on it (else 404). */
  private async reaching(scope: Scope, orderId: string, through?: DriverReach): Promise<Scope> {
    if (scope.kind !== 'driver') return scope;
    const mine = through ? through.orderId === orderId && through.driverId === scope.driverId : await this.jobs.reachesOrder(scope, orderId);
    if (!mine) throw ApiError.notFound('Order');
    return scope.widened();
  }

  /** The locked row behind `ref` when `lock` handed it out in this unit of work (for this company), else null. */
  private heldRow(scope: Scope, ref: OrderRef): Order | null {
    if (typeof ref === 'string') return null;
    const held = (ref as Held)[HELD];
    return held && this.uow.active && held.unit === this.uow.manager && held.order.companyId === scope.companyId ? held.order : null;
  }

  /** The locked row behind `ref` (passed on), else the order locked now. */
  private async locked(scope: Scope, ref: OrderRef): Promise<Order> {
    const held = this.heldRow(scope, ref);
    if (held) return held;
    const id = typeof ref === 'string' ? ref : ref.id;
    return this.kept(await this.lifecycle.lock(await this.reaching(scope, id), id));
  }

  /** The copy `lock` answers (`copy` of the row), holding the locked row for the calls that follow in this unit. */
  private hold<T extends { id: string }>(order: Order, copy: (o: Order) => T): T {
    const out = copy(order);
    Object.defineProperty(out, HELD, { value: { order, unit: this.uow.manager }, enumerable: false });
    return out;
  }

  /**
   * The order `scope` reaches, locked for the rest of the unit of work; 404 when absent or out of reach
   * (a driver: unless a job of theirs is on it, `through` when the caller found that job). Pass what it
   * answers on to the calls that follow (`OrderRef`).
   */
  async lock(scope: Scope, orderId: string, through?: DriverReach): Promise<OrderForJobs> {
    return this.hold(this.kept(await this.lifecycle.lock(await this.reaching(scope, orderId, through), orderId)), forJobs);
  }

  /**
   * The orders of a company's `scope` among `orderIds`, locked in id order in one statement (the lock order of
   * every dispatch write) for the rest of the unit of work; 404 when one is absent or out of reach. Each is
   * passed on like `lock`'s answer. Dispatch's bulk writes call it with the company's scope only (a driver's
   * scope reaches an order through a job of theirs: `lock`).
   */
  async lockMany(scope: Scope, orderIds: readonly string[]): Promise<Map<string, OrderForJobs>> {
    if (scope.kind !== 'company') throw new Error(`OrderOperations#lockMany takes a company's scope, not a ${scope.kind}'s`);
    const rows = await this.lifecycle.lockMany(scope, orderIds);
    return new Map(rows.map((o) => [o.id, this.hold(this.kept(o), forJobs)]));
  }

  /**
   * The orders of `scope` by id (no lock), for lists and the route planner; ids it does not reach are
   * left out (a driver's scope: those of `through`, jobs found with it).
   */
  async many(scope: Scope, orderIds: readonly string[], through: readonly DriverReach[] = []): Promise<Map<string, OrderForJobs>> {
    let ids = [...new Set(orderIds)];
    if (scope.kind === 'driver') {
      const reached = new Set(through.filter((r) => r.driverId === scope.driverId).map((r) => r.orderId));
      ids = ids.filter((id) => reached.has(id));
      scope = scope.widened();
    }
    if (!ids.length) return new Map();
    const rows = await this.orders.many(scope, ids);
    return new Map(rows.map((o) => [o.id, forJobs(o)]));
  }

  /** An approved order's first assigned delivery schedules it (no-op in any later status). */
  async scheduled(scope: Scope, ref: OrderRef, actor: ChangeActor): Promise<void> {
    const order = await this.locked(scope, ref);
    if (order.status === 'approved') await this.lifecycle.move(order, 'scheduled', actor);
  }

  /** The delivery was completed on `on` (the company's local date): the order is delivered and its rental clock starts. */
  async delivered(scope: Scope, ref: OrderRef, actor: ChangeActor, on: string): Promise<void> {
    const order = await this.locked(scope, ref);
    if (order.status === 'approved') await this.lifecycle.move(order, 'scheduled', actor);
    if (order.status !== 'scheduled') throw ApiError.invalidTransition(order.status, 'delivered', 'Order');
    await this.lifecycle.move(order, 'delivered', actor, null, {}, { deliveredOn: on });
  }

  /**
   * The final pickup was completed on `pickedUpOn`: the final bill (extra days from the real delivery
   * date beyond those already billed; overage only from the station ticket's net weight) is added and
   * the order completed. Returns the lines added (their total in minor units).
   */
  async completed(scope: Scope, ref: OrderRef, actor: ChangeActor, f: { pickedUpOn: string; netWeightKg: number | null }): Promise<{ final_amount: number }> {
    const order = await this.locked(scope, ref);
    if (order.status !== 'delivered') throw ApiError.invalidTransition(order.status, 'completed', 'Order');
    const days = await this.bill.billedExtraDays(scope, order.id);
    const bill = finalBill(order.terms, { deliveredOn: order.deliveredOn ?? order.deliveryDate, pickedUpOn: f.pickedUpOn, billedExtraDays: days, netWeightKg: f.netWeightKg, policyFees: [] });
    await this.lifecycle.addLines(order, bill, 'final');
    if (bill.lines.length) await this.lifecycle.refreshTotals(order);
    await this.lifecycle.move(order, 'completed', actor, null, { total_amount: order.totalAmount }, { completedAt: new Date() });
    return { final_amount: bill.lines.reduce((s, l) => s + l.amount, 0) };
  }

  /** A service fee line (with its taxes) for a job the company added or aborted: swap, dump-and-return, relocation, wasted trip. */
  async addFee(scope: Scope, ref: OrderRef, kind: ServiceFeeKind): Promise<number> {
    const order = await this.locked(scope, ref);
    const bill = serviceFee(order.terms, kind);
    if (!bill.lines.length) return 0;
    await this.lifecycle.addLines(order, bill, 'final');
    await this.lifecycle.refreshTotals(order);
    return bill.lines.reduce((s, l) => s + l.amount, 0);
  }

  /**
   * The orders of `scope` with unassigned jobs (dispatch), paginated in SQL: one statement with the names
   * and the unassigned jobs (SQL of the jobs module), and the count when the page is full. Sorts:
   * delivery_date (default), created_at, number, each with an index on orders.
   */
  async assignable(scope: Scope, q: AssignableQuery): Promise<Page<AssignableOrder>> {
    const page = await this.repo.assignable(scope, q);
    return new Page(
      page.items.map((r) => ({ ...forJobs(r.order), customerName: r.customerName, specificationName: r.specificationName, wasteTypeName: r.wasteTypeName, unassignedJobs: r.unassignedJobs })),
      page.meta,
    );
  }

  // ------------------------------------------------------------ policy fees (accountability, issue #14)

  /**
   * A policy fee (with the taxes the order's frozen terms put on fees) added to the order's bill as a
   * `policy_fee` line of the final bill; totals and payment status follow. Returns the ids of the
   * lines added (the fee, then its taxes) and their sum (0 and none for a zero fee).
   */
  async addViolationFee(scope: Scope, ref: OrderRef, amount: number, label: string): Promise<{ lineIds: string[]; amount: number }> {
    const order = await this.locked(scope, ref);
    const bill = flatFee(order.terms, 'policy_fee', label, amount);
    const lineIds = await this.lifecycle.addLines(order, bill, 'final');
    if (lineIds.length) await this.lifecycle.refreshTotals(order);
    return { lineIds, amount: bill.total_amount };
  }

  /** Voids the lines `addViolationFee` added (a violation removed before any resolution): they stay on record, the balance goes down. */
  async voidViolationFee(scope: Scope, ref: OrderRef, lineIds: readonly string[]): Promise<void> {
    if (!lineIds.length) return;
    const order = await this.locked(scope, ref);
    await this.bill.voidLines(scope, order.id, { ids: lineIds });
    await this.lifecycle.refreshTotals(order);
  }

  /**
   * Credits the lines `addViolationFee` added (a waived violation): a negated copy of each live one,
   * described `<label>: <line>`, so the balance goes down by the fee and its taxes and the bill shows
   * both. Returns the credit lines' ids and their sum (negative).
   */
  async creditViolationFee(scope: Scope, ref: OrderRef, lineIds: readonly string[], label: string): Promise<{ lineIds: string[]; amount: number }> {
    if (!lineIds.length) return { lineIds: [], amount: 0 };
    const order = await this.locked(scope, ref);
    const lines = await this.bill.liveAmong(scope, order.id, lineIds);
    if (!lines.length) return { lineIds: [], amount: 0 };
    const credit = totalsOf(lines.map((l) => ({ kind: l.kind, description: `${label}: ${l.description}`, quantity: l.quantity, unit_amount: -l.unitAmount, amount: -l.amount })));
    const ids = await this.lifecycle.addLines(order, credit, 'final');
    await this.lifecycle.refreshTotals(order);
    return { lineIds: ids, amount: credit.total_amount };
  }

  // ------------------------------------------------------------ payments (issue #13)

  /** The order (the caller's scope: a customer reaches only theirs), locked for a payment; 404 otherwise. Pass what it answers on to `recordPaid`. */
  async lockForPayment(scope: Scope, orderId: string): Promise<OrderBalance> {
    return this.hold(this.kept(await this.lifecycle.lock(scope, orderId)), balanceOf);
  }

  /** The order's balance now (no lock); 404 when the scope does not reach it. */
  async balance(scope: Scope, orderId: string): Promise<OrderBalance> {
    const order = await this.repo.balanceRow(scope, orderId);
    if (!order) throw ApiError.notFound('Order');
    return balanceOf(order);
  }

  /**
   * Every order of the customer with a balance, oldest due first (then by number), each locked for the
   * rest of the unit of work. Locked in that order, so two such calls cannot deadlock; an order paid
   * meanwhile (by a single pay that held its lock) is re-checked after the wait and left out. Each may be
   * passed on to `recordPaid`.
   */
  async lockDues(scope: Scope, customerId: string): Promise<OrderBalance[]> {
    return (await this.repo.lockDues(scope, customerId)).map((o) => this.hold(this.kept(o), balanceOf));
  }

  /**
   * Writes the order's paid amount (the payments ledger's sum of its succeeded rows, computed by the
   * caller in the same unit of work, the order locked) and its payment status derived from it:
   * unpaid / partially_paid / paid, or `refunded` when money went back to the customer. `ref`: what
   * `lockForPayment` answered in this unit (not read again), or the id.
   */
  async recordPaid(scope: Scope, ref: OrderRef, paidAmount: number, refunded = false): Promise<OrderBalance> {
    const orderId = typeof ref === 'string' ? ref : ref.id;
    const order = this.heldRow(scope, ref) ?? (await this.repo.ofCompany(scope, orderId));
    if (!order) throw ApiError.notFound('Order');
    order.paidAmount = paidAmount;
    order.paymentStatus = refunded ? 'refunded' : paymentStatusOf(order.totalAmount, paidAmount);
    await this.repo.setPaid(scope, orderId, { paidAmount, paymentStatus: order.paymentStatus });
    // A row of this order handed out earlier in the unit follows the write.
    const kept = this.unitRows()?.get(orderId);
    if (kept && kept !== order) Object.assign(kept, { paidAmount, paymentStatus: order.paymentStatus });
    return balanceOf(order);
  }

  /**
   * The orders with a balance that the scope reaches (a customer: theirs), paginated in SQL with the
   * customer's name and days past due (`today`, the company's date). Sorts: due_date (default),
   * created_at; filters: customer_id, overdue.
   */
  async dues(scope: Scope, q: DuesQuery, today: string): Promise<Page<OrderDue>> {
    const page = await this.repo.dues(scope, q, today);
    return new Page(
      page.items.map((r) => ({ ...balanceOf(r.order), customerName: r.customerName, daysPastDue: r.daysPastDue })),
      page.meta,
    );
  }

  /** Totals of the dues the scope reaches (optionally one customer's), with ageing buckets of days past due. */
  async duesTotals(scope: Scope, today: string, customerId?: string): Promise<DuesTotals> {
    const row = await this.repo.duesTotals(scope, today, customerId);
    const out = {} as DuesTotals;
    for (const k of ['orders_count', 'total_due_amount', 'overdue_count', 'overdue_amount', 'not_yet_due_amount', 'aged_0_30_amount', 'aged_31_60_amount', 'aged_61_90_amount', 'aged_90_plus_amount'] as const) out[k] = Number(row?.[k] ?? 0);
    return out;
  }

  // ------------------------------------------------------------ overdue (payments' scheduled job)

  /**
   * The companies that may have overdue notices to give at `now`: orders with a balance due before the
   * latest "today" of any time zone (UTC's date + 1), with a notice pending. A superset: markOverdue
   * decides with the company's own date. A sweep across companies (`reach`: the scheduler's).
   */
  overdueCandidates(reach: SystemReach, now: Date): Promise<string[]> {
    return this.repo.overdueCandidates(reach, now);
  }

  /**
   * Marks the company's orders overdue at `now` (the company's date): a balance (the dues lists'
   * definition: not rejected, total above paid) and a due date before today. Each order gets one notice
   * per due date and step (OVERDUE_NOTICE_DAYS: marked, 7 and 30 days; a late run gives only the highest
   * step reached). Claims at most `limit` orders with `FOR UPDATE SKIP LOCKED` (another instance, or a
   * payment holding an order, is skipped: the next run takes it) and returns those it marked; the caller
   * records `order.overdue` for each in the same unit of work.
   */
  async markOverdue(scope: Scope, now: Date, limit: number): Promise<OverdueOrder[]> {
    const tz = await this.companies.timezone(scope);
    const today = await this.repo.dateAt(now, tz);
    const rows = await this.repo.markOverdue(scope, today, limit);
    return rows
      .map((r) => ({ id: r.id, companyId: scope.companyId, customerId: r.customer_id, number: Number(r.number), balanceAmount: Number(r.balance), currency: r.currency, dueDate: r.due_date, daysOverdue: Number(r.days), notice: Number(r.level) as 1 | 2 | 3 }))
      .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.number - b.number);
  }
}

/** The service fees a job adds to its order. */
export type ServiceFeeKind = 'swap_fee' | 'dump_return_fee' | 'relocation_fee' | 'wasted_trip_fee';
