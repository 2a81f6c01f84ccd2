import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import type { AddressSnapshot } from '../customers';
import { OrderLifecycle, paymentStatusOf, type ChangeActor } from './order-lifecycle';
import { Order, OrderLine, type OrderStatus, type PaymentStatus } from './order.entity';
import { finalBill, flatFee, serviceFee, totalsOf } from './pricing-engine';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import { scopedQuery } from '../../common/access/tenant-policy';
import { jsonValue } from '../../database/json-value';
import { specificationNameSql, wasteTypeNameSql } from '../catalogue';
import { userNameOrEmailMatches, userNameSql } from '../users';
import type { JobsService } from '../jobs';
import { parseOrderNumber } from './orders.dto';
import { CompaniesService } from '../companies';

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

/** The orders with a balance (the partial indexes idx_orders_company_dues / idx_orders_customer_dues). */
const DUE = `o.total_amount > o.paid_amount AND o.status <> 'rejected'`;

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

/** Days overdue from which each notice is given: marked the day after the due date, reminders at 7 and 30 days. */
export const OVERDUE_NOTICE_DAYS = [1, 7, 30] as const;

/** The notices still to give (the partial index idx_orders_overdue_pending): none yet for this due date, or fewer than 3. */
const NOTICE_PENDING = `(o.overdue_for IS DISTINCT FROM o.due_date OR o.overdue_notices < 3)`;

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
 * The order side of dispatch (layer 5 calls it, in its own transaction): reading orders for their
 * jobs, and the status moves jobs cause, through `OrderLifecycle` (history row and event each):
 * first assignment → `scheduled`; delivery completed → `delivered` (the rental clock starts on the real
 * date); final pickup completed → `completed` with the final bill from the pricing engine.
 */
@Injectable()
export class OrderOperations {
  constructor(
    private readonly lifecycle: OrderLifecycle,
    private readonly companies: CompaniesService,
  ) {}

  /** The company's order, locked for the rest of the transaction; 404 when absent or another company's. */
  async lock(m: EntityManager, companyId: string, orderId: string): Promise<OrderForJobs> {
    return forJobs(await this.lifecycle.lock(m, Scope.company(companyId), orderId));
  }

  /** The company's orders by id (no lock), for lists and the route planner; ids it does not own are left out. */
  async many(companyId: string, orderIds: readonly string[], m: EntityManager): Promise<Map<string, OrderForJobs>> {
    if (!orderIds.length) return new Map();
    const rows = await m.find(Order, { where: { companyId, id: In([...new Set(orderIds)]) } });
    return new Map(rows.map((o) => [o.id, forJobs(o)]));
  }

  /** An approved order's first assigned delivery schedules it (no-op in any later status). */
  async scheduled(m: EntityManager, companyId: string, orderId: string, actor: ChangeActor): Promise<void> {
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    if (order.status === 'approved') await this.lifecycle.move(m, order, 'scheduled', actor);
  }

  /** The delivery was completed on `on` (the company's local date): the order is delivered and its rental clock starts. */
  async delivered(m: EntityManager, companyId: string, orderId: string, actor: ChangeActor, on: string): Promise<void> {
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    if (order.status === 'approved') await this.lifecycle.move(m, order, 'scheduled', actor);
    if (order.status !== 'scheduled') throw ApiError.invalidTransition(order.status, 'delivered', 'Order');
    await this.lifecycle.move(m, order, 'delivered', actor, null, {}, { deliveredOn: on });
  }

  /**
   * The final pickup was completed on `pickedUpOn`: the final bill (extra days from the real delivery
   * date beyond those already billed; overage only from the station ticket's net weight) is added and
   * the order completed. Returns the lines added (their total in minor units).
   */
  async completed(m: EntityManager, companyId: string, orderId: string, actor: ChangeActor, f: { pickedUpOn: string; netWeightKg: number | null }): Promise<{ final_amount: number }> {
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    if (order.status !== 'delivered') throw ApiError.invalidTransition(order.status, 'completed', 'Order');
    const [{ days }] = await m.query<{ days: string }[]>(
      `SELECT coalesce(sum(quantity), 0)::text AS days FROM order_lines WHERE order_id = $1 AND kind = 'extra_days' AND voided_at IS NULL`,
      [order.id],
    );
    const bill = finalBill(order.terms, { deliveredOn: order.deliveredOn ?? order.deliveryDate, pickedUpOn: f.pickedUpOn, billedExtraDays: Number(days), netWeightKg: f.netWeightKg, policyFees: [] });
    await this.lifecycle.addLines(m, order, bill, 'final');
    if (bill.lines.length) await this.lifecycle.refreshTotals(m, order);
    await this.lifecycle.move(m, order, 'completed', actor, null, { total_amount: order.totalAmount }, { completedAt: new Date() });
    return { final_amount: bill.lines.reduce((s, l) => s + l.amount, 0) };
  }

