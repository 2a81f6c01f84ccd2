import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { MediaService } from '../media';
import { OrderOperations, type OrderForJobs } from '../orders';
import { PricingCatalog, type PolicyTerms } from '../pricing';
import { UsersService } from '../users';
import { PolicyViolationDto, RecordViolationsDto, ReplaceViolationsDto } from './accountability.dto';
import { RESOLVED, VIOLATION_ORDER_STATUSES } from './accountability.types';
import { DemeritService } from './demerit.service';
import { ViolationRepository, type ViolationWithCount } from './violation.repository';

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
    private readonly uow: UnitOfWork,
    private readonly violations: ViolationRepository,
    private readonly orders: OrderOperations,
    private readonly pricing: PricingCatalog,
    private readonly media: MediaService,
    private readonly users: UsersService,
    private readonly demerit: DemeritService,
  ) {}

  // ------------------------------------------------------------ writes

  async record(scope: Scope, orderId: string, d: RecordViolationsDto): Promise<PolicyViolationDto[]> {
    await this.uow.transaction(async () => {
      const order = await this.lockOrder(scope, orderId);
      const live = await this.violations.liveOf(scope, order.id);
      const taken = new Set(live.map((v) => v.policyId));
      const policies = await this.policies(scope, d.policy_ids, (id) => (taken.has(id) ? 'already recorded on this order (replace the set to change it)' : null));
      await this.assertEvidence(d.evidence_media_ids);
      for (const p of policies) await this.add(scope, order, p, d.note ?? null, d.evidence_media_ids ?? []);
      await this.demerit.refresh(scope, order.customerId);
    });
    return this.forOrder(scope, orderId);
  }

  /**
   * Replaces the order's set: policies kept keep their violation (points, fee, dispute; `note` and
   * evidence updated when given), new ones are recorded, the others removed with their fee lines
   * voided. 409 `VIOLATION_RESOLVED` when any of the order's violations is upheld or waived.
   */
  async replace(scope: Scope, orderId: string, d: ReplaceViolationsDto): Promise<PolicyViolationDto[]> {
    await this.uow.transaction(async () => {
      const order = await this.lockOrder(scope, orderId);
      const live = await this.violations.lockLiveOf(scope, order.id);
      const resolved = live.filter((v) => RESOLVED.includes(v.status));
      if (resolved.length) {
        throw ApiError.conflict('VIOLATION_RESOLVED', `Violations of this order are resolved (${resolved.map((v) => `${v.policyName}: ${v.status}`).join(', ')}): the set can no longer be replaced.`);
      }
      const wanted = new Set(d.policy_ids);
      const had = new Set(live.map((v) => v.policyId));
      const policies = await this.policies(scope, d.policy_ids.filter((id) => !had.has(id)));
      await this.assertEvidence(d.evidence_media_ids);
      for (const v of live.filter((x) => !wanted.has(x.policyId))) {
        await this.orders.voidViolationFee(scope, order, v.feeLineIds);
        await this.violations.remove(scope, v.id, new Date());
        await this.violations.recordEvents({ type: 'policy_violation.removed', ...about(scope, v.id), payload: { order_id: order.id, customer_id: order.customerId, policy_id: v.policyId } });
      }
      const kept = live.filter((x) => wanted.has(x.policyId)).map((x) => x.id);
      if (kept.length && (d.note !== undefined || d.evidence_media_ids !== undefined)) {
        await this.violations.update(scope, kept, { ...(d.note !== undefined ? { note: d.note } : {}), ...(d.evidence_media_ids !== undefined ? { evidenceMediaIds: d.evidence_media_ids } : {}) });
      }
      for (const p of policies) await this.add(scope, order, p, d.note ?? null, d.evidence_media_ids ?? []);
      await this.demerit.refresh(scope, order.customerId);
    });
    return this.forOrder(scope, orderId);
  }

  // ------------------------------------------------------------ reads

  /** The violations of an order `scope` reaches (the company's, or the customer's own order), oldest first; else 404. */
  async forOrder(scope: Scope, orderId: string): Promise<PolicyViolationDto[]> {
    await this.orders.balance(scope, orderId);
    return this.dtos(scope, await this.violations.forOrder(scope, orderId));
  }

  /** One violation `scope` reaches; else 404. */
  async get(scope: Scope, id: string): Promise<PolicyViolationDto> {
    const found = await this.violations.findWithCount(scope, id);
    if (!found) throw ApiError.notFound('Policy violation');
    return (await this.dtos(scope, [found]))[0];
  }

  /** Evidence ids must be uploads (422 per index). */
  async assertEvidence(ids: readonly string[] | undefined): Promise<void> {
    const errors: Record<string, string[]> = {};
    for (const [i, id] of (ids ?? []).entries()) if (!(await this.media.exists(id))) errors[`evidence_media_ids.${i}`] = ['not found'];
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  // ------------------------------------------------------------ internals

  /** The violations as answered, with their customers' names (one read for them all). */
  private async dtos(scope: Scope, found: ViolationWithCount[]): Promise<PolicyViolationDto[]> {
    if (!found.length) return [];
    const names = await this.users.names(scope, [...new Set(found.map((f) => f.violation.customerId))]);
    return found.map((f) => PolicyViolationDto.of(f.violation, { customer_name: names.get(f.violation.customerId) ?? null, messages_count: f.messagesCount }));
  }

  /** The company's order, locked; 409 `ORDER_STATE` unless delivered or completed. */
  private async lockOrder(scope: Scope, orderId: string): Promise<OrderForJobs> {
    const order = await this.orders.lock(scope, orderId);
    if (!(VIOLATION_ORDER_STATUSES as readonly string[]).includes(order.status)) {
      throw ApiError.conflict('ORDER_STATE', `Violations are recorded on delivered or completed orders (the container was on site); this order is ${order.status}.`);
    }
    return order;
  }

  /** The named policies, live and active, of the company, in the body's order; 422 per index otherwise (`refuse` adds a reason of the caller's). */
  private async policies(scope: Scope, ids: readonly string[], refuse: (id: string) => string | null = () => null): Promise<PolicyTerms[]> {
    const found = new Map((await this.pricing.policies(scope, ids)).map((p) => [p.id, p]));
    const errors: Record<string, string[]> = {};
    ids.forEach((id, i) => {
      const p = found.get(id);
      const why = !p ? 'not found' : !p.active ? 'is not active' : refuse(id);
      if (why) errors[`policy_ids.${i}`] = [why];
    });
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    return ids.map((id) => found.get(id)!);
  }

  /** One violation: the fee on the order's bill first, then the row with its lines, and its event. */
  private async add(scope: Scope, order: OrderForJobs, p: PolicyTerms, note: string | null, evidence: string[]): Promise<void> {
    const fee = await this.orders.addViolationFee(scope, order, p.feeAmount, `Policy: ${p.name}`);
    const id = await this.violations.insert(scope, {
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
    await this.violations.recordEvents({
      type: 'policy_violation.recorded',
      ...about(scope, id),
      payload: { order_id: order.id, number: order.number, customer_id: order.customerId, policy_id: p.id, points: p.demeritPoints, fee_amount: fee.amount, currency: order.currency },
    });
  }
}

export function about(scope: Scope, violationId: string) {
  return { aggregateType: 'policy_violation', aggregateId: violationId, companyId: scope.companyId, actorId: scope.actorId };
}
