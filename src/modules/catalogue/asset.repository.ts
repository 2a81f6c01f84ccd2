import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Scope } from '../../common/access/scope';
import { recordEvents, type DomainEvent } from '../../common/outbox/outbox';
import type { EventType } from '../../common/outbox/event-catalogue';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { Asset, AssetHistory, type AssetStatus } from './catalogue.entities';


/**
 * The `assets` and `asset_history` tables, for what jobs, dispatch and the reports ask of assets
 * (reservation, moves by jobs, summaries, counts, the in-use checks of lots and stations). The
 * company's own asset records (CRUD) still go through `CompanyRecords` (issue #24: next session).
 * Reads and writes run in the open unit of work; row locks require one.
 */
@Injectable()
export class AssetRepository extends ModuleRepository {
  /** Whether a live asset is based at or located at the lot. */
  atLot(lotId: string): Promise<boolean> {
    return this.m.exists(Asset, { where: [{ homeLotId: lotId }, { locationType: 'lot', locationId: lotId }] });
  }

  /** Whether a live asset is located at the station. */
  atStation(stationId: string): Promise<boolean> {
    return this.m.existsBy(Asset, { locationType: 'station', locationId: stationId });
  }

  /** Reserved assets back to available (one UPDATE; others keep their status). */
  async releaseReserved(assetIds: readonly string[]): Promise<void> {
    await this.m.update(Asset, { id: In([...assetIds]), status: 'reserved' }, { status: 'available' });
  }

  /**
   * Reserves the chosen asset (`assetId`: the company's, of the specification, available) or else the
   * first free one of the specification, preferring those based at `lotId`, then by code, race-free in
   * one statement (`FOR UPDATE SKIP LOCKED`, re-checked `available`). The reserved id, or null.
   */
  async reserve(scope: Scope, specificationId: string, lotId: string | null, assetId: string | null): Promise<string | null> {
    const rows: unknown[] = assetId
      ? await this.sql(
          `UPDATE assets SET status = 'reserved', updated_at = now()
            WHERE id = $1 AND company_id = $2 AND asset_specification_id = $3 AND status = 'available' AND deleted_at IS NULL
            RETURNING id, 'available' AS status`,
          [assetId, scope.companyId, specificationId],
        )
      : await this.sql(
          `UPDATE assets SET status = 'reserved', updated_at = now()
            WHERE id = (SELECT id FROM assets
                         WHERE company_id = $1 AND asset_specification_id = $2 AND status = 'available' AND deleted_at IS NULL
                         ORDER BY (home_lot_id IS NOT DISTINCT FROM $3::uuid) DESC, code, id
                         LIMIT 1 FOR UPDATE SKIP LOCKED)
              AND status = 'available'
            RETURNING id, 'available' AS status`,
          [scope.companyId, specificationId, lotId],
        );
    const row = (Array.isArray(rows[0]) ? rows[0][0] : rows[0]) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** The company's assets among `ids` (live ones), locked. */
  lockMany(scope: Scope, ids: readonly string[]): Promise<Asset[]> {
    return this.locked.find(Asset, { where: { id: In([...ids]), companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  @GenerateSql({ params: [SQL_SAMPLE.id, { status: 'available' }] })
  async update(id: string, values: Partial<Asset>): Promise<void> {
    await this.m.update(Asset, { id }, values);
  }

  /** History rows of moves (one INSERT). */
  @GenerateSql({ params: [[{ companyId: SQL_SAMPLE.companyId, assetId: SQL_SAMPLE.id, fromStatus: 'available', toStatus: 'reserved', locationType: null, locationId: null, lat: null, lng: null, jobId: SQL_SAMPLE.otherId }]] })
  async insertHistory(rows: Partial<AssetHistory>[]): Promise<void> {
    await this.m.insert(AssetHistory, rows);
  }

  /** Code and status of the company's assets by id (deleted ones too). One statement. */
  summaries(scope: Scope, ids: readonly string[]): Promise<Pick<Asset, 'id' | 'code' | 'status'>[]> {
    return this.m.find(Asset, { select: { id: true, code: true, status: true }, where: { companyId: scope.companyId, id: In([...new Set(ids)]) }, withDeleted: true });
  }

  /** Live assets per company (the administrators' companies report; across companies). */
  async countsByCompany(companyIds: readonly string[]): Promise<{ company_id: string; n: number }[]> {
    return this.sql(`SELECT company_id, count(*)::int AS n FROM assets WHERE company_id = ANY($1) AND deleted_at IS NULL GROUP BY company_id`, [[...companyIds]]);
  }

  /** Outbox events of the assets' changes, in the unit that makes them. */
  @GenerateSql.skip('common\'s outbox insert (recordEvents), snapshotted with common')
  async recordEvents<T extends EventType>(...events: DomainEvent<T>[]): Promise<void> {
    await recordEvents(this.m, ...events);
  }
}

