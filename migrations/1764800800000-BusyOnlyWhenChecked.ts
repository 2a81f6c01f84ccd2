import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25/#24: `catalogue_container_busy` counts the calendar only for a specification that refuses
 * (`check_availability`, or automatic with a container of it recorded). As one SQL statement it computed
 * the horizon (the latest day of every live hold of the specification) and swept the days before its
 * filter threw them away, on every placement and approval of a specification that does not refuse; in
 * PL/pgSQL it returns at once for those, and keeps its plans per session for the others.
 */
export class BusyOnlyWhenChecked1764800800000 implements MigrationInterface {
  name = 'BusyOnlyWhenChecked1764800800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION catalogue_container_busy(company_id uuid, order_id uuid, specification_id uuid, from_date date, to_date date)
        RETURNS date[] LANGUAGE plpgsql STABLE AS $$
        #variable_conflict use_column
        DECLARE
          refuses boolean;
          last_day date;
          busy date[];
        BEGIN
          SELECT coalesce(s.check_availability, EXISTS (
                   SELECT 1 FROM assets a WHERE a.company_id = $1 AND a.asset_specification_id = $3 AND a.deleted_at IS NULL AND a.status <> 'retired'))
            INTO refuses
            FROM asset_specifications s WHERE s.id = $3 AND s.company_id = $1;
          IF refuses IS NOT TRUE THEN RETURN '{}'; END IF;
          last_day := coalesce($5, greatest($4, (SELECT max(greatest(r.starts_on, coalesce(r.ends_on, r.starts_on))) + 1 FROM container_reservations r
                                                  WHERE r.company_id = $1 AND r.asset_specification_id = $3 AND r.released_at IS NULL)));
          SELECT coalesce(array_agg(c.day ORDER BY c.day), '{}') INTO busy
            FROM catalogue_container_days($1, $3, NULL, $4, last_day, $2) c
           WHERE c.held >= c.total;
          RETURN busy;
        END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION catalogue_container_busy(uuid, uuid, uuid, date, date)`);
    await q.query(`
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
         WHERE s.checked AND c.held >= c.total $$`);
  }
}
