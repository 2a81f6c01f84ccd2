import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints a company manages (issue #28): disabled and deleted (soft) endpoints, a rotated
 * secret's predecessor that keeps signing until `previous_secret_expires_at`; each delivery attempt's
 * `status` (`succeeded`, `failed`: the relay retries, `dead`: nothing retries it, `blocked`: the URL's
 * address is not allowed, never retried), existing rows classified by their status code; the endpoint's
 * deliveries listed newest first.
 */
export class WebhookEndpointManagement1764500028000 implements MigrationInterface {
  name = 'WebhookEndpointManagement1764500028000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret text, ADD COLUMN previous_secret_expires_at timestamptz, ADD COLUMN disabled_at timestamptz, ADD COLUMN deleted_at timestamptz`);
    await q.query(`ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_previous_secret_check CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN status text`);
    await q.query(`UPDATE webhook_deliveries SET status = CASE WHEN status_code BETWEEN 200 AND 299 THEN 'succeeded' ELSE 'failed' END`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN status SET NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('succeeded', 'failed', 'dead', 'blocked'))`);
    await q.query(`CREATE INDEX idx_webhook_deliveries_endpoint_created ON webhook_deliveries (endpoint_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_webhook_deliveries_endpoint_created`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check, DROP COLUMN status`);
    await q.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_previous_secret_check`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN deleted_at, DROP COLUMN disabled_at, DROP COLUMN previous_secret_expires_at, DROP COLUMN previous_secret`);
  }
}
