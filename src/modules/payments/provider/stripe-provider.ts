import { HttpStatus } from '@nestjs/common';
import type Stripe from 'stripe';

/**
 * The Stripe SDK, loaded when first used (219 modules a process on the sandbox provider never needs):
 * the value `import Stripe from 'stripe'` gives, for the constructor, its error classes and `webhooks`.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const stripeSdk = (): typeof Stripe => require('stripe') as typeof Stripe;
import type { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { AttachedInstrument, BuyerInput, ChargeInput, ChargeLookup, ChargeResult, MerchantCreated, MerchantStatus, PaymentProvider, PendingChargeResult, RefundInput, RefundResult, UnknownInstrumentToken } from './payment-provider';

/** Where Stripe sends a company back after its Account Link: our onboarding routes (README "Stripe adapter"). */
export const ONBOARDING_RETURN_PATH = '/api/v1/psp/onboarding/complete';
export const ONBOARDING_REFRESH_PATH = '/api/v1/psp/onboarding/cancel';

/** The SDK client the adapter and the webhook verifier use: the secret key, and STRIPE_API_BASE when set (stripe-mock, a test stub). */
export function stripeClient(config: AppConfig): Stripe {
  const base = config.stripeApiBase;
  return new (stripeSdk())(config.stripeSecretKey ?? 'sk_test_unconfigured', {
    maxNetworkRetries: config.paymentProviderMaxRetries,
    timeout: config.paymentProviderTimeoutMs,
    telemetry: false,
    appInfo: { name: 'HaulOps' },
    ...(base ? { protocol: base.protocol, host: base.host, port: base.port } : {}),
  });
}

/**
 * A connected account's onboarding state: `charges_enabled` → approved; disabled for a `rejected.*`
 * reason → rejected; anything else (details due, under review) → pending.
 */
export function stripeAccountStatus(account: Pick<Stripe.Account, 'charges_enabled' | 'requirements'>): MerchantStatus {
  if (account.charges_enabled) return 'approved';
  if (account.requirements?.disabled_reason?.startsWith('rejected')) return 'rejected';
  return 'pending';
}

/** The failure code we record for a card error: the issuer's decline reason when it says more than "declined". */
/** How often, and how long apart, `charge` looks again at a PaymentIntent still processing before it gives up. */
export const PENDING_POLLS = 5;
export const PENDING_POLL_MS = 1000;

/** A charge still processing after `charge` waited for it (the caller's transaction rolls back; a retry with the same key finds the same PaymentIntent). */
export class ChargeStillPending extends Error {
  constructor(readonly reference: string) {
    super(`Stripe is still processing PaymentIntent ${reference}`);
  }
}

export function stripeFailureCode(e: { code?: string | null; decline_code?: string | null }): string {
  if (e.decline_code && e.decline_code !== 'generic_decline') return e.decline_code;
  return e.code || 'card_declined';
}

/**
 * `PAYMENT_PROVIDER=stripe`: the official SDK. Buyers are Customers; instruments PaymentMethods made from
 * a client-side token (Stripe test tokens `tok_visa`, `tok_chargeDeclined`, …) and attached to the
 * customer; charges are PaymentIntents confirmed off-session, to the company's connected account as
 * destination with the platform fee as `application_fee_amount`; refunds reverse the transfer and the
 * fee; merchants are Express connected accounts onboarded through Account Links. Calls that move money
 * carry our idempotency key as Stripe's `Idempotency-Key`. A card decline is a `failed` result.
 */
