import { HttpStatus, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../../common/access/actor';
import { Scope, SystemReach } from '../../../common/access/scope';
import type { PlatformReach } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { UnitOfWork } from '../../../database/unit-of-work';
import { PlanLimits } from '../../../common/records/plan-limits';
import { FIRST_CHECK_MS, isUnknownOutcome, nextCheck, type Answered, type ProviderOutcome } from '../ledger/ledger.service';
import { PaymentProvider, UnknownInstrumentToken, type RefundInput } from '../provider/payment-provider';
import { Plan, Subscription } from './subscription.entities';
import { type PendingFirstChargeRow, SubscriptionRepository } from './subscription.repository';
import { PlanDto, SubscribeDto, SubscriptionDto } from './subscriptions.dto';

/** The plan every company has without a subscription (seeded by migration 1764300004000). */
export const FREE_PLAN = 'free';

/** The provider's idempotency key of a subscription's first charge (also in the charge's metadata: the webhook and the reconciler find it by it). */
export const firstChargeKey = (subscriptionId: string) => `subscription:${subscriptionId}:period:1`;

const subscriptionPending = () => ApiError.conflict('SUBSCRIPTION_PENDING', "The company's subscribe is still waiting for the payment provider's outcome; wait for it to settle.");

/** A pending first subscription charge claimed by the reconciler. */
export type PendingFirstCharge = PendingFirstChargeRow;

export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
export const addMonth = (d: Date) => {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + 1);
  return r;
};

/** Why a subscription in force is over at `now` (null: still in force): trial or cancelled period ended, grace period ran out. */
export function overReason(s: Subscription, now: Date): 'trial_ended' | 'cancel_at_period_end' | 'grace_expired' | null {
  if (s.state === 'cancelled') return null;
  if (s.state === 'trialing' && s.currentPeriodEnd <= now) return 'trial_ended';
  if (s.cancelAtPeriodEnd && s.currentPeriodEnd <= now) return 'cancel_at_period_end';
  if (s.state === 'past_due' && s.graceEndsAt && s.graceEndsAt <= now) return 'grace_expired';
  return null;
}

/**
 * Ends a subscription (state `cancelled`, the free plan's limits from now) and records
 * `subscription.cancelled` with the reason, in the open unit. The row must be locked (or just read in a writing unit).
 */
export async function endSubscription(subscriptions: SubscriptionRepository, row: Subscription, plan: Plan, reason: 'trial_ended' | 'cancel_at_period_end' | 'grace_expired' | 'cancelled_past_due', now: Date, actorId: string | null = null): Promise<void> {
  const endedAt = reason === 'grace_expired' ? (row.graceEndsAt ?? now) : reason === 'cancelled_past_due' ? now : row.currentPeriodEnd;
  Object.assign(row, { state: 'cancelled', cancelledAt: row.cancelledAt ?? endedAt, nextActionAt: endedAt });
  await subscriptions.save(row);
  await subscriptions.recordEvents({ type: 'subscription.cancelled', aggregateType: 'subscription', aggregateId: row.id, companyId: row.companyId, actorId, payload: { plan: plan.code, reason, period_end: row.currentPeriodEnd.toISOString() } });
}

