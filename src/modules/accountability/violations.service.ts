import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { MediaService } from '../media';
import { OrderOperations, type OrderForJobs } from '../orders';
import { PricingCatalog, type PolicyTerms } from '../pricing';
import { userNameSql } from '../users';
import { PolicyViolationDto, RecordViolationsDto, ReplaceViolationsDto } from './accountability.dto';
import { PolicyViolation } from './accountability.entities';
import { RESOLVED, VIOLATION_ORDER_STATUSES } from './accountability.types';
import { DemeritService } from './demerit.service';
import { runUnit } from '../../database/unit-of-work';

/** Messages of the violation (alias v) not deleted. */
const MESSAGES_COUNT_SQL = `(SELECT count(*)::int FROM policy_violation_dispute_messages x WHERE x.violation_id = v.id AND x.deleted_at IS NULL)`;

/**
 * Recording violations on an order (domain.md §7): the company names the policies the customer
 * violated; each becomes a violation with the policy's points and fee copied, and the fee (with the
 * taxes on fees) joins the order's bill through `OrderOperations`, in the same transaction as the
 * customer's new standing. Only delivered or completed orders take violations (the container was on
 * site). The set may be replaced while none of the order's violations is resolved.
 */
@Injectable()
export class ViolationsService {
  constructor(
    private readonly ds: DataSource,
    private readonly orders: OrderOperations,
    private readonly pricing: PricingCatalog,
    private readonly media: MediaService,
    private readonly demerit: DemeritService,
  ) {}

  // ------------------------------------------------------------ writes

  async record(scope: Scope, orderId: string, d: RecordViolationsDto): Promise<PolicyViolationDto[]> {
    await runUnit(this.ds, async (m) => {
      const order = await this.lockOrder(m, scope, orderId);
      const live = await this.live(m, order.id);
      const taken = new Set(live.map((v) => v.policyId));
      const policies = await this.policies(m, scope.companyId, d.policy_ids, (id) => (taken.has(id) ? 'already recorded on this order (replace the set to change it)' : null));
      await this.assertEvidence(m, d.evidence_media_ids);
      for (const p of policies) await this.add(m, scope, order, p, d.note ?? null, d.evidence_media_ids ?? []);
      await this.demerit.refresh(m, scope.companyId, order.customerId, scope.actorId);
    });
    return this.forOrder(scope, orderId);
  }

  /**
   * Replaces the order's set: policies kept keep their violation (points, fee, dispute; `note` and
   * evidence updated when given), new ones are recorded, the others removed with their fee lines
   * voided. 409 `VIOLATION_RESOLVED` when any of the order's violations is upheld or waived.
   */
  async replace(scope: Scope, orderId: string, d: ReplaceViolationsDto): Promise<PolicyViolationDto[]> {
    await runUnit(this.ds, async (m) => {
      const order = await this.lockOrder(m, scope, orderId);
      const live = await this.live(m, order.id, true);
      const resolved = live.filter((v) => RESOLVED.includes(v.status));
      if (resolved.length) {
        throw ApiError.conflict('VIOLATION_RESOLVED', `Violations of this order are resolved (${resolved.map((v) => `${v.policyName}: ${v.status}`).join(', ')}): the set can no longer be replaced.`);
      }
      const wanted = new Set(d.policy_ids);
      const had = new Set(live.map((v) => v.policyId));
      const policies = await this.policies(m, scope.companyId, d.policy_ids.filter((id) => !had.has(id)));
      await this.assertEvidence(m, d.evidence_media_ids);
      for (const v of live.filter((x) => !wanted.has(x.policyId))) {
        await this.orders.voidViolationFee(m, scope.companyId, order.id, v.feeLineIds);
        await m.update(PolicyViolation, { id: v.id }, { deletedAt: new Date() });
        await recordEvents(m, { type: 'policy_violation.removed', ...about(scope, v.id), payload: { order_id: order.id, customer_id: order.customerId, policy_id: v.policyId } });
      }
      const kept = live.filter((x) => wanted.has(x.policyId)).map((x) => x.id);
      if (kept.length && (d.note !== undefined || d.evidence_media_ids !== undefined)) {
        await m.update(PolicyViolation, { id: In(kept) }, { ...(d.note !== undefined ? { note: d.note } : {}), ...(d.evidence_media_ids !== undefined ? { evidenceMediaIds: d.evidence_media_ids } : {}) });
      }
      for (const p of policies) await this.add(m, scope, order, p, d.note ?? null, d.evidence_media_ids ?? []);
      await this.demerit.refresh(m, scope.companyId, order.customerId, scope.actorId);
    });
    return this.forOrder(scope, orderId);
  }

  // ------------------------------------------------------------ reads

