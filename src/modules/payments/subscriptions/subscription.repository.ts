import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Scope, SystemReach } from '../../../common/access/scope';
import { findScoped, PlatformReach } from '../../../common/access/tenant-policy';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { LIVE_STATES_SQL, LIVE_SUBSCRIPTION_STATES, Plan, Subscription, SubscriptionCharge } from './subscription.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_REACH = SystemReach.of('statement snapshot');

/**
 * An administrator's reach over `subscriptions s` as SQL text (the rule of `platformQuery`: one company's
 * rows or every company's, optionally created within `from`..`to`, UTC dates), its parameters numbered from `$first`.
 */
function platformConditions(reach: PlatformReach, first: number): { sql: string; params: (string | null)[] } {
  const [c, f, t] = [first, first + 1, first + 2];
  return {
    sql: `($${c}::uuid IS NULL OR s.company_id = $${c}::uuid) AND ($${f}::date IS NULL OR s.created_at >= ($${f}::date)::timestamp AT TIME ZONE 'UTC') AND ($${t}::date IS NULL OR s.created_at < ($${t}::date + 1)::timestamp AT TIME ZONE 'UTC')`,
    params: [reach.companyId, reach.from, reach.to],
  };
}

/** A pending first subscription charge as the reconciler claims it. */
export interface PendingFirstChargeRow {
  id: string;
  company_id: string;
  subscription_id: string;
  idempotency_key: string;
  provider_ref: string | null;
  created_at: Date;
  check_attempts: number;
  buyer_ref: string | null;
}

/** The plan-limit read's raw row: a plan, whether the company's override forces it, and the live subscription on it (if any). */
export interface PlanInForceRow {
  p_id: string;
  p_forced: boolean | null;
  s_id: string | null;
  s_state: Subscription['state'] | null;
  s_end: Date | null;
  s_cancel: boolean | null;
  s_grace: Date | null;
}

/**
 * Plans (`plans`), subscriptions (`subscriptions`) and their charges (`subscription_charges`). Reads and
 * writes run in the open unit of work, else on the pool; row locks, advisory locks and claims need one.
 */
@Injectable()
export class SubscriptionRepository extends ModuleRepository {
  // ------------------------------------------------------------ plans

  @GenerateSql()
  async plans(): Promise<Plan[]> {
    return this.m.getRepository(Plan).find({ order: { position: 'ASC' } });
  }

  /** The plan with this code, or null. */
  @GenerateSql({ params: ['starter'] })
  planByCode(code: string): Promise<Plan | null> {
    return this.m.findOneBy(Plan, { code });
  }

  /** The plan with this id, or null. */
  planById(id: string): Promise<Plan | null> {
    return this.m.findOneBy(Plan, { id });
  }

  @GenerateSql({ params: ['starter'] })
  planExists(code: string): Promise<boolean> {
    return this.m.getRepository(Plan).existsBy({ code });
  }

  /** The subscriptions an administrator reaches, per plan code and state (the admin dashboard). */
  @GenerateSql({ name: 'every company', params: () => [new PlatformReach()] }, { name: 'one company, a range', params: () => [new PlatformReach(SQL_SAMPLE.companyId, SQL_SAMPLE.date, SQL_SAMPLE.date)] })
  planStates(reach: PlatformReach): Promise<{ plan: string; state: string; n: number }[]> {
    const where = platformConditions(reach, 1);
    return this.sql(`SELECT p.code AS plan, s.state, count(*)::int AS n FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE ${where.sql} GROUP BY p.code, s.state ORDER BY p.code, s.state`, where.params);
  }

  /** Each of these companies' live subscription an administrator reaches (plan code and state); companies without one are left out. */
  @GenerateSql({ params: () => [new PlatformReach(), [SQL_SAMPLE.companyId]] })
  livePlansOf(reach: PlatformReach, companyIds: readonly string[]): Promise<{ company_id: string; plan: string; state: string }[]> {
    const where = platformConditions(reach, 2);
    return this.sql(`SELECT s.company_id, p.code AS plan, s.state FROM subscriptions s JOIN plans p ON p.id = s.plan_id WHERE s.company_id = ANY($1) AND s.state IN ${LIVE_STATES_SQL} AND ${where.sql}`, [[...companyIds], ...where.params]);
  }