export class StripePaymentProvider extends PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: AppConfig) {
    super();
    this.stripe = stripeClient(config);
  }

  /**
   * Runs an SDK call with its failures that are not about the card or the request (Stripe unreachable,
   * its 5xx, rate limit, our key refused, an idempotency conflict) turned into 502
   * `PAYMENT_PROVIDER_UNAVAILABLE`: the caller's transaction rolls back, nothing is recorded, and a retry
   * is safe (idempotency keys). Card and request errors pass through to the callers' own handling.
   */
  private async call<T>(fn: (stripe: Stripe) => Promise<T>): Promise<T> {
    try {
      return await fn(this.stripe);
    } catch (e) {
      throw providerFailure(e);
    }
  }

  async createBuyer(input: BuyerInput): Promise<{ reference: string }> {
    const customer = await this.call((s) => s.customers.create({ email: input.email ?? undefined, name: input.name ?? undefined, metadata: { user_id: input.userId } }));
    return { reference: customer.id };
  }

  async attachInstrument(token: string, buyerRef: string): Promise<AttachedInstrument> {
    let pm: Stripe.PaymentMethod;
    try {
      pm = await this.call((s) => s.paymentMethods.create({ type: 'card', card: { token } }));
    } catch (e) {
      // An unknown, used or malformed token (400 invalid_request_error) or a card refused on creation.
      if (e instanceof stripeSdk().errors.StripeInvalidRequestError || e instanceof stripeSdk().errors.StripeCardError) throw new UnknownInstrumentToken(token);
      throw e;
    }
    await this.call((s) => s.paymentMethods.attach(pm.id, { customer: buyerRef }));
    const card = pm.card;
    if (!card) throw new UnknownInstrumentToken(token);
    return { reference: pm.id, brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
  }

  /** Charges and waits for the outcome of a PaymentIntent still processing (card payments settle within seconds). */
  async charge(input: ChargeInput): Promise<ChargeResult> {
    let result = await this.chargeAllowingPending(input);
    for (let i = 0; result.status === 'pending' && i < PENDING_POLLS; i++) {
      await new Promise((r) => setTimeout(r, PENDING_POLL_MS));
      result = intentResult(await this.call((s) => s.paymentIntents.retrieve(result.reference)));
    }
    if (result.status === 'pending') throw new ChargeStillPending(result.reference);
    return result;
  }

  async chargeAllowingPending(input: ChargeInput): Promise<ChargeResult | PendingChargeResult> {
    const params: Stripe.PaymentIntentCreateParams = {
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      customer: input.buyerRef,
      payment_method: input.instrumentRef,
      // A saved card, charged without the customer: no redirect-based method may be offered.
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      off_session: true,
      description: input.description,
      metadata: { idempotency_key: input.idempotencyKey },
    };
    if (input.merchantRef) {
      params.transfer_data = { destination: input.merchantRef };
      if (input.platformFeeAmount) params.application_fee_amount = input.platformFeeAmount;
    }
    try {
      const pi = await this.call((s) => s.paymentIntents.create(params, { idempotencyKey: input.idempotencyKey }));
      return intentResult(pi);
    } catch (e) {
      if (e instanceof stripeSdk().errors.StripeCardError) {
        return { status: 'failed', reference: e.payment_intent?.id ?? e.charge ?? `declined:${input.idempotencyKey}`, failureCode: stripeFailureCode(e) };
      }
      throw e;
    }
  }

  /**
   * Reconciliation (issue #22): the PaymentIntent by its id when we have it, else the buyer's
   * PaymentIntents created since we reserved the charge (list, newest first, paged), matched on
   * `metadata.idempotency_key`. Chosen over the alternatives: re-creating with the same idempotency key
   * would make the charge when the first call never reached Stripe (and the key is forgotten after
   * 24 h), and Search is eventually consistent and not offered in every region; a list by customer
   * and creation time is consistent, cheap (a customer makes few charges a minute) and creates nothing.
   */
  async lookupCharge(input: ChargeLookup): Promise<ChargeResult | PendingChargeResult | null> {
    if (input.reference) return intentResult(await this.call((s) => s.paymentIntents.retrieve(input.reference!)));
    const gte = Math.floor(input.createdAfter.getTime() / 1000) - 300;
    let startingAfter: string | undefined;
    for (let page = 0; page < 20; page++) {
      const list = await this.call((s) => s.paymentIntents.list({ customer: input.buyerRef, created: { gte }, limit: 100, ...(startingAfter ? { starting_after: startingAfter } : {}) }));
      const found = list.data.find((pi) => pi.metadata?.idempotency_key === input.idempotencyKey);
      if (found) return intentResult(found);
      if (!list.has_more || !list.data.length) return null;
      startingAfter = list.data[list.data.length - 1].id;
    }
    return null;
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    try {
      // A destination charge's refund takes the money back from the company and gives back the platform's fee.
      const pi = await this.call((s) => s.paymentIntents.retrieve(input.chargeRef));
      const destination = pi.transfer_data?.destination;
      const refund = await this.call((s) => s.refunds.create(
        { payment_intent: input.chargeRef, amount: input.amount, ...(destination ? { reverse_transfer: true, refund_application_fee: true } : {}), metadata: { idempotency_key: input.idempotencyKey } },
        { idempotencyKey: input.idempotencyKey },
      ));
      // `pending`: accepted, paid out later (a later failure is Stripe's `refund.failed`, see README).
      if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'failed', reference: refund.id, failureCode: refund.failure_reason ?? refund.status };
      return { status: 'succeeded', reference: refund.id };
    } catch (e) {
      // A refund Stripe refuses for good (already refunded, too much): failed; the ledger credits the wallet instead.
      if (e instanceof stripeSdk().errors.StripeInvalidRequestError || e instanceof stripeSdk().errors.StripeCardError) {
        return { status: 'failed', reference: `refund_refused:${input.idempotencyKey}`, failureCode: e.code ?? 'refund_refused' };
      }
      throw e;
    }
  }

  async createMerchant(scope: Scope): Promise<MerchantCreated> {
    const account = await this.call((s) => s.accounts.create({
      type: 'express',
      metadata: { company_id: scope.companyId },
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    }));
    return { reference: account.id, onboardingUrl: await this.onboardingLink(account.id) };
  }

  /** A new Account Link for the account (they expire within minutes): returns to our complete route, refreshes through cancel. */
  async onboardingLink(reference: string): Promise<string> {
    const base = this.config.publicBaseUrl ?? '';
    const link = await this.call((s) => s.accountLinks.create({ account: reference, type: 'account_onboarding', return_url: base + ONBOARDING_RETURN_PATH, refresh_url: base + ONBOARDING_REFRESH_PATH }));
    return link.url;
  }

  async merchantStatus(reference: string): Promise<MerchantStatus> {
    return stripeAccountStatus(await this.call((s) => s.accounts.retrieve(reference)));
  }
}

