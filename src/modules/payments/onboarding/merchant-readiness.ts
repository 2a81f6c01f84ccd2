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
    if (this.sandboxReady()) return true;
    const account = await m.getRepository(MerchantAccount).findOne({ where: { companyId }, select: { id: true, state: true } });
    return account?.state === 'approved';
  }

  /** Throws 409 MERCHANT_NOT_READY unless the company can take card payments. */
  async assertCardReady(m: EntityManager, companyId: string): Promise<void> {
    if (!(await this.isCardReady(m, companyId))) {
      throw ApiError.conflict('MERCHANT_NOT_READY', 'The company has not finished merchant onboarding; it takes only offline payments.');
    }
  }
}
