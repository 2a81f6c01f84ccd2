import { MigrationInterface, QueryRunner } from 'typeorm';

/** Catalogue: waste types, asset categories and styles, asset specifications and their waste types. */
export class CatalogueCore1763800000000 implements MigrationInterface {
  name = 'CatalogueCore1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE waste_types (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        name text NOT NULL,
        code text NOT NULL,
        description text,
        prohibited_items text[] NOT NULL DEFAULT '{}',
        hazardous boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_waste_types_company_id ON waste_types (company_id, created_at)`);
    await q.query(`CREATE INDEX idx_waste_types_company_hazardous ON waste_types (company_id, hazardous)`);
    await q.query(`CREATE INDEX idx_waste_types_company_active ON waste_types (company_id, active)`);
    await q.query(`CREATE UNIQUE INDEX uq_waste_types_company_code ON waste_types (company_id, lower(code)) WHERE deleted_at IS NULL`);

    for (const table of ['asset_categories', 'asset_styles']) {
      await q.query(`
        CREATE TABLE ${table} (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          company_id uuid NOT NULL REFERENCES companies (id),
          name text NOT NULL,
          description text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          deleted_at timestamptz
        )`);
      await q.query(`CREATE INDEX idx_${table}_company_id ON ${table} (company_id, created_at)`);
      await q.query(`CREATE UNIQUE INDEX uq_${table}_company_name ON ${table} (company_id, lower(name)) WHERE deleted_at IS NULL`);
    }

    await q.query(`
      CREATE TABLE asset_specifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        name text NOT NULL,
        description text,
        asset_category_id uuid NOT NULL REFERENCES asset_categories (id),
        asset_style_id uuid REFERENCES asset_styles (id),
        size integer NOT NULL CHECK (size > 0),
        size_unit text NOT NULL CHECK (size_unit IN ('yd3', 'm3', 'ft3', 'gal', 'l')),
        length_mm integer CHECK (length_mm > 0),
        width_mm integer CHECK (width_mm > 0),
        height_mm integer CHECK (height_mm > 0),
        max_weight_kg integer CHECK (max_weight_kg >= 0),
        included_weight_kg integer CHECK (included_weight_kg >= 0),
        included_days integer CHECK (included_days >= 0),
        image_url text,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_asset_specifications_company_id ON asset_specifications (company_id, created_at)`);
    await q.query(`CREATE INDEX idx_asset_specifications_company_active ON asset_specifications (company_id, active)`);
    await q.query(`CREATE INDEX idx_asset_specifications_asset_category_id ON asset_specifications (asset_category_id)`);
    await q.query(`CREATE INDEX idx_asset_specifications_asset_style_id ON asset_specifications (asset_style_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_asset_specifications_company_name ON asset_specifications (company_id, lower(name)) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE asset_specification_waste_types (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        waste_type_id uuid NOT NULL REFERENCES waste_types (id),
        price_override_amount integer CHECK (price_override_amount >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_asset_specification_waste_types_company_id ON asset_specification_waste_types (company_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_asset_specification_waste_types_pair ON asset_specification_waste_types (asset_specification_id, waste_type_id)`);
    await q.query(`CREATE INDEX idx_asset_specification_waste_types_waste_type_id ON asset_specification_waste_types (waste_type_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE asset_specification_waste_types`);
    await q.query(`DROP TABLE asset_specifications`);
    await q.query(`DROP TABLE asset_styles`);
    await q.query(`DROP TABLE asset_categories`);
    await q.query(`DROP TABLE waste_types`);
  }
}
