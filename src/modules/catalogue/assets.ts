import { Body, Controller, Delete, Get, Injectable, OnModuleInit, Put, Post, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsNumber, Matches, Max, Min } from 'class-validator';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Page, withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
import { PlanLimits } from '../../common/records/plan-limits';
import type { PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import { InUseRegistry } from '../../common/records/in-use';
import { EnumField, EnumQuery, PartialInput, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { CurrentScope, Scope, SystemReach } from '../../common/access/scope';
import { AssetPlaces } from './asset-places';
import { AssetRepository } from './asset.repository';
import { ContainerCalendar } from './container-calendar';
import { AssetSpecificationsService } from './asset-specifications';
import { ASSET_CONDITIONS, ASSET_STATUSES, LOCATION_TYPES, type Asset, type AssetCondition, type AssetStatus, type LocationType } from './catalogue.entities';
import { UnitOfWork } from '../../database/unit-of-work';

/** Statuses a company user may set by hand; the others come from jobs. */
export const MANUAL_STATUSES = ['available', 'maintenance', 'retired'] as const;
/** Hand-made status changes: `from` → allowed `to`. */
const MANUAL_TRANSITIONS: Partial<Record<AssetStatus, AssetStatus[]>> = {
  available: ['maintenance', 'retired'],
  full_in_yard: ['maintenance', 'retired'],
  maintenance: ['available', 'retired'],
};

export class CreateAssetDto {
  @TextField({ max: 50, example: 'RO20-0042', description: 'Unique per company (case-insensitive).' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.\-/]*$/, { message: 'may contain only letters, digits, ".", "_", "-" and "/"' })
  code: string;
  @TextField({ nullable: true, emptyClears: true, max: 100, example: 'SN-99812' }) serial?: string | null;
  @UuidField() asset_specification_id: string;
  @UuidField({ nullable: true }) home_lot_id?: string | null;
  @EnumField(ASSET_CONDITIONS, { optional: true, default: 'good' }) condition?: AssetCondition;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) notes?: string | null;
}

export class UpdateAssetDto extends PartialInput(CreateAssetDto) {
  @EnumField(MANUAL_STATUSES, {
    optional: true,
    description: 'Only maintenance and retired by hand (and available again from maintenance); other statuses come from jobs.',
  })
  status?: AssetStatus;
}

export class AssetLocationDto {
  @ApiProperty({ minimum: -90, maximum: 90, example: 41.8781 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-90) @Max(90) lat: number;
  @ApiProperty({ minimum: -180, maximum: 180, example: -87.6298 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-180) @Max(180) lng: number;
  @EnumField(LOCATION_TYPES) location_type: LocationType;
  @UuidField({ description: "The lot, customer address, station or truck (of the caller's company)." }) location_id: string;
}

export class AssetQuery extends PageQuery {
  @EnumQuery(ASSET_STATUSES) status?: AssetStatus;
  @UuidQuery() asset_specification_id?: string;
  @UuidQuery() home_lot_id?: string;
  @EnumQuery(ASSET_CONDITIONS) condition?: AssetCondition;
}

export class AssetDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() code: string;
  @ApiPropertyOptional({ nullable: true, type: String }) serial: string | null;
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) home_lot_id: string | null;
  @ApiProperty({ enum: ASSET_CONDITIONS }) condition: string;
  @ApiProperty({ enum: ASSET_STATUSES }) status: string;
  @ApiPropertyOptional({ nullable: true, type: String }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lat: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lng: number | null;
  @ApiPropertyOptional({ enum: LOCATION_TYPES, nullable: true }) location_type: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) location_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) location_updated_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(a: Asset): AssetDto {
    return {
      id: a.id,
      code: a.code,
      serial: a.serial,
      asset_specification_id: a.assetSpecificationId,
      home_lot_id: a.homeLotId,
      condition: a.condition,
      status: a.status,
      notes: a.notes,
      lat: a.lat,
      lng: a.lng,
      location_type: a.locationType,
      location_id: a.locationId,
      location_updated_at: a.locationUpdatedAt ? a.locationUpdatedAt.toISOString() : null,
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    };
  }
}

/** What a reservation for a job names (`AssetsService#reserve`): the order's hold on the calendar and the job. */
export interface AssetReservation {
  companyId: string;
  orderId: string;
  specificationId: string;
  lotId: string | null;
  assetId?: string | null;
  jobId: string;
  /** The first day the container is out (the order's delivery date). */
  from: string;
  /** The order's pickup date; null: open-ended. */
  to: string | null;
}

