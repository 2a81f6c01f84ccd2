import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { applyBps, type Minor } from '../../../common/money';
import { CompaniesService } from '../../companies';

/**
 * The platform's fees (issue #13, `fee_details`): configuration in code, the defaults for every company
 * (an administrator may set a company's card percentage: `platformFee`),
 * in basis points and minor units of the company's currency. A change is a deploy (and a new terms
 * version when it matters to merchants), which keeps the fee a charge was taken with reproducible from
 * the code's history; see README "Merchant onboarding".
 */
export const PLATFORM_FEES = {
  /** Card payments: a percentage of the amount (basis points) plus a fixed amount per charge. */
  cardPercentBps: 290,
  cardFixedAmount: 30,
  /** Offline payments (cash, cheque, bank transfer) recorded by the company: free. */
  offlinePercentBps: 0,
  offlineFixedAmount: 0,
  /** Refunds: the platform keeps no fee of its own on a refund. */
  refundFeeAmount: 0,
} as const;

export const PAYMENT_METHODS_FOR_FEES = ['card', 'offline'] as const;
export type FeeMethod = (typeof PAYMENT_METHODS_FOR_FEES)[number];

/**
 * The platform's fee on a payment of `amount` (half up, never more than the amount). `cardPercentBps`
 * is the company's card percentage: the platform's administrators may set one per company (companies'
 * `platform_fee_bps`, README "Platform administration"); else the default above.
 */
export function platformFee(amount: Minor, method: FeeMethod, cardPercentBps: number = PLATFORM_FEES.cardPercentBps): Minor {
  const fee =
    method === 'card'
      ? applyBps(amount, cardPercentBps) + PLATFORM_FEES.cardFixedAmount
      : applyBps(amount, PLATFORM_FEES.offlinePercentBps) + PLATFORM_FEES.offlineFixedAmount;
  return Math.min(fee, amount);
}

/**
 * The fees of one company: its card percentage is its platform setting (companies' `platform_fee_bps`,
 * set by a platform administrator, read through the companies service), else the default. Every fee
 * payments computes or shows for a company goes through it (charges, `fee_details`, quotes).
 */
@Injectable()
export class PlatformFees {
  constructor(private readonly companies: CompaniesService) {}

  async cardPercentBps(scope: Scope): Promise<number> {
    return (await this.companies.platformSettings(scope))?.platformFeeBps ?? PLATFORM_FEES.cardPercentBps;
  }

  /** The platform's fee on a payment of `amount` to the company. */
  async feeFor(scope: Scope, amount: Minor, method: FeeMethod): Promise<Minor> {
    return platformFee(amount, method, await this.cardPercentBps(scope));
  }
}

/** The current merchant terms of service companies accept (`tos`); a new version needs a new acceptance. */
export const MERCHANT_TERMS = {
  version: '2025-06-01',
  url: 'https://haulops.test/legal/merchant-terms/2025-06-01',
} as const;
