import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { DisputeMessage } from './accountability.entities';

/** The message's violation (alias x) was not removed by replacing its order's set. */
const LIVE_VIOLATION = 'EXISTS (SELECT 1 FROM customer_policy_violations v WHERE v.id = x.violation_id AND v.deleted_at IS NULL)';

/** The columns a new dispute message is inserted with (its company: the scope's). */
export type NewDisputeMessage = Pick<DisputeMessage, 'violationId' | 'customerId' | 'authorType' | 'authorId' | 'body' | 'evidenceMediaIds' | 'resolution'>;

/** Dispute messages of violations (`policy_violation_dispute_messages`): the module's SQL for them (docs/data-layer.md). */
@Injectable()
export class DisputeMessageRepository extends ModuleRepository {
  /** The violation's messages `scope` reaches, oldest first. */
  ofViolation(scope: Scope, violationId: string): Promise<DisputeMessage[]> {
    return scopedQuery(this.m, DisputeMessage, scope, 'x').andWhere('x.violationId = :violationId', { violationId }).orderBy('x.createdAt', 'ASC').addOrderBy('x.id', 'ASC').getMany();
  }

  /** One message `scope` reaches, of a violation not removed; null otherwise. */
  findLive(scope: Scope, id: string): Promise<DisputeMessage | null> {
    return scopedQuery(this.m, DisputeMessage, scope, 'x').andWhere('x.id = :id', { id }).andWhere(LIVE_VIOLATION).getOne();
  }

  /** One message `scope` reaches; else 404. */
  find(scope: Scope, id: string): Promise<DisputeMessage> {
    return findScoped(this.m, DisputeMessage, scope, id, { what: 'Dispute message' });
  }

  /** One message `scope` reaches, locked (FOR UPDATE); else 404. */
  lock(scope: Scope, id: string): Promise<DisputeMessage> {
    return findScoped(this.locked, DisputeMessage, scope, id, { what: 'Dispute message', lock: true });
  }

  /** A message of a violation of the scope's company. */
  @GenerateSql({ params: () => [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.otherId), { violationId: SQL_SAMPLE.id, customerId: SQL_SAMPLE.otherId, authorType: 'customer', authorId: SQL_SAMPLE.otherId, body: 'Not mine', evidenceMediaIds: [], resolution: null }] })
  async insert(scope: Scope, x: NewDisputeMessage): Promise<string> {
    const inserted = await this.locked.insert(DisputeMessage, { ...x, companyId: scope.companyId, editedAt: null });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** Changes a message `scope` reaches (locked by `lock` in the caller's unit); 404 for a scope that reaches none. */
  @GenerateSql({ params: () => [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.otherId), SQL_SAMPLE.id, { body: 'Edited', editedAt: SQL_SAMPLE.at }] })
  async update(scope: Scope, id: string, changes: Partial<Pick<DisputeMessage, 'body' | 'evidenceMediaIds' | 'editedAt' | 'deletedAt'>>): Promise<void> {
    const where = scopeWhere(this.locked, DisputeMessage, scope);
    if (!where) throw ApiError.notFound('Dispute message');
    await this.locked.update(DisputeMessage, { ...where, id }, changes);
  }
}
