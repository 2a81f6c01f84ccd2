import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** An order's hold on one container of its specification (`ContainerCalendar#hold`). */
export interface ContainerHold {
  orderId: string;
  specificationId: string;
  /** The order's lot (the unit's yard until an asset is pinned). */
  lotId: string | null;
  /** The delivery date. */
  from: string;
  /** The pickup date; null: open-ended until a pickup is scheduled. */
  to: string | null;
}

/** An order's loading lots on a day (`ContainerCalendar#loadingLots`). */
export interface LoadingLots {
  order_id: string;
  lots: string[];
}

/** The loading lots of orders $3 on day $2 (company $1): the pinned asset's home lot, else those of the assets free for the order that day. */
const LOADING_LOTS = `(
  SELECT r.order_id::text AS order_id,
         (CASE WHEN r.asset_id IS NOT NULL AND r.lot_id IS NOT NULL THEN array[r.lot_id]
               ELSE coalesce((SELECT array_agg(DISTINCT f.home_lot_id) FROM catalogue_free_assets($1, r.order_id, r.asset_specification_id, $2::date, $2::date) f
                               WHERE f.home_lot_id IS NOT NULL), '{}') END)::text[] AS lots
    FROM container_reservations r
   WHERE r.company_id = $1 AND r.order_id = ANY($3::uuid[]) AND r.released_at IS NULL)`;

const SAMPLE_HOLD: ContainerHold = { orderId: SQL_SAMPLE.id, specificationId: SQL_SAMPLE.otherId, lotId: null, from: SQL_SAMPLE.date, to: null };

/**
 * The `container_reservations` table (the container calendar, migration 1764700400000-ContainerCalendar):
 * each statement goes through catalogue's SQL API functions, which take the specification's row lock
 * before they count (docs/orders-and-pricing.md "Container calendar").
 */
