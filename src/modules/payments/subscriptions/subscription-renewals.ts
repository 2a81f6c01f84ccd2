import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { recordEvents } from '../../../common/outbox/outbox';
import { PaymentProvider, type ChargeResult } from '../provider/payment-provider';
import { Plan, Subscription, SubscriptionCharge } from './subscription.entities';
import { addDays, addMonth, endSubscription, overReason } from './subscriptions.service';

/** Days a `past_due` subscription keeps its plan while the renewal is retried (daily) before it falls to the free plan. */
export const GRACE_DAYS = 7;
/** Hours between two renewal attempts of a past_due subscription. */
export const RETRY_EVERY_HOURS = 24;

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
 * progress wins; the next run takes the row). Renewals are charged synchronously here: the sandbox and
 * the provider interface answer a charge at once, so no webhook is involved.
 */
@Injectable()
export class SubscriptionRenewals {
  private readonly logger = new Logger('SubscriptionRenewals');

  constructor(
    private readonly ds: DataSource,
    private readonly provider: PaymentProvider,
  ) {}

  async run(now: Date = new Date()): Promise<RenewalSummary> {
    const summary: RenewalSummary = { due: 0, renewed: 0, past_due: 0, retries_failed: 0, ended: 0, skipped: 0 };
    const seen: string[] = [];
    for (;;) {
      let claimed = false;
      const outcome = await this.ds
        .transaction(async (m): Promise<Outcome | null> => {
          const [next] = await m.query<{ id: string }[]>(
            `SELECT id FROM subscriptions WHERE state <> 'cancelled' AND next_action_at <= $1 AND NOT (id = ANY($2::uuid[]))
              ORDER BY next_action_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
            [now, seen],
          );
          if (!next) return null;
          claimed = true;
          seen.push(next.id);
          const row = await m.findOneByOrFail(Subscription, { id: next.id });
          const [{ locked }] = await m.query<{ locked: boolean }[]>(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`subscription:${row.companyId}`]);
          if (!locked) return 'skipped';
          return this.step(m, row, now);
        })
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

  /** One subscription whose next action has come, locked. */
  private async step(m: EntityManager, row: Subscription, now: Date): Promise<Outcome> {
    const plan = await m.findOneByOrFail(Plan, { id: row.planId });
    const reason = overReason(row, now);
    if (reason) {
      await endSubscription(m, row, plan, reason, now);
      return 'ended';
    }
    if (row.state === 'trialing' || row.currentPeriodEnd > now) {
      // Nothing due yet (a trial in its period, or the period moved): look again at its end.
      row.nextActionAt = row.currentPeriodEnd;
      await m.save(row);
      return 'skipped';
    }
    return this.renew(m, row, plan, now);
  }

  /** Charges the next period (key `subscription:<id>:period:<n>`, then `…:retry:<k>` for the k-th retry). */
  private async renew(m: EntityManager, row: Subscription, plan: Plan, now: Date): Promise<Outcome> {
    const period = row.periodNumber + 1;
    const attempt = row.renewalAttempts + 1;
    const key = `subscription:${row.id}:period:${period}` + (attempt > 1 ? `:retry:${attempt - 1}` : '');
    let charge: ChargeResult;
    if (row.buyerReference && row.instrumentReference) {
      charge = await this.provider.charge({ amount: row.amount, currency: row.currency, buyerRef: row.buyerReference, instrumentRef: row.instrumentReference, merchantRef: null, idempotencyKey: key, description: `${plan.name} plan, period ${period}` });
      await m.insert(SubscriptionCharge, { companyId: row.companyId, subscriptionId: row.id, periodNumber: period, attempt, amount: row.amount, currency: row.currency, status: charge.status, providerReference: charge.reference, failureCode: charge.status === 'failed' ? (charge.failureCode ?? 'card_declined') : null, idempotencyKey: key });
    } else {
      charge = { status: 'failed', reference: '', failureCode: 'no_payment_method' };
    }

    if (charge.status === 'succeeded') {
      // The new period follows the old one; after an outage longer than a period it starts now (missed periods are not charged).
      const start = addMonth(row.currentPeriodEnd) > now ? row.currentPeriodEnd : now;
      Object.assign(row, { state: 'active', periodNumber: period, currentPeriodStart: start, currentPeriodEnd: addMonth(start), nextActionAt: addMonth(start), renewalAttempts: 0, graceEndsAt: null, lastFailureCode: null, chargeReference: charge.reference });
      await m.save(row);
      await recordEvents(m, {
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
    await m.save(row);
    if (!first) return 'retries_failed';
    await recordEvents(m, {
      type: 'subscription.past_due',
      aggregateType: 'subscription',
      aggregateId: row.id,
      companyId: row.companyId,
      actorId: null,
      payload: { plan: plan.code, amount: row.amount, currency: row.currency, failure_code: failureCode, grace_ends_at: graceEndsAt.toISOString(), next_attempt_at: row.nextActionAt.toISOString() },
    });
    return 'past_due';
  }
}
