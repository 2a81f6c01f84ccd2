import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money over time (issue #13, scheduled work; README "Scheduled work").
 * - `subscriptions`: the card the company subscribed with (provider buyer and instrument references, for
 *   renewals), the period number (idempotency keys `subscription:<id>:period:<n>`), failed attempts in the
 *   current period, the end of the grace period of a `past_due` subscription, the last failure code and
 *   `next_action_at` (when the renewal job next looks at it: the period end, or the next retry).
 * - `subscription_charges`: every charge of a subscription (first period, renewals, retries), succeeded or
 *   failed, with its idempotency key (unique).
 * - `orders`: the overdue notices given (`overdue_for`: the due date they were given for; `overdue_notices`:
 *   1 marked, 2 the 7-day reminder, 3 the 30-day one) and a partial index of the orders still to notice.
 */
export class MoneySchedule1764400000000 implements MigrationInterface {
  name = 'MoneySchedule1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions
        ADD COLUMN buyer_reference text,
        ADD COLUMN instrument_reference text,
        ADD COLUMN period_number integer NOT NULL DEFAULT 1,
        ADD COLUMN renewal_attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN grace_ends_at timestamptz,
        ADD COLUMN last_failure_code text,
        ADD COLUMN next_action_at timestamptz`);
    await q.query(`UPDATE subscriptions SET next_action_at = current_period_end`);
    await q.query(`ALTER TABLE subscriptions ALTER COLUMN next_action_at SET NOT NULL`);
    await q.query(`CREATE INDEX idx_subscriptions_next_action ON subscriptions (next_action_at) WHERE state <> 'cancelled'`);

    await q.query(`
      CREATE TABLE subscription_charges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT subscription_charges_company_id_fkey REFERENCES companies (id),
        subscription_id uuid NOT NULL CONSTRAINT subscription_charges_subscription_id_fkey REFERENCES subscriptions (id) ON DELETE CASCADE,
        period_number integer NOT NULL,
        attempt integer NOT NULL,
        amount integer NOT NULL CONSTRAINT subscription_charges_amount_check CHECK (amount > 0),
        currency text NOT NULL,
        status text NOT NULL CONSTRAINT subscription_charges_status_check CHECK (status IN ('succeeded', 'failed')),
        provider_reference text NOT NULL,
        failure_code text,
        idempotency_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_subscription_charges_key ON subscription_charges (idempotency_key)`);
    await q.query(`CREATE INDEX idx_subscription_charges_subscription ON subscription_charges (subscription_id, created_at)`);
    await q.query(`CREATE INDEX idx_subscription_charges_company ON subscription_charges (company_id, created_at)`);

    await q.query(`
      ALTER TABLE orders
        ADD COLUMN overdue_for date,
        ADD COLUMN overdue_notices smallint NOT NULL DEFAULT 0 CONSTRAINT orders_overdue_notices_check CHECK (overdue_notices BETWEEN 0 AND 3)`);
    await q.query(`
      CREATE INDEX idx_orders_overdue_pending ON orders (due_date, company_id)
        WHERE total_amount > paid_amount AND status <> 'rejected' AND (overdue_for IS DISTINCT FROM due_date OR overdue_notices < 3)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_orders_overdue_pending`);
    await q.query(`ALTER TABLE orders DROP COLUMN overdue_notices, DROP COLUMN overdue_for`);
    await q.query(`DROP TABLE subscription_charges`);
    await q.query(`DROP INDEX idx_subscriptions_next_action`);
    await q.query(`
      ALTER TABLE subscriptions
        DROP COLUMN next_action_at, DROP COLUMN last_failure_code, DROP COLUMN grace_ends_at,
        DROP COLUMN renewal_attempts, DROP COLUMN period_number, DROP COLUMN instrument_reference, DROP COLUMN buyer_reference`);
  }
}
