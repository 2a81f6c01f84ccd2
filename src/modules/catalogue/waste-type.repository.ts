import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { PlatformReach, type BodyRef } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { WasteType } from './catalogue.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** The filters of the waste-type lists (the company's, the customer's, the administrators'). */
export interface WasteTypeFilters {
  hazardous?: boolean;
  active?: boolean;
  q?: string;
  sort?: string;
  page?: number;
  per_page?: number;
}

/** The `waste_types` table (the company's records: tenancy, unique code, IN_USE on delete, events). Runs in the open unit of work. */
@Injectable()
export class WasteTypeRepository extends ModuleRepository {
  private readonly records: CompanyRecords<WasteType>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: WasteType,
      what: 'Waste type',
      event: 'waste_type',
      nullable: ['description'],
      unique: [{ property: 'code', index: 'uq_waste_types_company_code', code: 'DUPLICATE_CODE', message: 'A waste type with this code already exists.' }],
      // Allowed in a live specification, or what other modules register (accepted by a live station).
      inUse: async (m, row) => {
        const [hit] = await m.query<{ '?column?': number }[]>(
          `SELECT 1 FROM asset_specification_waste_types l JOIN asset_specifications s ON s.id = l.asset_specification_id AND s.deleted_at IS NULL
            WHERE l.waste_type_id = $1 LIMIT 1`,
          [row.id],
        );
        return !!hit || (await inUse.isUsed(m, 'waste_type', row.id));
      },
    });
  }

  /**
   * A page of the live waste types of the scope's company (or of the companies an administrator's
   * `reach` covers); filters hazardous, active, `q` on name or code.
   */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { hazardous: true, active: true, q: 'deb', sort: 'name' }, 'name'] })
  page(who: Scope | PlatformReach, query: WasteTypeFilters, defaultSort?: string): Promise<Page<WasteType>> {
    const qb = this.records.query(who instanceof PlatformReach ? who : who.companyId, 'e', this.m);
    if (query.hazardous !== undefined) qb.andWhere('e.hazardous = :hazardous', { hazardous: query.hazardous });
    if (query.active !== undefined) qb.andWhere('e.active = :active', { active: query.active });
    if (query.q) qb.andWhere('(e.name ILIKE :q OR e.code ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name', code: 'e.code' }, ...(defaultSort ? { defaultSort } : {}) });
  }

  /** A live waste type of the scope's company, else 404. */
  find(scope: Scope, id: string): Promise<WasteType> {
    return this.records.find(scope.companyId, id, this.m);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { name: 'Debris', code: 'CND' }] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<WasteType>): Promise<WasteType> {
    return this.records.create(actor, scope.companyId, values);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Debris', code: 'CND' }] })
  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<WasteType>): Promise<WasteType> {
    return this.records.update(actor, scope.companyId, id, values);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** Body references must be the company's live waste types (share-locked until the commit): 422 `not found` on their fields otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'waste_type_ids.0', id: SQL_SAMPLE.id }]] })
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(this.m, scope.companyId, refs);
  }

  /** Of `ids`, those that are live waste types of the company. */
  liveIds(scope: Scope, ids: readonly string[]): Promise<Pick<WasteType, 'id'>[]> {
    return this.m.find(WasteType, { select: { id: true }, where: { companyId: scope.companyId, id: In([...ids]) } });
  }

  /** Id and name of the scope's company's waste types (deleted ones too, for history), by name then id. */
  refs(scope: Scope, ids: readonly string[]): Promise<Pick<WasteType, 'id' | 'name'>[]> {
    return this.m.find(WasteType, { select: { id: true, name: true }, where: { companyId: scope.companyId, id: In([...ids]) }, withDeleted: true, order: { name: 'ASC', id: 'ASC' } });
  }
}
