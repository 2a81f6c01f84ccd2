import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../../../config/app-config';
import { ApiError } from '../../../common/http/api-error';
import { LedgerService } from '../ledger/ledger.service';
import { OnboardingService } from '../onboarding/onboarding.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { InboundOutcome } from './webhook.entities';
import { InboundEventRepository } from './webhook.repository';
import { InboundEventDto, InboundEventResultDto } from './inbound.dto';
import { verifyStripeEvent, type VerifiedEvent } from './stripe-inbound';
import { UnitOfWork } from '../../../database/unit-of-work';

/** How far `X-Timestamp` may be from now (seconds) before the event is refused as stale (replay protection). */
export const INBOUND_TOLERANCE_S = 300;
const MERCHANT_STATUSES = ['pending', 'approved', 'rejected'] as const;

const invalid = (message: string) => ApiError.badRequest('INVALID_SIGNATURE', message);
/** What `apply` answers: the outcome, with why when the event changed nothing. */
type Applied = InboundOutcome | { outcome: InboundOutcome; reason: string };
/** A provider refund's or lost dispute's outcome: applied when the ledger recorded some; the refused part (beyond what was refundable) said in the reason. */
const reversal = (r: { recorded: number; refused: number }, none: string): Applied => {
  const refused = r.refused ? `${r.refused} beyond what was refundable was refused (not recorded; logged).` : null;
  if (r.recorded) return refused ? { outcome: 'applied', reason: `Recorded ${r.recorded}; ${refused}` } : 'applied';
  return { outcome: 'no_match', reason: refused ?? none };
};
const text = (v: unknown, max = 200): string | null => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null);

/**
 * Inbound provider events (issue #13, extension): POST /api/v1/psp/webhooks/{provider}. For `sandbox`,
 * `X-Signature: sha256=<hex HMAC-SHA256 of "<X-Timestamp>.<raw body>" with PAYMENT_WEBHOOK_SECRET>`,
 * the timestamp within 5 minutes. Each (provider, event id) is kept once: a replay answers
 * `duplicate: true` and changes nothing. The event is applied in the transaction that records it.
 */
