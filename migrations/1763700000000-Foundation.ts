import { MigrationInterface, QueryRunner } from 'typeorm';

/** Identity, tenancy, attendance (for DR-IN), mail outbox, domain-event outbox, idempotency keys. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type IN ('company', 'customer', 'driver')),
        name text NOT NULL,
        email text NOT NULL,
        phone text,
        password_hash text,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        company_id uuid,
        email_verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_users_email ON users (lower(email))`);
    await q.query(`CREATE INDEX idx_users_company_id ON users (company_id)`);

    await q.query(`
      CREATE TABLE companies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users (id),
        name text NOT NULL,
        email text,
        phone text,
        address text,
        timezone text NOT NULL DEFAULT 'UTC',
        currency char(3) NOT NULL DEFAULT 'USD',
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_companies_owner_id ON companies (owner_id)`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT fk_users_company FOREIGN KEY (company_id) REFERENCES companies (id)`);

    await q.query(`
      CREATE TABLE customers (
        id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        company_id uuid NOT NULL REFERENCES companies (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_customers_company_id ON customers (company_id)`);

    await q.query(`
      CREATE TABLE drivers (
        id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        company_id uuid NOT NULL REFERENCES companies (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_drivers_company_id ON drivers (company_id)`);

    await q.query(`
      CREATE TABLE admins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        failed_logins int NOT NULL DEFAULT 0,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_admins_email ON admins (lower(email))`);

    await q.query(`
      CREATE TABLE auth_tokens (
        jti uuid PRIMARY KEY,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        admin_id uuid REFERENCES admins (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((user_id IS NULL) <> (admin_id IS NULL))
      )`);
    await q.query(`CREATE INDEX idx_auth_tokens_user_id ON auth_tokens (user_id)`);
    await q.query(`CREATE INDEX idx_auth_tokens_admin_id ON auth_tokens (admin_id)`);

    await q.query(`
      CREATE TABLE one_time_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        audience text NOT NULL CHECK (audience IN ('user', 'admin')),
        email text NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_one_time_codes_lookup ON one_time_codes (audience, lower(email), purpose)`);

    await q.query(`
      CREATE TABLE attendances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies (id),
        driver_id uuid NOT NULL REFERENCES drivers (id),
        work_date date NOT NULL,
        status text NOT NULL CHECK (status IN ('checked_in', 'on_break', 'checked_out')),
        checked_in_at timestamptz NOT NULL,
        checked_out_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (driver_id, work_date)
      )`);
    await q.query(`CREATE INDEX idx_attendances_company_id ON attendances (company_id)`);
    await q.query(`CREATE INDEX idx_attendances_open ON attendances (driver_id) WHERE status IN ('checked_in', 'on_break')`);

    await q.query(`
      CREATE TABLE mail_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        to_address text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('sent', 'outbox', 'failed')),
        error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_mail_messages_to ON mail_messages (lower(to_address), created_at)`);

    await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid REFERENCES companies (id),
        type text NOT NULL,
        aggregate_type text NOT NULL,
        aggregate_id uuid NOT NULL,
        actor_id uuid,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await q.query(`CREATE INDEX idx_outbox_events_company_id ON outbox_events (company_id)`);
    await q.query(`CREATE INDEX idx_outbox_events_unpublished ON outbox_events (created_at) WHERE published_at IS NULL`);

    await q.query(`
      CREATE TABLE idempotency_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        scope text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_flight', 'done')),
        response_status int,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        UNIQUE (scope, key)
      )`);
    await q.query(`CREATE INDEX idx_idempotency_keys_expires_at ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['idempotency_keys', 'outbox_events', 'mail_messages', 'attendances', 'one_time_codes', 'auth_tokens', 'admins', 'drivers', 'customers']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS fk_users_company`);
    await q.query(`DROP TABLE IF EXISTS companies`);
    await q.query(`DROP TABLE IF EXISTS users`);
  }
}
