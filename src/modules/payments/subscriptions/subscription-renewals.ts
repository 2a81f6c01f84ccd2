import { Injectable, Logger } from '@nestjs/common';
import { Scope, SystemReach } from '../../../common/access/scope';
import { PaymentProvider, type ChargeInput, type ChargeResult } from '../provider/payment-provider';
import type { Plan, Subscription } from './subscription.entities';
import { SubscriptionRepository } from './subscription.repository';
import { addDays, addMonth, endSubscription, overReason } from './subscriptions.service';
import { UnitOfWork } from '../../../database/unit-of-work';

/** Days a `past_due` subscription keeps its plan while the renewal is retried (daily) before it falls to the free plan. */
export const GRACE_DAYS = 7;
/** Hours between two renewal attempts of a past_due subscription. */
export const RETRY_EVERY_HOURS = 24;

/** How long a renewal being charged stays claimed (its `next_action_at` pushed back) before another run may charge it again (same key). */
export const RENEWAL_LEASE_MS = 10 * 60_000;

/** The renewal job's reach: every company's subscriptions whose next action has come. */
const RENEWALS = SystemReach.of('the renewal job: subscriptions of every company whose next action has come');

/** A renewal claimed for its charge (`company`: the subscription's). */
interface Renewal {
  id: string;
  company: Scope;
  period: number;
  attempt: number;
  key: string;
  input: ChargeInput;
}

export interface RenewalSummary {
  /** Subscriptions the run looked at. */
  due: number;
  renewed: number;
  /** First failures of a period (now past_due). */
  past_due: number;
  /** Retries that failed again (still past_due). */
  retries_failed: number;
  /** Ended: cancelled at period end, trial over, grace period run out. */
  ended: number;
  /** Left for the next run: the company was busy (a subscribe or trial holds its lock), or the step failed (logged). */
  skipped: number;
}

type Outcome = 'renewed' | 'past_due' | 'retries_failed' | 'ended' | 'skipped';

/**
 * The subscription side of the scheduled work (README "Scheduled work"): at `now`, every subscription
 * whose `next_action_at` has come is ended (trial over, cancelled period over, grace period run out:
 * `subscription.cancelled`) or charged for its next period with the card it was subscribed with
 * (`subscription.renewed`; a failure → `past_due`, `subscription.past_due`, retried daily until the grace
 * period ends). One transaction per subscription, claimed with `FOR UPDATE SKIP LOCKED` (several instances
 * share the work, none charges twice) and the company's subscription lock taken with a try (a subscribe in
 * progress wins; the next run takes the row). A renewal due a charge is claimed in that transaction
 * (its next action pushed back by RENEWAL_LEASE_MS), charged with no transaction open, and its outcome
 * applied in a new one (issue #22); the key `subscription:<id>:period:<n>[:retry:<k>]` makes a repeated
 * call charge once.
 */
