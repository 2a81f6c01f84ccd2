import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { EventSubscriber, type EventHandler, type RelayedEvent } from '../../common/outbox/event-subscriber';
import { LedgerService } from '../payments';
import { DemeritService } from './demerit.service';

/**
 * A waived violation's fee was credited on the order's bill; when the order had been paid beyond its
 * new total, the difference goes back through the ledger's overpayment path (`LedgerService.refundExcess`,
 * keyed by the event id: exactly once): to the wallet, or to the card when the customer chose so (the
 * provider called after the delivery committed).
 */
@Injectable()
@EventSubscriber({ name: 'accountability.credit-waived-fee', events: ['policy_violation.resolved'] })
export class CreditWaivedFee implements EventHandler<'policy_violation.resolved'> {
  constructor(private readonly ledger: LedgerService) {}

  /** Runs in the delivery's unit of work (what the ledger writes joins it). */
  async handle(event: RelayedEvent<'policy_violation.resolved'>, _unit: unknown, after: (work: () => Promise<unknown>) => void): Promise<void> {
    if (!event.companyId || event.payload.resolution !== 'waived') return;
    const reserved = await this.ledger.refundExcess(event.id, Scope.company(event.companyId), event.payload.order_id, 'waived');
    // Back to the card (the customer chose `refund_to: instrument`): the provider is called once the delivery committed, as for every other path.
    if (reserved.length) after(() => this.ledger.executeRefunds(new Date(), reserved));
  }
}

/** New demerit thresholds or window: the company's standings are recomputed (customers blocked or unblocked accordingly). */
@Injectable()
@EventSubscriber({ name: 'accountability.settings-changed', events: ['company.settings_updated', 'company.settings_reset'] })
export class RecomputeOnSettings implements EventHandler<'company.settings_updated' | 'company.settings_reset'> {
  constructor(private readonly demerit: DemeritService) {}
  async handle(event: RelayedEvent<'company.settings_updated' | 'company.settings_reset'>): Promise<void> {
    if (!event.companyId) return;
    const fields = event.type === 'company.settings_updated' ? ((event.payload as { fields?: string[] }).fields ?? []) : null;
    if (fields && !fields.some((f) => f.startsWith('demerit_'))) return;
    await this.demerit.refreshCompany(Scope.company(event.companyId));
  }
}
