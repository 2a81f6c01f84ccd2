import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import type { BodyRef } from '../../common/access/tenant-policy';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { SpecificationLinks } from '../catalogue';
import { LotsService } from '../sites';
import { CreateTruckDto, CreateTruckTypeDto, TruckDto, TruckLocationDto, TruckQuery, TruckTypeDto, TruckTypeQuery, UpdateTruckDto, UpdateTruckTypeDto } from './fleet.dto';
import { Truck, TruckType } from './fleet.entity';
import { runUnit } from '../../database/unit-of-work';

const LINKS = new SpecificationLinks('truck_type_asset_specifications', 'truck_type_id');

@Injectable()
export class TruckTypesService {
  private readonly records: CompanyRecords<TruckType>;
  constructor(
    private readonly ds: DataSource,
    inUse: InUseRegistry,
  ) {
    this.records = new CompanyRecords(ds, {
      entity: TruckType,
      what: 'Truck type',
      event: 'truck_type',
      // While a live truck has this type, or what other modules register.
      inUse: async (m, row) => (await m.existsBy(Truck, { truckTypeId: row.id })) || (await inUse.isUsed(m, 'truck_type', row.id)),
    });
  }

  async list(companyId: string, q: TruckTypeQuery): Promise<Page<TruckTypeDto>> {
    const qb = this.records.query(companyId, 't');
    if (q.q) qb.andWhere('t.name ILIKE :q', { q: likePattern(q.q) });
    const page = await paginate(qb, q, { sortable: { created_at: 't.createdAt', name: 't.name', capacity_kg: 't.capacityKg' } });
    return new Page(await LINKS.render(this.ds.manager, page.items, TruckTypeDto.of), page.meta);
  }

  async get(companyId: string, id: string): Promise<TruckTypeDto> {
    const [dto] = await LINKS.render(this.ds.manager, [await this.records.find(companyId, id)], TruckTypeDto.of);
    return dto;
  }

  async create(actor: Actor, companyId: string, d: CreateTruckTypeDto): Promise<TruckTypeDto> {
    const t = await this.records.create(actor, companyId, { name: d.name, capacityKg: d.capacity_kg }, { after: (m, row) => LINKS.replace(m, row, d.asset_specification_ids ?? []) });
    return this.get(companyId, t.id);
  }

  async update(actor: Actor, companyId: string, id: string, d: UpdateTruckTypeDto): Promise<TruckTypeDto> {
    await this.records.update(actor, companyId, id, { name: d.name, capacityKg: d.capacity_kg }, {
      after: async (m, row) => {
        if (d.asset_specification_ids) await LINKS.replace(m, row, d.asset_specification_ids);
      },
    });
    return this.get(companyId, id);
  }

  remove(actor: Actor, companyId: string, id: string): Promise<void> {
    return this.records.remove(actor, companyId, id);
  }

  /** Body references must be the company's live truck types (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }
}

@Injectable()
export class TrucksService implements OnModuleInit {
  private readonly records: CompanyRecords<Truck, 'truck'>;
  constructor(
    private readonly ds: DataSource,
    private readonly inUse: InUseRegistry,
    private readonly truckTypes: TruckTypesService,
    private readonly lots: LotsService,
  ) {
    this.records = new CompanyRecords(ds, {
      entity: Truck,
      what: 'Truck',
      event: 'truck',
      nullable: ['name', 'homeLotId', 'tareWeightKg'],
      unique: [{ property: 'plate', index: 'uq_trucks_plate', code: 'DUPLICATE_PLATE', message: 'A truck with this plate already exists.' }],
      // What other modules register (an unfinished job with the truck).
      inUse: (m, row) => this.inUse.isUsed(m, 'truck', row.id),
    });
  }

  /** A live truck keeps its home lot from deletion. */
  onModuleInit(): void {
    this.inUse.register('lot', 'fleet', 'a live truck based at the lot', (m, id) => m.existsBy(Truck, { homeLotId: id }));
  }

