import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { Page } from '../../../common/http/envelope';
import { countRows, paginate } from '../../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import type { ChatListQuery, MessageRow } from './chat.dto';
import { Chat, ChatMessage } from './chat.entities';
import type { ChatAuthorType } from './chat.types';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** The columns of a message (alias `cm`), as `MessageRow` without its author's name (the users module gives it). */
const MESSAGE_COLUMNS = `cm.id, cm.chat_id, cm.author_user_id, cm.author_type, cm.body,
  cm.attachment_media_ids::text[] AS attachment_media_ids, cm.edited_at, cm.deleted_at, cm.created_at, cm.updated_at`;

/** The newest message of the chat in alias `c`, as one JSON object (null before the first). */
const LAST_MESSAGE_SQL = `(SELECT json_build_object('id', lm.id, 'chat_id', lm.chat_id, 'author_user_id', lm.author_user_id,
    'author_type', lm.author_type, 'body', lm.body, 'attachment_media_ids', lm.attachment_media_ids, 'edited_at', lm.edited_at, 'deleted_at', lm.deleted_at,
    'created_at', lm.created_at, 'updated_at', lm.updated_at)
  FROM chat_messages lm WHERE lm.chat_id = c.id ORDER BY lm.created_at DESC, lm.id DESC LIMIT 1)`;

/** Messages of others in the chat in alias `c`, not deleted, after the reader's (`:chatReader`) last read. */
const UNREAD_SQL = `(SELECT count(*)::int FROM chat_messages um
  WHERE um.chat_id = c.id AND um.deleted_at IS NULL AND um.author_user_id <> :chatReader
    AND um.created_at > coalesce((SELECT cr.last_read_at FROM chat_reads cr WHERE cr.chat_id = c.id AND cr.user_id = :chatReader), '-infinity'::timestamptz))`;

/** A chat as listed: the row, its newest message (raw JSON, without the author's name) and the reader's unread count. */
export interface ChatWithExtras {
  chat: Chat;
  lastMessage: unknown;
  unreadCount: number;
}

/** A message row without its author's name. */
export type MessageColumns = Omit<MessageRow, 'author_name'>;

/**
 * Chats, their messages and the members' read marks (`chats`, `chat_messages`, `chat_reads`): the
 * module's SQL for chats (docs/data-layer.md). Who reaches a chat is said here once (`reachable`).
 */
@Injectable()
export class ChatRepository extends ModuleRepository {

  // ------------------------------------------------------------ chats

  /** Makes the order's chat in the scope's company unless it has one (unique order_id: a concurrent call makes none); the new chat's id, else null. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { orderId: SQL_SAMPLE.id, customerId: SQL_SAMPLE.otherId, orderNumber: 1001, createdBy: SQL_SAMPLE.actorId }] })
  async insertIfNone(scope: Scope, c: Pick<Chat, 'orderId' | 'customerId' | 'orderNumber' | 'createdBy'>): Promise<string | null> {
    const inserted = await this.locked.createQueryBuilder().insert().into(Chat).values({ ...c, companyId: scope.companyId }).orIgnore().returning(['id']).execute();
    return (inserted.raw as { id: string }[])[0]?.id ?? null;
  }

  /** The order's chat `scope` reaches; null when none. */
  ofOrder(scope: Scope, orderId: string): Promise<Chat | null> {
    return reachable(this.m, scope).andWhere('c.orderId = :orderId', { orderId }).getOne();
  }

  /** A chat `scope` reaches (`reachable`), optionally locked (FOR UPDATE); null otherwise. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, false] }, { name: 'locked', params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, true] })
  reach(scope: Scope, chatId: string, lock: boolean): Promise<Chat | null> {
    const qb = reachable(lock ? this.locked : this.m, scope).andWhere('c.id = :chatId', { chatId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** The chats `scope` reaches, latest activity first, with their newest messages and the caller's unread counts (one statement a page). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { page: 1, per_page: 20 }] })
  page(scope: Scope, q: ChatListQuery): Promise<Page<ChatWithExtras>> {
    const qb = withExtras(reachable(this.m, scope), scope);
    return paginate(qb, q, {
      sortable: { last_activity_at: 'c.lastActivityAt' },
      defaultSort: '-last_activity_at',
      mapRaw: (chat, raw) => extras(chat, raw),
      count: () => countRows(qb),
    });
  }

  /** One chat `scope` reaches, as listed; null otherwise. */
  async findWithExtras(scope: Scope, chatId: string): Promise<ChatWithExtras | null> {
    const { entities, raw } = await withExtras(reachable(this.m, scope), scope).andWhere('c.id = :chatId', { chatId }).getRawAndEntities();
    return entities[0] ? extras(entities[0], raw[0]) : null;
  }

  /** The last activity of a chat of the scope's company (reached and locked by `reach`) is now (under its lock: the clock, not the transaction's start). */
  async touch(scope: Scope, chatId: string): Promise<void> {
    await this.locked.update(Chat, { id: chatId, companyId: scope.companyId }, { lastActivityAt: () => 'clock_timestamp()' });
  }

  /** The caller (`scope.actorId`) has read the chat of the scope's company (reached by `reach`) up to its newest message (never backwards). */
  async markRead(scope: Scope, chatId: string): Promise<void> {
    await this.locked.query(
      `INSERT INTO chat_reads (company_id, chat_id, user_id, last_read_at)
       SELECT $1, $2, $3, max(created_at) FROM chat_messages WHERE chat_id = $2 AND company_id = $1 HAVING max(created_at) IS NOT NULL
       ON CONFLICT (chat_id, user_id) DO UPDATE SET last_read_at = greatest(chat_reads.last_read_at, EXCLUDED.last_read_at), updated_at = now()`,
      [scope.companyId, chatId, scope.actorId],
    );
  }