/**
 * Plans, a company's subscription (trial, first period charged through the provider, cancel at period
 * end) and the source of the company's plan limits (registered in PlanLimits). Periods end through the
 * renewal job (SubscriptionRenewals); until it has run, a subscription that is over (`overReason`) is read
 * as the free plan, and a write path (trial, subscribe) ends it first.
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit {
  private readonly logger = new Logger('Subscriptions');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly provider: PaymentProvider,
    private readonly limits: PlanLimits,
  ) {}

  onModuleInit(): void {
    // Read in the creating module's open unit, which the repository joins.
    this.limits.register(async (company, resource) => {
      const plan = await this.planInForce(company);
      const limit = resource === 'drivers' ? plan.maxDrivers : resource === 'assets' ? plan.maxAssets : plan.maxMonthlyOrders;
      return { limit, plan: plan.code };
    });
  }

  async plans(): Promise<PlanDto[]> {
    return (await this.subscriptions.plans()).map(PlanDto.of);
  }

  /** Reports (admin dashboard): the subscriptions an administrator reaches, live and cancelled, per plan and state. One statement. */
  async planStates(reach: PlatformReach): Promise<{ plan: string; state: string; count: number }[]> {
    const rows = await this.subscriptions.planStates(reach);
    return rows.map((r) => ({ plan: r.plan, state: r.state, count: Number(r.n) }));
  }

  /** Reports (companies report): each company's live subscription (plan code and state); companies without one are left out (free plan). */
  async livePlansOf(reach: PlatformReach, companyIds: readonly string[]): Promise<Map<string, { plan: string; state: string }>> {
    if (!companyIds.length) return new Map();
    const rows = await this.subscriptions.livePlansOf(reach, companyIds);
    return new Map(rows.map((r) => [r.company_id, { plan: r.plan, state: r.state }]));
  }

  async current(scope: Scope): Promise<SubscriptionDto> {
    const live = await this.live(scope);
    if (!live) return SubscriptionDto.free(await this.plan(FREE_PLAN));
    return SubscriptionDto.of(live, await this.planOf(live));
  }

  async startTrial(actor: Actor, scope: Scope, code: string): Promise<SubscriptionDto> {
    const companyId = scope.companyId;
    return this.uow.transaction(async () => {
      const plan = await this.plan(code);
      if (plan.price === 0 || plan.trialDays === 0) throw ApiError.conflict('PLAN_NOT_PURCHASABLE', `The ${plan.code} plan has no trial.`);
      await this.subscriptions.lockCompany(scope);
      if (await this.subscriptions.hadTrial(scope)) throw ApiError.conflict('TRIAL_USED', 'The company has already had its trial.');
      if (await this.subscriptions.hasPending(scope)) throw subscriptionPending();
      if (await this.live(scope)) throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
      const now = new Date();
      const row = await this.subscriptions.create(
        scope,
        { planId: plan.id, state: 'trialing', isTrial: true, amount: 0, currency: plan.currency, currentPeriodStart: now, currentPeriodEnd: addDays(now, plan.trialDays), nextActionAt: addDays(now, plan.trialDays), cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: null, createdBy: actor.id },
      );
      await this.subscriptions.recordEvents({ type: 'subscription.trial_started', aggregateType: 'subscription', aggregateId: row.id, companyId, actorId: actor.id, payload: { plan: plan.code, period_end: row.currentPeriodEnd.toISOString() } });
      return SubscriptionDto.of(row, plan);
    });
  }

  /**
   * Subscribes and charges the first month with the company's card (a trial or a past_due subscription in
   * force is replaced: subscribing again with another card is how a past_due company pays). The card is
   * kept (provider references) for the renewals. Reserve → call → settle (issue #22): the checks, then the
   * buyer and card at the provider, then a `pending` subscription with its `pending` first charge (our key
   * `subscription:<id>:period:1`) committed, the charge asked with no transaction open, and the outcome
   * settled in a new short transaction (`settleFirstCharge`, the one path the webhook and the reconciler
   * take too). The provider not answering (timeout, lost answer, its 5xx) or still processing: 202 with the
   * `pending` subscription, which the webhook or the reconciler settles later. A declined charge is 409
   * `PAYMENT_FAILED` with the failure code, and the pending subscription is dropped (nothing kept).
   */
  async subscribe(actor: Actor, scope: Scope, code: string, dto: SubscribeDto): Promise<Answered<SubscriptionDto>> {
    const companyId = scope.companyId;
    // 1. The checks, in a short transaction (issue #22: nothing is held while the provider answers).
    const plan = await this.uow.transaction(async () => {
      const found = await this.plan(code);
      if (found.price === 0) throw ApiError.conflict('PLAN_NOT_PURCHASABLE', `The ${found.code} plan needs no subscription.`);
      await this.subscriptions.lockCompany(scope);
      await this.assertMaySubscribe(scope);
      return found;
    });
    // 2. The buyer and the card at the provider, with no transaction open (nothing is charged yet).
    const buyer = await this.provider.createBuyer({ userId: actor.id });
    const card = await this.provider.attachInstrument(dto.token, buyer.reference).catch((e: unknown) => {
      if (e instanceof UnknownInstrumentToken) throw ApiError.unprocessable('INVALID_PAYMENT_TOKEN', 'The payment token is not valid.', { token: ['is not a valid payment token'] });
      throw e;
    });
    // 3. Reserved: the pending subscription and its pending first charge, committed, the company locked again.
    const id = randomUUID();
    const key = firstChargeKey(id);
    await this.uow.transaction(async () => {
      await this.subscriptions.lockCompany(scope);
      await this.assertMaySubscribe(scope);
      const now = new Date();
      await this.subscriptions.create(
        scope,
        { id, planId: plan.id, state: 'pending', isTrial: false, amount: plan.price, currency: plan.currency, currentPeriodStart: now, currentPeriodEnd: addMonth(now), nextActionAt: addMonth(now), cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: null, buyerReference: buyer.reference, instrumentReference: card.reference, createdBy: actor.id },
      );
      await this.subscriptions.insertCharge(scope, { subscriptionId: id, periodNumber: 1, attempt: 1, amount: plan.price, currency: plan.currency, status: 'pending', providerReference: null, failureCode: null, idempotencyKey: key, nextCheckAt: new Date(now.getTime() + FIRST_CHECK_MS), checkAttempts: 0 });
    });
    // 4. The first month at the provider, with no transaction open.
    let outcome: ProviderOutcome;
    try {
      const r = await this.provider.chargeAllowingPending({ amount: plan.price, currency: plan.currency, buyerRef: buyer.reference, instrumentRef: card.reference, merchantRef: null, idempotencyKey: key, description: `${plan.name} plan, first month` });
      outcome = { status: r.status, reference: r.reference, failureCode: r.failureCode ?? null };
    } catch (e) {
      if (!isUnknownOutcome(e)) {
        // The provider refused the request itself: nothing was charged.
        await this.settleFirstCharge(id, { status: 'failed', reference: null, failureCode: 'provider_error' }, actor.id);
        throw e;
      }
      this.logger.warn({ msg: 'first subscription charge: provider outcome unknown, the subscription stays pending', subscription_id: id, company_id: companyId, error: e instanceof Error ? e.message : String(e) });
      outcome = { status: 'unknown', reference: null };
    }
    // 5. Settled in a new short transaction (unless the webhook did it first); the answer is the subscription as it now is.
    if (outcome.status !== 'unknown') await this.settleFirstCharge(id, outcome, actor.id);
    const settled = await this.subscriptions.findById(scope, id);
    if (settled?.state === 'pending') return { status: 202, body: SubscriptionDto.of(settled, plan) };
    if (settled?.state === 'active') return { status: 201, body: SubscriptionDto.of(settled, plan) };
    if (!settled) {
      const failure = outcome.failureCode ?? 'card_declined';
      throw new ApiError(HttpStatus.CONFLICT, 'PAYMENT_FAILED', `The card was declined (${failure}).`, { token: [failure] });
    }
    // Superseded: another subscription became active meanwhile; this charge was refunded.
    throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
  }

  /**
   * Settles a pending first charge with the provider's word, in its own short transaction (`applyFirstCharge`);
   * a charge made for a subscription that lost to another is refunded after it commits, with no transaction open.
   */
  async settleFirstCharge(subscriptionId: string, outcome: ProviderOutcome, actorId: string | null): Promise<boolean> {
    const { changed, refund } = await this.uow.transaction(() => this.applyFirstCharge(subscriptionId, outcome, actorId));
    if (refund) {
      const r = await this.provider.refund(refund).catch((e: unknown) => ({ status: 'failed' as const, reference: '', failureCode: e instanceof Error ? e.message : String(e) }));
      if (r.status !== 'succeeded') this.logger.error({ msg: 'first subscription charge of a subscription that lost to another could not be refunded: to be refunded by a person', subscription_id: subscriptionId, charge_reference: refund.chargeRef, failure: r.failureCode });
    }
    return changed;
  }

  /**
   * The one settling path of a first subscription charge (the subscribe, the provider's webhook, the
   * reconciler), exactly once: the company's subscription lock, then the subscription, changed only while
   * still `pending`. Succeeded → its charge succeeded, the subscription `active` from now for a month (a
   * trial or past_due one in force replaced), `subscription.activated`, exactly as a subscribe answered at
   * once; if an active subscription won meanwhile it is `cancelled` and the charge is to be refunded (returned).
   * Failed (declined, or not charged at all) → the pending subscription and its charge are dropped: the
   * company stays on its plan and may subscribe again. `pending` (the provider still processing) keeps
   * the reference; `unknown` changes nothing. Runs in the caller's unit.
   */
  async applyFirstCharge(subscriptionId: string, outcome: ProviderOutcome, actorId: string | null): Promise<{ changed: boolean; refund: RefundInput | null }> {
    const none = { changed: false, refund: null };
    if (outcome.status === 'unknown') return none;
    if (outcome.status === 'pending' && !outcome.reference) return none;
    // Its company, before any lock (the subscribe, the provider's webhook or the reconciler name the subscription alone).
    const companyId = await this.subscriptions.companyOf(SystemReach.of('a first subscription charge settled by its subscription id'), subscriptionId);
    if (!companyId) return none; // gone (dropped): nothing to keep or settle, as its charge went with it
    const company = Scope.company(companyId);
    if (outcome.status === 'pending') {
      await this.subscriptions.keepPendingReference(company, firstChargeKey(subscriptionId), outcome.reference!);
      return none;
    }
    await this.subscriptions.lockCompany(company);
    const row = await this.subscriptions.lockById(company, subscriptionId);
    if (!row || row.state !== 'pending') return none;
    if (outcome.status === 'failed') {
      await this.subscriptions.delete(company, row.id); // its pending charge goes with it (ON DELETE CASCADE)
      this.logger.log({ msg: 'pending subscription dropped: its first charge failed', subscription_id: row.id, company_id: row.companyId, failure_code: outcome.failureCode ?? null });
      return { changed: true, refund: null };
    }
    const reference = outcome.reference ?? '';
    await this.subscriptions.updateChargeByKey(company, firstChargeKey(row.id), { status: 'succeeded', providerReference: reference, failureCode: null, nextCheckAt: null });
    const plan = await this.planOf(row);
    const live = await this.live(company);
    if (live && live.state === 'active') {
      Object.assign(row, { state: 'cancelled', cancelledAt: new Date(), chargeReference: reference });
      await this.subscriptions.save(row);
      return { changed: true, refund: { chargeRef: reference, amount: row.amount, idempotencyKey: `refund:subscription:${row.id}` } };
    }
    if (live) {
      Object.assign(live, { state: 'cancelled', cancelledAt: new Date() });
      await this.subscriptions.save(live);
    }
    const now = new Date();
    Object.assign(row, { state: 'active', currentPeriodStart: now, currentPeriodEnd: addMonth(now), nextActionAt: addMonth(now), chargeReference: reference });
    await this.subscriptions.save(row);
    await this.subscriptions.recordEvents({
      type: 'subscription.activated',
      aggregateType: 'subscription',
      aggregateId: row.id,
      companyId: row.companyId,
      actorId,
      payload: { plan: plan.code, amount: row.amount, currency: row.currency, charge_reference: reference, period_end: row.currentPeriodEnd.toISOString(), replaced_trial_id: live?.id ?? null },
    });
    return { changed: true, refund: null };
  }

  /**
   * The provider's word on a charge (inbound webhook `charge.succeeded` / `charge.failed`, Stripe's
   * `payment_intent.*`) that no ledger row matched: the pending first subscription charge with this
   * reference or our key (`metadata.idempotency_key`) is settled (`applyFirstCharge`, in the webhook's
   * unit). A refund due (a subscription that lost to another) cannot be made inside it: logged for
   * a person. Returns the subscriptions changed.
   */
  async applyProviderCharge(providerRef: string, status: 'succeeded' | 'failed', failureCode: string | null, key: string | null): Promise<number> {
    const found = await this.subscriptions.pendingChargeSubscriptions(SystemReach.of("the provider's word on a first subscription charge, found by its reference or our key"), providerRef, key);
    let n = 0;
    for (const subscriptionId of found) {
      const { changed, refund } = await this.applyFirstCharge(subscriptionId, { status, reference: providerRef, failureCode }, null);
      if (refund) this.logger.error({ msg: 'first subscription charge of a subscription that lost to another, settled by the webhook: to be refunded by a person', subscription_id: subscriptionId, charge_reference: refund.chargeRef });
      if (changed) n++;
    }
    return n;
  }

  /**
   * For the reconciler (PaymentReconciler): the next pending first subscription charge whose check has
   * come, claimed (`FOR UPDATE SKIP LOCKED`, `check_attempts` + 1, `next_check_at` pushed back with the
   * ledger's backoff), with what the provider lookup needs.
   */
  claimPendingFirstCharge(now: Date): Promise<PendingFirstCharge | null> {
    return this.uow.transaction(async () => {
      const row = await this.subscriptions.lockNextPendingCheck(SystemReach.of('the reconciler: pending first subscription charges of every company'), now);
      if (!row) return null;
      await this.subscriptions.countCheck(Scope.company(row.company_id), row.id, nextCheck(now, Number(row.check_attempts) + 1));
      return row;
    });
  }

  /** Pending first subscription charges of every company reserved before `before` (the reconciler's overdue alert). */
  async pendingFirstChargesBefore(before: Date): Promise<number> {
    return this.subscriptions.pendingChargesBefore(SystemReach.of("the reconciler's alert: pending first subscription charges of every company"), before);
  }

  /** Cancels at the end of the period (the plan stays in force until then); asking again answers the same. */
  async cancel(actor: Actor, scope: Scope, id: string): Promise<SubscriptionDto> {
    return this.uow.transaction(async () => {
      const row = await this.subscriptions.lockScoped(Scope.company(scope.companyId), id);
      const plan = await this.planOf(row);
      if (row.state === 'cancelled') throw ApiError.invalidTransition('cancelled', 'cancelled', 'Subscription');
      if (row.state === 'pending') throw subscriptionPending();
      if (row.cancelAtPeriodEnd) return SubscriptionDto.of(row, plan);
      // A past_due subscription's period has already ended: cancelling it ends it now (the free plan).
      if (row.state === 'past_due') {
        row.cancelAtPeriodEnd = true;
        await endSubscription(this.subscriptions, row, plan, 'cancelled_past_due', new Date(), actor.id);
        return SubscriptionDto.of(row, plan);
      }
      Object.assign(row, { cancelAtPeriodEnd: true, cancelledAt: new Date() });
      await this.subscriptions.save(row);
      await this.subscriptions.recordEvents({ type: 'subscription.cancel_scheduled', aggregateType: 'subscription', aggregateId: row.id, companyId: scope.companyId, actorId: actor.id, payload: { plan: plan.code, period_end: row.currentPeriodEnd.toISOString() } });
      return SubscriptionDto.of(row, plan);
    });
  }

  // ------------------------------------------------------------------ helpers

  private async plan(code: string): Promise<Plan> {
    const plan = await this.subscriptions.planByCode(code);
    if (!plan) throw ApiError.notFound('Plan');
    return plan;
  }

  /** The plan of a subscription (its foreign key keeps it). */
  private async planOf(s: Subscription): Promise<Plan> {
    const plan = await this.subscriptions.planById(s.planId);
    if (!plan) throw new Error(`The plan ${s.planId} of subscription ${s.id} is missing`);
    return plan;
  }

  /** 409 unless the (locked) company may subscribe: no subscribe pending, no active subscription (a trial or past_due one is replaced). */
  private async assertMaySubscribe(scope: Scope): Promise<void> {
    if (await this.subscriptions.hasPending(scope)) throw subscriptionPending();
    const live = await this.live(scope);
    if (live && live.state === 'active') throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
  }

  /**
   * The company's live subscription, or null. One that is over (`overReason`: trial or cancelled period
   * ended, grace period run out) is read as none; on a write path it is ended first, as the renewal job
   * would (`subscription.cancelled`).
   */
  private async live(scope: Scope): Promise<Subscription | null> {
    const row = await this.subscriptions.live(scope);
    if (!row) return null;
    const now = new Date();
    const reason = overReason(row, now);
    if (!reason) return row;
    if (this.uow.active) await endSubscription(this.subscriptions, row, await this.planOf(row), reason, now);
    return null;
  }

  /** Whether a plan with this code exists (platform administration checks a plan override with it). */
  async planExists(code: string): Promise<boolean> {
    return this.subscriptions.planExists(code);
  }

  /**
   * The plan whose limits the company has now: the plan override an administrator set (companies'
   * `plan_override`, README "Platform administration"), else the subscription's, else the free plan.
   */
  private async planInForce(scope: Scope): Promise<Plan> {
    // One statement: the free plan, the plan an administrator forces on the company, and the plan of the
    // live subscription with what says whether it is over.
    const { plans: entities, rows: raw } = await this.subscriptions.plansInForce(scope, FREE_PLAN);
    const forced = raw.find((r) => r.p_forced);
    if (forced) return entities.find((p) => p.id === forced.p_id)!;
    const sub = raw.find((r) => r.s_id);
    const live = sub && Object.assign(new Subscription(), { state: sub.s_state!, currentPeriodEnd: new Date(sub.s_end!), cancelAtPeriodEnd: !!sub.s_cancel, graceEndsAt: sub.s_grace && new Date(sub.s_grace) });
    const plan = live && !overReason(live, new Date()) ? entities.find((p) => p.id === sub.p_id) : entities.find((p) => p.code === FREE_PLAN);
    if (!plan) throw new Error('The free plan is missing (migration 1764300004000 seeds it)');
    return plan;
  }
}