/** A confirmed PaymentIntent as our result: succeeded; processing (or awaiting capture) pending; anything else failed. */
function intentResult(pi: Stripe.PaymentIntent): ChargeResult | PendingChargeResult {
  switch (pi.status) {
    case 'succeeded':
      return { status: 'succeeded', reference: pi.id };
    case 'processing':
    case 'requires_capture':
      return { status: 'pending', reference: pi.id };
    case 'requires_action':
      // Off-session: nobody is there to authenticate.
      return { status: 'failed', reference: pi.id, failureCode: 'authentication_required' };
    default:
      return { status: 'failed', reference: pi.id, failureCode: pi.last_payment_error ? stripeFailureCode(pi.last_payment_error) : 'payment_failed' };
  }
}

const unavailable = () => {
  const { errors } = stripeSdk();
  return [errors.StripeConnectionError, errors.StripeAPIError, errors.StripeRateLimitError, errors.StripeAuthenticationError, errors.StripePermissionError, errors.StripeIdempotencyError];
};

/** 502 for a Stripe failure of the provider itself (see `StripePaymentProvider.call`); anything else as it is. */
export function providerFailure(e: unknown): unknown {
  if (!unavailable().some((k) => e instanceof k)) return e;
  return new ApiError(HttpStatus.BAD_GATEWAY, 'PAYMENT_PROVIDER_UNAVAILABLE', 'The payment provider could not be reached; nothing was recorded. Try again in a moment.');
}
