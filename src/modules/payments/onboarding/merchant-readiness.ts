import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { type ThreadedManager, withoutManager } from '../../../database/threaded-manager';
import { MerchantAccountRepository } from './merchant-account.repository';

/** A `Scope` naming the company, from either form (the deprecated forms take its bare id after the manager). */
const companyScope = (who: Scope | string): Scope => (typeof who === 'string' ? Scope.company(who) : who);

/**
 * Whether a company may take card payments (issue #13): its merchant account is `approved`, or the
 * provider is the sandbox with `PAYMENT_SANDBOX_MERCHANT_READY` true (the default). Otherwise the
 * company takes only offline payments and card payment is 409 `MERCHANT_NOT_READY`.
 */
@Injectable()
export class MerchantReadiness {
  constructor(
    private readonly config: AppConfig,
    private readonly accounts: MerchantAccountRepository,
  ) {}

  /** True when the sandbox is configured to treat every company as ready. */
  sandboxReady(): boolean {
    return this.config.paymentProvider === 'sandbox' && this.config.paymentSandboxMerchantReady;
  }

  async isCardReady(scope: Scope): Promise<boolean>;
  /** @deprecated the unit of work carries the manager (ignored), and a `Scope` the company: `isCardReady(scope)`. */
  async isCardReady(m: ThreadedManager, companyId: string): Promise<boolean>;
  async isCardReady(...args: unknown[]): Promise<boolean> {
    const [who] = withoutManager<[Scope | string]>(args);
    return (await this.cardMerchant(companyScope(who))).ready;
  }

  /**
   * Whether the company can take card payments, and its merchant reference with the configured provider
   * (the charge's destination): an approved account of another provider (created before PAYMENT_PROVIDER
   * changed) is not a merchant of this one.
   */
  private async cardMerchant(scope: Scope): Promise<{ ready: boolean; reference: string | null }> {
    const account = await this.accounts.cardView(scope);
    const ours = account?.state === 'approved' && account.provider === this.config.paymentProvider;
    return { ready: ours || this.sandboxReady(), reference: ours ? account.providerReference : null };
  }

  /**
   * Throws 409 MERCHANT_NOT_READY unless the company can take card payments; answers its merchant
   * reference with the provider (null when the sandbox stands in for an account).
   */
  async assertCardReady(scope: Scope): Promise<string | null>;
  /** @deprecated the unit of work carries the manager (ignored), and a `Scope` the company: `assertCardReady(scope)`. */
  async assertCardReady(m: ThreadedManager, companyId: string): Promise<string | null>;
  async assertCardReady(...args: unknown[]): Promise<string | null> {
    const [who] = withoutManager<[Scope | string]>(args);
    const merchant = await this.cardMerchant(companyScope(who));
    if (!merchant.ready) {
      throw ApiError.conflict('MERCHANT_NOT_READY', 'The company has not finished merchant onboarding; it takes only offline payments.');
    }
    return merchant.reference;
  }
}