@Injectable()
export class SubscriptionRenewals {
  private readonly logger = new Logger('SubscriptionRenewals');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly provider: PaymentProvider,
  ) {}

  async run(now: Date = new Date()): Promise<RenewalSummary> {
    const summary: RenewalSummary = { due: 0, renewed: 0, past_due: 0, retries_failed: 0, ended: 0, skipped: 0 };
    const seen: string[] = [];
    for (;;) {
      let claimed = false;
      const outcome = await this.uow.transaction(async (): Promise<Outcome | Renewal | null> => {
          const next = await this.subscriptions.claimNextDue(RENEWALS, now, seen);
          if (!next) return null;
          claimed = true;
          seen.push(next.id);
          const company = Scope.company(next.company_id);
          const row = await this.subscriptions.findById(company, next.id);
          if (!row) throw new Error(`subscription ${next.id} claimed but not found`);
          if (!(await this.subscriptions.tryLockCompany(company))) return 'skipped';
          return this.step(row, now);
        })
        .then((o) => (o !== null && typeof o === 'object' ? this.charge(o, now) : o))
        .catch((e: unknown) => {
          this.logger.error({ msg: 'subscription renewal step failed', subscription_id: seen[seen.length - 1], error: e instanceof Error ? e.message : String(e) });
          return claimed ? ('skipped' as const) : null;
        });
      if (outcome === null) break;
      summary.due++;
      summary[outcome]++;
    }
    return summary;
  }

  /** One subscription whose next action has come, locked: ended, moved on, failed for want of a card, or a renewal to charge (after this transaction). */
  private async step(row: Subscription, now: Date): Promise<Outcome | Renewal> {
    const plan = await this.planOf(row);
    const reason = overReason(row, now);
    if (reason) {
      await endSubscription(this.subscriptions, row, plan, reason, now);
      return 'ended';
    }
    if (row.state === 'trialing' || row.currentPeriodEnd > now) {
      // Nothing due yet (a trial in its period, or the period moved): look again at its end.
      row.nextActionAt = row.currentPeriodEnd;
      await this.subscriptions.save(row);
      return 'skipped';
    }
    const period = row.periodNumber + 1;
    const attempt = row.renewalAttempts + 1;
    const key = `subscription:${row.id}:period:${period}` + (attempt > 1 ? `:retry:${attempt - 1}` : '');
    if (!row.buyerReference || !row.instrumentReference) return this.apply(row, plan, now, { status: 'failed', reference: '', failureCode: 'no_payment_method' }, period, attempt, key, false);
    // Claimed for the call: no other run takes it before RENEWAL_LEASE_MS (a crash: the next run charges again with the same key, which the provider answers once).
    const company = Scope.company(row.companyId);
    await this.subscriptions.update(company, row.id, { nextActionAt: new Date(now.getTime() + RENEWAL_LEASE_MS) });
    return { id: row.id, company, period, attempt, key, input: { amount: row.amount, currency: row.currency, buyerRef: row.buyerReference, instrumentRef: row.instrumentReference, merchantRef: null, idempotencyKey: key, description: `${plan.name} plan, period ${period}` } };
  }

  /**
   * Charges a claimed renewal with NO transaction open (issue #22: nothing is held while the provider
   * answers), then applies the outcome in a new transaction, the subscription locked again. The provider
   * not answering leaves it claimed: the next run after the lease asks again with the same key. A
   * subscription that changed meanwhile (the company subscribed anew) keeps the charge on record and logs it.
   */
  private async charge(r: Renewal, now: Date): Promise<Outcome> {
    const charge = await this.provider.charge(r.input);
    return this.uow.transaction(async () => {
      const row = await this.subscriptions.lockById(r.company, r.id);
      if (!row) throw new Error(`subscription ${r.id} charged for its renewal but not found`);
      const plan = await this.planOf(row);
      const unchanged = row.state !== 'cancelled' && row.periodNumber + 1 === r.period && row.renewalAttempts + 1 === r.attempt;
      if (!unchanged) {
        await this.subscriptions.insertCharge(r.company, { subscriptionId: row.id, periodNumber: r.period, attempt: r.attempt, amount: r.input.amount, currency: r.input.currency, status: charge.status, providerReference: charge.reference, failureCode: charge.status === 'failed' ? (charge.failureCode ?? 'card_declined') : null, idempotencyKey: r.key }).catch(() => undefined);
        if (charge.status === 'succeeded') this.logger.error({ msg: 'renewal charged for a subscription changed meanwhile: to be refunded by a person', subscription_id: row.id, charge_reference: charge.reference });
        return 'skipped';
      }
      return this.apply(row, plan, now, charge, r.period, r.attempt, r.key, true);
    });
  }

  /** The outcome of a renewal charge (`charged`: a provider charge was made, recorded as a subscription charge). */
  private async apply(row: Subscription, plan: Plan, now: Date, charge: ChargeResult, period: number, attempt: number, key: string, charged: boolean): Promise<Outcome> {
    if (charged) {
      await this.subscriptions.insertCharge(Scope.company(row.companyId), { subscriptionId: row.id, periodNumber: period, attempt, amount: row.amount, currency: row.currency, status: charge.status, providerReference: charge.reference, failureCode: charge.status === 'failed' ? (charge.failureCode ?? 'card_declined') : null, idempotencyKey: key });
    }

    if (charge.status === 'succeeded') {
      // The new period follows the old one; after an outage longer than a period it starts now (missed periods are not charged).
      const start = addMonth(row.currentPeriodEnd) > now ? row.currentPeriodEnd : now;
      Object.assign(row, { state: 'active', periodNumber: period, currentPeriodStart: start, currentPeriodEnd: addMonth(start), nextActionAt: addMonth(start), renewalAttempts: 0, graceEndsAt: null, lastFailureCode: null, chargeReference: charge.reference });
      await this.subscriptions.save(row);
      await this.subscriptions.recordEvents({
        type: 'subscription.renewed',
        aggregateType: 'subscription',
        aggregateId: row.id,
        companyId: row.companyId,
        actorId: null,
        payload: { plan: plan.code, amount: row.amount, currency: row.currency, charge_reference: charge.reference, period, period_end: row.currentPeriodEnd.toISOString(), attempt },
      });
      return 'renewed';
    }

    const first = row.state === 'active';
    const failureCode = charge.failureCode ?? 'card_declined';
    const graceEndsAt = row.graceEndsAt ?? addDays(row.currentPeriodEnd, GRACE_DAYS);
    const retryAt = new Date(now.getTime() + RETRY_EVERY_HOURS * 3_600_000);
    Object.assign(row, { state: 'past_due', renewalAttempts: attempt, graceEndsAt, lastFailureCode: failureCode, nextActionAt: retryAt < graceEndsAt ? retryAt : graceEndsAt });
    await this.subscriptions.save(row);
    if (!first) return 'retries_failed';
    await this.subscriptions.recordEvents({
      type: 'subscription.past_due',
      aggregateType: 'subscription',
      aggregateId: row.id,
      companyId: row.companyId,
      actorId: null,
      payload: { plan: plan.code, amount: row.amount, currency: row.currency, failure_code: failureCode, grace_ends_at: graceEndsAt.toISOString(), next_attempt_at: row.nextActionAt.toISOString() },
    });
    return 'past_due';
  }

  /** The plan of a subscription (its foreign key keeps it). */
  private async planOf(s: Subscription): Promise<Plan> {
    const plan = await this.subscriptions.planById(s.planId);
    if (!plan) throw new Error(`The plan ${s.planId} of subscription ${s.id} is missing`);
    return plan;
  }
}
