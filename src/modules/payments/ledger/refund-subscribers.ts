import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { EventSubscriber, type EventHandler, type RelayedEvent } from '../../../common/outbox/event-subscriber';
import { LedgerService, type RefundReason } from './ledger.service';

/** The lifecycle events after which an order may bill less than was paid, and why (the ledger's label). */
const REASONS = {
  'order.cancelled': 'cancelled',
  'order.rejected': 'rejected',
  'order.completed': 'completed',
  'order.updated': 'repriced',
  'order_change_request.approved': 'repriced',
  'policy_violation.removed': 'repriced',
} as const satisfies Record<string, RefundReason>;
type OverpaidEvent = keyof typeof REASONS;

/**
 * What was paid above what the order now bills goes back at the moment it arises (issue #22): a
 * cancellation (paid − the new total: the fee is kept), a rejection (everything), a final bill, an
 * update or approved change request that reprices the order lower, a policy fee removed (a waived one:
 * accountability's `CreditWaivedFee`). To the wallet, or to the cards that paid when the customer chose
 * `refund_to: instrument`: a card refund is reserved in the delivery's transaction (a `pending` row) and
 * the provider is called after it commits (`after`), with no transaction open. Exactly once per event
 * (the relay records the delivery in the same transaction; keys derive from the event id); a reserved
 * refund whose call failed is retried by the reconciler.
 */
@Injectable()
@EventSubscriber({ name: 'payments.refund-cancelled-order', events: ['order.cancelled'] })
export class RefundCancelledOrder implements EventHandler<'order.cancelled'> {
  constructor(private readonly ledger: LedgerService) {}
  handle(event: RelayedEvent<'order.cancelled'>, _unit: unknown, after: (work: () => Promise<unknown>) => void): Promise<void> {
    return refundOverpaid(this.ledger, event, after);
  }
}

/** A final bill below what was paid credits the difference (the subscriber's name is kept: deliveries are recorded by it). */
@Injectable()
@EventSubscriber({ name: 'payments.credit-overpaid-order', events: ['order.completed'] })
export class CreditOverpaidOrder implements EventHandler<'order.completed'> {
  constructor(private readonly ledger: LedgerService) {}
  handle(event: RelayedEvent<'order.completed'>, _unit: unknown, after: (work: () => Promise<unknown>) => void): Promise<void> {
    return refundOverpaid(this.ledger, event, after);
  }
}

/** Rejection and repricing below what was paid (order update, approved change request, a policy fee removed). */
@Injectable()
@EventSubscriber({ name: 'payments.refund-repriced-order', events: ['order.rejected', 'order.updated', 'order_change_request.approved', 'policy_violation.removed'] })
export class RefundRepricedOrder implements EventHandler<'order.rejected' | 'order.updated' | 'order_change_request.approved' | 'policy_violation.removed'> {
  constructor(private readonly ledger: LedgerService) {}
  handle(event: RelayedEvent<'order.rejected' | 'order.updated' | 'order_change_request.approved' | 'policy_violation.removed'>, _unit: unknown, after: (work: () => Promise<unknown>) => void): Promise<void> {
    return refundOverpaid(this.ledger, event, after);
  }
}

/** Runs in the delivery's unit of work (the relay's manager argument is that unit's: the ledger's repositories join it). */
async function refundOverpaid(ledger: LedgerService, event: RelayedEvent<OverpaidEvent>, after: (work: () => Promise<unknown>) => void): Promise<void> {
  if (!event.companyId) return;
  const orderId = event.type === 'order_change_request.approved' || event.type === 'policy_violation.removed' ? event.payload.order_id : event.aggregateId;
  const reserved = await ledger.refundExcess(event.id, Scope.company(event.companyId), orderId, REASONS[event.type]);
  if (reserved.length) after(() => ledger.executeRefunds(new Date(), reserved));
}