/** An asset's move by a job: its new status and, when given, its new place. */
export interface AssetMove {
  assetId: string;
  to: AssetStatus;
  place: { type: LocationType; id: string; lat: number | null; lng: number | null } | null;
}

/** The days of [from, to], both included (a refusal names them). */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t <= end && out.length < 366; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The in-use registry names the lot or station by id only (its checks take no scope). */
const IN_USE_CHECK = SystemReach.of('an in-use check (the registry names the record by id)');

@Injectable()
export class AssetsService implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly inUse: InUseRegistry,
    private readonly specs: AssetSpecificationsService,
    /** Lots, stations, trucks and customer addresses, checked by the modules owning them. */
    private readonly places: AssetPlaces,
    private readonly limits: PlanLimits,
    private readonly assets: AssetRepository,
    private readonly calendar: ContainerCalendar,
  ) {}

  /** Live assets keep their home lot, and the lot or station they are at, from deletion. */
  onModuleInit(): void {
    this.inUse.register('lot', 'catalogue', 'a live asset based at or located at the lot', (_m, id) => this.assets.atLot(IN_USE_CHECK, id));
    this.inUse.register('station', 'catalogue', 'a live asset located at the station', (_m, id) => this.assets.atStation(IN_USE_CHECK, id));
  }

  /**
   * Takes assets off their orders' holds (`pins`: the asset and the order it was pinned for), in the caller's
   * unit of work; a `reserved` asset no other order holds goes back to available (an asset already out on
   * site keeps its status). One statement.
   */
  async releaseReserved(scope: Scope, pins: readonly { assetId: string; orderId: string }[]): Promise<void> {
    if (pins.length) await this.assets.releaseReserved(scope, pins.map((p) => p.assetId), pins.map((p) => p.orderId));
  }

  /**
   * Reserves an asset of the specification for a job on the container calendar, in one statement: the
   * order's hold is (re)set to its dates, then the chosen asset (`assetId`: the company's, of the
   * specification, not in maintenance or retired, and no other order's hold on it meets the order's
   * days), or else the first such one, preferring those based at `lotId`, then by code. An asset out on
   * another order until before the order's first day is free for it. Concurrent callers queue on the
   * specification's row lock (`catalogue_pin_container`). 409 `NO_CONTAINER_AVAILABLE` (the days) when no
   * container is free, `ASSET_UNAVAILABLE` when the chosen one is not. An available asset becomes
   * `reserved`, with its history row and event.
   */
  async reserve(r: AssetReservation): Promise<string> {
    const scope = Scope.company(r.companyId);
    const pin = await this.calendar.pin(scope, { orderId: r.orderId, specificationId: r.specificationId, lotId: r.lotId, from: r.from, to: r.to }, r.assetId ?? null);
    if (pin.busy.length) throw ContainerCalendar.refusal(r.specificationId, pin.busy);
    if (!pin.assetId) {
      if (r.assetId) throw ApiError.conflict('ASSET_UNAVAILABLE', 'The chosen asset is not available (another order holds it on these dates, or it is in maintenance, retired or of another specification).');
      throw ContainerCalendar.refusal(r.specificationId, r.to ? daysOf(r.from, r.to) : [r.from]);
    }
    if (pin.fromStatus === 'available') await this.recordJobMoves(scope, [{ assetId: pin.assetId, from: 'available', to: 'reserved', place: null }], r.jobId);
    return pin.assetId;
  }

  /**
   * Moves assets for a job (dispatch): status and, when given, the place (type, id, position), each
   * with a history row and an `asset.moved_by_job` event, in the caller's unit of work.
   */
  async moveForJob(scope: Scope, jobId: string, moves: readonly AssetMove[]): Promise<void> {
    if (!moves.length) return;
    const current = await this.assets.lockMany(scope, moves.map((x) => x.assetId));
    const from = new Map(current.map((a) => [a.id, a.status]));
    for (const x of moves) {
      if (!from.has(x.assetId)) throw ApiError.notFound('Asset');
      const set: Partial<Asset> = { status: x.to };
      if (x.place) Object.assign(set, { locationType: x.place.type, locationId: x.place.id, lat: x.place.lat, lng: x.place.lng, locationUpdatedAt: new Date() });
      await this.assets.update(scope, x.assetId, set);
    }
    await this.recordJobMoves(scope, moves.map((x) => ({ assetId: x.assetId, from: from.get(x.assetId) ?? null, to: x.to, place: x.place })), jobId);
  }

  /** Dispatch: the company's live assets of a specification, by code (bounded by the company's fleet). One statement. */
  async ofSpecification(scope: Scope, specificationId: string): Promise<AssetDto[]> {
    const rows = await this.assets.ofSpecification(scope, specificationId);
    return rows.map(AssetDto.of);
  }

  /** The history of an asset's moves by jobs, oldest first. */
  async history(scope: Scope, assetId: string): Promise<{ from: AssetStatus | null; to: AssetStatus; location_type: LocationType | null; location_id: string | null; job_id: string | null; at: string }[]> {
    const rows = await this.assets.history(scope, assetId);
    return rows.map((r) => ({ from: r.fromStatus, to: r.toStatus, location_type: r.locationType, location_id: r.locationId, job_id: r.jobId, at: r.createdAt.toISOString() }));
  }

  /** Code and status of the company's assets by id (deleted ones too: jobs keep showing them), for dispatch's job views. One statement. */
  async summaries(scope: Scope, ids: readonly string[]): Promise<Map<string, { id: string; code: string; status: AssetStatus }>> {
    if (!ids.length) return new Map();
    const rows = await this.assets.summaries(scope, ids);
    return new Map(rows.map((a) => [a.id, { id: a.id, code: a.code, status: a.status }]));
  }

  private async recordJobMoves(scope: Scope, moves: { assetId: string; from: AssetStatus | null; to: AssetStatus; place: AssetMove['place'] }[], jobId: string): Promise<void> {
    const companyId = scope.companyId;
    await this.assets.insertHistory(
      scope,
      moves.map((x) => ({ assetId: x.assetId, fromStatus: x.from, toStatus: x.to, locationType: x.place?.type ?? null, locationId: x.place?.id ?? null, lat: x.place?.lat ?? null, lng: x.place?.lng ?? null, jobId })),
    );
    await this.assets.recordEvents(
      ...moves.map((x) => ({
        type: 'asset.moved_by_job' as const,
        aggregateType: 'asset',
        aggregateId: x.assetId,
        companyId,
        payload: { job_id: jobId, from: x.from ?? x.to, to: x.to, location_type: x.place?.type ?? null, location_id: x.place?.id ?? null },
      })),
    );
  }

  async list(scope: Scope, query: AssetQuery): Promise<Page<AssetDto>> {
    const page = await this.assets.page(scope, query);
    return new Page(page.items.map(AssetDto.of), page.meta);
  }

  /** The assets of the companies an administrator's `reach` covers, each with its company. */
  async listAcross(reach: PlatformReach, query: AssetQuery): Promise<Page<AssetDto & { company_id: string }>> {
    const page = await this.assets.page(reach, query);
    return new Page(page.items.map((a) => ({ ...AssetDto.of(a), company_id: a.companyId })), page.meta);
  }

  /** The company of a live asset, or null: an administrator names one by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.assets.companyOf(id);
  }

  /** One live asset of the company (404 otherwise), in the open unit of work if any. */
  async get(scope: Scope, id: string): Promise<AssetDto> {
    return AssetDto.of(await this.assets.find(scope, id));
  }

  /** `audit` (platform administration) records the write in its transaction. */
  async create(actor: Pick<Actor, 'id'>, scope: Scope, dto: CreateAssetDto, audit?: WriteAudit): Promise<AssetDto> {
    const values: Partial<Asset> = { ...assetValues(dto), status: 'available' };
    const row = await this.assets.create(actor, scope, values, {
      ...(audit && { audit: { write: audit, view: AssetDto.of } }),
      before: async (m) => {
        // The company's plan limits its live assets (403 PLAN_LIMIT; README "Subscriptions and plans").
        await this.limits.assertBelow(scope, 'assets', () => this.assets.countLive(scope));
        await this.specs.assertOwned(scope, [{ field: 'asset_specification_id', id: dto.asset_specification_id }]);
        if (dto.home_lot_id) {
          // A new asset starts at its home lot (`values` is read after this check).
          const lot = await this.places.positionOf(scope, 'lot', dto.home_lot_id, 'home_lot_id');
          Object.assign(values, { lat: lot.latitude, lng: lot.longitude, locationType: 'lot', locationId: dto.home_lot_id, locationUpdatedAt: new Date() });
        }
      },
    });
    return AssetDto.of(row);
  }

  async update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, dto: UpdateAssetDto, audit?: WriteAudit): Promise<AssetDto> {
    const row = await this.assets.updateRecord(actor, scope, id, { ...assetValues(dto), status: dto.status }, {
      ...(audit && { audit: { write: audit, view: AssetDto.of } }),
      before: async (_m, current) => {
        await this.specs.assertOwned(scope, [{ field: 'asset_specification_id', id: dto.asset_specification_id }]);
        await this.places.assertOwned(scope, 'lot', [{ field: 'home_lot_id', id: dto.home_lot_id }]);
        if (dto.status && dto.status !== current.status) {
          if (!MANUAL_TRANSITIONS[current.status]?.includes(dto.status)) throw ApiError.invalidTransition(current.status, dto.status, 'Asset');
          await this.assets.recordEvent(actor, current, 'status_changed', { from: current.status, to: dto.status });
        }
      },
    });
    return AssetDto.of(row);
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.assets.remove(actor, scope, id);
  }

  async moveTo(actor: Actor, scope: Scope, id: string, dto: AssetLocationDto): Promise<AssetDto> {
    const row = await this.uow.transaction(async () => {
      const asset = await this.assets.find(scope, id, true);
      await this.places.assertOwned(scope, dto.location_type, [{ field: 'location_id', id: dto.location_id }]);
      Object.assign(asset, { lat: dto.lat, lng: dto.lng, locationType: dto.location_type, locationId: dto.location_id, locationUpdatedAt: new Date(), updatedAt: new Date() });
      const saved = await this.assets.save(asset);
      await this.assets.recordEvent(actor, asset, 'location_updated', { lat: dto.lat, lng: dto.lng, location_type: dto.location_type, location_id: dto.location_id });
      return saved;
    });
    return AssetDto.of(row);
  }
}


