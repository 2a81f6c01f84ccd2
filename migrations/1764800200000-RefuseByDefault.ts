import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25, the container calendar refuses by default (docs/orders-and-pricing.md "Container calendar"):
 * - `asset_specifications.check_availability` becomes nullable, default null = automatic: a
 *   specification refuses an order no container of it is free for (409 NO_CONTAINER_AVAILABLE) as soon as
 *   the company records at least one live asset of it (not deleted, not retired); true refuses always
 *   (no asset: nothing is free), false never (the hold is written, only assignment refuses). Existing
 *   `false` (the former default, nobody could tell it from a choice) becomes null; `true` stays;
 * - catalogue's SQL API `catalogue_container_busy` (the check alone, for a change request when it is
 *   asked), which `catalogue_hold_container` now calls, and `catalogue_free_assets` (the assets no other
 *   hold pins on some days: what assignment pins, and what dispatch's reads offer), which
 *   `catalogue_pin_container` now calls.
 */
export class RefuseByDefault1764800200000 implements MigrationInterface {
  name = 'RefuseByDefault1764800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE asset_specifications ALTER COLUMN check_availability DROP NOT NULL, ALTER COLUMN check_availability SET DEFAULT NULL`);
    await q.query(`UPDATE asset_specifications SET check_availability = NULL WHERE check_availability = false`);
    await q.query(CONTAINER_BUSY);
    await q.query(FREE_ASSETS);
    await q.query(pinContainer(`SELECT f.asset_id, f.status INTO chosen, prior FROM catalogue_free_assets($1, $2, $3, $5, $6) f
       WHERE ($7 IS NULL OR f.asset_id = $7)
       ORDER BY (f.home_lot_id IS NOT DISTINCT FROM $4) DESC, f.code, f.asset_id
       LIMIT 1;`));
    await q.query(holdContainer(`busy := catalogue_container_busy($1, $2, $3, $5, $6);
          IF cardinality(busy) > 0 THEN RETURN busy; END IF;`));
  }

  async down(q: QueryRunner): Promise<void> {
    // The check of 1764700400000-ContainerCalendar, inline (opt-in only).
    await q.query(holdContainer(`IF (SELECT s.check_availability FROM asset_specifications s WHERE s.id = $3) THEN
        SELECT coalesce(array_agg(c.day ORDER BY c.day), '{}') INTO busy
          FROM catalogue_container_days($1, $3, NULL, $5, coalesce($6, greatest($5, (SELECT max(greatest(r.starts_on, coalesce(r.ends_on, r.starts_on))) + 1 FROM container_reservations r
                                                                                    WHERE r.company_id = $1 AND r.asset_specification_id = $3 AND r.released_at IS NULL))), $2) c
         WHERE c.held >= c.total;
        IF cardinality(busy) > 0 THEN RETURN busy; END IF;
      END IF;`));
    await q.query(pinContainer(`SELECT a.id, a.status INTO chosen, prior FROM assets a
       WHERE a.company_id = $1 AND a.asset_specification_id = $3 AND a.deleted_at IS NULL AND a.status NOT IN ('maintenance', 'retired')
         AND ($7 IS NULL OR a.id = $7)
         AND NOT EXISTS (SELECT 1 FROM container_reservations r
                          WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id <> $2
                            AND r.starts_on <= coalesce($6, 'infinity'::date) AND (r.ends_on IS NULL OR r.ends_on >= $5))
         AND (a.status NOT IN ('in_transit', 'on_site', 'at_station')
              OR EXISTS (SELECT 1 FROM container_reservations r WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id <> $2))
       ORDER BY (a.home_lot_id IS NOT DISTINCT FROM $4) DESC, a.code, a.id
       LIMIT 1;`));
    await q.query(`DROP FUNCTION catalogue_free_assets(uuid, uuid, uuid, date, date)`);
    await q.query(`DROP FUNCTION catalogue_container_busy(uuid, uuid, uuid, date, date)`);
    await q.query(`UPDATE asset_specifications SET check_availability = false WHERE check_availability IS NULL`);
    await q.query(`ALTER TABLE asset_specifications ALTER COLUMN check_availability SET DEFAULT false, ALTER COLUMN check_availability SET NOT NULL`);
  }
}

/**
 * The days of [from_date, to_date] (to_date null: open-ended, up to one day past the last day any hold of
 * the specification changes) on which no unit of the specification is free for the order (its own hold
 * left out), when the specification refuses: `check_availability`, or (null) automatic, a live asset of
 * it recorded. Empty: free, or not checked. STABLE: the caller takes the row lock first when it writes.
 */
