import { ApiProperty } from '@nestjs/swagger';
import { EnumField, IntField, INT4_MAX, PartialInput, TextField } from '../../../common/validation/fields';
import { MERCHANT_STATES, PAYOUT_SCHEDULES, type MerchantAccount, type MerchantState, type MerchantTermsAcceptance, type PayoutSchedule } from './merchant-account.entity';
import { PAYMENT_METHODS_FOR_FEES, type FeeMethod } from './platform-fees';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- bodies

/** POST/PUT/PATCH cancel: why the company abandons onboarding (optional). */
export class CancelOnboardingDto {
  @TextField({ optional: true, max: 500, example: 'We will finish with our accountant next week.' }) reason?: string;
}

/** POST/PUT/PATCH tos: the version of the terms the user read and accepts (must be the current one). */
export class AcceptTermsDto {
  @TextField({ max: 40, example: '2025-06-01', description: 'The `current_version` of GET /psp/onboarding/tos; another version is 422 `TERMS_VERSION_OUTDATED`.' }) version: string;
}

/** PUT fee_details: the payout schedule the company prefers. */
export class PayoutScheduleDto {
  @EnumField(PAYOUT_SCHEDULES, { example: 'weekly', description: 'How often the provider pays the balance out to the company.' }) payout_schedule: PayoutSchedule;
}

/** PATCH fee_details: the same, every field optional. */
export class UpdatePayoutScheduleDto extends PartialInput(PayoutScheduleDto) {}

/** POST fee_details: a fee quote for a payment. */
export class FeeQuoteInputDto {
  @IntField({ min: 1, max: INT4_MAX, example: 45000, description: 'The payment, in minor units of the company currency (12999 = 129.99).' }) amount: number;
  @EnumField(PAYMENT_METHODS_FOR_FEES, { optional: true, default: 'card', example: 'card' }) method?: FeeMethod;
}

// ---------------------------------------------------------------- answers

export class MerchantOnboardingDto {
  @ApiProperty({ enum: MERCHANT_STATES, example: 'pending' }) state: MerchantState;
  @ApiProperty({ type: String, nullable: true, example: 'sandbox', description: 'The provider the merchant account lives with; null before onboarding starts.' }) provider: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'acct_sbx_3f2b9c1e7a4d', description: "The provider's reference of the merchant account." }) provider_reference: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'https://sandbox.haulops.test/onboarding/acct_sbx_3f2b9c1e7a4d', description: 'Where a company user finishes onboarding with the provider (while pending or cancelled).' })
  onboarding_url: string | null;
  @ApiProperty({ description: 'Whether the company can take card payments now (approved, or the sandbox configured with PAYMENT_SANDBOX_MERCHANT_READY); otherwise card payment is 409 MERCHANT_NOT_READY.', example: false })
  card_payments_ready: boolean;
  @ApiProperty({ description: 'The current merchant terms are accepted (needed to start onboarding).', example: true }) terms_accepted: boolean;
  @ApiProperty({ enum: PAYOUT_SCHEDULES, example: 'weekly' }) payout_schedule: PayoutSchedule;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) started_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) approved_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) rejected_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) cancelled_at: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'We will finish with our accountant next week.' }) cancel_reason: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'The last time the state was checked with the provider.' }) last_checked_at: string | null;

  static of(a: MerchantAccount | null, o: { cardReady: boolean; termsAccepted: boolean }): MerchantOnboardingDto {
    return {
      state: a?.state ?? 'not_started',
      provider: a?.provider ?? null,
      provider_reference: a?.providerReference ?? null,
      onboarding_url: a?.onboardingUrl ?? null,
      card_payments_ready: o.cardReady,
      terms_accepted: o.termsAccepted,
      payout_schedule: a?.payoutSchedule ?? 'weekly',
      started_at: iso(a?.startedAt ?? null),
      approved_at: iso(a?.approvedAt ?? null),
      rejected_at: iso(a?.rejectedAt ?? null),
      cancelled_at: iso(a?.cancelledAt ?? null),
      cancel_reason: a?.cancelReason ?? null,
      last_checked_at: iso(a?.lastCheckedAt ?? null),
    };
  }
}

export class TermsAcceptanceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '2025-06-01' }) version: string;
  @ApiProperty({ format: 'uuid', description: 'The company user who accepted.' }) accepted_by_id: string;
  @ApiProperty({ format: 'date-time' }) accepted_at: string;
  @ApiProperty({ example: '203.0.113.7', description: 'The client address the acceptance came from.' }) ip: string;
  @ApiProperty({ type: String, nullable: true, example: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)' }) user_agent: string | null;

  static of(a: MerchantTermsAcceptance): TermsAcceptanceDto {
    return { id: a.id, version: a.version, accepted_by_id: a.acceptedBy, accepted_at: a.acceptedAt.toISOString(), ip: a.ip, user_agent: a.userAgent };
  }
}

export class TermsDto {
  @ApiProperty({ example: '2025-06-01', description: 'The version to accept.' }) current_version: string;
  @ApiProperty({ example: 'https://haulops.test/legal/merchant-terms/2025-06-01' }) terms_url: string;
  @ApiProperty({ description: 'The live acceptance is of the current version.', example: true }) accepted: boolean;
  @ApiProperty({ type: TermsAcceptanceDto, nullable: true, description: 'The live (not withdrawn) acceptance, of any version; null when none.' }) acceptance: TermsAcceptanceDto | null;
}

export class FeeDetailsDto {
  @ApiProperty({ example: 'USD', description: 'The company currency, in which the fixed amounts are.' }) currency: string;
  @ApiProperty({ example: 290, description: 'Card payments: percentage of the amount, in basis points (290 = 2.9 %).' }) card_percent_bps: number;
  @ApiProperty({ example: 30, description: 'Card payments: fixed amount per charge.' }) card_fixed_amount: number;
  @ApiProperty({ example: 0, description: 'Offline payments (cash, cheque, bank transfer): percentage in basis points.' }) offline_percent_bps: number;
  @ApiProperty({ example: 0 }) offline_fixed_amount: number;
  @ApiProperty({ example: 0, description: 'Fee the platform keeps on a refund.' }) refund_fee_amount: number;
  @ApiProperty({ enum: PAYOUT_SCHEDULES, example: 'weekly', description: 'The payout schedule the company prefers (PUT/PATCH to change, DELETE to reset to weekly).' }) payout_schedule: PayoutSchedule;
  @ApiProperty({ enum: PAYOUT_SCHEDULES, isArray: true, example: ['daily', 'weekly', 'monthly'] }) payout_schedules: PayoutSchedule[];
  @ApiProperty({ enum: MERCHANT_STATES, example: 'approved' }) merchant_state: MerchantState;
}

export class FeeQuoteDto {
  @ApiProperty({ type: 'integer', example: 45000 }) amount: number;
  @ApiProperty({ enum: PAYMENT_METHODS_FOR_FEES, example: 'card' }) method: FeeMethod;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 1335, description: "The platform's fee: amount × percentage, half up, plus the fixed amount; never more than the amount." }) platform_fee_amount: number;
  @ApiProperty({ example: 43665, description: 'What the company receives.' }) net_amount: number;
}
