import { Injectable } from '@nestjs/common';
import type { Actor } from '../../../common/access/actor';
import { Scope, SystemReach } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import type { MerchantStateReason } from '../events';
import { isUniqueViolation } from '../../../database/pg-errors';
import { PaymentProvider, type MerchantCreated, type MerchantStatus } from '../provider/payment-provider';
import type { MerchantAccount, MerchantState, PayoutSchedule } from './merchant-account.entity';
import { MerchantAccountRepository } from './merchant-account.repository';
import { MerchantReadiness } from './merchant-readiness';
import { AcceptTermsDto, CancelOnboardingDto, FeeDetailsDto, FeeQuoteDto, FeeQuoteInputDto, MerchantOnboardingDto, TermsAcceptanceDto, TermsDto, UpdatePayoutScheduleDto } from './onboarding.dto';
import { MERCHANT_TERMS, PLATFORM_FEES, PlatformFees } from './platform-fees';
import { PAYOUT_SCHEDULES } from './merchant-account.entity';
import { UnitOfWork } from '../../../database/unit-of-work';
import { CompaniesService } from '../../companies';

/** Who accepts terms, and from where. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

const DEFAULT_PAYOUT: PayoutSchedule = 'weekly';

/** A provider call planned under the account's lock, made with none held; `run` answers how to apply its answer (false: the account moved meanwhile). */
interface ProviderStep {
  run(): Promise<(a: MerchantAccount) => Promise<boolean>>;
}
const providerStep = <T>(call: () => Promise<T>, apply: (a: MerchantAccount, answer: T) => Promise<boolean>): ProviderStep => ({
  run: async () => {
    const answer = await call();
    return (a) => apply(a, answer);
  },
});
const LIVE_ACCEPTANCE = 'uq_merchant_terms_acceptances_live';

const termsNotAccepted = () =>
  ApiError.conflict('TERMS_NOT_ACCEPTED', `Accept the merchant terms (version ${MERCHANT_TERMS.version}) first: PUT /api/v1/psp/onboarding/tos.`);
const notStarted = () => ApiError.conflict('ONBOARDING_NOT_STARTED', 'Merchant onboarding has not started: PUT /api/v1/psp/onboarding/complete starts it.');

/**
 * Merchant onboarding (issue #13): a company's merchant account with the payment provider, its terms
 * acceptances and fee details. One row per company in `merchant_accounts`, created `not_started` by
 * the first write and locked (FOR UPDATE) by every state change, so concurrent starts create one
 * merchant with the provider and concurrent moves serialise. Every move records
 * `merchant_account.state_changed` in the same transaction.
 */
