import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks (issue #13): a company's endpoints (URL, subscribed events, signing secret) and the
 * log of every delivery attempt (endpoint, event, attempt, status code, duration, error); the payment
 * provider's inbound events, one row per (provider, event id), which de-duplicates replays.
 */
export class Webhooks1764300005000 implements MigrationInterface {
  name = 'Webhooks1764300005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT webhook_endpoints_company_id_fkey REFERENCES companies (id),
        url text NOT NULL,
        events text[] NOT NULL,
        secret text NOT NULL,
        created_by uuid NOT NULL CONSTRAINT webhook_endpoints_created_by_fkey REFERENCES users (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_webhook_endpoints_company ON webhook_endpoints (company_id, created_at)`);
    await q.query(`CREATE INDEX idx_webhook_endpoints_created_by ON webhook_endpoints (created_by)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT webhook_deliveries_company_id_fkey REFERENCES companies (id),
        endpoint_id uuid NOT NULL CONSTRAINT webhook_deliveries_endpoint_id_fkey REFERENCES webhook_endpoints (id),
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        attempt int NOT NULL CONSTRAINT webhook_deliveries_attempt_check CHECK (attempt >= 1),
        status_code int,
        duration_ms int NOT NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, event_id)`);
    await q.query(`
      CREATE TABLE webhook_inbound_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        outcome text NOT NULL CONSTRAINT webhook_inbound_events_outcome_check CHECK (outcome IN ('applied', 'no_match', 'ignored')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_webhook_inbound_events_provider_event ON webhook_inbound_events (provider, event_id)`);
    // Inbound events find their ledger row and merchant account by the provider's reference.
    await q.query(`CREATE INDEX idx_payment_transactions_provider_ref ON payment_transactions (provider_ref) WHERE provider_ref IS NOT NULL`);
    await q.query(`CREATE INDEX idx_merchant_accounts_provider_reference ON merchant_accounts (provider_reference) WHERE provider_reference IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_merchant_accounts_provider_reference`);
    await q.query(`DROP INDEX idx_payment_transactions_provider_ref`);
    await q.query(`DROP TABLE webhook_inbound_events`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
