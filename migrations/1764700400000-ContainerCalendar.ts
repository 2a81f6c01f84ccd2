import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25 item 2, a container calendar (docs/orders-and-pricing.md "Container calendar"):
 * - `container_reservations` (catalogue's): one live row per unfinished order, holding one unit of its
 *   specification (at its lot) from the delivery date to the pickup date (open-ended without one), and
 *   the asset once dispatch pins one; released when the order completes, is cancelled or rejected;
 * - `asset_specifications.check_availability`: whether placement, approval, change requests and
 *   assignment refuse an order no container of the specification is free for (409 NO_CONTAINER_AVAILABLE);
 * - catalogue's SQL API `catalogue_container_days`, `catalogue_hold_container`, `catalogue_pin_container`.
 * Before it, a reservation was an asset's `reserved` status with no dates: every unfinished order
 * gets its dated hold, pinned to the asset its latest delivery or swap job holds.
 */
export class ContainerCalendar1764700400000 implements MigrationInterface {
  name = 'ContainerCalendar1764700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE asset_specifications ADD COLUMN check_availability boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE container_reservations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL,
        order_id uuid NOT NULL,
        asset_specification_id uuid NOT NULL,
        lot_id uuid,
        asset_id uuid,
        starts_on date NOT NULL,
        ends_on date,
        released_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT container_reservations_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies (id),
        CONSTRAINT container_reservations_asset_specification_id_fkey FOREIGN KEY (asset_specification_id) REFERENCES asset_specifications (id),
        CONSTRAINT container_reservations_lot_id_fkey FOREIGN KEY (lot_id) REFERENCES lots (id),
        CONSTRAINT container_reservations_asset_id_fkey FOREIGN KEY (asset_id) REFERENCES assets (id),
        CONSTRAINT container_reservations_dates_check CHECK (ends_on IS NULL OR ends_on >= starts_on)
      )`);
    // One live hold per order; the calendar of a specification (from its start); an asset's pins; the lot's.
    await q.query(`CREATE UNIQUE INDEX uq_container_reservations_order ON container_reservations (order_id) WHERE released_at IS NULL`);
    // Covering: the calendar reads a specification's holds from the index alone.
    await q.query(`CREATE INDEX idx_container_reservations_spec ON container_reservations (company_id, asset_specification_id, starts_on) INCLUDE (ends_on, lot_id, order_id) WHERE released_at IS NULL`);
    await q.query(`CREATE INDEX idx_container_reservations_asset ON container_reservations (asset_id, starts_on) WHERE released_at IS NULL AND asset_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_container_reservations_lot ON container_reservations (lot_id)`);

    // The conversion: every unfinished order holds its container over its dates, pinned to the asset
    // of its latest delivery or swap job that holds one.
    await q.query(`
      INSERT INTO container_reservations (company_id, order_id, asset_specification_id, lot_id, asset_id, starts_on, ends_on)
      SELECT o.company_id, o.id, o.asset_specification_id, o.lot_id,
             (SELECT j.asset_id FROM jobs j
               WHERE j.order_id = o.id AND j.type IN ('delivery', 'swap') AND j.status <> 'aborted' AND j.asset_id IS NOT NULL
               ORDER BY j.created_at DESC LIMIT 1),
             o.delivery_date, o.pickup_date
        FROM orders o
       WHERE o.status IN ('pending', 'approved', 'scheduled', 'delivered')`);

    await q.query(`
      CREATE FUNCTION catalogue_container_days(company_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, except_order_id uuid)
        RETURNS TABLE (day date, total integer, held integer) LANGUAGE sql STABLE AS $$
        WITH r AS MATERIALIZED (
          SELECT greatest(r.starts_on, $4) AS s, r.ends_on AS e FROM container_reservations r
           WHERE r.company_id = $1 AND r.asset_specification_id = $2 AND r.released_at IS NULL
             AND ($3 IS NULL OR r.lot_id = $3) AND r.starts_on <= $5 AND (r.ends_on IS NULL OR r.ends_on >= $4)
             AND r.order_id IS DISTINCT FROM $6),
        -- +n on the days n holds start (in the range), -n on the days after n holds end (inside it).
        changes AS (
          SELECT d, sum(n)::int AS n FROM (
            SELECT s AS d, count(*) AS n FROM r GROUP BY s
            UNION ALL
            SELECT e + 1, -count(*) FROM r WHERE e < $5 GROUP BY e) x
           GROUP BY d),
        fleet AS (
          SELECT count(*)::int AS n FROM assets a
           WHERE a.company_id = $1 AND a.asset_specification_id = $2 AND a.deleted_at IS NULL
             AND a.status NOT IN ('maintenance', 'retired') AND ($3 IS NULL OR a.home_lot_id = $3))
        SELECT g.d::date, fleet.n, (coalesce(sum(c.n) OVER (ORDER BY g.d), 0))::int
          FROM generate_series($4::timestamp, $5::timestamp, interval '1 day') AS g(d)
         CROSS JOIN fleet
          LEFT JOIN changes c ON c.d = g.d::date
         ORDER BY 1 $$`);

    await q.query(`
      CREATE FUNCTION catalogue_hold_container(company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date)
        RETURNS date[] LANGUAGE plpgsql VOLATILE AS $$
        #variable_conflict use_column
        DECLARE
          checked boolean;
          horizon date;
          busy date[];
        BEGIN
          -- Every hold and pin of a specification queues here; each later statement of this function
          -- takes a new snapshot, so it sees what the holder before it committed.
          SELECT s.check_availability INTO checked FROM asset_specifications s WHERE s.id = $3 AND s.company_id = $1 FOR NO KEY UPDATE;
          IF checked THEN
            -- Open-ended: free from the first day on; past the last day any hold changes, nothing changes.
            SELECT max(greatest(r.starts_on, coalesce(r.ends_on, r.starts_on))) + 1 INTO horizon FROM container_reservations r
             WHERE r.company_id = $1 AND r.asset_specification_id = $3 AND r.released_at IS NULL;
            horizon := coalesce($6, greatest($5, horizon));
            SELECT coalesce(array_agg(c.day ORDER BY c.day), '{}') INTO busy
              FROM catalogue_container_days($1, $3, NULL, $5, horizon, $2) c WHERE c.held >= c.total;
            IF cardinality(busy) > 0 THEN RETURN busy; END IF;
          END IF;
          UPDATE container_reservations r
             SET lot_id = CASE WHEN r.asset_specification_id = $3 AND r.asset_id IS NOT NULL THEN r.lot_id ELSE $4 END,
                 asset_id = CASE WHEN r.asset_specification_id = $3 THEN r.asset_id END,
                 asset_specification_id = $3, starts_on = $5, ends_on = $6, updated_at = now()
           WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL;
          IF NOT FOUND THEN
            INSERT INTO container_reservations (company_id, order_id, asset_specification_id, lot_id, starts_on, ends_on) VALUES ($1, $2, $3, $4, $5, $6);
          END IF;
          RETURN '{}';
        END $$`);

    await q.query(`
      CREATE FUNCTION catalogue_pin_container(company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, asset_id uuid)
        RETURNS json LANGUAGE plpgsql VOLATILE AS $$
        #variable_conflict use_column
        DECLARE
          busy date[];
          chosen uuid;
          prior text;
        BEGIN
          busy := catalogue_hold_container($1, $2, $3, $4, $5, $6);
          IF cardinality(busy) > 0 THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', busy); END IF;
          -- An asset is free for the order when no other live hold pins it on a day of the order's; one
          -- out now (on its way, on a site, at a station) only when another order's hold says when it is back
          -- (not the one out on this order: a swap brings another).
          SELECT a.id, a.status INTO chosen, prior FROM assets a
           WHERE a.company_id = $1 AND a.asset_specification_id = $3 AND a.deleted_at IS NULL AND a.status NOT IN ('maintenance', 'retired')
             AND ($7 IS NULL OR a.id = $7)
             AND NOT EXISTS (SELECT 1 FROM container_reservations r
                              WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id <> $2
                                AND r.starts_on <= coalesce($6, 'infinity'::date) AND (r.ends_on IS NULL OR r.ends_on >= $5))
             AND (a.status NOT IN ('in_transit', 'on_site', 'at_station')
                  OR EXISTS (SELECT 1 FROM container_reservations r WHERE r.asset_id = a.id AND r.released_at IS NULL AND r.order_id <> $2))
           ORDER BY (a.home_lot_id IS NOT DISTINCT FROM $4) DESC, a.code, a.id
           LIMIT 1;
          IF chosen IS NULL THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', '{}'::date[]); END IF;
          UPDATE container_reservations r SET asset_id = chosen, lot_id = coalesce((SELECT a.home_lot_id FROM assets a WHERE a.id = chosen), r.lot_id), updated_at = now()
           WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL;
          UPDATE assets a SET status = 'reserved', updated_at = now() WHERE a.id = chosen AND a.status = 'available';
          RETURN json_build_object('asset_id', chosen, 'from_status', prior, 'busy', '{}'::date[]);
        END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION catalogue_pin_container(uuid, uuid, uuid, uuid, date, date, uuid)`);
    await q.query(`DROP FUNCTION catalogue_hold_container(uuid, uuid, uuid, uuid, date, date)`);
    await q.query(`DROP FUNCTION catalogue_container_days(uuid, uuid, uuid, date, date, uuid)`);
    // Back to undated reservations: the assets' `reserved` status (kept throughout) is the reservation.
    await q.query(`DROP TABLE container_reservations`);
    await q.query(`ALTER TABLE asset_specifications DROP COLUMN check_availability`);
  }
}