const CONTAINER_BUSY = `
  CREATE FUNCTION catalogue_container_busy(company_id uuid, order_id uuid, specification_id uuid, from_date date, to_date date)
    RETURNS date[] LANGUAGE sql STABLE AS $$
    WITH s AS (
      SELECT coalesce(s.check_availability, EXISTS (
               SELECT 1 FROM assets a WHERE a.company_id = $1 AND a.asset_specification_id = $3 AND a.deleted_at IS NULL AND a.status <> 'retired')) AS checked
        FROM asset_specifications s WHERE s.id = $3 AND s.company_id = $1),
    horizon AS (
      SELECT coalesce($5, greatest($4, (SELECT max(greatest(r.starts_on, coalesce(r.ends_on, r.starts_on))) + 1 FROM container_reservations r
                                          WHERE r.company_id = $1 AND r.asset_specification_id = $3 AND r.released_at IS NULL))) AS d)
    SELECT coalesce(array_agg(c.day ORDER BY c.day), '{}')
      FROM s, horizon, catalogue_container_days($1, $3, NULL, $4, horizon.d, $2) c
     WHERE s.checked AND c.held >= c.total $$`;

/**
 * The company's assets (of the specification; null: all) free for the order (null: none) over [from_date,
 * to_date] (to_date null: open-ended): not deleted, in maintenance or retired; no other order's live hold
 * pins it on one of those days; one out now (on its way, on a site, at a station) only when another
 * order's pin says when it is back (not the one out on this order: a swap brings another).
 */
const FREE_ASSETS = `
  CREATE FUNCTION catalogue_free_assets(company_id uuid, order_id uuid, specification_id uuid, from_date date, to_date date)
    RETURNS TABLE (asset_id uuid, asset_specification_id uuid, home_lot_id uuid, code text, status text) LANGUAGE sql STABLE AS $$
    SELECT a.id, a.asset_specification_id, a.home_lot_id, a.code, a.status FROM assets a
     WHERE a.company_id = $1 AND ($3 IS NULL OR a.asset_specification_id = $3) AND a.deleted_at IS NULL AND a.status NOT IN ('maintenance', 'retired')
       AND NOT EXISTS (SELECT 1 FROM container_reservations r
                        WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id IS DISTINCT FROM $2
                          AND r.starts_on <= coalesce($5, 'infinity'::date) AND (r.ends_on IS NULL OR r.ends_on >= $4))
       AND (a.status NOT IN ('in_transit', 'on_site', 'at_station')
            OR EXISTS (SELECT 1 FROM container_reservations r WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id IS DISTINCT FROM $2)) $$`;

const pinContainer = (choose: string) => `
  CREATE OR REPLACE FUNCTION catalogue_pin_container(company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, asset_id uuid)
    RETURNS json LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    DECLARE
      busy date[];
      chosen uuid;
      prior text;
    BEGIN
      busy := catalogue_hold_container($1, $2, $3, $4, $5, $6);
      IF cardinality(busy) > 0 THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', busy); END IF;
      ${choose}
      IF chosen IS NULL THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', '{}'::date[]); END IF;
      UPDATE container_reservations r SET asset_id = chosen, lot_id = coalesce((SELECT a.home_lot_id FROM assets a WHERE a.id = chosen), r.lot_id), updated_at = now()
       WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL;
      UPDATE assets a SET status = 'reserved', updated_at = now() WHERE a.id = chosen AND a.status = 'available';
      RETURN json_build_object('asset_id', chosen, 'from_status', prior, 'busy', '{}'::date[]);
    END $$`;

const holdContainer = (check: string) => `
  CREATE OR REPLACE FUNCTION catalogue_hold_container(company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date)
    RETURNS date[] LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    DECLARE
      busy date[];
    BEGIN
      -- Every hold and pin of a specification queues here; each later statement of this function
      -- takes a new snapshot, so it sees what the holder before it committed.
      PERFORM 1 FROM asset_specifications s WHERE s.id = $3 AND s.company_id = $1 FOR NO KEY UPDATE;
      ${check}
      UPDATE container_reservations r
         SET lot_id = CASE WHEN r.asset_specification_id = $3 AND r.asset_id IS NOT NULL THEN r.lot_id ELSE $4 END,
             asset_id = CASE WHEN r.asset_specification_id = $3 THEN r.asset_id END,
             asset_specification_id = $3, starts_on = $5, ends_on = $6, updated_at = now()
       WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL;
      IF NOT FOUND THEN
        INSERT INTO container_reservations (company_id, order_id, asset_specification_id, lot_id, starts_on, ends_on) VALUES ($1, $2, $3, $4, $5, $6);
      END IF;
      RETURN '{}';
    END $$`;
