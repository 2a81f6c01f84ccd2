import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import type { AddressSnapshot } from '../customers';
import { OrderLifecycle, type ChangeActor } from './order-lifecycle';
import { Order, OrderLine, type OrderStatus } from './order.entity';
import { finalBill, serviceFee } from './pricing-engine';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import { scopedQuery } from '../../common/access/tenant-policy';
import { jsonValue } from '../../database/json-value';
import { specificationNameSql, wasteTypeNameSql } from '../catalogue';
import { userNameOrEmailMatches, userNameSql } from '../users';
import type { JobsService } from '../jobs';
import { parseOrderNumber } from './orders.dto';

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
  constructor(private readonly lifecycle: OrderLifecycle) {}

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

  /** Lines of the order (live), for tests and the job views: kind and amount. */
  async liveLines(orderId: string, m: EntityManager): Promise<{ kind: string; amount: number; source: string }[]> {
    const rows = await m.find(OrderLine, { where: { orderId }, order: { position: 'ASC' } });
    return rows.filter((l) => !l.voidedAt).map((l) => ({ kind: l.kind, amount: l.amount, source: l.source }));
  }
}
