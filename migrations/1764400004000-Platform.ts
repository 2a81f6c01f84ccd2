import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform administration (issue #15, README "Platform administration"): a company's platform settings
 * (columns of `companies`, which the companies module owns and writes; payments reads them through it),
 * the administrators' audit log (owned by platform), and the indexes of the administrators' lists across
 * companies (newest first), declared on the owning modules' entities.
 */
export class Platform1764400004000 implements MigrationInterface {
  name = 'Platform1764400004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE companies
        ADD COLUMN platform_fee_bps integer,
        ADD COLUMN plan_override text,
        ADD COLUMN feature_flags jsonb NOT NULL DEFAULT '{}',
        ADD CONSTRAINT companies_platform_fee_bps_check CHECK (platform_fee_bps IS NULL OR (platform_fee_bps >= 0 AND platform_fee_bps <= 10000))`);
    await q.query(`CREATE INDEX idx_companies_created ON companies (created_at, id)`);
    await q.query(`CREATE INDEX idx_companies_status_created ON companies (status, created_at, id)`);
    await q.query(`
      CREATE TABLE platform_audit_entries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        admin_id uuid NOT NULL CONSTRAINT platform_audit_entries_admin_id_fkey REFERENCES admins (id),
        action text NOT NULL,
        target_type text NOT NULL,
        target_id uuid NOT NULL,
        company_id uuid CONSTRAINT platform_audit_entries_company_id_fkey REFERENCES companies (id),
        before jsonb,
        after jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_platform_audit_entries_company ON platform_audit_entries (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_platform_audit_entries_admin ON platform_audit_entries (admin_id)`);
    await q.query(`CREATE INDEX idx_platform_audit_entries_target ON platform_audit_entries (target_id)`);
    for (const table of ['customers', 'drivers']) {
      await q.query(`CREATE INDEX idx_${table}_company_created ON ${table} (company_id, created_at, id)`);
    }
    for (const table of ['customers', 'drivers', 'waste_types', 'asset_specifications', 'assets', 'orders']) {
      await q.query(`CREATE INDEX idx_${table}_created ON ${table} (created_at, id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['customers', 'drivers', 'waste_types', 'asset_specifications', 'assets', 'orders']) {
      await q.query(`DROP INDEX idx_${table}_created`);
    }
    for (const table of ['customers', 'drivers']) await q.query(`DROP INDEX idx_${table}_company_created`);
    await q.query(`DROP TABLE platform_audit_entries`);
    await q.query(`DROP INDEX idx_companies_status_created`);
    await q.query(`DROP INDEX idx_companies_created`);
    await q.query(`ALTER TABLE companies DROP CONSTRAINT companies_platform_fee_bps_check, DROP COLUMN feature_flags, DROP COLUMN plan_override, DROP COLUMN platform_fee_bps`);
  }
}
