import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Back office and catalogue, part B: taxes, payment terms, policies, pricing profiles (price books)
 * and their items, promotions, truck types and trucks; a customer's assigned pricing profile.
 * References asset_specifications and waste_types (CatalogueCore) and lots (LotsStations).
 */
export class PricingFleet1763800003000 implements MigrationInterface {
  name = 'PricingFleet1763800003000';

  async up(q: QueryRunner): Promise<void> {
    const common = `
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),`;
    const stamps = `
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz`;

    await q.query(`
      CREATE TABLE taxes (${common}
        name text NOT NULL,
        rate_bps int NOT NULL CHECK (rate_bps BETWEEN 0 AND 100000),
        applies_to text NOT NULL DEFAULT 'all' CHECK (applies_to IN ('all', 'rental', 'fees')),
        is_default boolean NOT NULL DEFAULT false,${stamps}
      )`);
    await q.query(`CREATE INDEX idx_taxes_company_id ON taxes (company_id, applies_to)`);
    await q.query(`CREATE UNIQUE INDEX uq_taxes_default ON taxes (company_id) WHERE is_default AND deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE payment_terms (${common}
        name text NOT NULL,
        due_days int NOT NULL CHECK (due_days BETWEEN 0 AND 3650),
        is_default boolean NOT NULL DEFAULT false,${stamps}
      )`);
    await q.query(`CREATE INDEX idx_payment_terms_company_id ON payment_terms (company_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_payment_terms_default ON payment_terms (company_id) WHERE is_default AND deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE policies (${common}
        name text NOT NULL,
        category text NOT NULL CHECK (category IN ('overfill', 'prohibited_item', 'blocked_access', 'contamination', 'damage', 'late_payment', 'other')),
        demerit_points int NOT NULL DEFAULT 0 CHECK (demerit_points >= 0),
        fee_amount int NOT NULL DEFAULT 0 CHECK (fee_amount >= 0),
        description text,
        active boolean NOT NULL DEFAULT true,${stamps}
      )`);
    await q.query(`CREATE INDEX idx_policies_company_id ON policies (company_id, category, active)`);

    await q.query(`
      CREATE TABLE pricing_profiles (${common}
        name text NOT NULL,
        description text,
        is_default boolean NOT NULL DEFAULT false,
        delivery_free_radius_km numeric(8, 2) NOT NULL DEFAULT 0 CHECK (delivery_free_radius_km >= 0),
        delivery_price_per_km_amount int NOT NULL DEFAULT 0 CHECK (delivery_price_per_km_amount >= 0),${stamps}
      )`);
    await q.query(`CREATE INDEX idx_pricing_profiles_company_id ON pricing_profiles (company_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_pricing_profiles_default ON pricing_profiles (company_id) WHERE is_default AND deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE pricing_profile_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        pricing_profile_id uuid NOT NULL REFERENCES pricing_profiles (id) ON DELETE CASCADE,
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        waste_type_id uuid REFERENCES waste_types (id),
        position int NOT NULL DEFAULT 0,
        base_price_amount int NOT NULL CHECK (base_price_amount >= 0),
        included_days int NOT NULL DEFAULT 0 CHECK (included_days >= 0),
        included_weight_kg int NOT NULL DEFAULT 0 CHECK (included_weight_kg >= 0),
        extra_day_amount int NOT NULL DEFAULT 0 CHECK (extra_day_amount >= 0),
        overage_per_tonne_amount int NOT NULL DEFAULT 0 CHECK (overage_per_tonne_amount >= 0),
        swap_fee_amount int NOT NULL DEFAULT 0 CHECK (swap_fee_amount >= 0),
        dump_return_fee_amount int NOT NULL DEFAULT 0 CHECK (dump_return_fee_amount >= 0),
        relocation_fee_amount int NOT NULL DEFAULT 0 CHECK (relocation_fee_amount >= 0),
        wasted_trip_fee_amount int NOT NULL DEFAULT 0 CHECK (wasted_trip_fee_amount >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_pricing_profile_items_company_id ON pricing_profile_items (company_id)`);
    await q.query(`CREATE INDEX idx_pricing_profile_items_asset_specification_id ON pricing_profile_items (asset_specification_id)`);
    await q.query(`CREATE INDEX idx_pricing_profile_items_waste_type_id ON pricing_profile_items (waste_type_id)`);
    await q.query(
      `CREATE UNIQUE INDEX uq_pricing_profile_items_key ON pricing_profile_items (pricing_profile_id, asset_specification_id, COALESCE(waste_type_id, '00000000-0000-0000-0000-000000000000'::uuid))`,
    );

    await q.query(`ALTER TABLE customers ADD COLUMN pricing_profile_id uuid REFERENCES pricing_profiles (id)`);
    await q.query(`CREATE INDEX idx_customers_pricing_profile_id ON customers (pricing_profile_id)`);

    await q.query(`
      CREATE TABLE promotions (${common}
        code text NOT NULL,
        name text NOT NULL,
        discount_type text NOT NULL CHECK (discount_type IN ('percent', 'fixed')),
        discount_value int NOT NULL CHECK (discount_value > 0 AND (discount_type <> 'percent' OR discount_value <= 10000)),
        valid_from date,
        valid_to date,
        max_redemptions int CHECK (max_redemptions > 0),
        max_redemptions_per_customer int CHECK (max_redemptions_per_customer > 0),
        min_subtotal_amount int NOT NULL DEFAULT 0 CHECK (min_subtotal_amount >= 0),
        active boolean NOT NULL DEFAULT true,${stamps},
        CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to)
      )`);
    await q.query(`CREATE INDEX idx_promotions_company_id ON promotions (company_id, active)`);
    await q.query(`CREATE UNIQUE INDEX uq_promotions_code ON promotions (company_id, lower(code)) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE promotion_asset_specifications (
        promotion_id uuid NOT NULL REFERENCES promotions (id) ON DELETE CASCADE,
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        PRIMARY KEY (promotion_id, asset_specification_id)
      )`);
    await q.query(`CREATE INDEX idx_promotion_asset_specifications_spec ON promotion_asset_specifications (asset_specification_id)`);

    await q.query(`
      CREATE TABLE truck_types (${common}
        name text NOT NULL,
        capacity_kg int NOT NULL DEFAULT 0 CHECK (capacity_kg >= 0),${stamps}
      )`);
    await q.query(`CREATE INDEX idx_truck_types_company_id ON truck_types (company_id)`);

    await q.query(`
      CREATE TABLE truck_type_asset_specifications (
        truck_type_id uuid NOT NULL REFERENCES truck_types (id) ON DELETE CASCADE,
        asset_specification_id uuid NOT NULL REFERENCES asset_specifications (id),
        PRIMARY KEY (truck_type_id, asset_specification_id)
      )`);
    await q.query(`CREATE INDEX idx_truck_type_asset_specifications_spec ON truck_type_asset_specifications (asset_specification_id)`);

    await q.query(`
      CREATE TABLE trucks (${common}
        plate text NOT NULL,
        name text,
        truck_type_id uuid NOT NULL REFERENCES truck_types (id),
        home_lot_id uuid REFERENCES lots (id),
        tare_weight_kg int CHECK (tare_weight_kg >= 0),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'maintenance', 'retired')),
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        location_updated_at timestamptz,${stamps}
      )`);
    await q.query(`CREATE INDEX idx_trucks_company_id ON trucks (company_id, status)`);
    await q.query(`CREATE INDEX idx_trucks_truck_type_id ON trucks (truck_type_id)`);
    await q.query(`CREATE INDEX idx_trucks_home_lot_id ON trucks (home_lot_id)`);
    await q.query(`CREATE UNIQUE INDEX uq_trucks_plate ON trucks (company_id, lower(plate)) WHERE deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['trucks', 'truck_type_asset_specifications', 'truck_types', 'promotion_asset_specifications', 'promotions']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
    await q.query(`DROP INDEX IF EXISTS idx_customers_pricing_profile_id`);
    await q.query(`ALTER TABLE customers DROP COLUMN IF EXISTS pricing_profile_id`);
    for (const t of ['pricing_profile_items', 'pricing_profiles', 'policies', 'payment_terms', 'taxes']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