  /** A service fee line (with its taxes) for a job the company added or aborted: swap, dump-and-return, relocation, wasted trip. */
  async addFee(m: EntityManager, companyId: string, orderId: string, kind: 'swap_fee' | 'dump_return_fee' | 'relocation_fee' | 'wasted_trip_fee'): Promise<number> {
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    const bill = serviceFee(order.terms, kind);
    if (!bill.lines.length) return 0;
    await this.lifecycle.addLines(m, order, bill, 'final');
    await this.lifecycle.refreshTotals(m, order);
    return bill.lines.reduce((s, l) => s + l.amount, 0);
  }

  /**
   * The company's orders with unassigned jobs (dispatch), paginated in SQL: one statement with the names
   * and the unassigned jobs (SQL of the jobs module), and the count when the page is full. Sorts:
   * delivery_date (default), created_at, number, each with an index on orders.
   */
  assignable(companyId: string, q: AssignableQuery, jobs: Pick<JobsService, 'unassignedExistsSql' | 'unassignedJsonSql'>, m: EntityManager): Promise<Page<AssignableOrder>> {
    const qb = scopedQuery(m, Order, Scope.company(companyId), 'o')
      .andWhere(`o.status IN ('approved', 'scheduled', 'delivered')`)
      .andWhere(jobs.unassignedExistsSql('o.id', q.date ? 'unassignedOn' : undefined), q.date ? { unassignedOn: q.date } : {})
      .addSelect(userNameSql('o.customer_id'), 'customer_name')
      .addSelect(specificationNameSql('o.asset_specification_id'), 'specification_name')
      .addSelect(wasteTypeNameSql('o.waste_type_id'), 'waste_type_name')
      .addSelect(jobs.unassignedJsonSql('o.id'), 'unassigned_jobs');
    if (q.asset_specification_id) qb.andWhere('o.assetSpecificationId = :spec', { spec: q.asset_specification_id });
    if (q.q) {
      const num = parseOrderNumber(q.q);
      qb.andWhere(`(${userNameOrEmailMatches('o.customer_id')}${num !== null ? ' OR o.number = :num' : ''})`, { q: likePattern(q.q), num });
    }
    return paginate(qb, q, {
      sortable: { delivery_date: 'o.deliveryDate', created_at: 'o.createdAt', number: 'o.number' },
      defaultSort: 'delivery_date',
      mapRaw: (o, raw) => ({
        ...forJobs(o),
        customerName: (raw.customer_name as string | null) ?? '',
        specificationName: (raw.specification_name as string | null) ?? '',
        wasteTypeName: (raw.waste_type_name as string | null) ?? '',
        unassignedJobs: jsonValue<AssignableOrder['unassignedJobs']>(raw.unassigned_jobs) ?? [],
      }),
      count: () => countRows(qb),
    });
  }

  // ------------------------------------------------------------ policy fees (accountability, issue #14)

  /**
   * A policy fee (with the taxes the order's frozen terms put on fees) added to the order's bill as a
   * `policy_fee` line of the final bill; totals and payment status follow. Returns the ids of the
   * lines added (the fee, then its taxes) and their sum (0 and none for a zero fee).
   */
  async addViolationFee(m: EntityManager, companyId: string, orderId: string, amount: number, label: string): Promise<{ lineIds: string[]; amount: number }> {
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    const bill = flatFee(order.terms, 'policy_fee', label, amount);
    const lineIds = await this.lifecycle.addLines(m, order, bill, 'final');
    if (lineIds.length) await this.lifecycle.refreshTotals(m, order);
    return { lineIds, amount: bill.total_amount };
  }

  /** Voids the lines `addViolationFee` added (a violation removed before any resolution): they stay on record, the balance goes down. */
  async voidViolationFee(m: EntityManager, companyId: string, orderId: string, lineIds: readonly string[]): Promise<void> {
    if (!lineIds.length) return;
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    await m.update(OrderLine, { orderId: order.id, id: In([...lineIds]), voidedAt: IsNull() }, { voidedAt: new Date() });
    await this.lifecycle.refreshTotals(m, order);
  }

