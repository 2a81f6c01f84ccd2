import { HttpStatus, Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, Not } from 'typeorm';
import type { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { findScoped } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { inTransaction } from '../../../common/idempotency/request-transaction';
import { recordEvents } from '../../../common/outbox/outbox';
import { PlanLimits } from '../../../common/records/plan-limits';
import { PaymentProvider, UnknownInstrumentToken } from '../provider/payment-provider';
import { Plan, Subscription } from './subscription.entities';
import { PlanDto, SubscribeDto, SubscriptionDto } from './subscriptions.dto';

/** The plan every company has without a subscription (seeded by migration 1764300004000). */
export const FREE_PLAN = 'free';

const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const addMonth = (d: Date) => {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + 1);
  return r;
};

/**
 * Plans, a company's subscription (trial, first period charged through the provider, cancel at period
 * end) and the source of the company's plan limits (registered in PlanLimits). No scheduled renewal yet:
 * a period that ends is read lazily (a trial or a cancelled subscription past its end is `cancelled`).
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly provider: PaymentProvider,
    private readonly limits: PlanLimits,
  ) {}

  onModuleInit(): void {
    this.limits.register(async (m, companyId, resource) => {
      const plan = await this.planInForce(m, companyId);
      return { limit: resource === 'drivers' ? plan.maxDrivers : plan.maxAssets, plan: plan.code };
    });
  }

  async plans(): Promise<PlanDto[]> {
    return (await this.ds.getRepository(Plan).find({ order: { position: 'ASC' } })).map(PlanDto.of);
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
        m.create(Subscription, { companyId, planId: plan.id, state: 'trialing', isTrial: true, amount: 0, currency: plan.currency, currentPeriodStart: now, currentPeriodEnd: addDays(now, plan.trialDays), cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: null, createdBy: actor.id }),
      );
      await recordEvents(m, { type: 'subscription.trial_started', aggregateType: 'subscription', aggregateId: row.id, companyId, actorId: actor.id, payload: { plan: plan.code, period_end: row.currentPeriodEnd.toISOString() } });
      return SubscriptionDto.of(row, plan);
    });
  }

  /**
   * Subscribes and charges the first month with the company's card (a trial in force is replaced). A
   * declined charge is 409 `PAYMENT_FAILED` with the failure code, and nothing is recorded.
   */
  async subscribe(actor: Actor, companyId: string, code: string, dto: SubscribeDto): Promise<SubscriptionDto> {
    return inTransaction(this.ds, async (m) => {
      const plan = await this.plan(m, code);
      if (plan.price === 0) throw ApiError.conflict('PLAN_NOT_PURCHASABLE', `The ${plan.code} plan needs no subscription.`);
      await this.lockCompany(m, companyId);
      const live = await this.live(m, companyId);
      if (live && live.state !== 'trialing') throw ApiError.conflict('SUBSCRIPTION_EXISTS', 'The company already has a subscription.');
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
      if (live) {
        Object.assign(live, { state: 'cancelled', cancelledAt: new Date() });
        await m.save(live);
      }
      const now = new Date();
      const row = await m.save(
        m.create(Subscription, { id, companyId, planId: plan.id, state: 'active', isTrial: false, amount: plan.price, currency: plan.currency, currentPeriodStart: now, currentPeriodEnd: addMonth(now), cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: charge.reference, createdBy: actor.id }),
      );
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
  }

  /** Cancels at the end of the period (the plan stays in force until then); asking again answers the same. */
  async cancel(actor: Actor, companyId: string, id: string): Promise<SubscriptionDto> {
    return inTransaction(this.ds, async (m) => {
      const row = await findScoped(m, Subscription, Scope.company(companyId), id, { what: 'Subscription', lock: true });
      const plan = await m.findOneByOrFail(Plan, { id: row.planId });
      if (row.state === 'cancelled') throw ApiError.invalidTransition('cancelled', 'cancelled', 'Subscription');
      if (row.cancelAtPeriodEnd) return SubscriptionDto.of(row, plan);
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
   * The company's live subscription, or null. A trial or a cancelled subscription past its period end is
   * over (read as none; written `cancelled` by the next change on a write path).
   */
  private async live(m: EntityManager, companyId: string): Promise<Subscription | null> {
    const row = await m.findOne(Subscription, { where: { companyId, state: Not('cancelled' as const) } });
    if (!row) return null;
    const over = (row.state === 'trialing' || row.cancelAtPeriodEnd) && row.currentPeriodEnd.getTime() <= Date.now();
    if (!over) return row;
    if (m.queryRunner?.isTransactionActive) {
      Object.assign(row, { state: 'cancelled', cancelledAt: row.cancelledAt ?? row.currentPeriodEnd });
      await m.save(row);
    }
    return null;
  }

  /** The plan whose limits the company has now (the free plan without a subscription in force). */
  private async planInForce(m: EntityManager, companyId: string): Promise<Plan> {
    const live = await m.findOne(Subscription, { where: { companyId, state: Not('cancelled' as const) } });
    const inForce = live && !((live.state === 'trialing' || live.cancelAtPeriodEnd) && live.currentPeriodEnd.getTime() <= Date.now());
    return inForce ? m.findOneByOrFail(Plan, { id: live.planId }) : this.plan(m, FREE_PLAN);
  }
}