@Injectable()
export class OnboardingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: MerchantAccountRepository,
    private readonly provider: PaymentProvider,
    private readonly readiness: MerchantReadiness,
    private readonly fees: PlatformFees,
    private readonly companies: CompaniesService,
  ) {}

  // ------------------------------------------------------------ reads

  async state(scope: Scope): Promise<MerchantOnboardingDto> {
    return this.view(scope);
  }

  private async view(scope: Scope): Promise<MerchantOnboardingDto> {
    const account = await this.accounts.find(scope);
    const live = await this.accounts.liveAcceptance(scope);
    return MerchantOnboardingDto.of(account, { cardReady: await this.readiness.isCardReady(scope), termsAccepted: live?.version === MERCHANT_TERMS.version });
  }

  // ------------------------------------------------------------ complete (start, return URL, re-check, restart)

  /**
   * PUT complete: starts onboarding (creates the merchant with the provider) when there is none
   * (not_started) or it was abandoned for good (cancelled: a new merchant and link); answers the state
   * with its onboarding URL. A pending account gets a fresh link for the same merchant (links expire);
   * approved and rejected accounts are answered as they are.
   */
  async start(actor: Actor): Promise<MerchantOnboardingDto> {
    const scope = Scope.of(actor);
    return this.stepped(scope, async (a) => {
      if (a.state === 'pending' && a.providerReference) {
        const ref = a.providerReference;
        return providerStep(() => this.provider.onboardingLink(ref), (b, url) => this.applyLink(b, ref, url, 'pending'));
      }
      if (this.needsStart(a)) {
        await this.assertTerms(scope);
        return providerStep(() => this.provider.createMerchant(scope), (b, created) => this.applyStarted(b, actor, created));
      }
      return null;
    });
  }

  /**
   * The onboarding routes that ask the provider (issue #22: nothing held while it answers): `plan` runs
   * in a short transaction with the account locked and answers the provider call to make and how to apply
   * its answer (or null: nothing to ask); the call runs with no transaction open; `apply` runs in a new
   * transaction with the account locked again and returns false when the account moved meanwhile (another
   * request changed it), in which case it is planned again (at most three times). Answers the view.
   */
  private async stepped(scope: Scope, plan: (a: MerchantAccount) => Promise<ProviderStep | null>): Promise<MerchantOnboardingDto> {
    for (let i = 0; i < 3; i++) {
      const step = await this.uow.transaction(async () => plan(await this.accounts.lock(scope)));
      if (!step) break;
      const apply = await step.run();
      const done = await this.uow.transaction(async () => apply(await this.accounts.lock(scope)));
      if (done) break;
    }
    return this.view(scope);
  }

  private needsStart(a: MerchantAccount): boolean {
    return a.state === 'not_started' || a.state === 'cancelled';
  }

  private async assertTerms(scope: Scope): Promise<void> {
    const live = await this.accounts.liveAcceptance(scope);
    if (live?.version !== MERCHANT_TERMS.version) throw termsNotAccepted();
  }

  /** A fresh link for the merchant `ref`, if the account still has it and is in `state`. */
  private async applyLink(a: MerchantAccount, ref: string, url: string, state: MerchantState): Promise<boolean> {
    if (a.providerReference !== ref || a.state !== state) return false;
    a.onboardingUrl = url;
    await this.accounts.save(a);
    return true;
  }

  /** not_started or cancelled → pending with the merchant the provider created (if the account still needs one). */
  private async applyStarted(a: MerchantAccount, actor: Actor, created: MerchantCreated): Promise<boolean> {
    if (!this.needsStart(a)) return false;
    const from = a.state;
    Object.assign(a, {
      state: 'pending',
      provider: this.provider.name,
      providerReference: created.reference,
      onboardingUrl: created.onboardingUrl,
      startedAt: new Date(),
      approvedAt: null,
      rejectedAt: null,
      cancelledAt: null,
      cancelReason: null,
    });
    await this.accounts.save(a);
    await this.moved(a, actor, from, 'started');
    return true;
  }

  /** The provider's status of merchant `ref`, recorded if the account still has it. */
  private async applyStatus(a: MerchantAccount, ref: string, status: MerchantStatus, actor: Actor): Promise<boolean> {
    if (a.providerReference !== ref) return false;
    await this.record(a, status, actor);
    return true;
  }

  /**
   * POST complete (the provider's return URL): starts onboarding if needed (as PUT), then asks the
   * provider for the merchant's status and records it (pending, approved or rejected).
   */
  async complete(actor: Actor): Promise<MerchantOnboardingDto> {
    const scope = Scope.of(actor);
    return this.stepped(scope, async (a) => {
      if (this.needsStart(a)) {
        await this.assertTerms(scope);
        return providerStep(
          async () => {
            const created = await this.provider.createMerchant(scope);
            return { created, status: await this.provider.merchantStatus(created.reference) };
          },
          async (b, r) => (await this.applyStarted(b, actor, r.created)) && this.applyStatus(b, r.created.reference, r.status, actor),
        );
      }
      const ref = a.providerReference!;
      return providerStep(() => this.provider.merchantStatus(ref), (b, status) => this.applyStatus(b, ref, status, actor));
    });
  }

  /** PATCH complete: re-checks the status with the provider; never creates a merchant (409 ONBOARDING_NOT_STARTED). */
  async recheck(actor: Actor): Promise<MerchantOnboardingDto> {
    return this.stepped(Scope.of(actor), (a) => {
      if (!a.providerReference) throw notStarted();
      const ref = a.providerReference;
      return Promise.resolve(providerStep(() => this.provider.merchantStatus(ref), (b, status) => this.applyStatus(b, ref, status, actor)));
    });
  }

  /**
   * DELETE complete: restarts onboarding: the account goes back to not_started and forgets its
   * provider reference and link (the next PUT/POST complete creates a new merchant). An approved
   * account cannot be restarted (409 INVALID_TRANSITION); not_started is answered as it is.
   */
  async restart(actor: Actor): Promise<MerchantOnboardingDto> {
    const scope = Scope.of(actor);
    return this.uow.transaction(async () => {
      const a = await this.accounts.lock(scope);
      if (a.state === 'approved') throw ApiError.invalidTransition('approved', 'not_started', 'Merchant account');
      if (a.state !== 'not_started') {
        const from = a.state;
        Object.assign(a, { state: 'not_started', provider: null, providerReference: null, onboardingUrl: null, startedAt: null, approvedAt: null, rejectedAt: null, cancelledAt: null, cancelReason: null, lastCheckedAt: null });
        await this.accounts.save(a);
        await this.moved(a, actor, from, 'restarted');
      }
      return this.view(scope);
    });
  }

  // ------------------------------------------------------------ cancel (refresh / abandon URL)

  /**
   * POST, PUT, PATCH cancel: the company abandons onboarding: pending → cancelled (with the reason);
   * already cancelled: the reason is updated, nothing else. Any other state: 409 INVALID_TRANSITION.
   */
  async cancel(actor: Actor, dto: CancelOnboardingDto): Promise<MerchantOnboardingDto> {
    const scope = Scope.of(actor);
    return this.uow.transaction(async () => {
      const a = await this.accounts.lock(scope);
      if (a.state === 'cancelled') {
        if (dto.reason !== undefined) await this.accounts.update(scope, a.id, { cancelReason: dto.reason });
      } else if (a.state === 'pending') {
        a.state = 'cancelled';
        a.cancelledAt = new Date();
        a.cancelReason = dto.reason ?? null;
        await this.accounts.save(a);
        await this.moved(a, actor, 'pending', 'cancelled');
      } else {
        throw ApiError.invalidTransition(a.state, 'cancelled', 'Merchant account');
      }
      return this.view(scope);
    });
  }

  /** DELETE cancel: undoes a cancellation: cancelled → pending, with the same merchant and a fresh link. Else 409 INVALID_TRANSITION. */
  async resume(actor: Actor): Promise<MerchantOnboardingDto> {
    return this.stepped(Scope.of(actor), (a) => {
      if (a.state !== 'cancelled') throw ApiError.invalidTransition(a.state, 'pending', 'Merchant account');
      const ref = a.providerReference!;
      return Promise.resolve(
        providerStep(
          () => this.provider.onboardingLink(ref),
          async (b, url) => {
            if (b.state !== 'cancelled' || b.providerReference !== ref) return false;
            Object.assign(b, { state: 'pending', cancelledAt: null, cancelReason: null, onboardingUrl: url });
            await this.accounts.save(b);
            await this.moved(b, actor, 'cancelled', 'resumed');
            return true;
          },
        ),
      );
    });
  }

  // ------------------------------------------------------------ terms of service

  async terms(scope: Scope): Promise<TermsDto> {
    const live = await this.accounts.liveAcceptance(scope);
    return { current_version: MERCHANT_TERMS.version, terms_url: MERCHANT_TERMS.url, accepted: live?.version === MERCHANT_TERMS.version, acceptance: live ? TermsAcceptanceDto.of(live) : null };
  }

  /**
   * POST, PUT, PATCH tos: accepts the current terms (who, when, IP, user agent). The version must be
   * the current one (422 TERMS_VERSION_OUTDATED). A live acceptance of the current version is kept as
   * it is (idempotent); one of an older version is withdrawn and replaced.
   */
  async acceptTerms(actor: Actor, dto: AcceptTermsDto, client: ClientInfo): Promise<TermsDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    if (dto.version !== MERCHANT_TERMS.version) {
      throw ApiError.unprocessable('TERMS_VERSION_OUTDATED', `The current merchant terms are version ${MERCHANT_TERMS.version}.`, { version: [`must be the current version ${MERCHANT_TERMS.version}`] });
    }
    try {
      return await this.uow.transaction(async () => {
        // The account row is the company's onboarding lock: acceptances and withdrawals serialise on it.
        await this.accounts.lock(scope);
        const live = await this.accounts.liveAcceptance(scope);
        if (live?.version === MERCHANT_TERMS.version) return this.terms(scope);
        const now = new Date();
        if (live) {
          await this.accounts.withdrawAcceptance(scope, live.id, now, actor.id);
          await this.accounts.recordEvents({ type: 'merchant_terms.withdrawn', aggregateType: 'merchant_terms_acceptance', aggregateId: live.id, companyId, actorId: actor.id, payload: { version: live.version } });
        }
        const row = await this.accounts.insertAcceptance(scope, { version: MERCHANT_TERMS.version, acceptedBy: actor.id, acceptedAt: now, ip: client.ip, userAgent: client.userAgent?.slice(0, 500) || null, withdrawnAt: null, withdrawnBy: null });
        await this.accounts.recordEvents({ type: 'merchant_terms.accepted', aggregateType: 'merchant_terms_acceptance', aggregateId: row.id, companyId, actorId: actor.id, payload: { version: row.version, ip: row.ip } });
        return this.terms(scope);
      });
    } catch (e) {
      // Only reachable if the row lock were bypassed; the unique index keeps one live acceptance.
      if (isUniqueViolation(e, LIVE_ACCEPTANCE)) throw ApiError.conflict('CONCURRENT_UPDATE', 'Concurrent update; retry the request.');
      throw e;
    }
  }

  /** DELETE tos: withdraws the live acceptance (kept, with who and when); none: answered as it is. */
  async withdrawTerms(actor: Actor): Promise<TermsDto> {
    const scope = Scope.of(actor);
    return this.uow.transaction(async () => {
      await this.accounts.lock(scope);
      const live = await this.accounts.liveAcceptance(scope);
      if (live) {
        await this.accounts.withdrawAcceptance(scope, live.id, new Date(), actor.id);
        await this.accounts.recordEvents({ type: 'merchant_terms.withdrawn', aggregateType: 'merchant_terms_acceptance', aggregateId: live.id, companyId: scope.companyId, actorId: actor.id, payload: { version: live.version } });
      }
      return this.terms(scope);
    });
  }

  // ------------------------------------------------------------ fee details

  async feeDetails(scope: Scope): Promise<FeeDetailsDto> {
    const account = await this.accounts.feeView(scope);
    return {
      currency: await this.companies.currency(scope),
      card_percent_bps: await this.fees.cardPercentBps(scope),
      card_fixed_amount: PLATFORM_FEES.cardFixedAmount,
      offline_percent_bps: PLATFORM_FEES.offlinePercentBps,
      offline_fixed_amount: PLATFORM_FEES.offlineFixedAmount,
      refund_fee_amount: PLATFORM_FEES.refundFeeAmount,
      payout_schedule: account?.payoutSchedule ?? DEFAULT_PAYOUT,
      payout_schedules: [...PAYOUT_SCHEDULES],
      merchant_state: account?.state ?? 'not_started',
    };
  }

  /** POST fee_details: what the platform would keep of a payment (nothing is saved). */
  async quote(scope: Scope, dto: FeeQuoteInputDto): Promise<FeeQuoteDto> {
    const method = dto.method ?? 'card';
    const fee = await this.fees.feeFor(scope, dto.amount, method);
    return { amount: dto.amount, method, currency: await this.companies.currency(scope), platform_fee_amount: fee, net_amount: dto.amount - fee };
  }

  /** PUT/PATCH fee_details (the payout schedule; PATCH without it changes nothing), DELETE (back to weekly). */
  async setPayoutSchedule(actor: Actor, dto: UpdatePayoutScheduleDto | null): Promise<FeeDetailsDto> {
    const scope = Scope.of(actor);
    return this.uow.transaction(async () => {
      const a = await this.accounts.lock(scope);
      const to = dto === null ? DEFAULT_PAYOUT : dto.payout_schedule;
      if (to !== undefined && to !== a.payoutSchedule) {
        const from = a.payoutSchedule;
        await this.accounts.update(scope, a.id, { payoutSchedule: to });
        await this.accounts.recordEvents({ type: 'merchant_account.payout_schedule_changed', aggregateType: 'merchant_account', aggregateId: a.id, companyId: scope.companyId, actorId: actor.id, payload: { from, to } });
      }
      return this.feeDetails(scope);
    });
  }

  // ------------------------------------------------------------ internals

  /**
   * The provider's word on a merchant (inbound webhook `merchant.updated`): the account with this
   * provider reference, locked, records the status as a re-check would (event `merchant_account.state_changed`,
   * reason `provider_check`, no actor), in the webhook's unit. Returns false when no account has this reference.
   */
  async applyProviderStatus(providerReference: string, status: 'pending' | 'approved' | 'rejected'): Promise<boolean> {
    const a = await this.accounts.lockByReference(SystemReach.of("the provider's word on a merchant, found by its reference"), providerReference);
    if (!a) return false;
    await this.record(a, status, null);
    return true;
  }

  /** Records the provider's status of the account (a move only when the state changes). */
  private async record(a: MerchantAccount, status: 'pending' | 'approved' | 'rejected', actor: Actor | null): Promise<void> {
    const now = new Date();
    a.lastCheckedAt = now;
    const from = a.state;
    // A cancelled account stays cancelled while the provider still waits; its final answer wins.
    const moves = status !== from && !(from === 'cancelled' && status === 'pending');
    if (moves) {
      a.state = status;
      if (status === 'approved') a.approvedAt = now;
      if (status === 'rejected') a.rejectedAt = now;
      if (status !== 'approved') a.approvedAt = null;
      // A cancelled account the provider now reports is back in the provider's hands.
      a.cancelledAt = null;
      a.cancelReason = null;
    }
    await this.accounts.save(a);
    if (moves) await this.moved(a, actor, from, 'provider_check');
  }

  private moved(a: MerchantAccount, actor: Actor | null, from: MerchantState, reason: MerchantStateReason) {
    return this.accounts.recordEvents({
      type: 'merchant_account.state_changed',
      aggregateType: 'merchant_account',
      aggregateId: a.id,
      companyId: a.companyId,
      actorId: actor?.id ?? null,
      payload: { from, to: a.state, reason, provider: a.provider, provider_reference: a.providerReference },
    });
  }
}