const assetValues = (dto: UpdateAssetDto): Partial<Asset> => ({
  code: dto.code,
  serial: dto.serial,
  assetSpecificationId: dto.asset_specification_id,
  homeLotId: dto.home_lot_id,
  condition: dto.condition,
  notes: dto.notes,
});

@ApiTags('Assets')
@Controller('api/v1')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Get('assets')
  @Access('CO')
  @Endpoint({ summary: 'List assets (filters: status, asset_specification_id, home_lot_id, condition, q on code/serial)', type: AssetDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: AssetQuery) {
    return this.assets.list(scope, query);
  }

  @Post('assets')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset (status available; located at its home lot when given)', description: "Past the company's plan limit on assets: 403 `PLAN_LIMIT` (`errors.limit`).", type: AssetDto, status: 201, errors: [403, 409, 422], codes: { 403: ['PLAN_LIMIT'], 409: ['DUPLICATE_CODE', 'DUPLICATE_SERIAL'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateAssetDto) {
    return this.assets.create(actor, scope, dto);
  }

  @Get('assets/:asset')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset', type: AssetDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('asset') id: string) {
    return this.assets.get(scope, id);
  }

  @Put('assets/:asset')
  @Access('CO')
  @Endpoint({
    summary: 'Update an asset',
    description: 'Status by hand: available → maintenance | retired, maintenance → available | retired (409 INVALID_TRANSITION otherwise).',
    type: AssetDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION', 'DUPLICATE_CODE', 'DUPLICATE_SERIAL'] },
  })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('asset') id: string, @Body() dto: UpdateAssetDto) {
    return this.assets.update(actor, scope, id, dto);
  }

  @Delete('assets/:asset')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset (409 IN_USE while it is out on a job)', errors: [404, 409], message: 'Asset deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('asset') id: string) {
    await this.assets.remove(actor, scope, id);
    return withMessage(null, 'Asset deleted.');
  }

  @Put('assets/:asset/location')
  @Access('CO')
  @Endpoint({ summary: 'Set an asset\'s current location', type: AssetDto, errors: [404, 422] })
  move(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('asset') id: string, @Body() dto: AssetLocationDto) {
    return this.assets.moveTo(actor, scope, id, dto);
  }
}
