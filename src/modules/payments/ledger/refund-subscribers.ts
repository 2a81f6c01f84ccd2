import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventSubscriber, type EventHandler, type RelayedEvent } from '../../../common/outbox/event-subscriber';
import { LedgerService } from './ledger.service';

/**
 * A cancelled order that was paid is refunded (paid − the new total: a cancellation fee is kept): to the
 * wallet, or to the cards that paid when the customer chose `refund_to: instrument`. Exactly once per
 * event (the relay records the delivery in the same transaction; refund keys derive from the event id).
 */
@Injectable()
@EventSubscriber({ name: 'payments.refund-cancelled-order', events: ['order.cancelled'] })
export class RefundCancelledOrder implements EventHandler<'order.cancelled'> {
  constructor(private readonly ledger: LedgerService) {}
  async handle(event: RelayedEvent<'order.cancelled'>, m: EntityManager): Promise<void> {
    if (!event.companyId) return;
    await this.ledger.refundExcess(m, event.id, event.companyId, event.aggregateId, 'cancelled');
  }
}

/** A final bill below what was paid credits the difference to the customer's wallet. */
@Injectable()
@EventSubscriber({ name: 'payments.credit-overpaid-order', events: ['order.completed'] })
export class CreditOverpaidOrder implements EventHandler<'order.completed'> {
  constructor(private readonly ledger: LedgerService) {}
  async handle(event: RelayedEvent<'order.completed'>, m: EntityManager): Promise<void> {
    if (!event.companyId) return;
    await this.ledger.refundExcess(m, event.id, event.companyId, event.aggregateId, 'completed');
  }
}
