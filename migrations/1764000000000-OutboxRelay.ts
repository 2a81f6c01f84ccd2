import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox relay (src/common/outbox/outbox-relay.ts): a lease and a retry time on each event, and one
 * delivery row per (event, subscriber) that says whether that subscriber processed it (written in the
 * subscriber's own transaction), is waiting for a retry, or gave up (dead letter).
 */
export class OutboxRelay1764000000000 implements MigrationInterface {
  name = 'OutboxRelay1764000000000';

  async up(q: QueryRunner): Promise<void> {
    // claimed_until: a relay claimed the event (FOR UPDATE SKIP LOCKED) until then; another relay takes it
    // over once it has passed (a relay that crashed). next_attempt_at: the earliest retry of a failed delivery.
    await q.query(`ALTER TABLE outbox_events ADD COLUMN claimed_until timestamptz, ADD COLUMN next_attempt_at timestamptz`);

    await q.query(`
      CREATE TABLE outbox_deliveries (
        event_id uuid NOT NULL,
        subscriber text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        last_attempt_at timestamptz,
        next_attempt_at timestamptz,
        finished_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT outbox_deliveries_pkey PRIMARY KEY (event_id, subscriber),
        CONSTRAINT outbox_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES outbox_events (id) ON DELETE CASCADE,
        CONSTRAINT outbox_deliveries_status_check CHECK (status IN ('pending', 'processed', 'dead')),
        CONSTRAINT outbox_deliveries_attempts_check CHECK (attempts >= 0)
      )`);
    // The dead letters, newest first (the primary key serves the foreign key and the per-event lookups).
    await q.query(`CREATE INDEX idx_outbox_deliveries_dead ON outbox_deliveries (last_attempt_at) WHERE status = 'dead'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS outbox_deliveries`);
    await q.query(`ALTER TABLE outbox_events DROP COLUMN IF EXISTS next_attempt_at, DROP COLUMN IF EXISTS claimed_until`);
  }
}
