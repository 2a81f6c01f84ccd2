import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { withoutManager, type ThreadedManager } from '../../database/threaded-manager';
import type { OrderStatus } from './order.entity';
import { OrdersRepository } from './orders.repository';

/** What the reports' counters count of one order now. */
export interface OrderFacts {
  companyId: string;
  customerId: string;
  /** The service (delivery) date the order counts on. */
  day: string;
  status: OrderStatus;
  totalAmount: number;
  paidAmount: number;
  dueDate: string;
  assetSpecificationId: string;
  /** The real delivery date (the rental's first day), null before. */
  deliveredOn: string | null;
  /** The company's date of the completion (the rental's last day), null before. */
  endedOn: string | null;
  /**
   * The day its bill counts on (reports' billing basis `completed_on`): the day the bill became final
   * (a completed order's completion day, a cancelled one's cancellation day), else its service date.
   */
  billedOn: string;
}

export { billedOnSql } from './orders.repository';

/** A customer's order as the dashboards list it. */
export interface OrderSummaryRow {
  id: string;
  number: number;
  status: OrderStatus;
  specification_name: string;
  delivery_date: string;
  delivered_on: string | null;
  pickup_date: string | null;
  total_amount: number;
  balance_amount: number;
  created_at: string;
}

/**
 * Reads of orders for the reports module (layer 7), each one statement over an index: the facts its
 * rollup subscribers count, and the SQL of a customer's orders for their dashboard's one statement.
 */
@Injectable()
export class OrdersReadModel {
  constructor(private readonly orders: OrdersRepository) {}

  /** The order's facts (null when it is not the scope's company's); `timezone`: the company's, for the completion date. */
  facts(scope: Scope, orderId: string, timezone: string): Promise<OrderFacts | null>;
  /** @deprecated the unit of work carries the manager, and a Scope the company: `facts(Scope.company(companyId), orderId, timezone)` (kept for the reports' rollup subscriber until that module is converted) */
  facts(m: ThreadedManager, companyId: string, orderId: string, timezone: string): Promise<OrderFacts | null>;
  async facts(...args: unknown[]): Promise<OrderFacts | null> {
    const [company, orderId, timezone] = withoutManager<[Scope | string, string, string]>(args);
    const scope = typeof company === 'string' ? Scope.company(company) : company;
    const row = await this.orders.facts(scope, orderId, timezone);
    if (!row) return null;
    return {
      companyId: scope.companyId,
      customerId: row.customer_id,
      day: row.day,
      status: row.status,
      totalAmount: Number(row.total_amount),
      paidAmount: Number(row.paid_amount),
      dueDate: row.due_date,
      assetSpecificationId: row.spec,
      deliveredOn: row.delivered_on,
      endedOn: row.ended_on,
      billedOn: row.billed_on,
    };
  }

  /**
   * The SQL of a customer's orders in some statuses (all when `statuses` is null), newest first (then by
   * number: placements in the same instant), at most `limit`, as `OrderSummaryRow` columns plus ord (the
   * rank), for a read that composes it into its own statement (the arguments are SQL: parameters);
   * idx_orders_company_customer_created.
   */
  static ofCustomerSql(companySql: string, customerSql: string, statuses: string | null, limit: string): string {
    return `SELECT o.id, o.number, o.status, coalesce(catalogue_specification_name(o.asset_specification_id), '') AS specification_name,
                   o.delivery_date::text AS delivery_date, o.delivered_on::text AS delivered_on, o.pickup_date::text AS pickup_date,
                   o.total_amount, (o.total_amount - o.paid_amount) AS balance_amount, to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
                   (row_number() OVER (ORDER BY o.created_at DESC, o.number DESC))::int AS ord
              FROM orders o
             WHERE o.company_id = ${companySql} AND o.customer_id = ${customerSql} ${statuses ? `AND o.status = ANY(${statuses})` : ''}
             ORDER BY o.created_at DESC, o.number DESC
             LIMIT ${limit}`;
  }

  /** The ids of a customer's orders in some statuses (SQL for a subquery; arguments are SQL), idx_orders_customer. */
  static idsOfCustomerSql(companySql: string, customerSql: string, statuses: string): string {
    return `SELECT o.id FROM orders o WHERE o.customer_id = ${customerSql} AND o.status = ANY(${statuses}) AND o.company_id = ${companySql}`;
  }
}
