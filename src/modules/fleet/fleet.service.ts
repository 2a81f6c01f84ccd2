import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import type { BodyRef } from '../../common/access/tenant-policy';
import { InUseRegistry } from '../../common/records/in-use';
import { UnitOfWork } from '../../database/unit-of-work';
import { AssetSpecificationsService } from '../catalogue';
import { LotsService } from '../sites';
import { CreateTruckDto, CreateTruckTypeDto, TruckDto, TruckLocationDto, TruckQuery, TruckTypeDto, TruckTypeQuery, UpdateTruckDto, UpdateTruckTypeDto } from './fleet.dto';
import type { Truck, TruckType } from './fleet.entity';
import { type CarrierRow, TruckRepository } from './truck.repository';
import { TruckTypeRepository } from './truck-type.repository';

@Injectable()
export class TruckTypesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly truckTypes: TruckTypeRepository,
    private readonly specifications: AssetSpecificationsService,
  ) {}

  async list(scope: Scope, q: TruckTypeQuery): Promise<Page<TruckTypeDto>> {
    const page = await this.truckTypes.list(scope, q);
    return new Page(await this.render(page.items), page.meta);
  }

  async get(scope: Scope, id: string): Promise<TruckTypeDto> {
    const [dto] = await this.render([await this.truckTypes.find(scope, id)]);
    return dto;
  }

  async create(actor: Actor, scope: Scope, d: CreateTruckTypeDto): Promise<TruckTypeDto> {
    const t = await this.truckTypes.create(actor, scope, { name: d.name, capacityKg: d.capacity_kg }, { after: (_m, row) => this.replaceLinks(scope, row.id, d.asset_specification_ids ?? []) });
    return this.get(scope, t.id);
  }

  async update(actor: Actor, scope: Scope, id: string, d: UpdateTruckTypeDto): Promise<TruckTypeDto> {
    await this.truckTypes.update(actor, scope, id, { name: d.name, capacityKg: d.capacity_kg }, {
      after: async (_m, row) => {
        if (d.asset_specification_ids) await this.replaceLinks(scope, row.id, d.asset_specification_ids);
      },
    });
    return this.get(scope, id);
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.truckTypes.remove(actor, scope, id);
  }

  /** Body references must be the scope's live truck types (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.truckTypes.assertOwned(scope, refs);
  }

  /**
   * Replaces the specifications a truck type carries (the link table `truck_type_asset_specifications`
   * is this module's): the ids must be the company's live specifications (422 on
   * `asset_specification_ids.<i>`); a truck type the scope does not reach is 404 (it is locked until
   * the commit). In the caller's unit of work (one is opened when none is).
   */
  linkSpecifications(scope: Scope, truckTypeId: string, specIds: string[]): Promise<void> {
    return this.uow.transaction(async () => {
      await this.truckTypes.lock(scope, truckTypeId);
      await this.replaceLinks(scope, truckTypeId, specIds);
    });
  }

  /** `linkSpecifications` inside the open unit of work (the write of a truck type). */
  private async replaceLinks(scope: Scope, truckTypeId: string, specIds: string[]): Promise<void> {
    // catalogue's check still takes a manager: the unit's
    await this.specifications.assertOwned(scope, specIds.map((id, i) => ({ field: `asset_specification_ids.${i}`, id })));
    await this.truckTypes.replaceSpecifications(truckTypeId, specIds);
  }

  /** Truck types with their linked specification ids (one statement for the whole page). */
  private async render(rows: TruckType[]): Promise<TruckTypeDto[]> {
    const specIds = await this.truckTypes.specificationIds(rows.map((t) => t.id));
    return rows.map((t) => TruckTypeDto.of(t, specIds.get(t.id)!));
  }
}

/** The in-use registry names the lot by id only (its checks take no scope). */
const IN_USE_CHECK = SystemReach.of('an in-use check (the registry names the record by id)');

