import type { Scope } from '../../../common/access/scope';

/**
 * The payment provider behind one interface (issue #13). A Nest provider: inject `PaymentProvider`;
 * the implementation is chosen by `PAYMENT_PROVIDER` (`sandbox`: sandbox-provider.ts, `stripe`:
 * stripe-provider.ts; the binding is provider-factory.ts).
 * Every call that moves money carries an idempotency key derived from our transaction id, so a retry
 * after a timeout cannot move money twice (same key = same result).
 */
export type ProviderName = 'sandbox' | 'stripe';

export interface BuyerInput {
  /** Our id of the buyer (the customer's user id); the provider may store it as metadata. */
  userId: string;
  email?: string | null;
  name?: string | null;
}

export interface AttachedInstrument {
  /** The provider's reference of the instrument (a payment method id). */
  reference: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeInput {
  /** Minor units, > 0. */
  amount: number;
  currency: string;
  buyerRef: string;
  instrumentRef: string;
  /** The company's merchant reference with the provider (null while the sandbox stands in). */
  merchantRef: string | null;
  /** The platform's fee kept of a charge to a merchant (minor units; Stripe: `application_fee_amount`); ignored without a merchant. */
  platformFeeAmount?: number;
  idempotencyKey: string;
  description?: string;
}

export interface ChargeResult {
  status: 'succeeded' | 'failed';
  /** The provider's reference of the charge (also for failed charges). */
  reference: string;
  /** Why a failed charge failed (card_declined, insufficient_funds, authentication_required, ...). */
  failureCode?: string;
}

/** A charge the provider accepted but settles later (Stripe `processing`); its webhook says how it ended. */
export interface PendingChargeResult {
  status: 'pending';
  reference: string;
  failureCode?: undefined;
}

export interface RefundInput {
  chargeRef: string;
  /** Minor units, > 0, at most what is left of the charge. */
  amount: number;
  idempotencyKey: string;
}

export interface RefundResult {
  status: 'succeeded' | 'failed';
  reference: string;
  failureCode?: string;
}

/** What the reconciler knows of a charge whose outcome it does not know (issue #22). */
export interface ChargeLookup {
  /** Our key, sent as the provider's idempotency key and in the charge's metadata. */
  idempotencyKey: string;
  /** The provider's reference when an answer gave it (then it is read directly). */
  reference: string | null;
  buyerRef: string;
  /** When we reserved the charge: the provider cannot have made it before. */
  createdAfter: Date;
}

export interface MerchantCreated {
  reference: string;
  /** Where the company finishes onboarding with the provider (the sandbox answers a local URL). */
  onboardingUrl: string;
}

export type MerchantStatus = 'pending' | 'approved' | 'rejected';

/** Raised by `attachInstrument` for a token the provider does not know (422 at the HTTP edge). */
export class UnknownInstrumentToken extends Error {
  constructor(readonly token: string) {
    super(`unknown payment token '${token}'`);
  }
}

export abstract class PaymentProvider {
  abstract readonly name: ProviderName;
  /** Creates the buyer identity; returns the provider's reference. */
  abstract createBuyer(input: BuyerInput): Promise<{ reference: string }>;
  /** Turns a client-side token into an instrument attached to the buyer. Throws UnknownInstrumentToken. */
  abstract attachInstrument(token: string, buyerRef: string): Promise<AttachedInstrument>;
  /** Charges an instrument. Idempotent by `idempotencyKey`. A decline is a result, not an exception. */
  abstract charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * Like `charge`, but a charge the provider settles later answers `pending` instead of being waited for;
   * for callers that keep a pending row for the provider's webhook to settle (the ledger). Default: `charge`.
   */
  chargeAllowingPending(input: ChargeInput): Promise<ChargeResult | PendingChargeResult> {
    return this.charge(input);
  }
  /**
   * The provider's word on a charge we asked for but whose answer we did not get (timeout, lost answer,
   * crash): found by its reference, else by our key in its metadata. Null: the provider has no such
   * charge (the call never reached it). Never creates anything.
   */
  abstract lookupCharge(input: ChargeLookup): Promise<ChargeResult | PendingChargeResult | null>;
  /** Refunds (part of) a charge. Idempotent by `idempotencyKey`. */
  abstract refund(input: RefundInput): Promise<RefundResult>;
  /** Starts merchant onboarding of the scope's company. */
  abstract createMerchant(scope: Scope): Promise<MerchantCreated>;
  /** The merchant's state with the provider. */
  abstract merchantStatus(reference: string): Promise<MerchantStatus>;
  /** A fresh onboarding URL for an existing merchant (a provider's links expire: Stripe's within minutes). */
  abstract onboardingLink(reference: string): Promise<string>;
}
