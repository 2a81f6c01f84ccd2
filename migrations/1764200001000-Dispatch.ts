import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dispatch and the driver's day (#11):
 * - `jobs` (jobs module): when a job was assigned, the asset a pickup or swap takes away
 *   (`removed_asset_id`), the swap a pickup was merged into by route collapse (`merged_into_job_id`:
 *   the pickup keeps its order link and completes with the swap), and the latest sent location.
 * - `job_status_history` (jobs module): every status move of a job, who and when.
 * - `asset_history` (catalogue): every status or place change of an asset made by a job.
 * - Dispatch's own rows: evidence, issues, station tickets and location points of jobs.
 */
export class Dispatch1764200001000 implements MigrationInterface {
  name = 'Dispatch1764200001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE jobs
        ADD COLUMN assigned_at timestamptz,
        ADD COLUMN removed_asset_id uuid REFERENCES assets (id),
        ADD COLUMN merged_into_job_id uuid REFERENCES jobs (id),
        ADD COLUMN last_lat double precision CHECK (last_lat BETWEEN -90 AND 90),
        ADD COLUMN last_lng double precision CHECK (last_lng BETWEEN -180 AND 180),
        ADD COLUMN last_location_at timestamptz`);
    await q.query(`CREATE INDEX idx_jobs_removed_asset ON jobs (removed_asset_id) WHERE removed_asset_id IS NOT NULL`);
    await q.query(`CREATE INDEX idx_jobs_merged_into ON jobs (merged_into_job_id) WHERE merged_into_job_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE job_status_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        from_status text,
        to_status text NOT NULL,
        driver_id uuid,
        actor_id uuid,
        actor_type text NOT NULL,
        reason text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX idx_job_status_history_job ON job_status_history (job_id, created_at)`);
    await q.query(`CREATE INDEX idx_job_status_history_company ON job_status_history (company_id)`);

    await q.query(`
      CREATE TABLE asset_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        asset_id uuid NOT NULL REFERENCES assets (id),
        from_status text,
        to_status text NOT NULL,
        location_type text CHECK (location_type IN ('lot', 'customer_address', 'station', 'truck')),
        location_id uuid,
        lat double precision,
        lng double precision,
        job_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX idx_asset_history_asset ON asset_history (asset_id, created_at)`);
    await q.query(`CREATE INDEX idx_asset_history_company ON asset_history (company_id)`);

    await q.query(`
      CREATE TABLE job_evidence (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        driver_id uuid NOT NULL REFERENCES drivers (id),
        kind text NOT NULL CHECK (kind IN ('photo', 'signature', 'qr_scan', 'ticket')),
        media_id uuid REFERENCES media (id),
        url text,
        code text,
        note text,
        lat double precision CHECK (lat BETWEEN -90 AND 90),
        lng double precision CHECK (lng BETWEEN -180 AND 180),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_job_evidence_job ON job_evidence (job_id, created_at)`);
    await q.query(`CREATE INDEX idx_job_evidence_company ON job_evidence (company_id)`);
    await q.query(`CREATE INDEX idx_job_evidence_media ON job_evidence (media_id) WHERE media_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE job_issues (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        driver_id uuid NOT NULL REFERENCES drivers (id),
        type text NOT NULL CHECK (type IN ('no_access', 'blocked', 'overloaded', 'contamination', 'prohibited_items', 'damage', 'safety', 'not_ready', 'other')),
        blocking boolean NOT NULL DEFAULT false,
        description text,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        resolution_note text,
        resolved_at timestamptz,
        resolved_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_job_issues_company_created ON job_issues (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_job_issues_company_status_created ON job_issues (company_id, status, created_at, id)`);
    await q.query(`CREATE INDEX idx_job_issues_job ON job_issues (job_id, status)`);
    await q.query(`CREATE INDEX idx_job_issues_driver ON job_issues (driver_id)`);

    await q.query(`
      CREATE TABLE station_tickets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        station_id uuid NOT NULL REFERENCES stations (id),
        driver_id uuid NOT NULL REFERENCES drivers (id),
        ticket_number text NOT NULL,
        gross_kg integer NOT NULL CHECK (gross_kg > 0),
        tare_kg integer NOT NULL CHECK (tare_kg >= 0),
        net_kg integer NOT NULL,
        weighed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT station_tickets_net_kg_check CHECK (net_kg = gross_kg - tare_kg AND net_kg > 0),
        CONSTRAINT station_tickets_job_id_key UNIQUE (job_id)
      )`);
    await q.query(`CREATE INDEX idx_station_tickets_company ON station_tickets (company_id)`);
    await q.query(`CREATE INDEX idx_station_tickets_station ON station_tickets (station_id)`);
    await q.query(`CREATE INDEX idx_station_tickets_driver ON station_tickets (driver_id)`);

    await q.query(`
      CREATE TABLE job_locations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        driver_id uuid NOT NULL REFERENCES drivers (id),
        lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
        lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
        accuracy_m double precision CHECK (accuracy_m >= 0),
        heading double precision CHECK (heading >= 0 AND heading < 360),
        speed_mps double precision CHECK (speed_mps >= 0),
        recorded_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_job_locations_job ON job_locations (job_id, recorded_at)`);
    await q.query(`CREATE INDEX idx_job_locations_company ON job_locations (company_id)`);
    await q.query(`CREATE INDEX idx_job_locations_driver ON job_locations (driver_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE job_locations`);
    await q.query(`DROP TABLE station_tickets`);
    await q.query(`DROP TABLE job_issues`);
    await q.query(`DROP TABLE job_evidence`);
    await q.query(`DROP TABLE asset_history`);
    await q.query(`DROP TABLE job_status_history`);
    await q.query(`
      ALTER TABLE jobs
        DROP COLUMN last_location_at, DROP COLUMN last_lng, DROP COLUMN last_lat,
        DROP COLUMN merged_into_job_id, DROP COLUMN removed_asset_id, DROP COLUMN assigned_at`);
  }
}