  /** The violations of an order `scope` reaches (the company's, or the customer's own order), oldest first; else 404. */
  async forOrder(scope: Scope, orderId: string): Promise<PolicyViolationDto[]> {
    const m = this.ds.manager;
    await this.orders.balance(m, scope, orderId);
    const { entities, raw } = await this.withExtras(scopedQuery(m, PolicyViolation, scope, 'v'))
      .andWhere('v.orderId = :orderId', { orderId })
      .orderBy('v.createdAt', 'ASC')
      .addOrderBy('v.id', 'ASC')
      .getRawAndEntities();
    return entities.map((v, i) => PolicyViolationDto.of(v, raw[i]));
  }

  /** One violation `scope` reaches; else 404. */
  async get(scope: Scope, id: string, m: EntityManager = this.ds.manager): Promise<PolicyViolationDto> {
    const { entities, raw } = await this.withExtras(scopedQuery(m, PolicyViolation, scope, 'v')).andWhere('v.id = :id', { id }).getRawAndEntities();
    if (!entities[0]) throw ApiError.notFound('Policy violation');
    return PolicyViolationDto.of(entities[0], raw[0]);
  }

  // ------------------------------------------------------------ internals

  private withExtras(qb: SelectQueryBuilder<PolicyViolation>): SelectQueryBuilder<PolicyViolation> {
    return qb.addSelect(userNameSql('v.customer_id'), 'customer_name').addSelect(MESSAGES_COUNT_SQL, 'messages_count');
  }

  /** The company's order, locked; 409 `ORDER_STATE` unless delivered or completed. */
  private async lockOrder(m: EntityManager, scope: Scope, orderId: string): Promise<OrderForJobs> {
    const order = await this.orders.lock(m, scope.companyId, orderId);
    if (!(VIOLATION_ORDER_STATUSES as readonly string[]).includes(order.status)) {
      throw ApiError.conflict('ORDER_STATE', `Violations are recorded on delivered or completed orders (the container was on site); this order is ${order.status}.`);
    }
    return order;
  }

  /** The order's live (not removed) violations, optionally locked. */
  private live(m: EntityManager, orderId: string, lock = false): Promise<PolicyViolation[]> {
    return m.find(PolicyViolation, { where: { orderId }, order: { createdAt: 'ASC', id: 'ASC' }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /** The named policies, live and active, of the company, in the body's order; 422 per index otherwise (`refuse` adds a reason of the caller's). */
  private async policies(m: EntityManager, companyId: string, ids: readonly string[], refuse: (id: string) => string | null = () => null): Promise<PolicyTerms[]> {
    const found = new Map((await this.pricing.policies(Scope.company(companyId), ids)).map((p) => [p.id, p]));
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const p = found.get(id);
      const why = !p ? 'not found' : !p.active ? 'is not active' : refuse(id);
      if (why) errors[`policy_ids.${i}`] = [why];
    });
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    return ids.map((id) => found.get(id)!);
  }

  /** Evidence ids must be uploads (422 per index). */
  async assertEvidence(m: EntityManager, ids: readonly string[] | undefined): Promise<void> {
    const errors: Record<string, string[]> = {};
    for (const [i, id] of (ids ?? []).entries()) if (!(await this.media.exists(m, id))) errors[`evidence_media_ids.${i}`] = ['not found'];
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  /** One violation: the fee on the order's bill first, then the row with its lines, and its event. */
  private async add(m: EntityManager, scope: Scope, order: OrderForJobs, p: PolicyTerms, note: string | null, evidence: string[]): Promise<void> {
    const fee = await this.orders.addViolationFee(m, scope.companyId, order.id, p.feeAmount, `Policy: ${p.name}`);
    const inserted = await m.insert(PolicyViolation, {
      companyId: scope.companyId,
      orderId: order.id,
      orderNumber: order.number,
      customerId: order.customerId,
      policyId: p.id,
      policyName: p.name,
      policyCategory: p.category,
      points: p.demeritPoints,
      feeAmount: p.feeAmount,
      chargedAmount: fee.amount,
      creditedAmount: 0,
      currency: order.currency,
      note,
      evidenceMediaIds: evidence,
      status: 'open',
      feeLineIds: fee.lineIds,
      creditLineIds: [],
      recordedBy: scope.actorId,
    });
    const id = (inserted.identifiers[0] as { id: string }).id;
    await recordEvents(m, {
      type: 'policy_violation.recorded',
      ...about(scope, id),
      payload: { order_id: order.id, number: order.number, customer_id: order.customerId, policy_id: p.id, points: p.demeritPoints, fee_amount: fee.amount, currency: order.currency },
    });
  }
}

export function about(scope: Scope, violationId: string) {
  return { aggregateType: 'policy_violation', aggregateId: violationId, companyId: scope.companyId, actorId: scope.actorId };
}
