import { Injectable } from '@nestjs/common';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
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

/** The columns a new violation is inserted with. */
export type NewViolation = Omit<PolicyViolation, 'id' | 'createdAt' | 'updatedAt' | 'disputedAt' | 'resolvedAt' | 'resolvedBy' | 'deletedAt'>;

const SAMPLE_VIOLATION = (): NewViolation => ({
  companyId: SQL_SAMPLE.companyId,
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
  /** The order's live (not removed) violations, oldest first. */
  liveOf(orderId: string): Promise<PolicyViolation[]> {
    return this.m.find(PolicyViolation, { where: { orderId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The order's live violations, oldest first, locked (FOR UPDATE) for the caller's unit. */
  lockLiveOf(orderId: string): Promise<PolicyViolation[]> {
    return this.locked.find(PolicyViolation, { where: { orderId }, order: { createdAt: 'ASC', id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
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

  @GenerateSql({ params: () => [SAMPLE_VIOLATION()] })
  async insert(v: NewViolation): Promise<string> {
    const inserted = await this.locked.insert(PolicyViolation, v);
    return (inserted.identifiers[0] as { id: string }).id;
  }

  @GenerateSql({ params: () => [[SQL_SAMPLE.id, SQL_SAMPLE.otherId], { note: 'Seen on site', evidenceMediaIds: [SQL_SAMPLE.id] }] })
  async update(ids: string[], changes: Partial<Pick<PolicyViolation, 'note' | 'evidenceMediaIds' | 'status' | 'disputedAt' | 'resolvedAt' | 'resolvedBy' | 'creditedAmount' | 'creditLineIds'>>): Promise<void> {
    if (!ids.length) return;
    await this.locked.update(PolicyViolation, ids.length === 1 ? { id: ids[0] } : { id: In(ids) }, changes);
  }

  /** Removes a violation (soft delete: its dispute messages stay, unreachable). */
  async remove(id: string, deletedAt: Date): Promise<void> {
    await this.locked.update(PolicyViolation, { id }, { deletedAt });
  }
}

function withCount(m: EntityManager, scope: Scope): SelectQueryBuilder<PolicyViolation> {
  return scopedQuery(m, PolicyViolation, scope, 'v').addSelect(MESSAGES_COUNT_SQL, 'messages_count');
}

async function withCounts(qb: SelectQueryBuilder<PolicyViolation>): Promise<ViolationWithCount[]> {
  const { entities, raw } = await qb.getRawAndEntities();
  return entities.map((violation, i) => ({ violation, messagesCount: Number((raw[i] as { messages_count?: unknown }).messages_count ?? 0) }));
}
