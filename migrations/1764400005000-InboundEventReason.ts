import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound provider events (issue #13, the Stripe adapter): why an event changed nothing (`reason`, with
 * the outcomes `no_match` and `ignored`), kept with the event so that a replay answers it too.
 */
export class InboundEventReason1764400005000 implements MigrationInterface {
  name = 'InboundEventReason1764400005000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_inbound_events ADD COLUMN reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_inbound_events DROP COLUMN reason`);
  }
}
