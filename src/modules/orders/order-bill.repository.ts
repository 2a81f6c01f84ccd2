import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { OrderLine, OrderStatusChange, type LineSource } from './order.entity';

/** The sums of an order's live lines (bigint, as text). */
export interface LineSums {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
}

const SAMPLE_SCOPE = () => Scope.company(SQL_SAMPLE.companyId);

/**
 * An order's bill lines (`order_lines`) and status history (`order_status_history`), and the outbox
 * events of the orders module's changes, in the open unit of work. Every method is limited to the
 * scope's company (`company_id`): the caller reached the order with its scope before.
 */
@Injectable()
export class OrderBillRepository extends ModuleRepository {

  /** A status history row of the scope's company. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), { orderId: SQL_SAMPLE.id, fromStatus: 'pending', toStatus: 'approved', actorId: null, actorType: 'system', reason: null }] })
  async insertHistory(scope: Scope, row: Omit<Partial<OrderStatusChange>, 'companyId'>): Promise<void> {
    await this.m.insert(OrderStatusChange, { ...row, companyId: scope.companyId });
  }

  /** The position after the order's last line. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  async nextPosition(scope: Scope, orderId: string): Promise<number> {
    const [{ next }] = await this.sql<{ next: number }>(`SELECT coalesce(max(position), -1) + 1 AS next FROM order_lines WHERE order_id = $1 AND company_id = $2`, [orderId, scope.companyId]);
    return Number(next);
  }

  /** New lines of the scope's company (one INSERT); their ids, in order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), [{ orderId: SQL_SAMPLE.id, kind: 'swap_fee', source: 'final', changeRequestId: null, description: 'Swap', quantity: 1, unitAmount: 100, amount: 100, position: 0, voidedAt: null }]] })
  async insertLines(scope: Scope, rows: Omit<Partial<OrderLine>, 'companyId'>[]): Promise<string[]> {
    const inserted = await this.m.insert(OrderLine, rows.map((r) => ({ ...r, companyId: scope.companyId })));
    return inserted.identifiers.map((x) => (x as { id: string }).id);
  }

  /** Voids the order's live lines (all, or those of some sources, or those among `lineIds`). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id, { sources: ['placement'] }] })
  async voidLines(scope: Scope, orderId: string, which: { sources?: readonly LineSource[]; ids?: readonly string[] } = {}): Promise<void> {
    await this.m.update(
      OrderLine,
      { orderId, companyId: scope.companyId, voidedAt: IsNull(), ...(which.sources ? { source: In([...which.sources]) } : {}), ...(which.ids ? { id: In([...which.ids]) } : {}) },
      { voidedAt: new Date() },
    );
  }

  /** The order's live lines among `lineIds`, in order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id, [SQL_SAMPLE.otherId]] })
  liveAmong(scope: Scope, orderId: string, lineIds: readonly string[]): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId, companyId: scope.companyId, id: In([...lineIds]), voidedAt: IsNull() }, order: { position: 'ASC' } });
  }

  /** The order's live lines, in order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  live(scope: Scope, orderId: string): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId, companyId: scope.companyId, voidedAt: IsNull() }, order: { position: 'ASC' } });
  }

  /** Every line of the order (voided ones too), in order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  all(scope: Scope, orderId: string): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId, companyId: scope.companyId }, order: { position: 'ASC' } });
  }

  /** The lines change requests added, in order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), [SQL_SAMPLE.id]] })
  ofChangeRequests(scope: Scope, requestIds: readonly string[]): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { changeRequestId: In([...requestIds]), companyId: scope.companyId }, order: { position: 'ASC' } });
  }

  /** The sums of the order's live lines: subtotal, discount (positive), tax, total. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  async sums(scope: Scope, orderId: string): Promise<LineSums> {
    const [sums] = await this.sql<LineSums>(
      `SELECT coalesce(sum(amount) FILTER (WHERE kind NOT IN ('discount', 'tax')), 0)::bigint::text AS subtotal,
              coalesce(-sum(amount) FILTER (WHERE kind = 'discount'), 0)::bigint::text AS discount,
              coalesce(sum(amount) FILTER (WHERE kind = 'tax'), 0)::bigint::text AS tax,
              coalesce(sum(amount), 0)::bigint::text AS total
         FROM order_lines WHERE order_id = $1 AND company_id = $2 AND voided_at IS NULL`,
      [orderId, scope.companyId],
    );
    return sums;
  }

  /** The extra rental days the order's live lines already bill. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  async billedExtraDays(scope: Scope, orderId: string): Promise<number> {
    const [{ days }] = await this.sql<{ days: string }>(
      `SELECT coalesce(sum(quantity), 0)::text AS days FROM order_lines WHERE order_id = $1 AND company_id = $2 AND kind = 'extra_days' AND voided_at IS NULL`,
      [orderId, scope.companyId],
    );
    return Number(days);
  }

  /** The order's status history, oldest first. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  history(scope: Scope, orderId: string): Promise<OrderStatusChange[]> {
    return this.m.find(OrderStatusChange, { where: { orderId, companyId: scope.companyId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
