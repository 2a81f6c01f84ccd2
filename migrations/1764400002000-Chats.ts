import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chats (domain.md §9, issue #14): one chat per order (`chats_order_id_key`), its messages and each
 * member's read state.
 *
 * - `GET /chats`: a company's chats by last activity (idx_chats_company_activity), a customer's
 *   (idx_chats_customer_activity); a driver's are the company's filtered by their jobs on the order.
 * - Messages newest first with a cursor (`before` a message): idx_chat_messages_chat_created
 *   (chat_id, created_at, id), scanned backwards; it also serves the unread count (created after the
 *   member's `last_read_at`) and the last message.
 * - Attachments are upload ids (`media`) in an array; idx_chat_messages_attachments (GIN) finds the
 *   messages holding an upload (an upload of another company's chat is refused).
 * - A deleted message stays as a tombstone: no body, no attachments, `deleted_at` set.
 */
export class Chats1764400002000 implements MigrationInterface {
  name = 'Chats1764400002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chats (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT chats_company_id_fkey REFERENCES companies (id),
        order_id uuid NOT NULL CONSTRAINT chats_order_id_fkey REFERENCES orders (id),
        customer_id uuid NOT NULL CONSTRAINT chats_customer_id_fkey REFERENCES customers (id),
        order_number text NOT NULL,
        created_by uuid NOT NULL CONSTRAINT chats_created_by_fkey REFERENCES users (id),
        last_activity_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT chats_order_id_key UNIQUE (order_id)
      )`);
    await q.query(`CREATE INDEX idx_chats_company_activity ON chats (company_id, last_activity_at, id)`);
    await q.query(`CREATE INDEX idx_chats_customer_activity ON chats (customer_id, last_activity_at, id)`);
    await q.query(`CREATE INDEX idx_chats_created_by ON chats (created_by)`);

    await q.query(`
      CREATE TABLE chat_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT chat_messages_company_id_fkey REFERENCES companies (id),
        chat_id uuid NOT NULL CONSTRAINT chat_messages_chat_id_fkey REFERENCES chats (id) ON DELETE CASCADE,
        author_user_id uuid NOT NULL CONSTRAINT chat_messages_author_user_id_fkey REFERENCES users (id),
        author_type text NOT NULL CONSTRAINT chat_messages_author_type_check CHECK (author_type IN ('company', 'customer', 'driver')),
        body text,
        attachment_media_ids uuid[] NOT NULL DEFAULT '{}',
        edited_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT chat_messages_body_check CHECK (char_length(body) <= 4000),
        CONSTRAINT chat_messages_content_check CHECK (deleted_at IS NOT NULL OR body IS NOT NULL OR cardinality(attachment_media_ids) > 0),
        CONSTRAINT chat_messages_tombstone_check CHECK (deleted_at IS NULL OR (body IS NULL AND cardinality(attachment_media_ids) = 0))
      )`);
    await q.query(`CREATE INDEX idx_chat_messages_chat_created ON chat_messages (chat_id, created_at, id)`);
    await q.query(`CREATE INDEX idx_chat_messages_company ON chat_messages (company_id)`);
    await q.query(`CREATE INDEX idx_chat_messages_author ON chat_messages (author_user_id)`);
    await q.query(`CREATE INDEX idx_chat_messages_attachments ON chat_messages USING gin (attachment_media_ids)`);

    await q.query(`
      CREATE TABLE chat_reads (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL CONSTRAINT chat_reads_company_id_fkey REFERENCES companies (id),
        chat_id uuid NOT NULL CONSTRAINT chat_reads_chat_id_fkey REFERENCES chats (id) ON DELETE CASCADE,
        user_id uuid NOT NULL CONSTRAINT chat_reads_user_id_fkey REFERENCES users (id),
        last_read_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT chat_reads_chat_id_user_id_key UNIQUE (chat_id, user_id)
      )`);
    await q.query(`CREATE INDEX idx_chat_reads_user ON chat_reads (user_id)`);
    await q.query(`CREATE INDEX idx_chat_reads_company ON chat_reads (company_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_reads`);
    await q.query(`DROP TABLE chat_messages`);
    await q.query(`DROP TABLE chats`);
  }
}
