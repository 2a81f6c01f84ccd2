import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope, SystemReach } from '../../common/access/scope';
import { PlatformReach } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import type { EventNamed, EventPayload, EventVerb } from '../../common/outbox/event-catalogue';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { Asset, AssetHistory, type AssetCondition, type AssetStatus } from './catalogue.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** An asset in one of these states is out with a job and cannot be deleted. */
const BUSY_STATUSES: AssetStatus[] = ['reserved', 'in_transit', 'on_site', 'at_station'];

/** The filters of the company's and the administrators' asset lists. */
export interface AssetFilters extends PageQuery {
  status?: AssetStatus;
  asset_specification_id?: string;
  home_lot_id?: string;
  condition?: AssetCondition;
}


/**
 * The `assets` and `asset_history` tables: the company's asset records (tenancy, unique code and
 * serial, IN_USE while out with a job, events), and what jobs, dispatch and the reports ask of assets
 * (reservation, moves by jobs, summaries, counts, the in-use checks of lots and stations). Reads and
 * writes run in the open unit of work; row locks require one.
 */
@Injectable()
export class AssetRepository extends ModuleRepository {
  private readonly records: CompanyRecords<Asset, 'asset'>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: Asset,
      what: 'Asset',
      event: 'asset',
      nullable: ['serial', 'homeLotId', 'notes'],
      unique: [
        { property: 'code', index: 'uq_assets_company_code', code: 'DUPLICATE_CODE', message: 'An asset with this code already exists.' },
        { property: 'serial', index: 'uq_assets_company_serial', code: 'DUPLICATE_SERIAL', message: 'An asset with this serial already exists.' },
      ],
      // Out with a job, or used by another module's live rows (an unfinished job).
      inUse: async (m, row) => BUSY_STATUSES.includes(row.status) || (await inUse.isUsed(m, 'asset', row.id)),
    });
  }

  // ------------------------------------------------------------ the company's records

  /** A page of the live assets of the scope's company (or of those an administrator's `reach` covers). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { status: 'available', condition: 'good', asset_specification_id: SQL_SAMPLE.id, home_lot_id: SQL_SAMPLE.otherId, q: 'RO', sort: 'code' }] })
  page(who: Scope | PlatformReach, query: AssetFilters): Promise<Page<Asset>> {
    const qb = this.records.query(who instanceof PlatformReach ? who : who.companyId, 'e', this.m);
    if (query.status) qb.andWhere('e.status = :status', { status: query.status });
    if (query.condition) qb.andWhere('e.condition = :condition', { condition: query.condition });
    if (query.asset_specification_id) qb.andWhere('e.assetSpecificationId = :spec', { spec: query.asset_specification_id });
    if (query.home_lot_id) qb.andWhere('e.homeLotId = :lot', { lot: query.home_lot_id });
    if (query.q) qb.andWhere('(e.code ILIKE :q OR e.serial ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', code: 'e.code', status: 'e.status' } });
  }

  /** The company of a live asset, or null. */
  companyOf(id: string): Promise<string | null> {
    return this.records.companyOf(id, this.m);
  }

  /** A live asset of the scope's company, else 404; `lock`: FOR UPDATE (inside a unit). */
  @GenerateSql({ name: 'read', params: [SAMPLE_SCOPE, SQL_SAMPLE.id] }, { name: 'locked', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, true] })
  find(scope: Scope, id: string, lock = false): Promise<Asset> {
    return this.records.find(scope.companyId, id, lock ? this.locked : this.m, lock);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { code: 'RO20-0042', assetSpecificationId: SQL_SAMPLE.id, status: 'available' }, {}] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<Asset>, hooks: WriteHooks<Asset, null>): Promise<Asset> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { code: 'RO20-0042', serial: 'SN-1' }, {}] })
  /** An update of the company's record (tenancy, unique text, the event), through its hooks. */
  updateRecord(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<Asset>, hooks: WriteHooks<Asset, Asset>): Promise<Asset> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** Saves a changed asset (its location). */
  @GenerateSql.skip('an UPDATE of the changed columns of a loaded row; the sample has no row')
  save(asset: Asset): Promise<Asset> {
    return this.m.save(asset);
  }

  /** Records `asset.<what>` about an asset, in the open unit. */
  @GenerateSql.skip("common's outbox insert (recordEventOf), snapshotted with common")
  recordEvent<V extends EventVerb<'asset'>>(actor: Pick<Actor, 'id'>, row: { id: string; companyId: string }, what: V, payload: EventPayload<EventNamed<'asset', V>>): Promise<void> {
    return this.records.recordEvent(this.m, actor, row, what, payload);
  }

  /** The company's live assets (its plan limits them). */
  countLive(scope: Scope): Promise<number> {
    return this.m.count(Asset, { where: { companyId: scope.companyId } });
  }

  /** The company's live assets of a specification, by code (one statement). */
  ofSpecification(scope: Scope, specificationId: string): Promise<Asset[]> {
    return this.records.query(scope.companyId, 'e', this.m).andWhere('e.assetSpecificationId = :spec', { spec: specificationId }).orderBy('e.code', 'ASC').addOrderBy('e.id', 'ASC').getMany();
  }

  /** The history rows of an asset's moves, oldest first. */
  history(scope: Scope, assetId: string): Promise<AssetHistory[]> {
    return this.m.find(AssetHistory, { where: { companyId: scope.companyId, assetId }, order: { createdAt: 'ASC' } });
  }

  // ------------------------------------------------------------ jobs, dispatch, reports
  /** Whether a live asset is based at or located at the lot (an in-use check: the registry names the lot by id only). */
  @GenerateSql({ params: () => [SystemReach.of('an in-use check of a lot'), SQL_SAMPLE.id] })
  atLot(reach: SystemReach, lotId: string): Promise<boolean> {
    return this.m.exists(Asset, { where: [{ homeLotId: lotId }, { locationType: 'lot', locationId: lotId }] });
  }

  /** Whether a live asset is located at the station (an in-use check: the registry names the station by id only). */
  @GenerateSql({ params: () => [SystemReach.of('an in-use check of a station'), SQL_SAMPLE.id] })
  atStation(reach: SystemReach, stationId: string): Promise<boolean> {
    return this.m.existsBy(Asset, { locationType: 'station', locationId: stationId });
  }

  /**
   * Unpins each asset from its order's live hold (`assetIds[i]` from `orderIds[i]`), and the scope's
   * company's reserved assets among them that no other live hold pins back to available (one statement).
   */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, [SQL_SAMPLE.id], [SQL_SAMPLE.otherId]] })
  async releaseReserved(scope: Scope, assetIds: readonly string[], orderIds: readonly string[]): Promise<void> {
    await this.sql(
      `WITH pins AS (SELECT * FROM unnest($2::uuid[], $3::uuid[]) AS p(asset_id, order_id)),
            unpinned AS (
              UPDATE container_reservations r SET asset_id = NULL, updated_at = now()
                FROM pins WHERE r.company_id = $1 AND r.released_at IS NULL AND r.asset_id = pins.asset_id AND r.order_id = pins.order_id)
       UPDATE assets a SET status = 'available', updated_at = now()
        WHERE a.id = ANY($2::uuid[]) AND a.company_id = $1 AND a.status = 'reserved'
          AND NOT EXISTS (SELECT 1 FROM container_reservations r
                           WHERE r.asset_id = a.id AND r.released_at IS NULL AND NOT EXISTS (SELECT 1 FROM pins WHERE pins.asset_id = r.asset_id AND pins.order_id = r.order_id))`,
      [scope.companyId, [...assetIds], [...orderIds]],
    );
  }

  /** The company's assets among `ids` (live ones), locked. */
  lockMany(scope: Scope, ids: readonly string[]): Promise<Asset[]> {
    return this.locked.find(Asset, { where: { id: In([...ids]), companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Changes an asset of the scope's company (locked by `lockMany` in the caller's unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'available' }] })
  async update(scope: Scope, id: string, values: Partial<Asset>): Promise<void> {
    await this.m.update(Asset, { id, companyId: scope.companyId }, values);
  }

  /** History rows of moves of the scope's company's assets (one INSERT). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ assetId: SQL_SAMPLE.id, fromStatus: 'available', toStatus: 'reserved', locationType: null, locationId: null, lat: null, lng: null, jobId: SQL_SAMPLE.otherId }]] })
  async insertHistory(scope: Scope, rows: Omit<Partial<AssetHistory>, 'companyId'>[]): Promise<void> {
    await this.m.insert(AssetHistory, rows.map((r) => ({ ...r, companyId: scope.companyId })));
  }

  /** Code and status of the company's assets by id (deleted ones too). One statement. */
  summaries(scope: Scope, ids: readonly string[]): Promise<Pick<Asset, 'id' | 'code' | 'status'>[]> {
    return this.m.find(Asset, { select: { id: true, code: true, status: true }, where: { companyId: scope.companyId, id: In([...new Set(ids)]) }, withDeleted: true });
  }

  /** Live assets per company among `companyIds` that the administrator's `reach` covers (the companies report; across companies). */
  @GenerateSql({ params: () => [new PlatformReach(), [SQL_SAMPLE.companyId]] })
  async countsByCompany(reach: PlatformReach, companyIds: readonly string[]): Promise<{ company_id: string; n: number }[]> {
    const ids = reach.companyId ? companyIds.filter((id) => id === reach.companyId) : [...companyIds];
    return this.sql(`SELECT company_id, count(*)::int AS n FROM assets WHERE company_id = ANY($1) AND deleted_at IS NULL GROUP BY company_id`, [ids]);
  }
}

