import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customer and driver profile fields (company back office), customer addresses (one default per
 * customer) and uploaded media. `customers.pricing_profile_id` belongs to 1763800003000-PricingFleet
 * (with its foreign key); it is added here only if that migration did not (IF NOT EXISTS).
 */
export class MembersAddressesMedia1763800004000 implements MigrationInterface {
  name = 'MembersAddressesMedia1763800004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE customers
        ADD COLUMN billing_name text,
        ADD COLUMN billing_email text,
        ADD COLUMN tax_exempt boolean NOT NULL DEFAULT false,
        ADD COLUMN notes text`);

    await q.query(`
      ALTER TABLE drivers
        ADD COLUMN license_number text,
        ADD COLUMN license_expires_on date,
        ADD COLUMN hired_on date,
        ADD COLUMN notes text`);

    // The back-office lists filter users by company, type and status.
    await q.query(`CREATE INDEX idx_users_company_type_status ON users (company_id, type, status)`);

    await q.query(`
      CREATE TABLE customer_addresses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        customer_id uuid NOT NULL REFERENCES customers (id),
        label text,
        line1 text NOT NULL,
        line2 text,
        city text NOT NULL,
        region text,
        postal_code text,
        country char(2),
        latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
        instructions text,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_customer_addresses_company_id ON customer_addresses (company_id)`);
    await q.query(`CREATE INDEX idx_customer_addresses_customer_id ON customer_addresses (customer_id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX uq_customer_addresses_default ON customer_addresses (customer_id) WHERE is_default AND deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE media (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        storage text NOT NULL DEFAULT 'local' CHECK (storage IN ('local', 's3')),
        path text NOT NULL,
        mime_type text NOT NULL CHECK (mime_type IN ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
        size_bytes int NOT NULL CHECK (size_bytes > 0),
        sha256 char(64) NOT NULL,
        original_name text,
        uploader_ip text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_media_uploader_ip ON media (uploader_ip, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS media`);
    await q.query(`DROP TABLE IF EXISTS customer_addresses`);
    await q.query(`DROP INDEX IF EXISTS idx_users_company_type_status`);
    await q.query(`ALTER TABLE drivers DROP COLUMN notes, DROP COLUMN hired_on, DROP COLUMN license_expires_on, DROP COLUMN license_number`);
    // pricing_profile_id stays: 1763800003000-PricingFleet owns it.
    await q.query(`ALTER TABLE customers DROP COLUMN notes, DROP COLUMN tax_exempt, DROP COLUMN billing_email, DROP COLUMN billing_name`);
  }
}
