import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lots (yards) and stations (dump sites) with their holidays; company documents and settings.
 * station_waste_types is in 1763800001500-StationWasteTypes (it references waste_types).
 */
/** Opening hours when none are given: open every day, all day. */
const ALL_DAY = JSON.stringify(Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: '00:00', close: '24:00' }])));

export class LotsStations1763800001000 implements MigrationInterface {
  name = 'LotsStations1763800001000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, extra] of [
      ['lots', 'capacity int NOT NULL DEFAULT 0 CHECK (capacity >= 0),'],
      ['stations', 'dump_cost_per_tonne_amount int NOT NULL DEFAULT 0 CHECK (dump_cost_per_tonne_amount >= 0),'],
    ] as const) {
      await q.query(`
        CREATE TABLE ${table} (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          company_id uuid NOT NULL REFERENCES companies (id),
          name text NOT NULL,
          address text,
          latitude double precision CHECK (latitude BETWEEN -90 AND 90),
          longitude double precision CHECK (longitude BETWEEN -180 AND 180),
          opening_hours jsonb NOT NULL DEFAULT '${ALL_DAY}'::jsonb,
          ${extra}
          active boolean NOT NULL DEFAULT true,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          deleted_at timestamptz
        )`);
      await q.query(`CREATE INDEX idx_${table}_company_id ON ${table} (company_id) WHERE deleted_at IS NULL`);
      await q.query(`CREATE INDEX idx_${table}_company_active ON ${table} (company_id, active) WHERE deleted_at IS NULL`);
      await q.query(`CREATE UNIQUE INDEX uq_${table}_company_name ON ${table} (company_id, lower(name)) WHERE deleted_at IS NULL`);
    }

    for (const [table, parent, fk] of [
      ['lot_holidays', 'lots', 'lot_id'],
      ['station_holidays', 'stations', 'station_id'],
    ] as const) {
      await q.query(`
        CREATE TABLE ${table} (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          company_id uuid NOT NULL REFERENCES companies (id),
          ${fk} uuid NOT NULL REFERENCES ${parent} (id) ON DELETE CASCADE,
          date date NOT NULL,
          name text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`);
      await q.query(`CREATE INDEX idx_${table}_company_id ON ${table} (company_id)`);
      await q.query(`CREATE UNIQUE INDEX uq_${table}_${fk}_date ON ${table} (${fk}, date)`);
    }

    await q.query(`
      CREATE TABLE company_documents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        name text NOT NULL,
        type text NOT NULL,
        url text NOT NULL,
        expires_on date,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_company_documents_company_id ON company_documents (company_id)`);

    await q.query(`
      CREATE TABLE company_settings (
        company_id uuid PRIMARY KEY REFERENCES companies (id),
        timezone text NOT NULL DEFAULT 'UTC',
        currency char(3) NOT NULL DEFAULT 'USD',
        order_lead_time_days int NOT NULL DEFAULT 1 CHECK (order_lead_time_days >= 0),
        auto_approve_orders boolean NOT NULL DEFAULT false,
        free_cancellation_hours int NOT NULL DEFAULT 24 CHECK (free_cancellation_hours >= 0),
        cancellation_fee_amount int NOT NULL DEFAULT 0 CHECK (cancellation_fee_amount >= 0),
        demerit_warning_threshold int NOT NULL DEFAULT 10 CHECK (demerit_warning_threshold >= 0),
        demerit_block_threshold int NOT NULL DEFAULT 20 CHECK (demerit_block_threshold >= 0),
        demerit_window_days int NOT NULL DEFAULT 365 CHECK (demerit_window_days > 0),
        annual_leave_allowance_days int NOT NULL DEFAULT 20 CHECK (annual_leave_allowance_days >= 0),
        sick_leave_allowance_days int NOT NULL DEFAULT 10 CHECK (sick_leave_allowance_days >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['company_settings', 'company_documents', 'station_holidays', 'lot_holidays', 'stations', 'lots']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
