import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25, the container calendar: assigning an order whose hold already covers exactly the days of the
 * assignment pins a free asset without counting the day again. A day can be overbooked before anything
 * refuses (orders taken before the company recorded a container of the specification, or while the
 * specification did not refuse): counting it again at assignment refused every one of those orders even
 * with a container standing free, so none could go out. Now the first assigned gets the free container and
 * the others are refused when none is left (409 NO_CONTAINER_AVAILABLE). A hold whose days change (a job
 * moved, a first hold) is still counted, under the specification's row lock as before.
 */
export class PinWhatIsHeld1764800700000 implements MigrationInterface {
  name = 'PinWhatIsHeld1764800700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(pin(`
      PERFORM 1 FROM asset_specifications s WHERE s.id = $3 AND s.company_id = $1 FOR NO KEY UPDATE;
      SELECT true INTO unchanged FROM container_reservations r
       WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL AND r.asset_specification_id = $3
         AND r.starts_on = $5 AND r.ends_on IS NOT DISTINCT FROM $6;
      IF unchanged IS NULL THEN
        busy := catalogue_hold_container($1, $2, $3, $4, $5, $6);
        IF cardinality(busy) > 0 THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', busy); END IF;
      END IF;`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(pin(`
      busy := catalogue_hold_container($1, $2, $3, $4, $5, $6);
      IF cardinality(busy) > 0 THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', busy); END IF;`));
  }
}

const pin = (hold: string) => `
  CREATE OR REPLACE FUNCTION catalogue_pin_container(company_id uuid, order_id uuid, specification_id uuid, lot_id uuid, from_date date, to_date date, asset_id uuid)
    RETURNS json LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    DECLARE
      busy date[];
      chosen uuid;
      prior text;
      unchanged boolean;
    BEGIN
      ${hold}
      SELECT f.asset_id, f.status INTO chosen, prior FROM catalogue_free_assets($1, $2, $3, $5, $6) f
       WHERE ($7 IS NULL OR f.asset_id = $7)
       ORDER BY (f.home_lot_id IS NOT DISTINCT FROM $4) DESC, f.code, f.asset_id
       LIMIT 1;
      IF chosen IS NULL THEN RETURN json_build_object('asset_id', NULL, 'from_status', NULL, 'busy', '{}'::date[]); END IF;
      UPDATE container_reservations r SET asset_id = chosen, lot_id = coalesce((SELECT a.home_lot_id FROM assets a WHERE a.id = chosen), r.lot_id), updated_at = now()
       WHERE r.order_id = $2 AND r.company_id = $1 AND r.released_at IS NULL;
      UPDATE assets a SET status = 'reserved', updated_at = now() WHERE a.id = chosen AND a.status = 'available';
      RETURN json_build_object('asset_id', chosen, 'from_status', prior, 'busy', '{}'::date[]);
    END $$`;
