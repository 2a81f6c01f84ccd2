import { MigrationInterface, QueryRunner } from 'typeorm';

/** The waste types a station accepts (after CatalogueCore, which creates waste_types). */
export class StationWasteTypes1763800001500 implements MigrationInterface {
  name = 'StationWasteTypes1763800001500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE station_waste_types (
        station_id uuid NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
        waste_type_id uuid NOT NULL REFERENCES waste_types (id),
        company_id uuid NOT NULL REFERENCES companies (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (station_id, waste_type_id)
      )`);
    await q.query(`CREATE INDEX idx_station_waste_types_waste_type_id ON station_waste_types (waste_type_id)`);
    await q.query(`CREATE INDEX idx_station_waste_types_company_id ON station_waste_types (company_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS station_waste_types`);
  }
}
