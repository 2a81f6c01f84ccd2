import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant onboarding (issue #13): a company's merchant account with the payment provider (one per
 * company: provider, its reference, state, onboarding URL, the preferred payout schedule, when it
 * started, was approved, rejected or cancelled) and the acceptances of the platform's merchant terms
 * of service (who, when, from which address, which version; withdrawals keep the row, at most one live
 * acceptance per company). The platform's fees are configuration in code
 * (src/modules/payments/onboarding/platform-fees.ts), not a table: see README "Merchant onboarding".
 */
export class MerchantOnboarding1764300001000 implements MigrationInterface {
  name = 'MerchantOnboarding1764300001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE merchant_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT merchant_accounts_company_id_fkey REFERENCES companies (id),
        provider text,
        provider_reference text,
        state text NOT NULL DEFAULT 'not_started'
          CONSTRAINT merchant_accounts_state_check CHECK (state IN ('not_started', 'pending', 'approved', 'rejected', 'cancelled')),
        onboarding_url text,
        payout_schedule text NOT NULL DEFAULT 'weekly'
          CONSTRAINT merchant_accounts_payout_schedule_check CHECK (payout_schedule IN ('daily', 'weekly', 'monthly')),
        started_at timestamptz,
        approved_at timestamptz,
        rejected_at timestamptz,
        cancelled_at timestamptz,
        cancel_reason text,
        last_checked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_merchant_accounts_company ON merchant_accounts (company_id)`);

    await q.query(`
      CREATE TABLE merchant_terms_acceptances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT merchant_terms_acceptances_company_id_fkey REFERENCES companies (id),
        version text NOT NULL,
        accepted_by uuid NOT NULL CONSTRAINT merchant_terms_acceptances_accepted_by_fkey REFERENCES users (id),
        accepted_at timestamptz NOT NULL,
        ip text NOT NULL,
        user_agent text,
        withdrawn_at timestamptz,
        withdrawn_by uuid CONSTRAINT merchant_terms_acceptances_withdrawn_by_fkey REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT merchant_terms_acceptances_withdrawn_check CHECK ((withdrawn_at IS NULL) = (withdrawn_by IS NULL))
      )`);
    await q.query(`CREATE INDEX idx_merchant_terms_acceptances_company ON merchant_terms_acceptances (company_id, accepted_at)`);
    await q.query(`CREATE INDEX idx_merchant_terms_acceptances_accepted_by ON merchant_terms_acceptances (accepted_by)`);
    await q.query(`CREATE INDEX idx_merchant_terms_acceptances_withdrawn_by ON merchant_terms_acceptances (withdrawn_by) WHERE withdrawn_by IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX uq_merchant_terms_acceptances_live ON merchant_terms_acceptances (company_id) WHERE withdrawn_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE merchant_terms_acceptances`);
    await q.query(`DROP TABLE merchant_accounts`);
  }
}