  /**
   * Credits the lines `addViolationFee` added (a waived violation): a negated copy of each live one,
   * described `<label>: <line>`, so the balance goes down by the fee and its taxes and the bill shows
   * both. Returns the credit lines' ids and their sum (negative).
   */
  async creditViolationFee(m: EntityManager, companyId: string, orderId: string, lineIds: readonly string[], label: string): Promise<{ lineIds: string[]; amount: number }> {
    if (!lineIds.length) return { lineIds: [], amount: 0 };
    const order = await this.lifecycle.lock(m, Scope.company(companyId), orderId);
    const lines = await m.find(OrderLine, { where: { orderId: order.id, id: In([...lineIds]), voidedAt: IsNull() }, order: { position: 'ASC' } });
    if (!lines.length) return { lineIds: [], amount: 0 };
    const credit = totalsOf(lines.map((l) => ({ kind: l.kind, description: `${label}: ${l.description}`, quantity: l.quantity, unit_amount: -l.unitAmount, amount: -l.amount })));
    const ids = await this.lifecycle.addLines(m, order, credit, 'final');
    await this.lifecycle.refreshTotals(m, order);
    return { lineIds: ids, amount: credit.total_amount };
  }

  // ------------------------------------------------------------ payments (issue #13)

  /** The order (the caller's scope: a customer reaches only theirs), locked for a payment; 404 otherwise. */
  async lockForPayment(m: EntityManager, scope: Scope, orderId: string): Promise<OrderBalance> {
    return balanceOf(await this.lifecycle.lock(m, scope, orderId));
  }

  /** The order's balance now (no lock); 404 when the scope does not reach it. */
  async balance(m: EntityManager, scope: Scope, orderId: string): Promise<OrderBalance> {
    const rows = await scopedQuery(m, Order, scope, 'o').andWhere('o.id = :id', { id: orderId }).getMany();
    if (!rows.length) throw ApiError.notFound('Order');
    return balanceOf(rows[0]);
  }