@Injectable()
export class TrucksService implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly trucks: TruckRepository,
    private readonly inUse: InUseRegistry,
    private readonly truckTypes: TruckTypesService,
    private readonly lots: LotsService,
  ) {}

  /** A live truck keeps its home lot from deletion. */
  onModuleInit(): void {
    this.inUse.register('lot', 'fleet', 'a live truck based at the lot', (_m, id) => this.trucks.basedAt(IN_USE_CHECK, id));
  }

  async list(scope: Scope, q: TruckQuery): Promise<Page<TruckDto>> {
    const page = await this.trucks.list(scope, q);
    return new Page(page.items.map(TruckDto.of), page.meta);
  }

  async get(scope: Scope, id: string): Promise<TruckDto> {
    return TruckDto.of(await this.trucks.find(scope, id));
  }

  async create(actor: Actor, scope: Scope, d: CreateTruckDto): Promise<TruckDto> {
    return TruckDto.of(await this.trucks.create(actor, scope, fields(d), { before: () => this.checkRefs(scope, d) }));
  }

  async update(actor: Actor, scope: Scope, id: string, d: UpdateTruckDto): Promise<TruckDto> {
    return TruckDto.of(await this.trucks.update(actor, scope, id, fields(d), { before: () => this.checkRefs(scope, d) }));
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.trucks.remove(actor, scope, id);
  }

  async setLocation(actor: Actor, scope: Scope, id: string, d: TruckLocationDto): Promise<TruckDto> {
    const truck = await this.uow.transaction(async () => this.trucks.savePosition(actor, await this.trucks.lock(scope, id), d.lat, d.lng));
    return TruckDto.of(truck);
  }

  /** Body references must be the scope's live trucks (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.trucks.assertOwned(scope, refs);
  }

  /**
   * Body references must be the scope's live trucks in service (status `active`), share-locked until
   * the commit: 422 on their fields otherwise (`not found`, or `is in maintenance`/`is retired`). One statement.
   */
  async assertActive(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows = await this.trucks.statuses(scope, ids);
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
  follow(scope: Scope, truckId: string, lat: number, lng: number, at: Date): Promise<void> {
    return this.trucks.follow(scope, truckId, lat, lng, at);
  }

  /** Plate, name and position of the scope's trucks by id (deleted ones too: jobs keep showing them). One statement. */
  async summaries(scope: Scope, ids: readonly string[]): Promise<Map<string, TruckSummary>> {
    if (!ids.length) return new Map();
    const rows = await this.trucks.summaries(scope, [...new Set(ids)]);
    return new Map(rows.map((t) => [t.id, { plate: t.plate, name: t.name, lat: t.lat, lng: t.lng }]));
  }

  /**
   * Trucks for dispatch: each must be the scope's live truck, in service (`active`) and of a type that
   * carries the specification, share-locked until the commit: 422 naming the field otherwise, with the
   * reason (`not found`, `is in maintenance`, `is retired`, `its type … does not carry this specification`). One statement.
   */
  async assertCarries(scope: Scope, refs: readonly (BodyRef & { specificationId: string })[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows = await this.trucks.carriersLocked(scope, ids);
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

  /** The scope's live trucks for dispatch (status, type with the specifications it carries, home lot, position), by plate. One statement. */
  async roster(scope: Scope): Promise<TruckForDispatch[]> {
    const rows = await this.trucks.carriers(scope);
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

  /** The type and home lot given must be the company's (422 otherwise). */
  private async checkRefs(scope: Scope, d: UpdateTruckDto): Promise<void> {
    await this.truckTypes.assertOwned(scope, [{ field: 'truck_type_id', id: d.truck_type_id }]);
    await this.lots.assertOwned(scope, [{ field: 'home_lot_id', id: d.home_lot_id }]);
  }
}

/** Plate, name and position of a truck (`TrucksService.summaries`). */
export interface TruckSummary {
  plate: string;
  name: string | null;
  lat: number | null;
  lng: number | null;
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

const specIdsOf = (r: CarrierRow): string[] => (r.spec_ids ? r.spec_ids.split(',').map((x) => x.toLowerCase()) : []);
