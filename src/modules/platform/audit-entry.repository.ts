import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { AuditEntry } from './audit-entry.entity';

/** The `platform_audit_entries` table: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class AuditEntryRepository extends ModuleRepository {
  /** One administrator's write in the scope's company, in the write's unit of work. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { adminId: SQL_SAMPLE.actorId, action: 'company.updated', targetType: 'company', targetId: SQL_SAMPLE.companyId, before: { name: 'A' }, after: { name: 'B' } }] })
  async insert(scope: Scope, entry: Pick<AuditEntry, 'adminId' | 'action' | 'targetType' | 'targetId' | 'before' | 'after'>): Promise<void> {
    await this.locked.insert(AuditEntry, { ...entry, companyId: scope.companyId });
  }

  /** The newest entries of the scope's company (`idx_platform_audit_entries_company`). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), 20] })
  latestOf(scope: Scope, take: number): Promise<AuditEntry[]> {
    return this.m.find(AuditEntry, { where: { companyId: scope.companyId }, order: { createdAt: 'DESC', id: 'DESC' }, take });
  }
}