  /**
   * One statement for the plan limits: the free plan, the plan an administrator forces on the company
   * (companies' SQL fragment, kept until the integrator replaces it), and the plan of the live subscription
   * with what says whether it is over.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'free'] })
  async plansInForce(scope: Scope, free: string): Promise<{ plans: Plan[]; rows: PlanInForceRow[] }> {
    // Every placement's plan limit: prepared (planned once per connection).
    const { entities, raw } = await this.hot('payments_plans_in_force', this.m.createQueryBuilder(Plan, 'p'))
      .leftJoin(Subscription, 's', `s.plan_id = p.id AND s.company_id = :companyId AND s.state IN ${LIVE_STATES_SQL}`, { companyId: scope.companyId })
      .addSelect(['s.id AS s_id', 's.state AS s_state', 's.current_period_end AS s_end', 's.cancel_at_period_end AS s_cancel', 's.grace_ends_at AS s_grace'])
      .addSelect(`p.code = companies_plan_override(:companyId)`, 'p_forced')
      .where(`(p.code = :free OR s.id IS NOT NULL OR p.code = companies_plan_override(:companyId))`, { free })
      .getRawAndEntities<PlanInForceRow>();
    return { plans: entities, rows: raw };
  }

  // ------------------------------------------------------------ subscriptions

  /** The company's subscription in a live state (trialing, active, past_due), or null. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  live(scope: Scope): Promise<Subscription | null> {
    return this.m.findOne(Subscription, { where: { companyId: scope.companyId, state: In([...LIVE_SUBSCRIPTION_STATES]) } });
  }

  /** Whether the company has had a trial. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  hadTrial(scope: Scope): Promise<boolean> {
    return this.m.exists(Subscription, { where: { companyId: scope.companyId, isTrial: true } });
  }

  /** Whether the company has a subscribe waiting for the provider. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  hasPending(scope: Scope): Promise<boolean> {
    return this.m.exists(Subscription, { where: { companyId: scope.companyId, state: 'pending' } });
  }

  /** A subscription `scope` reaches, locked (FOR UPDATE) for the rest of the unit; 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  lockScoped(scope: Scope, id: string): Promise<Subscription> {
    return findScoped(this.locked, Subscription, scope, id, { what: 'Subscription', lock: true });
  }

  /** The scope's company's subscription, or null. */
  findById(scope: Scope, id: string): Promise<Subscription | null> {
    return this.m.findOneBy(Subscription, { id, companyId: scope.companyId });
  }

  /** The scope's company's subscription locked (FOR UPDATE) for the rest of the unit, or null. */
  lockById(scope: Scope, id: string): Promise<Subscription | null> {
    return this.locked.createQueryBuilder(Subscription, 's').where('s.id = :id AND s.companyId = :companyId', { id, companyId: scope.companyId }).setLock('pessimistic_write').getOne();
  }

