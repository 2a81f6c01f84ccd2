import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '../../../common/access/scope';
import { AttachedInstrument, BuyerInput, ChargeInput, ChargeLookup, ChargeResult, MerchantCreated, MerchantStatus, PaymentProvider, RefundInput, RefundResult, UnknownInstrumentToken } from './payment-provider';

/** The sandbox's test tokens and what a charge on them does. */
export const SANDBOX_TOKENS = {
  tok_visa: { brand: 'visa', last4: '4242', failureCode: null },
  tok_declined: { brand: 'visa', last4: '0002', failureCode: 'card_declined' },
  tok_insufficient_funds: { brand: 'visa', last4: '9995', failureCode: 'insufficient_funds' },
  /** Needs an extra authentication step, which the sandbox refuses. */
  tok_3ds: { brand: 'visa', last4: '3184', failureCode: 'authentication_required' },
} as const;
export type SandboxToken = keyof typeof SANDBOX_TOKENS;
export const isSandboxToken = (t: string): t is SandboxToken => Object.hasOwn(SANDBOX_TOKENS, t);

const sandboxOnboardingUrl = (reference: string) => `https://sandbox.payments.local/onboarding/${reference}`;
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/**
 * `PAYMENT_PROVIDER=sandbox`: in-process, no network. The instrument's reference carries its test token
 * (`pm_sbx_<token>_<random>`), so a charge's outcome survives a restart; the charge's reference is
 * derived from its idempotency key, so the same key gives the same result (and counts one charge).
 * Merchants are approved at once.
 */
@Injectable()
export class SandboxPaymentProvider extends PaymentProvider {
  readonly name = 'sandbox' as const;
  /** Charges and refunds by idempotency key (this process): the first result, and how often each was asked. */
  private readonly charges = new Map<string, { input: ChargeInput; result: ChargeResult; calls: number }>();
  private readonly refunds = new Map<string, { input: RefundInput; result: RefundResult; calls: number }>();

  createBuyer(input: BuyerInput): Promise<{ reference: string }> {
    return Promise.resolve({ reference: `cus_sbx_${digest(input.userId)}` });
  }

  attachInstrument(token: string, _buyerRef: string): Promise<AttachedInstrument> {
    if (!isSandboxToken(token)) return Promise.reject(new UnknownInstrumentToken(token));
    const t = SANDBOX_TOKENS[token];
    const year = new Date().getUTCFullYear() + 3;
    return Promise.resolve({ reference: `pm_sbx_${token}_${randomBytes(8).toString('hex')}`, brand: t.brand, last4: t.last4, expMonth: 12, expYear: year });
  }

  charge(input: ChargeInput): Promise<ChargeResult> {
    const known = this.charges.get(input.idempotencyKey);
    if (known) {
      known.calls++;
      return Promise.resolve(known.result);
    }
    const token = /^pm_sbx_(tok_[a-z0-9_]+)_[0-9a-f]+$/.exec(input.instrumentRef)?.[1];
    const failureCode = token && isSandboxToken(token) ? SANDBOX_TOKENS[token].failureCode : 'invalid_instrument';
    const reference = `ch_sbx_${digest(input.idempotencyKey)}`;
    const result: ChargeResult = failureCode ? { status: 'failed', reference, failureCode } : { status: 'succeeded', reference };
    this.charges.set(input.idempotencyKey, { input, result, calls: 1 });
    return Promise.resolve(result);
  }

  /** The charge made with this key (this process), if any: the sandbox keeps its charges by key, as a provider keeps our key in the charge's metadata. */
  lookupCharge(input: ChargeLookup): Promise<ChargeResult | null> {
    return Promise.resolve(this.charges.get(input.idempotencyKey)?.result ?? null);
  }

  refund(input: RefundInput): Promise<RefundResult> {
    const known = this.refunds.get(input.idempotencyKey);
    if (known) {
      known.calls++;
      return Promise.resolve(known.result);
    }
    const result: RefundResult = { status: 'succeeded', reference: `re_sbx_${digest(input.idempotencyKey)}` };
    this.refunds.set(input.idempotencyKey, { input, result, calls: 1 });
    return Promise.resolve(result);
  }

  createMerchant(scope: Scope): Promise<MerchantCreated> {
    const reference = `acct_sbx_${digest(scope.companyId)}`;
    return Promise.resolve({ reference, onboardingUrl: sandboxOnboardingUrl(reference) });
  }

  onboardingLink(reference: string): Promise<string> {
    return Promise.resolve(sandboxOnboardingUrl(reference));
  }

  merchantStatus(_reference: string): Promise<MerchantStatus> {
    return Promise.resolve('approved');
  }

  /** Tests: the refunds this process made (distinct idempotency keys). */
  refundsMade(): { key: string; chargeRef: string; amount: number; result: RefundResult }[] {
    return [...this.refunds.entries()].map(([key, r]) => ({ key, chargeRef: r.input.chargeRef, amount: r.input.amount, result: r.result }));
  }

  /** Tests: the charges this process made (distinct idempotency keys) and their results. */
  chargesMade(): { key: string; amount: number; result: ChargeResult; calls: number }[] {
    return [...this.charges.entries()].map(([key, c]) => ({ key, amount: c.input.amount, result: c.result, calls: c.calls }));
  }
}