  /**
   * Every order of the customer with a balance, oldest due first (then by number), each locked for the
   * rest of the transaction. Locked in that order, so two such calls cannot deadlock; an order paid
   * meanwhile (by a single pay that held its lock) is re-checked after the wait and left out.
   */
  async lockDues(m: EntityManager, companyId: string, customerId: string): Promise<OrderBalance[]> {
    const rows = await m
      .createQueryBuilder(Order, 'o')
      .where('o.companyId = :companyId AND o.customerId = :customerId', { companyId, customerId })
      .andWhere(DUE)
      .orderBy('o.dueDate', 'ASC')
      .addOrderBy('o.number', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(balanceOf);
  }

  /**
   * Writes the order's paid amount (the payments ledger's sum of its succeeded rows, computed by the
   * caller in the same transaction, the order locked) and its payment status derived from it:
   * unpaid / partially_paid / paid, or `refunded` when money went back to the customer.
   */
  async recordPaid(m: EntityManager, companyId: string, orderId: string, paidAmount: number, refunded = false): Promise<OrderBalance> {
    const order = await m.findOneOrFail(Order, { where: { id: orderId, companyId } });
    order.paidAmount = paidAmount;
    order.paymentStatus = refunded ? 'refunded' : paymentStatusOf(order.totalAmount, paidAmount);
    await m.update(Order, { id: orderId, companyId }, { paidAmount, paymentStatus: order.paymentStatus });
    return balanceOf(order);
  }

  /**
   * The orders with a balance that the scope reaches (a customer: theirs), paginated in SQL with the
   * customer's name and days past due (`today`, the company's date). Sorts: due_date (default),
   * created_at; filters: customer_id, overdue.
   */
  dues(scope: Scope, q: DuesQuery, today: string, m: EntityManager): Promise<Page<OrderDue>> {
    const qb = scopedQuery(m, Order, scope, 'o')
      .andWhere(DUE)
      .addSelect(userNameSql('o.customer_id'), 'customer_name')
      .addSelect(`greatest(:today::date - o.due_date, 0)`, 'days_past_due')
      .setParameter('today', today);
    if (q.customer_id) qb.andWhere('o.customerId = :customerId', { customerId: q.customer_id });
    if (q.overdue !== undefined) qb.andWhere(q.overdue ? 'o.dueDate < :today' : 'o.dueDate >= :today', { today });
    return paginate(qb, q, {
      sortable: { due_date: 'o.dueDate', created_at: 'o.createdAt' },
      defaultSort: 'due_date',
      mapRaw: (o, raw) => ({ ...balanceOf(o), customerName: (raw.customer_name as string | null) ?? '', daysPastDue: Number(raw.days_past_due ?? 0) }),
      count: () => countRows(qb),
    });
  }

  /** Totals of the dues the scope reaches (optionally one customer's), with ageing buckets of days past due. */
  async duesTotals(scope: Scope, today: string, m: EntityManager, customerId?: string): Promise<DuesTotals> {
    const qb = scopedQuery(m, Order, scope, 'o').andWhere(DUE).setParameter('today', today);
    if (customerId) qb.andWhere('o.customerId = :customerId', { customerId });
    const age = `(:today::date - o.due_date)`;
    const bal = `(o.total_amount - o.paid_amount)`;
    const row = await qb
      .select('count(*)::int', 'orders_count')
      .addSelect(`coalesce(sum(${bal}), 0)::bigint::text`, 'total_due_amount')
      .addSelect(`(count(*) FILTER (WHERE ${age} > 0))::int`, 'overdue_count')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} > 0), 0)::bigint::text`, 'overdue_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} <= 0), 0)::bigint::text`, 'not_yet_due_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 1 AND 30), 0)::bigint::text`, 'aged_0_30_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 31 AND 60), 0)::bigint::text`, 'aged_31_60_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 61 AND 90), 0)::bigint::text`, 'aged_61_90_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} > 90), 0)::bigint::text`, 'aged_90_plus_amount')
      .getRawOne<Record<keyof DuesTotals, string | number>>();
    const out = {} as DuesTotals;
    for (const k of ['orders_count', 'total_due_amount', 'overdue_count', 'overdue_amount', 'not_yet_due_amount', 'aged_0_30_amount', 'aged_31_60_amount', 'aged_61_90_amount', 'aged_90_plus_amount'] as const) out[k] = Number(row?.[k] ?? 0);
    return out;
  }

  // ------------------------------------------------------------ overdue (payments' scheduled job)

  /**
   * The companies that may have overdue notices to give at `now`: orders with a balance due before the
   * latest "today" of any time zone (UTC's date + 1), with a notice pending. A superset: markOverdue
   * decides with the company's own date.
   */
  async overdueCandidates(m: EntityManager, now: Date): Promise<string[]> {
    const rows = await m.query<{ company_id: string }[]>(
      `SELECT DISTINCT o.company_id FROM orders o WHERE ${DUE} AND ${NOTICE_PENDING} AND o.due_date < (($1::timestamptz AT TIME ZONE 'UTC')::date + 1)`,
      [now],
    );
    return rows.map((r) => r.company_id);
  }

  /**
   * Marks the company's orders overdue at `now` (the company's date): a balance (the dues lists'
   * definition: not rejected, total above paid) and a due date before today. Each order gets one notice
   * per due date and step (OVERDUE_NOTICE_DAYS: marked, 7 and 30 days; a late run gives only the highest
   * step reached). Claims at most `limit` orders with `FOR UPDATE SKIP LOCKED` (another instance, or a
   * payment holding an order, is skipped: the next run takes it) and returns those it marked; the caller
   * records `order.overdue` for each in the same transaction.
   */
  async markOverdue(m: EntityManager, companyId: string, now: Date, limit: number): Promise<OverdueOrder[]> {
    const tz = await this.companies.timezone(companyId, m);
    const [{ today }] = await m.query<{ today: string }[]>(`SELECT (($1::timestamptz AT TIME ZONE $2)::date)::text AS today`, [now, tz]);
    const days = `($2::date - o.due_date)`;
    const level = `(CASE WHEN ${days} >= ${OVERDUE_NOTICE_DAYS[2]} THEN 3 WHEN ${days} >= ${OVERDUE_NOTICE_DAYS[1]} THEN 2 ELSE 1 END)`;
    const given = `(CASE WHEN o.overdue_for = o.due_date THEN o.overdue_notices ELSE 0 END)`;
    const rows = await m.query<{ id: string; number: number; customer_id: string; balance: number; currency: string; due_date: string; days: number; level: number }[]>(
      `WITH c AS (
         SELECT o.id, ${days} AS days, ${level} AS level FROM orders o
          WHERE o.company_id = $1 AND ${DUE} AND ${NOTICE_PENDING} AND o.due_date < $2::date AND ${level} > ${given}
          ORDER BY o.due_date, o.id LIMIT $3 FOR UPDATE OF o SKIP LOCKED),
       u AS (
         UPDATE orders o SET overdue_for = o.due_date, overdue_notices = c.level FROM c WHERE o.id = c.id
         RETURNING o.id, o.number, o.customer_id, (o.total_amount - o.paid_amount) AS balance, o.currency, o.due_date::text AS due_date, c.days, c.level)
       SELECT * FROM u`,
      [companyId, today, limit],
    );
    return rows
      .map((r) => ({ id: r.id, companyId, customerId: r.customer_id, number: Number(r.number), balanceAmount: Number(r.balance), currency: r.currency, dueDate: r.due_date, daysOverdue: Number(r.days), notice: Number(r.level) as 1 | 2 | 3 }))
      .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.number - b.number);
  }
}
