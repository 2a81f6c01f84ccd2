import { HttpStatus, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';

/** What a plan limits when a company creates a record. */
export type LimitedResource = 'drivers' | 'assets';

/** The company's current limit on `resource` (null = unlimited) and the plan it comes from. */
export type PlanLimitSource = (m: EntityManager, companyId: string, resource: LimitedResource) => Promise<{ limit: number | null; plan: string }>;

/**
 * Plan limits by dependency inversion (architecture.md, "Plan limits"): the module that keeps plans and
 * subscriptions (payments, layer 6) registers the source of a company's limits at module init; the
 * modules that create limited records (customers' members for drivers, catalogue for assets, layer 2)
 * count their own live rows and call `assertBelow` in the creating transaction. Without a registered
 * source (an app without payments) nothing is limited.
 */
@Injectable()
export class PlanLimits {
  private source: PlanLimitSource | null = null;

  register(source: PlanLimitSource): void {
    if (this.source) throw new Error('A plan limit source is registered twice');
    this.source = source;
  }

  /**
   * Throws 403 `PLAN_LIMIT` (errors.limit = the limit) when the company already has `count` of
   * `resource` and its plan allows no more. Call it inside the creating transaction after
   * `lock(m, companyId, resource)`, so concurrent creations count one another.
   */
  async assertBelow(m: EntityManager, companyId: string, resource: LimitedResource, count: () => Promise<number>): Promise<void> {
    if (!this.source) return;
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`plan_limit:${resource}:${companyId}`]);
    const { limit, plan } = await this.source(m, companyId, resource);
    if (limit === null) return;
    if ((await count()) >= limit) {
      throw new ApiError(HttpStatus.FORBIDDEN, 'PLAN_LIMIT', `The ${plan} plan allows ${limit} ${resource}; upgrade or start a trial of a bigger plan.`, { limit: [String(limit)], plan: [plan] });
    }
  }
}
