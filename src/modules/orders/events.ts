import { webhookEvents } from '../../common/outbox/webhook-events';
import type { ChangeRequestDetails, OrderStatus } from './order.entity';

/** An order's status move: `order.<status>` on every transition, `order.placed` for the first one. */
export interface OrderStatusPayload {
  number: number;
  customer_id: string;
  from: OrderStatus | null;
  to: OrderStatus;
  reason: string | null;
  /** `order.placed`: the order's total. */
  total_amount?: number;
  /** `order.placed`: who placed it, the customer or a company user for the customer (a phone order; the event's actor is that user). */
  placed_by?: 'customer' | 'company';
  /** `order.cancelled`: inside the free-cancellation window or not, and the fee charged. */
  late?: boolean;
  fee_amount?: number;
}
type OrderStatusEvents = { [K in 'order.placed' | `order.${OrderStatus}`]: OrderStatusPayload };
/** What a status change adds to the order status payload. */
export type OrderStatusExtras = Pick<OrderStatusPayload, 'total_amount' | 'placed_by' | 'late' | 'fee_amount'>;

/** The orders module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue extends OrderStatusEvents {
    'order.updated': { fields: string[]; total_amount: number };
    'order.feedback_given': { rating: number };
    'order_change_request.created': { order_id: string; number: number; type: string; details: ChangeRequestDetails; total_amount: number };
    'order_change_request.approved': { order_id: string; number: number; customer_id: string; type: string; details: ChangeRequestDetails; total_amount: number };
    'order_change_request.rejected': { order_id: string; customer_id: string; type: string; reason: string };
  }
}

/** The order status changes companies may subscribe their outbound webhooks to (src/common/outbox/webhook-events.ts). */
webhookEvents('order.placed', 'order.approved', 'order.rejected', 'order.scheduled', 'order.delivered', 'order.completed', 'order.cancelled');
