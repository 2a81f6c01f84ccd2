import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The driver's day (domain.md §6, issue #11): where and with which truck a driver checked in and out,
 * the day's pauses (`attendance_breaks`: breaks, and the time between a check-out and a resume), and
 * indexes for the company's attendance list (newest day first; filters status, driver and date range).
 *
 * idx_attendances_company_date (company_id, work_date, id) replaces idx_attendances_company_id: it
 * serves the company foreign key as well. The driver filter (and a driver's own list) is served by the
 * unique key (driver_id, work_date).
 */
export class AttendanceDay1764200000000 implements MigrationInterface {
  name = 'AttendanceDay1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE attendances
        ADD COLUMN check_in_lat double precision,
        ADD COLUMN check_in_lng double precision,
        ADD COLUMN check_out_lat double precision,
        ADD COLUMN check_out_lng double precision,
        ADD COLUMN truck_id uuid CONSTRAINT attendances_truck_id_fkey REFERENCES trucks (id),
        ADD CONSTRAINT attendances_check_in_lat_check CHECK (check_in_lat BETWEEN -90 AND 90),
        ADD CONSTRAINT attendances_check_in_lng_check CHECK (check_in_lng BETWEEN -180 AND 180),
        ADD CONSTRAINT attendances_check_out_lat_check CHECK (check_out_lat BETWEEN -90 AND 90),
        ADD CONSTRAINT attendances_check_out_lng_check CHECK (check_out_lng BETWEEN -180 AND 180),
        ADD CONSTRAINT attendances_check_in_position_check CHECK ((check_in_lat IS NULL) = (check_in_lng IS NULL)),
        ADD CONSTRAINT attendances_check_out_position_check CHECK ((check_out_lat IS NULL) = (check_out_lng IS NULL)),
        ADD CONSTRAINT attendances_checked_out_at_check CHECK (checked_out_at IS NULL OR checked_out_at >= checked_in_at)`);
    await q.query(`DROP INDEX idx_attendances_company_id`);
    await q.query(`CREATE INDEX idx_attendances_company_date ON attendances (company_id, work_date, id)`);
    await q.query(`CREATE INDEX idx_attendances_company_status_date ON attendances (company_id, status, work_date, id)`);
    await q.query(`CREATE INDEX idx_attendances_truck ON attendances (truck_id) WHERE truck_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE attendance_breaks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT attendance_breaks_company_id_fkey REFERENCES companies (id),
        attendance_id uuid NOT NULL CONSTRAINT attendance_breaks_attendance_id_fkey REFERENCES attendances (id) ON DELETE CASCADE,
        kind text NOT NULL DEFAULT 'break' CONSTRAINT attendance_breaks_kind_check CHECK (kind IN ('break', 'checked_out')),
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT attendance_breaks_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at)
      )`);
    await q.query(`CREATE INDEX idx_attendance_breaks_company_id ON attendance_breaks (company_id)`);
    await q.query(`CREATE INDEX idx_attendance_breaks_attendance ON attendance_breaks (attendance_id, started_at)`);
    // At most one open pause per day: two concurrent start-breaks cannot both open one.
    await q.query(`CREATE UNIQUE INDEX uq_attendance_breaks_open ON attendance_breaks (attendance_id) WHERE ended_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE attendance_breaks`);
    await q.query(`DROP INDEX idx_attendances_truck`);
    await q.query(`DROP INDEX idx_attendances_company_status_date`);
    await q.query(`DROP INDEX idx_attendances_company_date`);
    await q.query(`CREATE INDEX idx_attendances_company_id ON attendances (company_id)`);
    await q.query(`
      ALTER TABLE attendances
        DROP CONSTRAINT attendances_checked_out_at_check,
        DROP CONSTRAINT attendances_check_out_position_check,
        DROP CONSTRAINT attendances_check_in_position_check,
        DROP CONSTRAINT attendances_check_out_lng_check,
        DROP CONSTRAINT attendances_check_out_lat_check,
        DROP CONSTRAINT attendances_check_in_lng_check,
        DROP CONSTRAINT attendances_check_in_lat_check,
        DROP COLUMN truck_id,
        DROP COLUMN check_out_lng,
        DROP COLUMN check_out_lat,
        DROP COLUMN check_in_lng,
        DROP COLUMN check_in_lat`);
  }
}
