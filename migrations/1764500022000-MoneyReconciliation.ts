import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #22, money at the edges: a `pending` ledger row is reserved before the provider is called and
 * settled after it. The reconciler asks the provider about pending rows whose `next_check_at` has come
 * (backoff in `check_attempts`); the partial index serves its claim.
 */
export class MoneyReconciliation1764500022000 implements MigrationInterface {
  name = 'MoneyReconciliation1764500022000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transactions ADD COLUMN next_check_at timestamptz, ADD COLUMN check_attempts int NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX idx_payment_transactions_pending_check ON payment_transactions (next_check_at, id) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_payment_transactions_pending_check`);
    await q.query(`ALTER TABLE payment_transactions DROP COLUMN next_check_at, DROP COLUMN check_attempts`);
  }
}