  list(companyId: string, q: TruckQuery) {
    const qb = this.records.query(companyId, 't');
    if (q.status) qb.andWhere('t.status = :status', { status: q.status });
    if (q.truck_type_id) qb.andWhere('t.truckTypeId = :tt', { tt: q.truck_type_id });
    if (q.home_lot_id) qb.andWhere('t.homeLotId = :lot', { lot: q.home_lot_id });
    if (q.q) qb.andWhere('(t.plate ILIKE :q OR t.name ILIKE :q)', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', plate: 't.plate', name: 't.name', status: 't.status' }, map: TruckDto.of });
  }

  async get(companyId: string, id: string): Promise<TruckDto> {
    return TruckDto.of(await this.records.find(companyId, id));
  }

  async create(actor: Actor, companyId: string, d: CreateTruckDto): Promise<TruckDto> {
    return TruckDto.of(await this.records.create(actor, companyId, fields(d), { before: (m) => this.checkRefs(m, companyId, d) }));
  }

  async update(actor: Actor, companyId: string, id: string, d: UpdateTruckDto): Promise<TruckDto> {
    return TruckDto.of(await this.records.update(actor, companyId, id, fields(d), { before: (m) => this.checkRefs(m, companyId, d) }));
  }

  remove(actor: Actor, companyId: string, id: string): Promise<void> {
    return this.records.remove(actor, companyId, id);
  }

  async setLocation(actor: Actor, companyId: string, id: string, d: TruckLocationDto): Promise<TruckDto> {
    const truck = await runUnit(this.ds, async (m) => {
      const row = await this.records.find(companyId, id, m, true);
      Object.assign(row, { lat: d.lat, lng: d.lng, locationUpdatedAt: new Date() });
      const saved = await m.save(row);
      await this.records.recordEvent(m, actor, row, 'location_updated', { lat: d.lat, lng: d.lng });
      return saved;
    });
    return TruckDto.of(truck);
  }

  /** Body references must be the company's live trucks (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }

  /**
   * Body references must be the company's live trucks in service (status `active`), share-locked until
   * the commit: 422 on their fields otherwise (`not found`, or `is in maintenance`/`is retired`). One statement.
   */
  async assertActive(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows: { id: string; status: string }[] = await this.records
      .query(companyId, 't', m)
      .select('t.id', 'id')
      .addSelect('t.status', 'status')
      .andWhere('t.id IN (:...truckIds)', { truckIds: ids })
      .setLock('pessimistic_read')
      .getRawMany();
    const status = new Map(rows.map((r) => [r.id.toLowerCase(), r.status]));
    const errors: Record<string, string[]> = {};
    for (const r of refs) {
      const s = r.id ? status.get(r.id.toLowerCase()) : 'active';
      if (s !== 'active') errors[r.field] = [s === undefined ? 'not found' : s === 'maintenance' ? 'is in maintenance' : `is ${s}`];
    }
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  /**
   * Dispatch: the truck's position follows the points its driver sends (no event: points come up to
   * once a second). A point older than the truck's last position is ignored. One statement.
   */
  async follow(m: EntityManager, companyId: string, truckId: string, lat: number, lng: number, at: Date): Promise<void> {
    await m
      .createQueryBuilder()
      .update(Truck)
      .set({ lat, lng, locationUpdatedAt: at })
      .where('id = :truckId AND company_id = :companyId', { truckId, companyId })
      .andWhere('(location_updated_at IS NULL OR location_updated_at <= :at)', { at })
      .execute();
  }

  /** Plate, name and position of the company's trucks by id (deleted ones too: jobs keep showing them). One statement. */
  async summaries(companyId: string, ids: readonly string[], m: EntityManager = this.ds.manager): Promise<Map<string, { plate: string; name: string | null; lat: number | null; lng: number | null }>> {
    if (!ids.length) return new Map();
    const rows = await m.find(Truck, { select: { id: true, plate: true, name: true, lat: true, lng: true }, where: { companyId, id: In([...new Set(ids)]) }, withDeleted: true });
    return new Map(rows.map((t) => [t.id, { plate: t.plate, name: t.name, lat: t.lat, lng: t.lng }]));
  }

  /**
   * Trucks for dispatch: each must be the company's live truck, in service (`active`) and of a type that
   * carries the specification, share-locked until the commit: 422 naming the field otherwise, with the
   * reason (`not found`, `is in maintenance`, `is retired`, `its type … does not carry this specification`). One statement.
   */
  async assertCarries(m: EntityManager, companyId: string, refs: readonly (BodyRef & { specificationId: string })[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows = await this.carrierQuery(m, companyId).andWhere('t.id IN (:...truckIds)', { truckIds: ids }).setLock('pessimistic_read', undefined, ['t']).getRawMany<CarrierRow>();
    const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
    const errors: Record<string, string[]> = {};
    for (const r of refs) {
      if (!r.id) continue;
      const t = byId.get(r.id.toLowerCase());
      const reason = !t
        ? 'not found'
        : t.status !== 'active'
          ? t.status === 'maintenance'
            ? 'is in maintenance'
            : `is ${t.status}`
          : !specIdsOf(t).includes(r.specificationId.toLowerCase())
            ? `its type (${t.type_name ?? 'none'}) does not carry this asset specification`
            : null;
      if (reason) errors[r.field] = [reason];
    }
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  /** The company's live trucks for dispatch (status, type with the specifications it carries, home lot, position), by plate. One statement. */
  async roster(companyId: string, m: EntityManager = this.ds.manager): Promise<TruckForDispatch[]> {
    const rows = await this.carrierQuery(m, companyId).orderBy('t.plate', 'ASC').addOrderBy('t.id', 'ASC').getRawMany<CarrierRow>();
    return rows.map((r) => ({
      id: r.id,
      plate: r.plate,
      name: r.name,
      status: r.status,
      truckTypeId: r.truck_type_id,
      truckTypeName: r.type_name ?? '',
      specificationIds: specIdsOf(r),
      homeLotId: r.home_lot_id,
      lat: r.lat === null ? null : Number(r.lat),
      lng: r.lng === null ? null : Number(r.lng),
    }));
  }

  private carrierQuery(m: EntityManager, companyId: string) {
    return this.records
      .query(companyId, 't', m)
      .select(['t.id AS id', 't.plate AS plate', 't.name AS name', 't.status AS status', 't.truck_type_id AS truck_type_id', 't.home_lot_id AS home_lot_id', 't.lat AS lat', 't.lng AS lng'])
      .addSelect('(SELECT tt.name FROM truck_types tt WHERE tt.id = t.truck_type_id)', 'type_name')
      .addSelect(`(SELECT coalesce(string_agg(l.asset_specification_id::text, ',' ORDER BY l.asset_specification_id), '') FROM truck_type_asset_specifications l WHERE l.truck_type_id = t.truck_type_id)`, 'spec_ids');
  }

  /** The type and home lot given must be the company's (422 otherwise). */
  private async checkRefs(m: EntityManager, companyId: string, d: UpdateTruckDto): Promise<void> {
    await this.truckTypes.assertOwned(m, companyId, [{ field: 'truck_type_id', id: d.truck_type_id }]);
    await this.lots.assertOwned(Scope.company(companyId), [{ field: 'home_lot_id', id: d.home_lot_id }]);
  }
}

const fields = (d: UpdateTruckDto): Partial<Truck> => ({
  plate: d.plate,
  name: d.name,
  truckTypeId: d.truck_type_id,
  homeLotId: d.home_lot_id,
  tareWeightKg: d.tare_weight_kg,
  status: d.status,
});

/** A truck as dispatch sees it (`TrucksService.roster`). */
export interface TruckForDispatch {
  id: string;
  plate: string;
  name: string | null;
  status: string;
  truckTypeId: string;
  truckTypeName: string;
  /** The asset specifications its type carries. */
  specificationIds: string[];
  homeLotId: string | null;
  lat: number | null;
  lng: number | null;
}

interface CarrierRow {
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

const specIdsOf = (r: CarrierRow): string[] => (r.spec_ids ? r.spec_ids.split(',').map((x) => x.toLowerCase()) : []);
