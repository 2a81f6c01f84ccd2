import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #25: a lot's or station's opening on one date, apart from its weekday's hours: special hours, or
 * closed (`open_time` and `close_time` both null). One row per site and date; the sites module owns them.
 */
export class SiteOpeningExceptions1764700300000 implements MigrationInterface {
  name = 'SiteOpeningExceptions1764700300000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, parent, fk] of [
      ['lot_opening_exceptions', 'lots', 'lot_id'],
      ['station_opening_exceptions', 'stations', 'station_id'],
    ] as const) {
      await q.query(`
        CREATE TABLE ${table} (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          company_id uuid NOT NULL CONSTRAINT ${table}_company_id_fkey REFERENCES companies (id),
          ${fk} uuid NOT NULL CONSTRAINT ${table}_${fk}_fkey REFERENCES ${parent} (id) ON DELETE CASCADE,
          date date NOT NULL,
          open_time text,
          close_time text,
          note text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT ${table}_hours_check CHECK ((open_time IS NULL) = (close_time IS NULL))
        )`);
      await q.query(`CREATE INDEX idx_${table}_company_id ON ${table} (company_id)`);
      await q.query(`CREATE UNIQUE INDEX uq_${table}_${fk}_date ON ${table} (${fk}, date)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS station_opening_exceptions`);
    await q.query(`DROP TABLE IF EXISTS lot_opening_exceptions`);
  }
}
