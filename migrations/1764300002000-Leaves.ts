import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drivers' leave (domain.md §6, issue #12): requests with a decision per date, the leaves approved dates
 * become. The yearly allowance per leave type is a company setting (LeaveAllowances1764300003000).
 *
 * Every list filter and sort has an index (company lists by creation, status, type and first date; a
 * driver's by creation and first date; leaves by start date, status, type, driver and request); the
 * calendar ("is the driver on leave on D") uses idx_leaves_driver_start, the overlap checks and stats
 * idx_leave_request_dates_driver_date.
 */
export class Leaves1764300002000 implements MigrationInterface {
  name = 'Leaves1764300002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE leave_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT leave_requests_company_id_fkey REFERENCES companies (id),
        driver_id uuid NOT NULL CONSTRAINT leave_requests_driver_id_fkey REFERENCES drivers (id),
        type text NOT NULL CONSTRAINT leave_requests_type_check CHECK (type IN ('annual', 'sick', 'unpaid', 'other')),
        status text NOT NULL DEFAULT 'pending'
          CONSTRAINT leave_requests_status_check CHECK (status IN ('pending', 'in_review', 'partially_approved', 'approved', 'rejected', 'cancelled')),
        reason text NOT NULL,
        attachment_media_id uuid CONSTRAINT leave_requests_attachment_media_id_fkey REFERENCES media (id),
        first_date date NOT NULL,
        last_date date NOT NULL,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT leave_requests_dates_check CHECK (last_date >= first_date),
        CONSTRAINT leave_requests_cancelled_at_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX idx_leave_requests_company_created ON leave_requests (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_company_status_created ON leave_requests (company_id, status, created_at, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_company_type_created ON leave_requests (company_id, type, created_at, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_company_first_date ON leave_requests (company_id, first_date, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_driver_created ON leave_requests (driver_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_driver_first_date ON leave_requests (driver_id, first_date, id)`);
    await q.query(`CREATE INDEX idx_leave_requests_attachment ON leave_requests (attachment_media_id) WHERE attachment_media_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE leaves (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT leaves_company_id_fkey REFERENCES companies (id),
        driver_id uuid NOT NULL CONSTRAINT leaves_driver_id_fkey REFERENCES drivers (id),
        leave_request_id uuid NOT NULL CONSTRAINT leaves_leave_request_id_fkey REFERENCES leave_requests (id),
        type text NOT NULL CONSTRAINT leaves_type_check CHECK (type IN ('annual', 'sick', 'unpaid', 'other')),
        status text NOT NULL DEFAULT 'approved' CONSTRAINT leaves_status_check CHECK (status IN ('approved', 'cancelled', 'revoked')),
        start_date date NOT NULL,
        end_date date NOT NULL,
        revoked_from date,
        revoked_to date,
        cancelled_at timestamptz,
        revoked_at timestamptz,
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT leaves_dates_check CHECK (end_date >= start_date),
        CONSTRAINT leaves_cancelled_at_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)),
        CONSTRAINT leaves_revoked_check CHECK ((status = 'revoked') = (revoked_at IS NOT NULL AND revoked_from IS NOT NULL AND revoked_to IS NOT NULL)),
        CONSTRAINT leaves_revoked_dates_check CHECK (revoked_from IS NULL OR (revoked_from = end_date + 1 AND revoked_to >= revoked_from))
      )`);
    await q.query(`CREATE INDEX idx_leaves_company_start ON leaves (company_id, start_date, id)`);
    await q.query(`CREATE INDEX idx_leaves_company_status_start ON leaves (company_id, status, start_date, id)`);
    await q.query(`CREATE INDEX idx_leaves_company_type_start ON leaves (company_id, type, start_date, id)`);
    await q.query(`CREATE INDEX idx_leaves_driver_start ON leaves (driver_id, start_date, id)`);
    await q.query(`CREATE INDEX idx_leaves_leave_request ON leaves (leave_request_id)`);

    await q.query(`
      CREATE TABLE leave_request_dates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT leave_request_dates_company_id_fkey REFERENCES companies (id),
        leave_request_id uuid NOT NULL CONSTRAINT leave_request_dates_leave_request_id_fkey REFERENCES leave_requests (id) ON DELETE CASCADE,
        driver_id uuid NOT NULL CONSTRAINT leave_request_dates_driver_id_fkey REFERENCES drivers (id),
        date date NOT NULL,
        status text NOT NULL DEFAULT 'pending' CONSTRAINT leave_request_dates_status_check CHECK (status IN ('pending', 'in_review', 'approved', 'rejected')),
        note text,
        decided_at timestamptz,
        decided_by uuid CONSTRAINT leave_request_dates_decided_by_fkey REFERENCES users (id),
        leave_id uuid CONSTRAINT leave_request_dates_leave_id_fkey REFERENCES leaves (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT leave_request_dates_leave_request_id_date_key UNIQUE (leave_request_id, date),
        CONSTRAINT leave_request_dates_leave_check CHECK (leave_id IS NULL OR status = 'approved')
      )`);
    await q.query(`CREATE INDEX idx_leave_request_dates_company ON leave_request_dates (company_id)`);
    await q.query(`CREATE INDEX idx_leave_request_dates_driver_date ON leave_request_dates (driver_id, date)`);
    await q.query(`CREATE INDEX idx_leave_request_dates_decided_by ON leave_request_dates (decided_by) WHERE decided_by IS NOT NULL`);
    await q.query(`CREATE INDEX idx_leave_request_dates_leave ON leave_request_dates (leave_id) WHERE leave_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE leave_request_dates`);
    await q.query(`DROP TABLE leaves`);
    await q.query(`DROP TABLE leave_requests`);
  }
}
