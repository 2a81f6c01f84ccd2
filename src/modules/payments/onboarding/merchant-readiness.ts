import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { MerchantAccountRepository } from './merchant-account.repository';

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

  async isCardReady(scope: Scope): Promise<boolean> {
    return (await this.cardMerchant(scope)).ready;
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
  async assertCardReady(scope: Scope): Promise<string | null> {
    const merchant = await this.cardMerchant(scope);
    if (!merchant.ready) {
      throw ApiError.conflict('MERCHANT_NOT_READY', 'The company has not finished merchant onboarding; it takes only offline payments.');
    }
    return merchant.reference;
  }
}