@Injectable()
export class ContainerCalendarRepository extends ModuleRepository {
  /**
   * Per day of [from, to]: the live assets of the company's specification not in maintenance or retired
   * (based at `lotId` when given) and the live holds (at `lotId` when given). No rows when the
   * specification is not the company's (or, `activeOnly`, not active). One statement.
   */
  @GenerateSql({ name: 'all lots', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, null, SQL_SAMPLE.date, SQL_SAMPLE.date, false] }, { name: 'a lot, active only', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId, SQL_SAMPLE.date, SQL_SAMPLE.date, true] })
  days(scope: Scope, specificationId: string, lotId: string | null, from: string, to: string, activeOnly: boolean): Promise<{ day: string; total: number; held: number }[]> {
    return this.sql(
      `SELECT c.day::text AS day, c.total, c.held
         FROM asset_specifications s
        CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, $3::uuid, $4::date, $5::date, NULL) c
        WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL${activeOnly ? ' AND s.active' : ''}
        ORDER BY c.day`,
      [scope.companyId, specificationId, lotId, from, to],
    );
  }

  /** Sets the order's hold (`catalogue_hold_container`); the days no unit is free (nothing changed), or none. One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SAMPLE_HOLD] })
  async hold(scope: Scope, h: ContainerHold): Promise<string[]> {
    const [row] = await this.sql<{ busy: string[] }>(`SELECT catalogue_hold_container($1, $2, $3, $4, $5, $6)::text[] AS busy`, [scope.companyId, h.orderId, h.specificationId, h.lotId, h.from, h.to]);
    return row.busy;
  }

  /** The days no unit is free for the hold (`catalogue_container_busy`), writing nothing and taking no lock; none when free or the specification does not refuse. One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SAMPLE_HOLD] })
  async busy(scope: Scope, h: ContainerHold): Promise<string[]> {
    const [row] = await this.sql<{ busy: string[] }>(`SELECT catalogue_container_busy($1, $2, $3, $4, $5)::text[] AS busy`, [scope.companyId, h.orderId, h.specificationId, h.from, h.to]);
    return row.busy;
  }

  /** The hold, then an asset pinned on it (`catalogue_pin_container`): `assetId`, or the first free one. One statement. */
  @GenerateSql({ name: 'first free', params: [SAMPLE_SCOPE, SAMPLE_HOLD, null] }, { name: 'chosen', params: [SAMPLE_SCOPE, SAMPLE_HOLD, SQL_SAMPLE.id] })
  async pin(scope: Scope, h: ContainerHold, assetId: string | null): Promise<{ assetId: string | null; fromStatus: string | null; busy: string[] }> {
    const [row] = await this.sql<{ pin: { asset_id: string | null; from_status: string | null; busy: string[] } }>(
      `SELECT catalogue_pin_container($1, $2, $3, $4, $5, $6, $7) AS pin`,
      [scope.companyId, h.orderId, h.specificationId, h.lotId, h.from, h.to, assetId],
    );
    return { assetId: row.pin.asset_id, fromStatus: row.pin.from_status, busy: row.pin.busy ?? [] };
  }

  /** The ids of the assets of the specification free for the order over [from, to] (`catalogue_free_assets`, what assignment pins). One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId, SQL_SAMPLE.date, null] })
  async freeAssets(scope: Scope, orderId: string, specificationId: string, from: string, to: string | null): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(`SELECT f.asset_id AS id FROM catalogue_free_assets($1, $2, $3, $4::date, $5::date) f`, [scope.companyId, orderId, specificationId, from, to]);
    return rows.map((r) => r.id);
  }

  /**
   * For each order of `orderIds` with a live hold: the assets of its specification free for it over the
   * hold's days (`catalogue_free_assets`), in the order `catalogue_pin_container` chooses (based at the
   * hold's lot first, then by code). Orders without a live hold are left out. One statement (the fleet
   * plan's preview of the calendar, docs/dispatch.md "Planning the whole day").
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, [SQL_SAMPLE.id]] })
  async freeForHolds(scope: Scope, orderIds: readonly string[]): Promise<{ order_id: string; assets: string[] }[]> {
    return this.sql(
      `SELECT r.order_id::text AS order_id,
              coalesce((SELECT array_agg(f.asset_id::text ORDER BY (f.home_lot_id IS NOT DISTINCT FROM r.lot_id) DESC, f.code, f.asset_id)
                          FROM catalogue_free_assets($1, r.order_id, r.asset_specification_id, r.starts_on, r.ends_on) f), '{}')::text[] AS assets
         FROM container_reservations r
        WHERE r.company_id = $1 AND r.order_id = ANY($2::uuid[]) AND r.released_at IS NULL
        ORDER BY r.order_id`,
      [scope.companyId, orderIds],
    );
  }

  /**
   * Where each order's container is loaded on `date`: the home lot of the asset pinned on its live hold,
   * else the home lots of the assets of its specification free for it that day (empty: none is). Orders
   * without a live hold are left out. One statement.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, [SQL_SAMPLE.id]] })
  async loadingLots(scope: Scope, date: string, orderIds: readonly string[]): Promise<LoadingLots[]> {
    return this.sql(`SELECT l.* FROM ${LOADING_LOTS} l`, [scope.companyId, date, orderIds]);
  }

  /**
   * A dispatch day in one statement: the company's assets free on `date` (`catalogue_free_assets`) counted
   * per specification and home lot, and the loading lots of `orderIds` (`loadingLots`).
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, [SQL_SAMPLE.id]] })
  async dispatchDay(scope: Scope, date: string, orderIds: readonly string[]): Promise<{ free: { spec: string; lot: string | null; n: number }[]; loading: LoadingLots[] }> {
    const [row] = await this.sql<{ free: { spec: string; lot: string | null; n: number }[]; loading: LoadingLots[] }>(
      `SELECT (SELECT coalesce(json_agg(json_build_object('spec', x.spec, 'lot', x.lot, 'n', x.n) ORDER BY x.spec, x.lot NULLS LAST), '[]')
                 FROM (SELECT f.asset_specification_id AS spec, f.home_lot_id AS lot, count(*)::int AS n
                         FROM catalogue_free_assets($1, NULL, NULL, $2::date, $2::date) f GROUP BY 1, 2) x) AS free,
              (SELECT coalesce(json_agg(l), '[]') FROM ${LOADING_LOTS} l) AS loading`,
      [scope.companyId, date, orderIds],
    );
    return row;
  }

  /** Releases the order's hold (it completed, was cancelled or rejected). One statement. */
  async release(scope: Scope, orderId: string): Promise<void> {
    await this.sql(`UPDATE container_reservations SET released_at = now(), updated_at = now() WHERE company_id = $1 AND order_id = $2 AND released_at IS NULL`, [scope.companyId, orderId]);
  }
}
