import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { scopedQuery, type BodyRef } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { Truck, TruckType } from './fleet.entity';
import type { TruckTypeQuery } from './fleet.dto';

/** The company scope the statement snapshots run with (test/database/sql-snapshots.spec.ts). */
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** The `truck_types` table and its link table `truck_type_asset_specifications` (docs/data-layer.md). */
@Injectable()
export class TruckTypeRepository extends ModuleRepository {
  private readonly records: CompanyRecords<TruckType>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: TruckType,
      what: 'Truck type',
      event: 'truck_type',
      // While a live truck has this type, or what other modules register.
      inUse: async (m, row) => (await m.existsBy(Truck, { truckTypeId: row.id })) || (await inUse.isUsed(m, 'truck_type', row.id)),
    });
  }

  /** A page of the scope's live truck types (q on the name). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { q: 'roll', sort: 'name' }] })
  list(scope: Scope, q: TruckTypeQuery): Promise<Page<TruckType>> {
    const qb = scopedQuery(this.m, TruckType, scope, 't');
    if (q.q) qb.andWhere('t.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', name: 't.name', capacity_kg: 't.capacityKg' } });
  }

  /** A live truck type the scope reaches, else 404. */
  find(scope: Scope, id: string): Promise<TruckType> {
    return this.records.find(scope.companyId, id, this.m);
  }

  /** A live truck type the scope reaches, locked (FOR UPDATE) for the rest of the unit; else 404. */
  lock(scope: Scope, id: string): Promise<TruckType> {
    return this.records.find(scope.companyId, id, this.locked, true);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { name: 'Roll-off', capacityKg: 12000 }, {}] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<TruckType>, hooks: WriteHooks<TruckType, null>): Promise<TruckType> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Roll-off', capacityKg: 12000 }, {}] })
  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<TruckType>, hooks: WriteHooks<TruckType, TruckType>): Promise<TruckType> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** Body references must be the scope's live truck types, share-locked until the commit (422 on their fields otherwise). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'truck_type_id', id: SQL_SAMPLE.id }]] })
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(this.m, scope.companyId, refs);
  }

  /** The linked specification ids of each truck type, in id order (one statement for a whole page). */
  async specificationIds(truckTypeIds: string[]): Promise<Map<string, string[]>> {
    const ids = new Map<string, string[]>(truckTypeIds.map((id) => [id, []]));
    if (!truckTypeIds.length) return ids;
    const rows = await this.sql<{ owner: string; spec: string }>(
      'SELECT truck_type_id AS owner, asset_specification_id AS spec FROM truck_type_asset_specifications WHERE truck_type_id = ANY($1::uuid[]) ORDER BY asset_specification_id',
      [truckTypeIds],
    );
    for (const r of rows) ids.get(r.owner)?.push(r.spec);
    return ids;
  }

  /** Replaces a truck type's linked specifications (the caller checked them and holds the truck type's row lock). */
  async replaceSpecifications(truckTypeId: string, specIds: string[]): Promise<void> {
    await this.locked.query('DELETE FROM truck_type_asset_specifications WHERE truck_type_id = $1', [truckTypeId]);
    if (specIds.length) await this.locked.query('INSERT INTO truck_type_asset_specifications (truck_type_id, asset_specification_id) SELECT $1, unnest($2::uuid[])', [truckTypeId, specIds]);
  }
}