@Injectable()
export class InboundWebhooksService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: InboundEventRepository,
    private readonly config: AppConfig,
    private readonly ledger: LedgerService,
    private readonly onboarding: OnboardingService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  /** 400 `INVALID_SIGNATURE` unless the raw body is signed with the configured secret and the timestamp is fresh. */
  verify(provider: string, rawBody: Buffer | undefined, timestamp: string | undefined, signature: string | undefined): void {
    if (provider !== 'sandbox') throw ApiError.notFound('Webhook provider');
    const secret = this.config.paymentWebhookSecret;
    if (!secret) throw invalid('Inbound webhooks are not configured (PAYMENT_WEBHOOK_SECRET).');
    if (!rawBody || !timestamp || !signature) throw invalid('Missing X-Timestamp or X-Signature.');
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > INBOUND_TOLERANCE_S) throw invalid('X-Timestamp is not within 5 minutes of now.');
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`);
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('The signature does not match.');
  }

  /** `stripe`: the SDK's check of `Stripe-Signature` with STRIPE_WEBHOOK_SECRET (400 `INVALID_SIGNATURE`); the event mapped to the internal shape. */
  verifyStripe(rawBody: Buffer | undefined, signature: string | undefined): VerifiedEvent {
    return verifyStripeEvent(this.config.stripeWebhookSecret, rawBody, signature);
  }

  /**
   * Records the event once per (provider, event id) and applies it in the same transaction. `dto` is
   * the internal event (the sandbox's body as it is; a Stripe event mapped by stripe-inbound.ts); a
   * `VerifiedEvent` also carries the provider's own id, type and body, which are what is recorded.
   */
  async receive(provider: string, received: InboundEventDto | VerifiedEvent): Promise<InboundEventResultDto> {
    const v: VerifiedEvent = 'event' in received ? received : { id: received.id, type: received.type, payload: received, event: received };
    // Card refunds reserved while applying (a charge settled late on an order rejected or repriced meanwhile): called once the event committed.
    const refunds: string[] = [];
    const result = await this.uow.transaction(async () => {
      const claimed = await this.events.claim(provider, v.id, v.type, v.payload);
      if (!claimed) {
        const seen = await this.events.find(provider, v.id);
        if (!seen) throw new Error(`inbound event ${provider}/${v.id}: claimed by another transaction but not found`);
        return { event: v.id, type: seen.type, duplicate: true, outcome: seen.outcome, reason: seen.reason };
      }
      const applied = await this.apply(v.event, refunds);
      const { outcome, reason } = typeof applied === 'string' ? { outcome: applied, reason: applied === 'ignored' ? `Event type ${v.type} is not handled.` : null } : applied;
      await this.events.setOutcome(claimed, outcome, reason);
      return { event: v.id, type: v.type, duplicate: false, outcome, reason };
    });
    if (refunds.length) await this.ledger.executeRefunds(new Date(), refunds);
    return result;
  }

  /** In the event's unit of work (the ledger's calls join it). */
  private async apply(dto: InboundEventDto, refunds: string[]): Promise<Applied> {
    const data = dto.data ?? {};
    const reference = text(data.reference);
    switch (dto.type) {
      case 'charge.succeeded':
      case 'charge.failed': {
        if (!reference) throw ApiError.validation({ 'data.reference': ['data.reference must be a non-empty string'] });
        const status = dto.type === 'charge.succeeded' ? 'succeeded' : 'failed';
        const key = text(data.key, 255);
        // A ledger charge, else the first charge of a pending subscription (a subscribe whose answer was lost).
        const n = (await this.ledger.applyProviderCharge(reference, status, text(data.failure_code, 100), key, refunds)) || (await this.subscriptions.applyProviderCharge(reference, status, text(data.failure_code, 100), key));
        return n ? 'applied' : { outcome: 'no_match', reason: 'No pending charge has this reference or key (settled when it was made, or not ours).' };
      }
      case 'charge.refunded': {
        const refunded = data.amount_refunded;
        if (!reference || typeof refunded !== 'number' || !Number.isSafeInteger(refunded) || refunded < 0) {
          throw ApiError.validation({ data: ['data.reference (string) and data.amount_refunded (integer >= 0) are required'] });
        }
        return reversal(await this.ledger.applyProviderRefund(dto.id, reference, refunded, text(data.refund_reference) ?? reference), 'The ledger already holds every refund of this charge, or no succeeded charge has this reference.');
      }
      case 'charge.dispute_lost': {
        const amount = data.amount;
        const dispute = text(data.dispute);
        if (!reference || !dispute || typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
          throw ApiError.validation({ data: ['data.reference (string), data.dispute (string) and data.amount (integer > 0) are required'] });
        }
        return reversal(await this.ledger.applyLostDispute(dispute, reference, amount), 'This dispute is already recorded, or no succeeded charge has this reference.');
      }
      case 'refund.failed': {
        if (!reference) throw ApiError.validation({ 'data.reference': ['data.reference (the refund) must be a non-empty string'] });
        const credited = await this.ledger.applyRefundFailure(dto.id, reference, text(data.failure_code, 100));
        return credited ? 'applied' : { outcome: 'no_match', reason: 'No succeeded refund has this reference (already failed, or made outside the ledger).' };
      }
      case 'merchant.updated': {
        const status = MERCHANT_STATUSES.find((s) => s === data.status);
        if (!reference || !status) throw ApiError.validation({ data: ['data.reference (string) and data.status (pending, approved, rejected) are required'] });
        return (await this.onboarding.applyProviderStatus(reference, status)) ? 'applied' : { outcome: 'no_match', reason: 'No merchant account has this reference.' };
      }
      default:
        return 'ignored';
    }
  }
}
