import { MigrationInterface, QueryRunner } from 'typeorm';

/** Assets (containers) and their QR codes. `home_lot_id` references `lots` (LotsStations). */
export class Assets1763800002000 implements MigrationInterface {
  name = 'Assets1763800002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE assets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        code text NOT NULL,
        serial text,
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        home_lot_id uuid REFERENCES lots (id),
        condition text NOT NULL DEFAULT 'good' CHECK (condition IN ('new', 'good', 'fair', 'poor', 'damaged')),
        status text NOT NULL DEFAULT 'available'
          CHECK (status IN ('available', 'reserved', 'in_transit', 'on_site', 'full_in_yard', 'at_station', 'maintenance', 'retired')),
        notes text,
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        location_type text CHECK (location_type IN ('lot', 'customer_address', 'station', 'truck')),
        location_id uuid,
        location_updated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_assets_company_id ON assets (company_id, created_at)`);
    await q.query(`CREATE INDEX idx_assets_company_status ON assets (company_id, status)`);
    await q.query(`CREATE INDEX idx_assets_asset_specification_id ON assets (asset_specification_id)`);
    await q.query(`CREATE INDEX idx_assets_home_lot_id ON assets (home_lot_id)`);
    await q.query(`CREATE INDEX idx_assets_location ON assets (location_type, location_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_assets_company_code ON assets (company_id, lower(code)) WHERE deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX uq_assets_company_serial ON assets (company_id, lower(serial)) WHERE deleted_at IS NULL AND serial IS NOT NULL`);

    await q.query(`
      CREATE TABLE qr_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        asset_id uuid NOT NULL REFERENCES assets (id),
        created_by uuid REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_qr_codes_company_id ON qr_codes (company_id)`);
    await q.query(`CREATE INDEX idx_qr_codes_asset_id ON qr_codes (asset_id)`);
    await q.query(`CREATE INDEX idx_qr_codes_created_by ON qr_codes (created_by)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE qr_codes`);
    await q.query(`DROP TABLE assets`);
  }
}
