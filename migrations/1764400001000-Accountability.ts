import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accountability (#14): policy violations recorded on orders (points and fee copied from the policy,
 * the fee's order lines), their dispute messages, each customer's demerit standing (points in the
 * company's window, thresholds reached, when points next leave the window), and the copy of the
 * points and the block flag on `customers` that placement reads.
 */
export class Accountability1764400001000 implements MigrationInterface {
  name = 'Accountability1764400001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customers ADD COLUMN demerit_points int NOT NULL DEFAULT 0, ADD COLUMN demerit_blocked boolean NOT NULL DEFAULT false`);

    await q.query(`
      CREATE TABLE customer_policy_violations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT customer_policy_violations_company_id_fkey REFERENCES companies (id),
        order_id uuid NOT NULL CONSTRAINT customer_policy_violations_order_id_fkey REFERENCES orders (id),
        order_number int NOT NULL,
        customer_id uuid NOT NULL CONSTRAINT customer_policy_violations_customer_id_fkey REFERENCES customers (id),
        policy_id uuid NOT NULL CONSTRAINT customer_policy_violations_policy_id_fkey REFERENCES policies (id),
        policy_name text NOT NULL,
        policy_category text NOT NULL,
        points int NOT NULL CONSTRAINT customer_policy_violations_points_check CHECK (points >= 0),
        fee_amount int NOT NULL CONSTRAINT customer_policy_violations_fee_amount_check CHECK (fee_amount >= 0),
        charged_amount int NOT NULL DEFAULT 0,
        credited_amount int NOT NULL DEFAULT 0,
        currency char(3) NOT NULL,
        note text,
        evidence_media_ids uuid[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'open' CONSTRAINT customer_policy_violations_status_check CHECK (status IN ('open', 'disputed', 'upheld', 'waived')),
        fee_line_ids uuid[] NOT NULL DEFAULT '{}',
        credit_line_ids uuid[] NOT NULL DEFAULT '{}',
        recorded_by uuid CONSTRAINT customer_policy_violations_recorded_by_fkey REFERENCES users (id),
        disputed_at timestamptz,
        resolved_at timestamptz,
        resolved_by uuid CONSTRAINT customer_policy_violations_resolved_by_fkey REFERENCES users (id),
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT customer_policy_violations_resolved_check CHECK ((status IN ('upheld', 'waived')) = (resolved_at IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_customer_policy_violations_order_policy ON customer_policy_violations (order_id, policy_id) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_order_created ON customer_policy_violations (order_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_customer_created ON customer_policy_violations (customer_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_company_created ON customer_policy_violations (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_policy ON customer_policy_violations (policy_id)`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_recorded_by ON customer_policy_violations (recorded_by) WHERE recorded_by IS NOT NULL`);
    await q.query(`CREATE INDEX idx_customer_policy_violations_resolved_by ON customer_policy_violations (resolved_by) WHERE resolved_by IS NOT NULL`);

    await q.query(`
      CREATE TABLE policy_violation_dispute_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT policy_violation_dispute_messages_company_id_fkey REFERENCES companies (id),
        violation_id uuid NOT NULL CONSTRAINT policy_violation_dispute_messages_violation_id_fkey REFERENCES customer_policy_violations (id) ON DELETE CASCADE,
        customer_id uuid NOT NULL CONSTRAINT policy_violation_dispute_messages_customer_id_fkey REFERENCES customers (id),
        author_type text NOT NULL CONSTRAINT policy_violation_dispute_messages_author_type_check CHECK (author_type IN ('company', 'customer')),
        author_id uuid NOT NULL CONSTRAINT policy_violation_dispute_messages_author_id_fkey REFERENCES users (id),
        body text NOT NULL,
        evidence_media_ids uuid[] NOT NULL DEFAULT '{}',
        resolution text CONSTRAINT policy_violation_dispute_messages_resolution_check CHECK (resolution IN ('upheld', 'waived')),
        edited_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT policy_violation_dispute_messages_resolution_author_check CHECK (resolution IS NULL OR author_type = 'company')
      )`);
    await q.query(`CREATE INDEX idx_policy_violation_dispute_messages_violation ON policy_violation_dispute_messages (violation_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_policy_violation_dispute_messages_company ON policy_violation_dispute_messages (company_id)`);
    await q.query(`CREATE INDEX idx_policy_violation_dispute_messages_customer ON policy_violation_dispute_messages (customer_id)`);
    await q.query(`CREATE INDEX idx_policy_violation_dispute_messages_author ON policy_violation_dispute_messages (author_id)`);

    await q.query(`
      CREATE TABLE customer_demerits (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT customer_demerits_company_id_fkey REFERENCES companies (id),
        customer_id uuid NOT NULL CONSTRAINT customer_demerits_customer_id_fkey REFERENCES customers (id) ON DELETE CASCADE,
        points int NOT NULL DEFAULT 0,
        warning_reached boolean NOT NULL DEFAULT false,
        blocked boolean NOT NULL DEFAULT false,
        violations_count int NOT NULL DEFAULT 0,
        last_violation_at timestamptz,
        points_change_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT customer_demerits_customer_id_key UNIQUE (customer_id)
      )`);
    await q.query(`CREATE INDEX idx_customer_demerits_company_points ON customer_demerits (company_id, points, id)`);
    await q.query(`CREATE INDEX idx_customer_demerits_company_last_violation ON customer_demerits (company_id, last_violation_at, id)`);
    await q.query(`CREATE INDEX idx_customer_demerits_company_created ON customer_demerits (company_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_customer_demerits_points_change ON customer_demerits (points_change_at) WHERE points_change_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS customer_demerits`);
    await q.query(`DROP TABLE IF EXISTS policy_violation_dispute_messages`);
    await q.query(`DROP TABLE IF EXISTS customer_policy_violations`);
    await q.query(`ALTER TABLE customers DROP COLUMN IF EXISTS demerit_blocked, DROP COLUMN IF EXISTS demerit_points`);
  }
}
