import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope, SystemReach } from '../../common/access/scope';
import { scopedQuery, type BodyRef } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { Truck } from './fleet.entity';
import type { TruckQuery } from './fleet.dto';

/** A truck with its type's name and carried specifications (`spec_ids`: comma-separated, in id order), as dispatch reads it. */
export interface CarrierRow {
  id: string;
  plate: string;
  name: string | null;
  status: string;
  truck_type_id: string;
  home_lot_id: string | null;
  lat: number | string | null;
  lng: number | string | null;
  type_name: string | null;
  spec_ids: string | null;
}

/** The company scope the statement snapshots run with (test/database/sql-snapshots.spec.ts). */
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** The `trucks` table (docs/data-layer.md). */
@Injectable()
export class TruckRepository extends ModuleRepository {
  private readonly records: CompanyRecords<Truck, 'truck'>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: Truck,
      what: 'Truck',
      event: 'truck',
      nullable: ['name', 'homeLotId', 'tareWeightKg'],
      unique: [{ property: 'plate', index: 'uq_trucks_plate', code: 'DUPLICATE_PLATE', message: 'A truck with this plate already exists.' }],
      // What other modules register (an unfinished job with the truck).
      inUse: (m, row) => inUse.isUsed(m, 'truck', row.id),
    });
  }

  /** A page of the scope's live trucks (filters: status, type, home lot, q on plate/name). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { status: 'active', truck_type_id: SQL_SAMPLE.id, home_lot_id: SQL_SAMPLE.otherId, q: 'AB', sort: 'plate' }] })
  list(scope: Scope, q: TruckQuery): Promise<Page<Truck>> {
    const qb = scopedQuery(this.m, Truck, scope, 't');
    if (q.status) qb.andWhere('t.status = :status', { status: q.status });
    if (q.truck_type_id) qb.andWhere('t.truckTypeId = :tt', { tt: q.truck_type_id });
    if (q.home_lot_id) qb.andWhere('t.homeLotId = :lot', { lot: q.home_lot_id });
    if (q.q) qb.andWhere('(t.plate ILIKE :q OR t.name ILIKE :q)', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', plate: 't.plate', name: 't.name', status: 't.status' } });
  }

  /** A live truck the scope reaches, else 404. */
  find(scope: Scope, id: string): Promise<Truck> {
    return this.records.find(scope.companyId, id, this.m);
  }

  /** A live truck the scope reaches, locked (FOR UPDATE) for the rest of the unit; else 404. */
  lock(scope: Scope, id: string): Promise<Truck> {
    return this.records.find(scope.companyId, id, this.locked, true);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { plate: 'AB-123', truckTypeId: SQL_SAMPLE.id }, {}] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<Truck>, hooks: WriteHooks<Truck, null>): Promise<Truck> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { plate: 'AB-123', truckTypeId: SQL_SAMPLE.id }, {}] })
  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<Truck>, hooks: WriteHooks<Truck, Truck>): Promise<Truck> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** Saves a locked truck's new position and records `truck.location_updated`. */
  @GenerateSql({ params: () => [SAMPLE_ACTOR, Object.assign(new Truck(), { id: SQL_SAMPLE.id, companyId: SQL_SAMPLE.companyId }), 45.5, -73.6] })
  async savePosition(actor: Pick<Actor, 'id'>, row: Truck, lat: number, lng: number): Promise<Truck> {
    Object.assign(row, { lat, lng, locationUpdatedAt: new Date() });
    const saved = await this.locked.save(row);
    await this.records.recordEvent(this.locked, actor, row, 'location_updated', { lat, lng });
    return saved;
  }

  /** Whether a live truck is based at the lot (its in-use check: the registry names the lot by id only). */
  @GenerateSql({ params: () => [SystemReach.of('an in-use check of a lot'), SQL_SAMPLE.id] })
  basedAt(reach: SystemReach, lotId: string): Promise<boolean> {
    return this.m.existsBy(Truck, { homeLotId: lotId });
  }

  /** Body references must be the scope's live trucks, share-locked until the commit (422 on their fields otherwise). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'truck_id', id: SQL_SAMPLE.id }]] })
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(this.m, scope.companyId, refs);
  }

  /** The status of each of the scope's live trucks among `ids`, share-locked (FOR SHARE) until the commit. One statement. */
  statuses(scope: Scope, ids: string[]): Promise<{ id: string; status: string }[]> {
    return scopedQuery(this.m, Truck, scope, 't')
      .select('t.id', 'id')
      .addSelect('t.status', 'status')
      .andWhere('t.id IN (:...truckIds)', { truckIds: ids })
      .setLock('pessimistic_read')
      .getRawMany();
  }

  /** Moves the truck to a point unless its last position is newer. One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, 45.5, -73.6, SQL_SAMPLE.at] })
  async follow(scope: Scope, truckId: string, lat: number, lng: number, at: Date): Promise<void> {
    await this.m
      .createQueryBuilder()
      .update(Truck)
      .set({ lat, lng, locationUpdatedAt: at })
      .where('id = :truckId AND company_id = :companyId', { truckId, companyId: scope.companyId })
      .andWhere('(location_updated_at IS NULL OR location_updated_at <= :at)', { at })
      .execute();
  }

  /** Plate, name and position of the scope's trucks by id, deleted ones too. One statement. */
  summaries(scope: Scope, ids: string[]): Promise<Pick<Truck, 'id' | 'plate' | 'name' | 'lat' | 'lng'>[]> {
    return this.m.find(Truck, { select: { id: true, plate: true, name: true, lat: true, lng: true }, where: { companyId: scope.companyId, id: In(ids) }, withDeleted: true });
  }

  /** The scope's live trucks among `ids` as carriers, share-locked (FOR SHARE, the trucks only) until the commit. One statement. */
  carriersLocked(scope: Scope, ids: string[]): Promise<CarrierRow[]> {
    return this.carrierQuery(scope).andWhere('t.id IN (:...truckIds)', { truckIds: ids }).setLock('pessimistic_read', undefined, ['t']).getRawMany<CarrierRow>();
  }

  /** The scope's live trucks as carriers, by plate. One statement. */
  carriers(scope: Scope): Promise<CarrierRow[]> {
    return this.carrierQuery(scope).orderBy('t.plate', 'ASC').addOrderBy('t.id', 'ASC').getRawMany<CarrierRow>();
  }

  private carrierQuery(scope: Scope) {
    return scopedQuery(this.m, Truck, scope, 't')
      .select(['t.id AS id', 't.plate AS plate', 't.name AS name', 't.status AS status', 't.truck_type_id AS truck_type_id', 't.home_lot_id AS home_lot_id', 't.lat AS lat', 't.lng AS lng'])
      .addSelect('(SELECT tt.name FROM truck_types tt WHERE tt.id = t.truck_type_id)', 'type_name')
      .addSelect(`(SELECT coalesce(string_agg(l.asset_specification_id::text, ',' ORDER BY l.asset_specification_id), '') FROM truck_type_asset_specifications l WHERE l.truck_type_id = t.truck_type_id)`, 'spec_ids');
  }
}
