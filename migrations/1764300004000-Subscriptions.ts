import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions and plans (issue #13). `plans` are global rows seeded here (free, starter, pro: price per
 * month in minor units, currency, trial days, limits on drivers, assets and orders per month; README
 * "Subscriptions and plans" explains the numbers). `subscriptions` are a company's: at most one live
 * (trialing, active or past_due) per company, and at most one trial per company, ever.
 */
export class Subscriptions1764300004000 implements MigrationInterface {
  name = 'Subscriptions1764300004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plans (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code text NOT NULL,
        name text NOT NULL,
        price integer NOT NULL CONSTRAINT plans_price_check CHECK (price >= 0),
        currency text NOT NULL,
        trial_days integer NOT NULL CONSTRAINT plans_trial_days_check CHECK (trial_days >= 0),
        max_drivers integer NOT NULL,
        max_assets integer NOT NULL,
        max_monthly_orders integer NOT NULL,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_plans_code ON plans (code)`);
    await q.query(`
      INSERT INTO plans (code, name, price, currency, trial_days, max_drivers, max_assets, max_monthly_orders, position) VALUES
        ('free', 'Free', 0, 'USD', 0, 20, 100, 300, 0),
        ('starter', 'Starter', 4900, 'USD', 14, 50, 500, 2000, 1),
        ('pro', 'Pro', 14900, 'USD', 14, 200, 5000, 20000, 2)`);

    await q.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT subscriptions_company_id_fkey REFERENCES companies (id),
        plan_id uuid NOT NULL CONSTRAINT subscriptions_plan_id_fkey REFERENCES plans (id),
        state text NOT NULL
          CONSTRAINT subscriptions_state_check CHECK (state IN ('trialing', 'active', 'past_due', 'cancelled')),
        is_trial boolean NOT NULL DEFAULT false,
        amount integer NOT NULL,
        currency text NOT NULL,
        current_period_start timestamptz NOT NULL,
        current_period_end timestamptz NOT NULL,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        cancelled_at timestamptz,
        charge_reference text,
        created_by uuid NOT NULL CONSTRAINT subscriptions_created_by_fkey REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_subscriptions_company ON subscriptions (company_id, created_at)`);
    await q.query(`CREATE INDEX idx_subscriptions_plan ON subscriptions (plan_id)`);
    await q.query(`CREATE INDEX idx_subscriptions_created_by ON subscriptions (created_by)`);
    await q.query(`CREATE UNIQUE INDEX uq_subscriptions_live ON subscriptions (company_id) WHERE state <> 'cancelled'`);
    await q.query(`CREATE UNIQUE INDEX uq_subscriptions_trial ON subscriptions (company_id) WHERE is_trial`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE subscriptions`);
    await q.query(`DROP TABLE plans`);
  }
}
