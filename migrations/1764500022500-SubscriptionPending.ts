import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #22, the first subscription charge reserved before the provider is called: a subscription in
 * state `pending` (at most one per company, not live: the plan in force is unchanged until it settles)
 * with a `pending` first charge in `subscription_charges` (our key, no provider reference yet, the
 * reconciler's `next_check_at` / `check_attempts`, as on `payment_transactions`).
 */
export class SubscriptionPending1764500022500 implements MigrationInterface {
  name = 'SubscriptionPending1764500022500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_state_check`);
    await q.query(`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_state_check CHECK (state IN ('pending', 'trialing', 'active', 'past_due', 'cancelled'))`);
    await q.query(`DROP INDEX uq_subscriptions_live`);
    await q.query(`CREATE UNIQUE INDEX uq_subscriptions_live ON subscriptions (company_id) WHERE state IN ('trialing', 'active', 'past_due')`);
    await q.query(`CREATE UNIQUE INDEX uq_subscriptions_pending ON subscriptions (company_id) WHERE state = 'pending'`);
    await q.query(`ALTER TABLE subscription_charges DROP CONSTRAINT subscription_charges_status_check`);
    await q.query(`ALTER TABLE subscription_charges ADD CONSTRAINT subscription_charges_status_check CHECK (status IN ('pending', 'succeeded', 'failed'))`);
    await q.query(`ALTER TABLE subscription_charges ALTER COLUMN provider_reference DROP NOT NULL, ADD COLUMN next_check_at timestamptz, ADD COLUMN check_attempts int NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX idx_subscription_charges_pending_check ON subscription_charges (next_check_at, id) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM subscriptions WHERE state = 'pending'`);
    await q.query(`DROP INDEX idx_subscription_charges_pending_check`);
    await q.query(`ALTER TABLE subscription_charges DROP COLUMN next_check_at, DROP COLUMN check_attempts, ALTER COLUMN provider_reference SET NOT NULL`);
    await q.query(`ALTER TABLE subscription_charges DROP CONSTRAINT subscription_charges_status_check`);
    await q.query(`ALTER TABLE subscription_charges ADD CONSTRAINT subscription_charges_status_check CHECK (status IN ('succeeded', 'failed'))`);
    await q.query(`DROP INDEX uq_subscriptions_pending`);
    await q.query(`DROP INDEX uq_subscriptions_live`);
    await q.query(`CREATE UNIQUE INDEX uq_subscriptions_live ON subscriptions (company_id) WHERE state <> 'cancelled'`);
    await q.query(`ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_state_check`);
    await q.query(`ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_state_check CHECK (state IN ('trialing', 'active', 'past_due', 'cancelled'))`);
  }
}
