import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';

export const MERCHANT_STATES = ['not_started', 'pending', 'approved', 'rejected', 'cancelled'] as const;
export type MerchantState = (typeof MERCHANT_STATES)[number];

export const PAYOUT_SCHEDULES = ['daily', 'weekly', 'monthly'] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];

/**
 * A company's merchant account with the payment provider (issue #13, merchant onboarding): one row per
 * company, created with state `not_started` the first time the company looks at or starts onboarding.
 */
@Tenant({ customer: false, driver: false })
@Entity('merchant_accounts')
@Check('merchant_accounts_state_check', `state IN ('not_started', 'pending', 'approved', 'rejected', 'cancelled')`)
@Check('merchant_accounts_payout_schedule_check', `payout_schedule IN ('daily', 'weekly', 'monthly')`)
export class MerchantAccount extends BaseEntity {
  @Index('uq_merchant_accounts_company', { unique: true })
  @ForeignKey('companies', { name: 'merchant_accounts_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  /** The provider the account lives with (`PAYMENT_PROVIDER` at creation: `sandbox`, later `stripe`). */
  @Column({ type: 'text', nullable: true }) provider: string | null;
  /** The provider's id of the account (Stripe: the connected account id). */
  @Index('idx_merchant_accounts_provider_reference', { where: 'provider_reference IS NOT NULL' })
  @Column({ type: 'text', nullable: true })
  providerReference: string | null;
  @Column({ type: 'text', default: 'not_started' }) state: MerchantState;
  /** Where the company finishes onboarding with the provider (Stripe: the Account Link). */
  @Column({ type: 'text', nullable: true }) onboardingUrl: string | null;
  /** The payout schedule the company prefers (PUT/PATCH fee_details). */
  @Column({ type: 'text', default: 'weekly' }) payoutSchedule: PayoutSchedule;
  @Column({ type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) approvedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) rejectedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  /** Why the company abandoned onboarding (POST/PUT/PATCH cancel), if it said. */
  @Column({ type: 'text', nullable: true }) cancelReason: string | null;
  /** The last time the state was checked with the provider. */
  @Column({ type: 'timestamptz', nullable: true }) lastCheckedAt: Date | null;
}

/**
 * A company user's acceptance of the platform's merchant terms of service (who, when, from which
 * address, which version). Withdrawing keeps the row (`withdrawn_at`, `withdrawn_by`): at most one
 * live acceptance per company (`uq_merchant_terms_acceptances_live`).
 */
@Tenant({ customer: false, driver: false })
@Entity('merchant_terms_acceptances')
@Index('idx_merchant_terms_acceptances_company', ['companyId', 'acceptedAt'])
@Index('uq_merchant_terms_acceptances_live', ['companyId'], { unique: true, where: 'withdrawn_at IS NULL' })
@Check('merchant_terms_acceptances_withdrawn_check', `(withdrawn_at IS NULL) = (withdrawn_by IS NULL)`)
export class MerchantTermsAcceptance extends BaseEntity {
  @ForeignKey('companies', { name: 'merchant_terms_acceptances_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) version: string;
  @Index('idx_merchant_terms_acceptances_accepted_by')
  @ForeignKey('users', { name: 'merchant_terms_acceptances_accepted_by_fkey' })
  @Column({ type: 'uuid' })
  acceptedBy: string;
  @Column({ type: 'timestamptz' }) acceptedAt: Date;
  /** The client address the acceptance came from (`req.ip`, behind TRUST_PROXY). */
  @Column({ type: 'text' }) ip: string;
  @Column({ type: 'text', nullable: true }) userAgent: string | null;
  @Column({ type: 'timestamptz', nullable: true }) withdrawnAt: Date | null;
  @Index('idx_merchant_terms_acceptances_withdrawn_by', { where: 'withdrawn_by IS NOT NULL' })
  @ForeignKey('users', { name: 'merchant_terms_acceptances_withdrawn_by_fkey' })
  @Column({ type: 'uuid', nullable: true })
  withdrawnBy: string | null;
}
