import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
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
  async facts(scope: Scope, orderId: string, timezone: string): Promise<OrderFacts | null> {
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
}
