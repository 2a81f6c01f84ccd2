import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications (domain.md §9, issue #14): one row per event and recipient user, made by the
 * communication module's event subscribers (unique (event_id, user_id): an event redelivered makes no
 * second row). Lists are a user's own, newest first, with an unread filter and count: (user_id,
 * created_at, id) and its partial twin over the unread rows. The contact form's messages
 * (`contact_messages`) are kept and mailed to the platform.
 */
export class Notifications1764400003000 implements MigrationInterface {
  name = 'Notifications1764400003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT notifications_company_id_fkey REFERENCES companies (id) ON DELETE CASCADE,
        user_id uuid NOT NULL CONSTRAINT notifications_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        type text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notifications_event_id_user_id_key UNIQUE (event_id, user_id)
      )`);
    await q.query(`CREATE INDEX idx_notifications_user_created ON notifications (user_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_notifications_user_unread ON notifications (user_id, created_at, id) WHERE read_at IS NULL`);
    await q.query(`CREATE INDEX idx_notifications_company ON notifications (company_id)`);

    await q.query(`
      CREATE TABLE contact_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT contact_messages_user_id_fkey REFERENCES users (id) ON DELETE CASCADE,
        subject text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_contact_messages_user ON contact_messages (user_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_messages`);
    await q.query(`DROP TABLE notifications`);
  }
}
