import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company's yearly leave allowance for every leave type (issue #12, domain.md §6), in company settings
 * beside the annual and sick ones LotsStations created: unpaid and other, 0 days by default. The leaves
 * module reads them (through CompanySettingsService) for the drivers' stats.
 */
export class LeaveAllowances1764300003000 implements MigrationInterface {
  name = 'LeaveAllowances1764300003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE company_settings
        ADD COLUMN unpaid_leave_allowance_days int NOT NULL DEFAULT 0
          CONSTRAINT company_settings_unpaid_leave_allowance_days_check CHECK (unpaid_leave_allowance_days >= 0),
        ADD COLUMN other_leave_allowance_days int NOT NULL DEFAULT 0
          CONSTRAINT company_settings_other_leave_allowance_days_check CHECK (other_leave_allowance_days >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_settings DROP COLUMN IF EXISTS other_leave_allowance_days, DROP COLUMN IF EXISTS unpaid_leave_allowance_days`);
  }
}