  /** The company of a subscription, any company's (no lock: the company's subscription lock comes first), or null. */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.id] })
  async companyOf(reach: SystemReach, subscriptionId: string): Promise<string | null> {
    const [head] = await this.sql<{ company_id: string }>(`SELECT company_id FROM subscriptions WHERE id = $1`, [subscriptionId]);
    return head?.company_id ?? null;
  }

  /**
   * Serialises a company's subscription changes (trial, subscribe, a first charge settled): a
   * transaction-scoped advisory lock, waited for.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  async lockCompany(scope: Scope): Promise<void> {
    await this.locked.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`subscription:${scope.companyId}`]);
  }

  /** The company's subscription lock taken with a try (the renewal job): false when another unit holds it. */
  @GenerateSql({ params: [SAMPLE_SCOPE] })
  async tryLockCompany(scope: Scope): Promise<boolean> {
    const [{ locked }] = await this.locked.query<{ locked: boolean }[]>(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [`subscription:${scope.companyId}`]);
    return locked;
  }

  /**
   * The next subscription of any company whose next action has come at `now` (not among `seen`), claimed
   * (FOR UPDATE SKIP LOCKED: several instances share the work), with its company; null when none is left.
   */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.at, [SQL_SAMPLE.id]] })
  async claimNextDue(reach: SystemReach, now: Date, seen: readonly string[]): Promise<{ id: string; company_id: string } | null> {
    const [next] = await this.locked.query<{ id: string; company_id: string }[]>(
      `SELECT id, company_id FROM subscriptions WHERE state IN ${LIVE_STATES_SQL} AND next_action_at <= $1 AND NOT (id = ANY($2::uuid[]))
              ORDER BY next_action_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now, [...seen]],
    );
    return next ?? null;
  }

  /** A new subscription of the scope's company, saved (its generated columns read back). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { planId: SQL_SAMPLE.id, state: 'trialing', isTrial: true, amount: 0, currency: 'USD', currentPeriodStart: SQL_SAMPLE.at, currentPeriodEnd: SQL_SAMPLE.at, nextActionAt: SQL_SAMPLE.at, cancelAtPeriodEnd: false, cancelledAt: null, chargeReference: null, createdBy: SQL_SAMPLE.actorId }] })
  create(scope: Scope, values: Omit<Partial<Subscription>, 'companyId'>): Promise<Subscription> {
    return this.m.save(this.m.create(Subscription, { ...values, companyId: scope.companyId }));
  }

  /** Writes the (locked) subscription's changed columns. */
  @GenerateSql({ params: () => [Object.assign(new Subscription(), { id: SQL_SAMPLE.id, companyId: SQL_SAMPLE.companyId, planId: SQL_SAMPLE.otherId, state: 'cancelled' })] })
  async save(row: Subscription): Promise<void> {
    await this.m.save(row);
  }

  /** The scope's company's subscription, changed. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, { nextActionAt: SQL_SAMPLE.at }] })
  async update(scope: Scope, id: string, values: Partial<Pick<Subscription, 'nextActionAt'>>): Promise<void> {
    await this.m.update(Subscription, { id, companyId: scope.companyId }, values);
  }

  /** Drops a subscription of the scope's company (its charges go with it: ON DELETE CASCADE). */
  async delete(scope: Scope, id: string): Promise<void> {
    await this.m.delete(Subscription, { id, companyId: scope.companyId });
  }

  // ------------------------------------------------------------ charges

  /** A charge of the scope's company's subscription. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { subscriptionId: SQL_SAMPLE.id, periodNumber: 2, attempt: 1, amount: 4900, currency: 'USD', status: 'succeeded', providerReference: 'ch_1', failureCode: null, idempotencyKey: `subscription:${SQL_SAMPLE.id}:period:2` }] })
  async insertCharge(scope: Scope, values: Omit<QueryDeepPartialEntity<SubscriptionCharge>, 'companyId'>): Promise<void> {
    await this.m.insert(SubscriptionCharge, { ...values, companyId: scope.companyId });
  }

  /** The scope's company's charge with this key, changed. */
  @GenerateSql({ params: [SAMPLE_SCOPE, `subscription:${SQL_SAMPLE.id}:period:1`, { status: 'succeeded', providerReference: 'ch_1', failureCode: null, nextCheckAt: null }] })
  async updateChargeByKey(scope: Scope, idempotencyKey: string, values: QueryDeepPartialEntity<SubscriptionCharge>): Promise<void> {
    await this.m.update(SubscriptionCharge, { idempotencyKey, companyId: scope.companyId }, values);
  }

  /** Keeps the provider's reference on the scope's company's pending charge with this key (the first one given wins). */
  @GenerateSql({ params: [SAMPLE_SCOPE, `subscription:${SQL_SAMPLE.id}:period:1`, 'ch_1'] })
  async keepPendingReference(scope: Scope, idempotencyKey: string, reference: string): Promise<void> {
    await this.sql(`UPDATE subscription_charges SET provider_reference = coalesce(provider_reference, $2), updated_at = now() WHERE idempotency_key = $1 AND company_id = $3 AND status = 'pending'`, [idempotencyKey, reference, scope.companyId]);
  }

  /** The subscriptions whose pending charge has this provider reference or our key: the provider's word, any company's. */
  @GenerateSql({ params: [SAMPLE_REACH, 'ch_1', `subscription:${SQL_SAMPLE.id}:period:1`] })
  async pendingChargeSubscriptions(reach: SystemReach, providerRef: string, key: string | null): Promise<string[]> {
    const found = await this.sql<{ subscription_id: string }>(
      `SELECT subscription_id FROM subscription_charges WHERE status = 'pending' AND (provider_reference = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2))`,
      [providerRef, key],
    );
    return found.map((f) => f.subscription_id);
  }

  /** The next pending first charge of any company whose check has come, locked (FOR UPDATE SKIP LOCKED: another reconciler takes another one), or null. */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.at] })
  async lockNextPendingCheck(reach: SystemReach, now: Date): Promise<PendingFirstChargeRow | null> {
    const [row] = await this.locked.query<PendingFirstChargeRow[]>(
      `SELECT c.id, c.company_id, c.subscription_id, c.idempotency_key, c.provider_reference AS provider_ref, c.created_at, c.check_attempts, s.buyer_reference AS buyer_ref
           FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id
          WHERE c.status = 'pending' AND c.next_check_at <= $1
          ORDER BY c.next_check_at, c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED`,
      [now],
    );
    return row ?? null;
  }

  /** One more check of the scope's company's pending charge, the next one at `nextCheckAt`. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.at] })
  async countCheck(scope: Scope, id: string, nextCheckAt: Date): Promise<void> {
    await this.sql(`UPDATE subscription_charges SET check_attempts = check_attempts + 1, next_check_at = $2 WHERE id = $1 AND company_id = $3`, [id, nextCheckAt, scope.companyId]);
  }

  /** Pending first charges of every company reserved before `before`. */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.at] })
  async pendingChargesBefore(reach: SystemReach, before: Date): Promise<number> {
    const [{ n }] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM subscription_charges WHERE status = 'pending' AND created_at < $1`, [before]);
    return Number(n);
  }
}
