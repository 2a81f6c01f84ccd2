import { HttpStatus, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, Not } from 'typeorm';
import type { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { findScoped } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { inTransaction } from '../../../common/idempotency/request-transaction';
import { recordEvents } from '../../../common/outbox/outbox';
import { PlanLimits } from '../../../common/records/plan-limits';
import { CompaniesService, companyPlanOverrideSql } from '../../companies';
import { PaymentProvider, UnknownInstrumentToken } from '../provider/payment-provider';
import { Plan, Subscription, SubscriptionCharge } from './subscription.entities';
import { PlanDto, SubscribeDto, SubscriptionDto } from './subscriptions.dto';

/** The plan every company has without a subscription (seeded by migration 1764300004000). */
export const FREE_PLAN = 'free';

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
 * `subscription.cancelled` with the reason. The row must be locked (or just read in a writing transaction).
 */
export async function endSubscription(m: EntityManager, row: Subscription, plan: Plan, reason: 'trial_ended' | 'cancel_at_period_end' | 'grace_expired' | 'cancelled_past_due', now: Date, actorId: string | null = null): Promise<void> {
  const endedAt = reason === 'grace_expired' ? (row.graceEndsAt ?? now) : reason === 'cancelled_past_due' ? now : row.currentPeriodEnd;
  Object.assign(row, { state: 'cancelled', cancelledAt: row.cancelledAt ?? endedAt, nextActionAt: endedAt });
  await m.save(row);
  await recordEvents(m, { type: 'subscription.cancelled', aggregateType: 'subscription', aggregateId: row.id, companyId: row.companyId, actorId, payload: { plan: plan.code, reason, period_end: row.currentPeriodEnd.toISOString() } });
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
    private readonly ds: DataSource,
    private readonly provider: PaymentProvider,
    private readonly limits: PlanLimits,
    private readonly companies: CompaniesService,
  ) {}

  onModuleInit(): void {
    this.limits.register(async (m, companyId, resource) => {
      const plan = await this.planInForce(m, companyId);
      const limit = resource === 'drivers' ? plan.maxDrivers : resource === 'assets' ? plan.maxAssets : plan.maxMonthlyOrders;
      return { limit, plan: plan.code };
    });
  }

  async plans(): Promise<PlanDto[]> {
    return (await this.ds.getRepository(Plan).find({ order: { position: 'ASC' } })).map(PlanDto.of);
  }

  /** Reports (admin dashboard): live and cancelled subscriptions per plan and state. One statement. */
  async planStates(): Promise<{ plan: string; state: string; count: number }[]> {
    const rows = await this.ds.query<{ plan: string; state: string; n: number }[]>(
      `SELECT p.code AS plan, s.state, count(*)::int AS n FROM subscriptions s JOIN plans p ON p.id = s.plan_id GROUP BY p.code, s.state ORDER BY p.code, s.state`,
    );
    return rows.map((r) => ({ plan: r.plan, state: r.state, count: Number(r.n) }));
  }

  /** Reports (companies report): each company's live subscription (plan code and state); companies without one are left out (free plan). */
  async livePlansOf(companyIds: readonly string[]): Promise<Map<string, { plan: string; state: string }>> {
    if (!companyIds.length) return new Map();
    const rows = await this.ds.query<{ company_id: string; plan: string; state: string }[]>(
      `SELECT s.company_id, p.code AS plan, s.state FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.company_id = ANY($1) AND s.state <> 'cancelled'`,
      [[...companyIds]],
    );
    return new Map(rows.map((r) => [r.company_id, { plan: r.plan, state: r.state }]));
  }

  async current(companyId: string): Promise<SubscriptionDto> {
    const m = this.ds.manager;
    const live = await this.live(m, companyId);
    if (!live) return SubscriptionDto.free(await this.plan(m, FREE_PLAN));
    return SubscriptionDto.of(live, await m.findOneByOrFail(Plan, { id: live.planId }));
  }

  async startTrial(actor: Actor, companyId: string, code: string): Promise<SubscriptionDto> {
    return inTransaction(this.ds, async (m) => {
      const plan = await this.plan(m, code);
      if (plan.price === 0 || plan.trialDays === 0) throw ApiError.conflict('PLAN_NOT_PURCHASABLE', `The ${plan.code} plan has no trial.`);
      await this.lockCompany(m, companyId);
      if (await m.exists(Subscription, { where: { companyId, isTrial: true } })) throw ApiError.conflict('TRIAL_USED', 'The company has already had its trial.');
      if (await this.live(m, companyId)) throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
      const now = new Date();
      const row = await m.save(
        m.create(Subscription, { companyId, planId: plan.id, state: 'trialing', isTrial: true, amount: 0, currency: plan.currency, currentPeriodStart: now, currentPeriodEnd: addDays(now, plan.trialDays), nextActionAt: addDays(now, plan.trialDays), cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: null, createdBy: actor.id }),
      );
      await recordEvents(m, { type: 'subscription.trial_started', aggregateType: 'subscription', aggregateId: row.id, companyId, actorId: actor.id, payload: { plan: plan.code, period_end: row.currentPeriodEnd.toISOString() } });
      return SubscriptionDto.of(row, plan);
    });
  }

  /**
   * Subscribes and charges the first month with the company's card (a trial or a past_due subscription in
   * force is replaced: subscribing again with another card is how a past_due company pays). The card is
   * kept (provider references) for the renewals. A declined charge is 409 `PAYMENT_FAILED` with the
   * failure code, and nothing is recorded.
   */
  async subscribe(actor: Actor, companyId: string, code: string, dto: SubscribeDto): Promise<SubscriptionDto> {
    // 1. The checks, in a short transaction (issue #22: nothing is held while the provider answers).
    const plan = await inTransaction(this.ds, async (m) => {
      const found = await this.plan(m, code);
      if (found.price === 0) throw ApiError.conflict('PLAN_NOT_PURCHASABLE', `The ${found.code} plan needs no subscription.`);
      await this.lockCompany(m, companyId);
      const live = await this.live(m, companyId);
      if (live && live.state === 'active') throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
      return found;
    });
    // 2. The provider: buyer, card, first month, with no transaction open.
    const id = randomUUID();
    const buyer = await this.provider.createBuyer({ userId: actor.id });
    const card = await this.provider.attachInstrument(dto.token, buyer.reference).catch((e: unknown) => {
      if (e instanceof UnknownInstrumentToken) throw ApiError.unprocessable('INVALID_PAYMENT_TOKEN', 'The payment token is not valid.', { token: ['is not a valid payment token'] });
      throw e;
    });
    const charge = await this.provider.charge({ amount: plan.price, currency: plan.currency, buyerRef: buyer.reference, instrumentRef: card.reference, merchantRef: null, idempotencyKey: `subscription:${id}:period:1`, description: `${plan.name} plan, first month` });
    if (charge.status === 'failed') {
      const failure = charge.failureCode ?? 'card_declined';
      throw new ApiError(HttpStatus.CONFLICT, 'PAYMENT_FAILED', `The card was declined (${failure}).`, { token: [failure] });
    }
    // 3. Recorded in a new transaction, the company locked again; a subscription that became active meanwhile (a concurrent subscribe) wins: this charge is refunded.
    const outcome = await inTransaction(this.ds, async (m): Promise<SubscriptionDto | null> => {
      await this.lockCompany(m, companyId);
      const live = await this.live(m, companyId);
      if (live && live.state === 'active') return null;
      if (live) {
        Object.assign(live, { state: 'cancelled', cancelledAt: new Date() });
        await m.save(live);
      }
      const now = new Date();
      const row = await m.save(
        m.create(Subscription, {
          id,
          companyId,
          planId: plan.id,
          state: 'active',
          isTrial: false,
          amount: plan.price,
          currency: plan.currency,
          currentPeriodStart: now,
          currentPeriodEnd: addMonth(now),
          nextActionAt: addMonth(now),
          cancelAtPeriodEnd: false,
          cancelledAt: null,
          chargeReference: charge.reference,
          buyerReference: buyer.reference,
          instrumentReference: card.reference,
          createdBy: actor.id,
        }),
      );
      await m.insert(SubscriptionCharge, { companyId, subscriptionId: id, periodNumber: 1, attempt: 1, amount: plan.price, currency: plan.currency, status: 'succeeded', providerReference: charge.reference, failureCode: null, idempotencyKey: `subscription:${id}:period:1` });
      await recordEvents(m, {
        type: 'subscription.activated',
        aggregateType: 'subscription',
        aggregateId: row.id,
        companyId,
        actorId: actor.id,
        payload: { plan: plan.code, amount: row.amount, currency: row.currency, charge_reference: charge.reference, period_end: row.currentPeriodEnd.toISOString(), replaced_trial_id: live?.id ?? null },
      });
      return SubscriptionDto.of(row, plan);
    });
    if (outcome) return outcome;
    const refund = await this.provider.refund({ chargeRef: charge.reference, amount: plan.price, idempotencyKey: `refund:subscription:${id}` }).catch((e: unknown) => ({ status: 'failed' as const, reference: '', failureCode: e instanceof Error ? e.message : String(e) }));
    if (refund.status !== 'succeeded') this.logger.error({ msg: 'first subscription charge of a lost concurrent subscribe could not be refunded: to be refunded by a person', company_id: companyId, charge_reference: charge.reference, failure: refund.failureCode });
    throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
  }

  /** Cancels at the end of the period (the plan stays in force until then); asking again answers the same. */
  async cancel(actor: Actor, companyId: string, id: string): Promise<SubscriptionDto> {
    return inTransaction(this.ds, async (m) => {
      const row = await findScoped(m, Subscription, Scope.company(companyId), id, { what: 'Subscription', lock: true });
      const plan = await m.findOneByOrFail(Plan, { id: row.planId });
      if (row.state === 'cancelled') throw ApiError.invalidTransition('cancelled', 'cancelled', 'Subscription');
      if (row.cancelAtPeriodEnd) return SubscriptionDto.of(row, plan);
      // A past_due subscription's period has already ended: cancelling it ends it now (the free plan).
      if (row.state === 'past_due') {
        row.cancelAtPeriodEnd = true;
        await endSubscription(m, row, plan, 'cancelled_past_due', new Date(), actor.id);
        return SubscriptionDto.of(row, plan);
      }
      Object.assign(row, { cancelAtPeriodEnd: true, cancelledAt: new Date() });
      await m.save(row);
      await recordEvents(m, { type: 'subscription.cancel_scheduled', aggregateType: 'subscription', aggregateId: row.id, companyId, actorId: actor.id, payload: { plan: plan.code, period_end: row.currentPeriodEnd.toISOString() } });
      return SubscriptionDto.of(row, plan);
    });
  }

  // ------------------------------------------------------------------ helpers

  private async plan(m: EntityManager, code: string): Promise<Plan> {
    const plan = await m.findOneBy(Plan, { code });
    if (!plan) throw ApiError.notFound('Plan');
    return plan;
  }

  /** Serialises a company's subscription changes (trial, subscribe). */
  private async lockCompany(m: EntityManager, companyId: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`subscription:${companyId}`]);
  }

  /**
   * The company's live subscription, or null. One that is over (`overReason`: trial or cancelled period
   * ended, grace period run out) is read as none; on a write path it is ended first, as the renewal job
   * would (`subscription.cancelled`).
   */
  private async live(m: EntityManager, companyId: string): Promise<Subscription | null> {
    const row = await m.findOne(Subscription, { where: { companyId, state: Not('cancelled' as const) } });
    if (!row) return null;
    const now = new Date();
    const reason = overReason(row, now);
    if (!reason) return row;
    if (m.queryRunner?.isTransactionActive) await endSubscription(m, row, await m.findOneByOrFail(Plan, { id: row.planId }), reason, now);
    return null;
  }

  /** Whether a plan with this code exists (platform administration checks a plan override with it). */
  async planExists(code: string): Promise<boolean> {
    return this.ds.getRepository(Plan).existsBy({ code });
  }

  /**
   * The plan whose limits the company has now: the plan override an administrator set (companies'
   * `plan_override`, README "Platform administration"), else the subscription's, else the free plan.
   */
  private async planInForce(m: EntityManager, companyId: string): Promise<Plan> {
    // One statement: the free plan, the plan an administrator forces on the company, and the plan of the
    // live subscription with what says whether it is over.
    const { entities, raw } = await m
      .createQueryBuilder(Plan, 'p')
      .leftJoin(Subscription, 's', `s.plan_id = p.id AND s.company_id = :companyId AND s.state <> 'cancelled'`, { companyId })
      .addSelect(['s.id AS s_id', 's.state AS s_state', 's.current_period_end AS s_end', 's.cancel_at_period_end AS s_cancel', 's.grace_ends_at AS s_grace'])
      .addSelect(`p.code = ${companyPlanOverrideSql(':companyId')}`, 'p_forced')
      .where(`(p.code = :free OR s.id IS NOT NULL OR p.code = ${companyPlanOverrideSql(':companyId')})`, { free: FREE_PLAN })
      .getRawAndEntities<{ p_id: string; p_forced: boolean | null; s_id: string | null; s_state: Subscription['state'] | null; s_end: Date | null; s_cancel: boolean | null; s_grace: Date | null }>();
    const forced = raw.find((r) => r.p_forced);
    if (forced) return entities.find((p) => p.id === forced.p_id)!;
    const sub = raw.find((r) => r.s_id);
    const live = sub && m.create(Subscription, { state: sub.s_state!, currentPeriodEnd: new Date(sub.s_end!), cancelAtPeriodEnd: !!sub.s_cancel, graceEndsAt: sub.s_grace && new Date(sub.s_grace) });
    const plan = live && !overReason(live, new Date()) ? entities.find((p) => p.id === sub.p_id) : entities.find((p) => p.code === FREE_PLAN);
    if (!plan) throw new Error('The free plan is missing (migration 1764300004000 seeds it)');
    return plan;
  }
}
