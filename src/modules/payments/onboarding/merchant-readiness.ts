import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { MerchantAccount } from './merchant-account.entity';

/**
 * Whether a company may take card payments (issue #13): its merchant account is `approved`, or the
 * provider is the sandbox with `PAYMENT_SANDBOX_MERCHANT_READY` true (the default). Otherwise the
 * company takes only offline payments and card payment is 409 `MERCHANT_NOT_READY`.
 */
@Injectable()
export class MerchantReadiness {
  constructor(private readonly config: AppConfig) {}

  /** True when the sandbox is configured to treat every company as ready. */
  sandboxReady(): boolean {
    return this.config.paymentProvider === 'sandbox' && this.config.paymentSandboxMerchantReady;
  }

  async isCardReady(m: EntityManager, companyId: string): Promise<boolean> {
    return (await this.cardMerchant(m, companyId)).ready;
  }

  /**
   * Whether the company can take card payments, and its merchant reference with the configured provider
   * (the charge's destination): an approved account of another provider (created before PAYMENT_PROVIDER
   * changed) is not a merchant of this one.
   */
  private async cardMerchant(m: EntityManager, companyId: string): Promise<{ ready: boolean; reference: string | null }> {
    const account = await m.getRepository(MerchantAccount).findOne({ where: { companyId }, select: { id: true, state: true, provider: true, providerReference: true } });
    const ours = account?.state === 'approved' && account.provider === this.config.paymentProvider;
    return { ready: ours || this.sandboxReady(), reference: ours ? account.providerReference : null };
  }

  /**
   * Throws 409 MERCHANT_NOT_READY unless the company can take card payments; answers its merchant
   * reference with the provider (null when the sandbox stands in for an account).
   */
  async assertCardReady(m: EntityManager, companyId: string): Promise<string | null> {
    const merchant = await this.cardMerchant(m, companyId);
    if (!merchant.ready) {
      throw ApiError.conflict('MERCHANT_NOT_READY', 'The company has not finished merchant onboarding; it takes only offline payments.');
    }
    return merchant.reference;
  }
}