  // ------------------------------------------------------------ messages

  /** Whether `messageId` is a message of the chat (of the scope's company). */
  async hasMessage(scope: Scope, chatId: string, messageId: string): Promise<boolean> {
    return (await this.sql(`SELECT 1 AS one FROM chat_messages WHERE id = $1 AND chat_id = $2 AND company_id = $3`, [messageId, chatId, scope.companyId])).length > 0;
  }

  /** The messages of a chat of the scope's company (reached by `reach`), newest first (tombstones included), `take` of them, before the message `beforeId` when given. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, 21, null] }, { name: 'before a message', params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, 21, SQL_SAMPLE.otherId] })
  messages(scope: Scope, chatId: string, take: number, beforeId: string | null): Promise<MessageColumns[]> {
    return this.sql<MessageColumns>(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_messages cm
        WHERE cm.chat_id = $1 AND cm.company_id = $3 ${beforeId ? 'AND (cm.created_at, cm.id) < (SELECT b.created_at, b.id FROM chat_messages b WHERE b.id = $4)' : ''}
        ORDER BY cm.created_at DESC, cm.id DESC LIMIT $2`,
      beforeId ? [chatId, take, scope.companyId, beforeId] : [chatId, take, scope.companyId],
    );
  }

  /** One message of the scope's company (any of its chats: the caller reached it before); null when there is none. */
  async message(scope: Scope, id: string): Promise<MessageColumns | null> {
    const [row] = await this.sql<MessageColumns>(`SELECT ${MESSAGE_COLUMNS} FROM chat_messages cm WHERE cm.id = $1 AND cm.company_id = $2`, [id, scope.companyId]);
    return row ?? null;
  }

  /** A message of the scope's company, locked (FOR UPDATE); else 404 `Message`. */
  lockMessage(scope: Scope, id: string): Promise<ChatMessage> {
    return findScoped(this.locked, ChatMessage, scope.widened(), id, { what: 'Message', lock: true });
  }

  /** Posts a message in a chat of the scope's company, stamped under the chat's lock (the clock): one chat's messages are stamped in commit order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { chatId: SQL_SAMPLE.id, authorUserId: SQL_SAMPLE.actorId, authorType: 'company', body: 'On my way', attachmentMediaIds: [] }] })
  async insertMessage(scope: Scope, x: { chatId: string; authorUserId: string; authorType: ChatAuthorType; body: string | null; attachmentMediaIds: string[] }): Promise<string> {
    const inserted = await this.locked.insert(ChatMessage, { ...x, companyId: scope.companyId, createdAt: () => 'clock_timestamp()' });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** Edits a message of the scope's company (locked by `lockMessage`; `edited_at` now). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, 'Edited', []] })
  async editMessage(scope: Scope, id: string, body: string | null, attachmentMediaIds: string[]): Promise<void> {
    await this.locked.update(ChatMessage, { id, companyId: scope.companyId }, { body, attachmentMediaIds, editedAt: () => 'now()' });
  }

  /** Deletes a message of the scope's company (locked by `lockMessage`): a tombstone stays (no body, no attachments, `deleted_at`). */
  async deleteMessage(scope: Scope, id: string): Promise<void> {
    await this.locked.update(ChatMessage, { id, companyId: scope.companyId }, { body: null, attachmentMediaIds: [], deletedAt: () => 'now()' });
  }

  /** Of the uploads `ids`, those attached to a chat message of another company than the scope's. */
  async heldElsewhere(scope: Scope, ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql<{ id: string }>(
      `SELECT x.id::text AS id FROM unnest($1::uuid[]) AS x(id) WHERE EXISTS (SELECT 1 FROM chat_messages cm WHERE cm.attachment_media_ids @> ARRAY[x.id] AND cm.company_id <> $2)`,
      [ids, scope.companyId],
    );
    return new Set(rows.map((r) => r.id));
  }
}

/**
 * The chats `scope` reaches: a company user the company's, a customer those of their orders (both by
 * the `@Tenant` columns); a driver the company's chats of orders on which they have a job that is not
 * aborted: a rule columns cannot say, so the jobs module's SQL API (`jobs_drivers_on_order`) narrows
 * the widened scope here, and nowhere else.
 */
function reachable(m: EntityManager, scope: Scope): SelectQueryBuilder<Chat> {
  if (scope.kind !== 'driver') return scopedQuery(m, Chat, scope, 'c');
  return scopedQuery(m, Chat, scope.widened(), 'c').andWhere('EXISTS (SELECT 1 FROM jobs_drivers_on_order(c.order_id) dj WHERE dj.driver_id = :chatDriverId)', { chatDriverId: scope.actorId });
}

function withExtras(qb: SelectQueryBuilder<Chat>, scope: Scope): SelectQueryBuilder<Chat> {
  return qb.addSelect(LAST_MESSAGE_SQL, 'last_message').addSelect(UNREAD_SQL, 'unread_count').setParameter('chatReader', scope.actorId);
}

function extras(chat: Chat, raw: Record<string, unknown>): ChatWithExtras {
  return { chat, lastMessage: raw.last_message, unreadCount: raw.unread_count as number };
}
