import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere, In, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { PolicyViolation } from './accountability.entities';

/** Messages of the violation (alias v) not deleted. */
const MESSAGES_COUNT_SQL = `(SELECT count(*)::int FROM policy_violation_dispute_messages x WHERE x.violation_id = v.id AND x.deleted_at IS NULL)`;

/** A violation with its count of live dispute messages. */
export interface ViolationWithCount {
  violation: PolicyViolation;
  messagesCount: number;
}

/** The columns a new violation is inserted with (its company: the scope's). */
export type NewViolation = Omit<PolicyViolation, 'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'disputedAt' | 'resolvedAt' | 'resolvedBy' | 'deletedAt'>;

const SAMPLE_VIOLATION = (): NewViolation => ({
  orderId: SQL_SAMPLE.id,
  orderNumber: 1001,
  customerId: SQL_SAMPLE.otherId,
  policyId: SQL_SAMPLE.id,
  policyName: 'Overfilled',
  policyCategory: 'container' as PolicyViolation['policyCategory'],
  points: 2,
  feeAmount: 5000,
  chargedAmount: 5500,
  creditedAmount: 0,
  currency: 'USD',
  note: null,
  evidenceMediaIds: [],
  status: 'open',
  feeLineIds: [],
  creditLineIds: [],
  recordedBy: SQL_SAMPLE.actorId,
});

/** Violations recorded on orders (`customer_policy_violations`): the module's SQL for them (docs/data-layer.md). */
@Injectable()
export class ViolationRepository extends ModuleRepository {

  /** The order's live (not removed) violations that `scope` reaches, oldest first. */
  liveOf(scope: Scope, orderId: string): Promise<PolicyViolation[]> {
    const where = scopeWhere(this.m, PolicyViolation, scope);
    return where ? this.m.find(PolicyViolation, { where: { ...where, orderId }, order: { createdAt: 'ASC', id: 'ASC' } }) : Promise.resolve([]);
  }

  /** The order's live violations that `scope` reaches, oldest first, locked (FOR UPDATE) for the caller's unit. */
  lockLiveOf(scope: Scope, orderId: string): Promise<PolicyViolation[]> {
    const where = scopeWhere(this.locked, PolicyViolation, scope);
    return where ? this.locked.find(PolicyViolation, { where: { ...where, orderId }, order: { createdAt: 'ASC', id: 'ASC' }, lock: { mode: 'pessimistic_write' } }) : Promise.resolve([]);
  }

  /** A violation `scope` reaches; else 404. */
  find(scope: Scope, id: string): Promise<PolicyViolation> {
    return findScoped(this.m, PolicyViolation, scope, id, { what: 'Policy violation' });
  }

  /** A violation `scope` reaches, locked (FOR UPDATE); else 404. */
  lock(scope: Scope, id: string): Promise<PolicyViolation> {
    return findScoped(this.locked, PolicyViolation, scope, id, { what: 'Policy violation', lock: true });
  }

  /** The violations of an order `scope` reaches, oldest first, with their message counts. */
  forOrder(scope: Scope, orderId: string): Promise<ViolationWithCount[]> {
    return withCounts(withCount(this.m, scope).andWhere('v.orderId = :orderId', { orderId }).orderBy('v.createdAt', 'ASC').addOrderBy('v.id', 'ASC'));
  }

  /** One violation `scope` reaches with its message count; null when it does not reach it. */
  async findWithCount(scope: Scope, id: string): Promise<ViolationWithCount | null> {
    const [one] = await withCounts(withCount(this.m, scope).andWhere('v.id = :id', { id }));
    return one ?? null;
  }

  /** A violation of the scope's company. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SAMPLE_VIOLATION()] })
  async insert(scope: Scope, v: NewViolation): Promise<string> {
    const inserted = await this.locked.insert(PolicyViolation, { ...v, companyId: scope.companyId });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** Changes the violations `ids` that `scope` reaches (locked by the caller's unit); 404 for a scope that reaches none. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), [SQL_SAMPLE.id, SQL_SAMPLE.otherId], { note: 'Seen on site', evidenceMediaIds: [SQL_SAMPLE.id] }] })
  async update(scope: Scope, ids: string[], changes: Partial<Pick<PolicyViolation, 'note' | 'evidenceMediaIds' | 'status' | 'disputedAt' | 'resolvedAt' | 'resolvedBy' | 'creditedAmount' | 'creditLineIds'>>): Promise<void> {
    if (!ids.length) return;
    await this.locked.update(PolicyViolation, { ...reached(this.locked, scope), id: ids.length === 1 ? ids[0] : In(ids) }, changes);
  }

  /** Removes a violation `scope` reaches (soft delete: its dispute messages stay, unreachable). */
  async remove(scope: Scope, id: string, deletedAt: Date): Promise<void> {
    await this.locked.update(PolicyViolation, { ...reached(this.locked, scope), id }, { deletedAt });
  }
}

/** The tenant policy's conditions for the violations `scope` reaches; 404 for a scope that reaches none. */
function reached(m: EntityManager, scope: Scope): FindOptionsWhere<PolicyViolation> {
  const where = scopeWhere(m, PolicyViolation, scope);
  if (!where) throw ApiError.notFound('Policy violation');
  return where;
}

function withCount(m: EntityManager, scope: Scope): SelectQueryBuilder<PolicyViolation> {
  return scopedQuery(m, PolicyViolation, scope, 'v').addSelect(MESSAGES_COUNT_SQL, 'messages_count');
}

async function withCounts(qb: SelectQueryBuilder<PolicyViolation>): Promise<ViolationWithCount[]> {
  const { entities, raw } = await qb.getRawAndEntities();
  return entities.map((violation, i) => ({ violation, messagesCount: Number((raw[i] as { messages_count?: unknown }).messages_count ?? 0) }));
}
