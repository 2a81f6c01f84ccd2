import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { recordEvents, type DomainEvent } from '../../common/outbox/outbox';
import type { EventType } from '../../common/outbox/event-catalogue';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { OrderLine, OrderStatusChange, type LineSource } from './order.entity';
import type { PricedLine } from './pricing-engine';

/** The sums of an order's live lines (bigint, as text). */
export interface LineSums {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
}

/**
 * An order's bill lines (`order_lines`) and status history (`order_status_history`), and the outbox
 * events of the orders module's changes, in the open unit of work.
 */
@Injectable()
export class OrderBillRepository extends ModuleRepository {
  /** Outbox events of the orders' changes, in the unit that makes them. */
  @GenerateSql.skip("common's outbox insert (recordEvents), snapshotted with common")
  async recordEvents<T extends EventType>(...events: DomainEvent<T>[]): Promise<void> {
    await recordEvents(this.m, ...events);
  }

  /** A status history row. */
  @GenerateSql({ params: [{ companyId: SQL_SAMPLE.companyId, orderId: SQL_SAMPLE.id, fromStatus: 'pending', toStatus: 'approved', actorId: null, actorType: 'system', reason: null }] })
  async insertHistory(row: Partial<OrderStatusChange>): Promise<void> {
    await this.m.insert(OrderStatusChange, row);
  }

  /**
   * A new order's bill lines (positions from 0) and its first history row (`pending`), in one
   * statement.
   */
  @GenerateSql({
    params: [
      { id: SQL_SAMPLE.id, companyId: SQL_SAMPLE.companyId },
      [{ kind: 'rental', description: 'Rental', quantity: 1, unit_amount: 100, amount: 100 }],
      { id: SQL_SAMPLE.actorId, type: 'customer' },
    ],
  })
  async insertPlacement(order: { id: string; companyId: string }, lines: readonly PricedLine[], actor: { id: string; type: string }): Promise<void> {
    await this.locked.query(
      `WITH history AS (
         INSERT INTO order_status_history (company_id, order_id, from_status, to_status, actor_id, actor_type, reason)
         VALUES ($1, $2, NULL, 'pending', $3, $4, NULL))
       INSERT INTO order_lines (company_id, order_id, kind, source, change_request_id, description, quantity, unit_amount, amount, position)
       SELECT $1, $2, l.kind, 'placement', NULL, l.description, l.quantity, l.unit_amount, l.amount, e.ord - 1
         FROM jsonb_array_elements($5::jsonb) WITH ORDINALITY AS e(line, ord),
              jsonb_to_record(e.line) AS l(kind text, description text, quantity int, unit_amount int, amount int)`,
      [order.companyId, order.id, actor.id, actor.type, JSON.stringify(lines)],
    );
  }

  /** The position after the order's last line. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  async nextPosition(orderId: string): Promise<number> {
    const [{ next }] = await this.sql<{ next: number }>(`SELECT coalesce(max(position), -1) + 1 AS next FROM order_lines WHERE order_id = $1`, [orderId]);
    return Number(next);
  }

  /** New lines (one INSERT); their ids, in order. */
  @GenerateSql({ params: [[{ companyId: SQL_SAMPLE.companyId, orderId: SQL_SAMPLE.id, kind: 'swap_fee', source: 'final', changeRequestId: null, description: 'Swap', quantity: 1, unitAmount: 100, amount: 100, position: 0, voidedAt: null }]] })
  async insertLines(rows: Partial<OrderLine>[]): Promise<string[]> {
    const inserted = await this.m.insert(OrderLine, rows);
    return inserted.identifiers.map((x) => (x as { id: string }).id);
  }

  /** Voids the order's live lines (all, or those of some sources, or those among `lineIds`). */
  @GenerateSql({ params: [SQL_SAMPLE.id, { sources: ['placement'] }] })
  async voidLines(orderId: string, which: { sources?: readonly LineSource[]; ids?: readonly string[] } = {}): Promise<void> {
    await this.m.update(
      OrderLine,
      { orderId, voidedAt: IsNull(), ...(which.sources ? { source: In([...which.sources]) } : {}), ...(which.ids ? { id: In([...which.ids]) } : {}) },
      { voidedAt: new Date() },
    );
  }

  /** The order's live lines among `lineIds`, in order. */
  @GenerateSql({ params: [SQL_SAMPLE.id, [SQL_SAMPLE.otherId]] })
  liveAmong(orderId: string, lineIds: readonly string[]): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId, id: In([...lineIds]), voidedAt: IsNull() }, order: { position: 'ASC' } });
  }

  /** The order's live lines, in order. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  live(orderId: string): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId, voidedAt: IsNull() }, order: { position: 'ASC' } });
  }

  /** Every line of the order (voided ones too), in order. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  all(orderId: string): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { orderId }, order: { position: 'ASC' } });
  }

  /** The lines change requests added, in order. */
  @GenerateSql({ params: [[SQL_SAMPLE.id]] })
  ofChangeRequests(requestIds: readonly string[]): Promise<OrderLine[]> {
    return this.m.find(OrderLine, { where: { changeRequestId: In([...requestIds]) }, order: { position: 'ASC' } });
  }

  /** The sums of the order's live lines: subtotal, discount (positive), tax, total. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  async sums(orderId: string): Promise<LineSums> {
    const [sums] = await this.sql<LineSums>(
      `SELECT coalesce(sum(amount) FILTER (WHERE kind NOT IN ('discount', 'tax')), 0)::bigint::text AS subtotal,
              coalesce(-sum(amount) FILTER (WHERE kind = 'discount'), 0)::bigint::text AS discount,
              coalesce(sum(amount) FILTER (WHERE kind = 'tax'), 0)::bigint::text AS tax,
              coalesce(sum(amount), 0)::bigint::text AS total
         FROM order_lines WHERE order_id = $1 AND voided_at IS NULL`,
      [orderId],
    );
    return sums;
  }

  /** The extra rental days the order's live lines already bill. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  async billedExtraDays(orderId: string): Promise<number> {
    const [{ days }] = await this.sql<{ days: string }>(
      `SELECT coalesce(sum(quantity), 0)::text AS days FROM order_lines WHERE order_id = $1 AND kind = 'extra_days' AND voided_at IS NULL`,
      [orderId],
    );
    return Number(days);
  }

  /** The order's status history, oldest first. */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  history(orderId: string): Promise<OrderStatusChange[]> {
    return this.m.find(OrderStatusChange, { where: { orderId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
