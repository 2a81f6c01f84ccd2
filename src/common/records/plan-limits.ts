import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../http/api-error';
import { recordEvents } from '../outbox/outbox';
import { Scope } from '../access/scope';
import { UnitOfWork } from '../../database/unit-of-work';

/** What a plan limits when a company creates a record (orders: placed in the company's calendar month). */
export type LimitedResource = 'drivers' | 'assets' | 'monthly_orders';

/** Share of a limit at which `company.plan_limit_near` is recorded (once per crossing). */
export const PLAN_LIMIT_NEAR = 0.8;

/** The usage at which a limit is "near": 80 % rounded up, at least 1. */
export const nearThreshold = (limit: number) => Math.max(1, Math.ceil(limit * PLAN_LIMIT_NEAR));

/** The company's current limit on `resource` (null = unlimited) and the plan it comes from. */
export type PlanLimitSource = (company: Scope, resource: LimitedResource) => Promise<{ limit: number | null; plan: string }>;

/**
 * Plan limits by dependency inversion (architecture.md, "Plan limits"): the module that keeps plans and
 * subscriptions (payments, layer 6) registers the source of a company's limits at module init; the
 * modules that create limited records (customers' members for drivers, catalogue for assets, layer 2;
 * orders for the orders placed this month, layer 4) count their own rows and call `assertBelow` in the
 * creating transaction. Without a registered source (an app without payments) nothing is limited.
 */
@Injectable()
export class PlanLimits {
  private source: PlanLimitSource | null = null;

  constructor(private readonly uow: UnitOfWork) {}

  /** The key of the transaction-scoped advisory lock that `assertBelow` takes (`pg_advisory_xact_lock(hashtext(key))`). */
  static lockKey(resource: LimitedResource, companyId: string): string {
    return `plan_limit:${resource}:${companyId}`;
  }

  register(source: PlanLimitSource): void {
    if (this.source) throw new Error('A plan limit source is registered twice');
    this.source = source;
  }

  /**
   * Throws 403 `PLAN_LIMIT` (errors.limit = the limit) when the company already has `count` of
   * `resource` and its plan allows no more; records `company.plan_limit_near` when this creation brings
   * the usage to 80 % of the limit (`nearThreshold`). Call it inside the creating transaction: it takes a
   * transaction-scoped advisory lock per company and resource first, so concurrent creations count one
   * another (and the event is recorded once). `locked`: the caller took that lock already, in one of its
   * own earlier statements of the transaction (`SELECT pg_advisory_xact_lock(hashtext(lockKey))`), to
   * save a round trip; never in the counting statement itself (its snapshot would predate the lock).
   */
  async assertBelow(scope: Scope, resource: LimitedResource, count: () => Promise<number>, opts: { actorId?: string | null; locked?: boolean } = {}): Promise<void> {
    if (!this.source) return;
    if (!opts.locked) await this.uow.manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [PlanLimits.lockKey(resource, scope.companyId)]);
    const limit = await this.limitOf(scope, resource);
    if (limit?.limit == null) return;
    await this.admit(scope, resource, limit, await count(), opts);
  }

  /**
   * The company's limit on `resource` (null: no source registered, nothing is limited), read before the
   * creation takes its lock: for a creation that counts itself under a lock of its own (placement: the
   * order counter row, src/modules/orders), then calls `admit` with that count.
   */
  async limitOf(scope: Scope, resource: LimitedResource): Promise<{ limit: number | null; plan: string } | null> {
    // The company's plan, whoever of it creates the record (a customer places, a company user adds a driver).
    return this.source ? this.source(Scope.company(scope.companyId), resource) : null;
  }

  /**
   * `assertBelow`'s verdict on a count the caller made under its own lock: `used`, the company's
   * `resource` before this creation. Throws 403 `PLAN_LIMIT`, or records `company.plan_limit_near` at the
   * crossing; nothing without a limit.
   */
  async admit(scope: Scope, resource: LimitedResource, limit: { limit: number | null; plan: string } | null, used: number, opts: { actorId?: string | null } = {}): Promise<void> {
    const companyId = scope.companyId;
    if (!limit || limit.limit === null) return;
    const { plan } = limit;
    if (used >= limit.limit) {
      const what = resource === 'monthly_orders' ? 'orders a month' : resource;
      throw new ApiError(HttpStatus.FORBIDDEN, 'PLAN_LIMIT', `The ${plan} plan allows ${limit.limit} ${what}; upgrade or start a trial of a bigger plan.`, { limit: [String(limit.limit)], plan: [plan] });
    }
    // This creation brings usage to 80 % of the limit: recorded once per crossing, with the creation (rolled back with it).
    const threshold = nearThreshold(limit.limit);
    if (used < threshold && used + 1 >= threshold) {
      await recordEvents(this.uow.manager, { type: 'company.plan_limit_near', aggregateType: 'company', aggregateId: companyId, companyId, actorId: opts.actorId ?? null, payload: { resource, used: used + 1, limit: limit.limit, plan } });
    }
  }
}
