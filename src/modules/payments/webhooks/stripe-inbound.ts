import type Stripe from 'stripe';
import { ApiError } from '../../../common/http/api-error';
import { stripeAccountStatus, stripeFailureCode, stripeSdk } from '../provider/stripe-provider';
import type { InboundEventDto } from './inbound.dto';

/** An event a verifier accepted: the provider's id and type (recorded and answered), the body as received, and the internal event `apply` consumes. */
export interface VerifiedEvent {
  id: string;
  type: string;
  payload: object;
  event: InboundEventDto;
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

/**
 * A Stripe event as the internal event the sandbox also sends (one code path in `apply`):
 * `payment_intent.succeeded` / `payment_intent.payment_failed` → `charge.succeeded` / `charge.failed`
 * (`reference`: the PaymentIntent, our ledger's provider reference; `failure_code`); `charge.refunded` →
 * `charge.refunded` (`reference`: its PaymentIntent, `amount_refunded`, `refund_reference`: the charge);
 * `refund.failed` → `refund.failed` (`reference`: the Refund, our refund row's provider reference;
 * `failure_code`: its `failure_reason`); `account.updated` → `merchant.updated` (`reference`: the connected
 * account, `status` from it); `charge.dispute.closed` with status `lost` → `charge.dispute_lost`
 * (`reference`: its PaymentIntent, `dispute`, `amount`). The PaymentIntent events carry our key
 * (`key`, from `metadata.idempotency_key`), so a charge whose answer was lost is found without its
 * reference. `charge.dispute.created` / `funds_withdrawn` / `funds_reinstated` and won disputes change
 * nothing in the ledger (recorded as ignored): until a dispute is lost the money is only held. Any other
 * type keeps its name and is recorded as ignored.
 */
export function stripeInbound(event: Stripe.Event): InboundEventDto {
  const internal = (type: string, data: Record<string, unknown>): InboundEventDto => ({ id: event.id, type, data });
  switch (event.type) {
    case 'payment_intent.succeeded':
      return internal('charge.succeeded', { reference: event.data.object.id, key: event.data.object.metadata?.idempotency_key ?? null });
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      return internal('charge.failed', { reference: pi.id, key: pi.metadata?.idempotency_key ?? null, failure_code: pi.last_payment_error ? stripeFailureCode(pi.last_payment_error) : 'payment_failed' });
    }
    case 'charge.dispute.closed': {
      // Only a lost dispute moves money for good (won: the funds come back; warning_closed: none were taken).
      const dispute = event.data.object;
      if (dispute.status !== 'lost') return internal(event.type, {});
      return internal('charge.dispute_lost', { reference: idOf(dispute.payment_intent) ?? idOf(dispute.charge), dispute: dispute.id, amount: dispute.amount });
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      return internal('charge.refunded', { reference: idOf(charge.payment_intent) ?? charge.id, amount_refunded: charge.amount_refunded, refund_reference: charge.id });
    }
    case 'refund.failed': {
      const refund = event.data.object;
      return internal('refund.failed', { reference: refund.id, failure_code: refund.failure_reason ?? 'refund_failed' });
    }
    case 'account.updated': {
      const account = event.data.object;
      return internal('merchant.updated', { reference: account.id, status: stripeAccountStatus(account) });
    }
    default:
      return internal(event.type, {});
  }
}

/**
 * Verifies a Stripe webhook with the SDK (`Stripe-Signature` over the raw body with the endpoint's
 * signing secret, timestamp within 5 minutes) and maps it; 400 `INVALID_SIGNATURE` otherwise.
 */
export function verifyStripeEvent(secret: string | undefined, rawBody: Buffer | undefined, signature: string | undefined): VerifiedEvent {
  const invalid = (message: string) => ApiError.badRequest('INVALID_SIGNATURE', message);
  if (!secret) throw invalid('Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
  if (!rawBody || !signature) throw invalid('Missing Stripe-Signature.');
  let event: Stripe.Event;
  try {
    event = stripeSdk().webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw invalid('The Stripe signature does not match, or its timestamp is not within 5 minutes of now.');
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || !event.id || event.id.length > 200 || event.type.length > 100) {
    throw ApiError.validation({ id: ['a Stripe event needs an id and a type'] });
  }
  return { id: event.id, type: event.type, payload: event, event: stripeInbound(event) };
}
