import { Body, Controller, Delete, Get, Options, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { Endpoint } from '../../../common/http/openapi';
import { AllowOptions } from './allow-options';
import { CurrentClient } from './client-info';
import { AcceptTermsDto, CancelOnboardingDto, FeeDetailsDto, FeeQuoteDto, FeeQuoteInputDto, MerchantOnboardingDto, PayoutScheduleDto, TermsDto, UpdatePayoutScheduleDto } from './onboarding.dto';
import { ClientInfo, OnboardingService } from './onboarding.service';

const STATES =
  'States: `not_started` → `pending` (the merchant exists with the provider; finish at `onboarding_url`) → `approved` or `rejected` (the provider\'s answer); ' +
  '`pending` → `cancelled` (abandoned) → `pending` again (DELETE cancel, or a new merchant with PUT/POST complete). Card payments need `approved` ' +
  '(or the sandbox with PAYMENT_SANDBOX_MERCHANT_READY): otherwise they are 409 `MERCHANT_NOT_READY` and the company takes offline payments only. ';
const START =
  'Starting creates the merchant with the provider (needs the current terms accepted, else 409 `TERMS_NOT_ACCEPTED`) and answers `pending` with the `onboarding_url`; ' +
  'the account row is locked meanwhile, so concurrent starts create one merchant. ';
const TOS = 'Terms of service: one live acceptance per company (who, when, IP, user agent, version); withdrawals are kept. ';

@ApiTags('Merchant onboarding')
@Controller('api/v1/psp/onboarding')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  // ------------------------------------------------------------ complete

  @Get('complete')
  @Access('CO')
  @Endpoint({ summary: 'Merchant onboarding state (read only; no provider call)', description: STATES, type: MerchantOnboardingDto })
  completeState(@CurrentScope() scope: Scope) {
    return this.onboarding.state(scope);
  }

  @Post('complete')
  @Access('CO')
  @Endpoint({
    summary: "The provider's return URL: start onboarding if needed, re-check the merchant's status with the provider and record it",
    description: STATES + START + 'Then the provider\'s status is recorded (`pending`, `approved` or `rejected`; a cancelled account the provider still has pending stays cancelled). Event `merchant_account.state_changed` on every move.',
    type: MerchantOnboardingDto,
    codes: { 409: ['TERMS_NOT_ACCEPTED'], 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] },
  })
  complete(@CurrentActor() actor: Actor) {
    return this.onboarding.complete(actor);
  }

  @Put('complete')
  @Access('CO')
  @Endpoint({
    summary: 'Start (or resume) onboarding: create the merchant with the provider and answer its onboarding URL',
    description: STATES + START + 'Idempotent: a pending, approved or rejected account is answered as it is (no new merchant); a cancelled one gets a new merchant and link.',
    type: MerchantOnboardingDto,
    codes: { 409: ['TERMS_NOT_ACCEPTED'], 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] },
  })
  start(@CurrentActor() actor: Actor) {
    return this.onboarding.start(actor);
  }

  @Patch('complete')
  @Access('CO')
  @Endpoint({
    summary: "Re-check the merchant's status with the provider and record it (never creates a merchant)",
    description: STATES + '409 `ONBOARDING_NOT_STARTED` while no merchant exists (PUT complete starts one).',
    type: MerchantOnboardingDto,
    codes: { 409: ['ONBOARDING_NOT_STARTED'], 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] },
  })
  recheck(@CurrentActor() actor: Actor) {
    return this.onboarding.recheck(actor);
  }

  @Delete('complete')
  @Access('CO')
  @Endpoint({
    summary: 'Restart onboarding: back to not_started, forgetting the merchant reference and link',
    description: STATES + 'The next PUT/POST complete creates a new merchant. An approved account cannot be restarted (409 `INVALID_TRANSITION`); not_started is answered as it is.',
    type: MerchantOnboardingDto,
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  restart(@CurrentActor() actor: Actor) {
    return this.onboarding.restart(actor);
  }

  @Options('complete')
  @Access('CO')
  @AllowOptions('/psp/onboarding/complete')
  completeOptions() {
    return undefined;
  }

  // ------------------------------------------------------------ cancel

  @Get('cancel')
  @Access('CO')
  @Endpoint({ summary: 'Merchant onboarding state, as the refresh/abandon page shows it (read only)', description: STATES, type: MerchantOnboardingDto })
  cancelState(@CurrentScope() scope: Scope) {
    return this.onboarding.state(scope);
  }

  @Post('cancel')
  @Access('CO')
  @Endpoint({
    summary: 'The refresh/abandon URL: cancel onboarding (pending → cancelled)',
    description: STATES + 'Optional `reason`. Already cancelled: only the reason is updated. Other states: 409 `INVALID_TRANSITION`. Event `merchant_account.state_changed`.',
    type: MerchantOnboardingDto,
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  cancel(@CurrentActor() actor: Actor, @Body() dto: CancelOnboardingDto) {
    return this.onboarding.cancel(actor, dto);
  }

  @Put('cancel')
  @Access('CO')
  @Endpoint({ summary: 'Cancel onboarding (idempotent form of POST cancel)', description: STATES + 'Same effect as POST cancel: pending → cancelled, or the reason of a cancelled account replaced; other states 409 `INVALID_TRANSITION`.', type: MerchantOnboardingDto, codes: { 409: ['INVALID_TRANSITION'] } })
  cancelPut(@CurrentActor() actor: Actor, @Body() dto: CancelOnboardingDto) {
    return this.onboarding.cancel(actor, dto);
  }

  @Patch('cancel')
  @Access('CO')
  @Endpoint({ summary: 'Cancel onboarding, or update the reason of the cancellation', description: STATES + 'Same effect as POST cancel; on a cancelled account only the given `reason` changes. Other states 409 `INVALID_TRANSITION`.', type: MerchantOnboardingDto, codes: { 409: ['INVALID_TRANSITION'] } })
  cancelPatch(@CurrentActor() actor: Actor, @Body() dto: CancelOnboardingDto) {
    return this.onboarding.cancel(actor, dto);
  }

  @Delete('cancel')
  @Access('CO')
  @Endpoint({ summary: 'Withdraw the cancellation: cancelled → pending, with the same merchant and a fresh onboarding URL', description: STATES + 'Other states: 409 `INVALID_TRANSITION`. Event `merchant_account.state_changed`.', type: MerchantOnboardingDto, codes: { 409: ['INVALID_TRANSITION'], 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] } })
  resume(@CurrentActor() actor: Actor) {
    return this.onboarding.resume(actor);
  }

  @Options('cancel')
  @Access('CO')
  @AllowOptions('/psp/onboarding/cancel')
  cancelOptions() {
    return undefined;
  }

  // ------------------------------------------------------------ fee_details

  @Get('fee_details')
  @Access('CO')
  @Endpoint({ summary: "The platform's fees and the company's payout schedule", description: 'Fees are the platform\'s configuration: card payments a percentage (the platform\'s default, or the company\'s own set by a platform administrator) plus a fixed amount, offline payments and refunds free.', type: FeeDetailsDto })
  fees(@CurrentScope() scope: Scope) {
    return this.onboarding.feeDetails(scope);
  }

  @Post('fee_details')
  @Access('CO')
  @Endpoint({ summary: 'Quote the platform fee on a payment (nothing is saved)', description: 'Body `amount` (minor units, ≥ 1) and `method` (`card` by default, or `offline`): the fee (percentage half up plus the fixed amount, at most the amount) and what the company receives.', type: FeeQuoteDto })
  quote(@CurrentScope() scope: Scope, @Body() dto: FeeQuoteInputDto) {
    return this.onboarding.quote(scope, dto);
  }

  @Put('fee_details')
  @Access('CO')
  @Endpoint({ summary: 'Set the payout schedule the company prefers', description: '`payout_schedule` (daily, weekly, monthly) is required. Event `merchant_account.payout_schedule_changed` when it changes.', type: FeeDetailsDto })
  setPayout(@CurrentActor() actor: Actor, @Body() dto: PayoutScheduleDto) {
    return this.onboarding.setPayoutSchedule(actor, dto);
  }

  @Patch('fee_details')
  @Access('CO')
  @Endpoint({ summary: 'Update the payout schedule (fields optional)', description: 'As PUT, `payout_schedule` optional: an empty body changes nothing.', type: FeeDetailsDto })
  patchPayout(@CurrentActor() actor: Actor, @Body() dto: UpdatePayoutScheduleDto) {
    return this.onboarding.setPayoutSchedule(actor, dto);
  }

  @Delete('fee_details')
  @Access('CO')
  @Endpoint({ summary: 'Reset the payout schedule to the default (weekly)', type: FeeDetailsDto })
  resetPayout(@CurrentActor() actor: Actor) {
    return this.onboarding.setPayoutSchedule(actor, null);
  }

  @Options('fee_details')
  @Access('CO')
  @AllowOptions('/psp/onboarding/fee_details')
  feeOptions() {
    return undefined;
  }

  // ------------------------------------------------------------ tos

  @Get('tos')
  @Access('CO')
  @Endpoint({ summary: 'The current merchant terms and the company\'s acceptance', description: TOS, type: TermsDto })
  terms(@CurrentScope() scope: Scope) {
    return this.onboarding.terms(scope);
  }

  @Post('tos')
  @Access('CO')
  @Endpoint({
    summary: 'Accept the current merchant terms (who, when, IP)',
    description: TOS + '`version` must be the `current_version` (422 `TERMS_VERSION_OUTDATED`). A live acceptance of the current version is kept as it is; one of an older version is withdrawn and replaced. Event `merchant_terms.accepted`.',
    type: TermsDto,
    codes: { 422: ['TERMS_VERSION_OUTDATED'] },
  })
  accept(@CurrentActor() actor: Actor, @Body() dto: AcceptTermsDto, @CurrentClient() client: ClientInfo) {
    return this.onboarding.acceptTerms(actor, dto, client);
  }

  @Put('tos')
  @Access('CO')
  @Endpoint({ summary: 'Accept the current merchant terms (same as POST)', description: TOS + 'Same effect as POST tos.', type: TermsDto, codes: { 422: ['TERMS_VERSION_OUTDATED'] } })
  acceptPut(@CurrentActor() actor: Actor, @Body() dto: AcceptTermsDto, @CurrentClient() client: ClientInfo) {
    return this.onboarding.acceptTerms(actor, dto, client);
  }

  @Patch('tos')
  @Access('CO')
  @Endpoint({ summary: 'Accept the current merchant terms (same as POST)', description: TOS + 'Same effect as POST tos.', type: TermsDto, codes: { 422: ['TERMS_VERSION_OUTDATED'] } })
  acceptPatch(@CurrentActor() actor: Actor, @Body() dto: AcceptTermsDto, @CurrentClient() client: ClientInfo) {
    return this.onboarding.acceptTerms(actor, dto, client);
  }

  @Delete('tos')
  @Access('CO')
  @Endpoint({ summary: 'Withdraw the acceptance of the merchant terms', description: TOS + 'The acceptance is kept with who withdrew it and when; none live: answered as it is. Onboarding already started is not undone, but a new start needs a new acceptance. Event `merchant_terms.withdrawn`.', type: TermsDto })
  withdraw(@CurrentActor() actor: Actor) {
    return this.onboarding.withdrawTerms(actor);
  }

  @Options('tos')
  @Access('CO')
  @AllowOptions('/psp/onboarding/tos')
  tosOptions() {
    return undefined;
  }
}
