import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { Enveloped, Page } from '../../../common/http/envelope';
import { countRows, DEFAULT_PER_PAGE, paginate } from '../../../common/http/pagination';
import { recordEvents } from '../../../common/outbox/outbox';
import { JobsService } from '../../jobs';
import { MediaService } from '../../media';
import { OrdersService } from '../../orders';
import { UsersService, userNameSql } from '../../users';
import { ChatDto, ChatListQuery, ChatMessageDto, ChatMessagesQuery, EditChatMessageDto, MessagePage, PostChatMessageDto, type ChatRow, type MessageRow } from './chat.dto';
import { Chat, ChatMessage } from './chat.entities';
import type { ChatAuthorType } from './chat.types';
import { runUnit } from '../../../database/unit-of-work';

/** The columns of a message (alias `cm`), as `MessageRow`. */
const MESSAGE_COLUMNS = `cm.id, cm.chat_id, cm.author_user_id, ${userNameSql('cm.author_user_id')} AS author_name, cm.author_type, cm.body,
  cm.attachment_media_ids::text[] AS attachment_media_ids, cm.edited_at, cm.deleted_at, cm.created_at, cm.updated_at`;

/** The newest message of the chat in alias `c`, as one JSON object (null before the first). */
const LAST_MESSAGE_SQL = `(SELECT json_build_object('id', lm.id, 'chat_id', lm.chat_id, 'author_user_id', lm.author_user_id, 'author_name', ${userNameSql('lm.author_user_id')},
    'author_type', lm.author_type, 'body', lm.body, 'attachment_media_ids', lm.attachment_media_ids, 'edited_at', lm.edited_at, 'deleted_at', lm.deleted_at,
    'created_at', lm.created_at, 'updated_at', lm.updated_at)
  FROM chat_messages lm WHERE lm.chat_id = c.id ORDER BY lm.created_at DESC, lm.id DESC LIMIT 1)`;

/** Messages of others in the chat in alias `c`, not deleted, after the reader's (`:chatReader`) last read. */
const UNREAD_SQL = `(SELECT count(*)::int FROM chat_messages um
  WHERE um.chat_id = c.id AND um.deleted_at IS NULL AND um.author_user_id <> :chatReader
    AND um.created_at > coalesce((SELECT cr.last_read_at FROM chat_reads cr WHERE cr.chat_id = c.id AND cr.user_id = :chatReader), '-infinity'::timestamptz))`;

/** A short text of a message for notifications. */
const preview = (body: string | null, attachments: number) => (body ? (body.length > 140 ? body.slice(0, 139) + '…' : body) : `${attachments} attachment${attachments === 1 ? '' : 's'}`);

/**
 * Chats (domain.md §9): one per order, between the company's users, the order's customer and the drivers
 * with a job on the order that is not aborted. Who reaches a chat is said in one place (`reachable`):
 * the company and the customer by columns (`@Tenant`), a driver through the jobs module, asked at each
 * request, so that a driver taken off the order (reassigned, job aborted) loses the chat at once.
 * Every write records its event (`chat.*`, with the members other than the author as
 * `recipient_user_ids`) in its transaction; notifications and pushes are the subscribers' work.
 */
@Injectable()
export class ChatsService {
  constructor(
    private readonly ds: DataSource,
    private readonly orders: OrdersService,
    private readonly jobs: JobsService,
    private readonly media: MediaService,
    private readonly users: UsersService,
  ) {}

  // ------------------------------------------------------------ chats

  /**
   * The order's chat, made when it has none (`created`); the order must be one `scope` reaches (the
   * company's, the customer's own), else 404. Two concurrent calls make one chat (unique order_id).
   */
  async open(scope: Scope, orderId: string): Promise<{ chat: ChatDto; created: boolean }> {
    const { id, created } = await runUnit(this.ds, async (m) => {
      const order = await this.orders.get(scope, orderId, m);
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(Chat)
        .values({ companyId: scope.companyId, orderId: order.id, customerId: order.customer.id, orderNumber: order.number, createdBy: scope.actorId! })
        .orIgnore()
        .returning(['id'])
        .execute();
      const madeId = (inserted.raw as { id: string }[])[0]?.id;
      if (madeId) {
        await recordEvents(m, { type: 'chat.created', ...about(scope, madeId), payload: { order_id: order.id } });
        return { id: madeId, created: true };
      }
      // The order's chat exists (made before, or by a concurrent call that committed first).
      const existing = await this.reachable(m, scope).andWhere('c.orderId = :orderId', { orderId: order.id }).getOneOrFail();
      return { id: existing.id, created: false };
    });
    return { chat: await this.chat(scope, id), created };
  }

  /** The caller's chats, latest activity first, each with its last message and the caller's unread count (one statement, paged in SQL). */
  list(scope: Scope, q: ChatListQuery): Promise<Page<ChatDto>> {
    const qb = this.withExtras(this.reachable(this.ds.manager, scope), scope);
    return paginate(qb, q, {
      sortable: { last_activity_at: 'c.lastActivityAt' },
      defaultSort: '-last_activity_at',
      mapRaw: (c, raw) => ChatDto.of(chatRow(c, raw)),
      count: () => countRows(qb),
    });
  }

  private async chat(scope: Scope, id: string): Promise<ChatDto> {
    const { entities, raw } = await this.withExtras(this.reachable(this.ds.manager, scope), scope).andWhere('c.id = :chatId', { chatId: id }).getRawAndEntities();
    if (!entities[0]) throw ApiError.notFound('Chat');
    return ChatDto.of(chatRow(entities[0], raw[0]));
  }

  private withExtras(qb: SelectQueryBuilder<Chat>, scope: Scope): SelectQueryBuilder<Chat> {
    return qb
      .addSelect(userNameSql('c.customer_id'), 'customer_name')
      .addSelect(LAST_MESSAGE_SQL, 'last_message')
      .addSelect(UNREAD_SQL, 'unread_count')
      .setParameter('chatReader', scope.actorId);
  }

  // ------------------------------------------------------------ messages

  /**
   * A page of the chat's messages, newest first (tombstones included): `before` (a message of the chat)
   * continues after the previous page's `meta.next_cursor`. Reading the newest page marks the chat read
   * for the caller up to its newest message.
   */
  async messages(scope: Scope, chatId: string, q: ChatMessagesQuery): Promise<Enveloped> {
    const perPage = q.per_page ?? DEFAULT_PER_PAGE;
    const page = await runUnit(this.ds, async (m) => {
      const chat = await this.reach(m, scope, chatId);
      if (q.before) {
        const [known] = await m.query<{ one: number }[]>(`SELECT 1 AS one FROM chat_messages WHERE id = $1 AND chat_id = $2`, [q.before.toLowerCase(), chat.id]);
        if (!known) throw ApiError.validation({ before: ['not a message of this chat'] });
      }
      const rows = await m.query<MessageRow[]>(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_messages cm
          WHERE cm.chat_id = $1 ${q.before ? 'AND (cm.created_at, cm.id) < (SELECT b.created_at, b.id FROM chat_messages b WHERE b.id = $3)' : ''}
          ORDER BY cm.created_at DESC, cm.id DESC LIMIT $2`,
        q.before ? [chat.id, perPage + 1, q.before.toLowerCase()] : [chat.id, perPage + 1],
      );
      if (!q.before) await this.markRead(m, chat, scope.actorId!);
      return rows;
    });
    const items = page.slice(0, perPage);
    const body: MessagePage = {
      success: true,
      data: items.map(ChatMessageDto.of),
      meta: { per_page: perPage, next_cursor: page.length > perPage ? items.at(-1)!.id : null },
    };
    return new Enveloped(body);
  }

  /** Posts a message (text, attachments or both) as the caller; the author has read the chat up to it. */
  async post(scope: Scope, chatId: string, d: PostChatMessageDto): Promise<ChatMessageDto> {
    const id = await runUnit(this.ds, async (m) => {
      // The chat row is locked: one chat's posts queue (last_activity_at, the members' read marks).
      const chat = await this.reach(m, scope, chatId, { lock: true });
      const body = d.body ?? null;
      const attachments = d.attachment_media_ids ?? [];
      if (body === null && !attachments.length) throw ApiError.validation({ body: ['give a text, attachments or both'] });
      await this.assertUploads(m, chat.companyId, attachments);
      const inserted = await m.insert(ChatMessage, {
        companyId: chat.companyId,
        chatId: chat.id,
        authorUserId: scope.actorId!,
        authorType: scope.kind as ChatAuthorType,
        body,
        attachmentMediaIds: attachments,
        // Taken under the chat's lock (not the transaction's start): one chat's messages are stamped in commit
        // order, so a reader's mark (the newest committed message) never passes a message still being posted.
        createdAt: () => 'clock_timestamp()',
      });
      const messageId = (inserted.identifiers[0] as { id: string }).id;
      await m.update(Chat, { id: chat.id }, { lastActivityAt: () => 'clock_timestamp()' });
      await this.markRead(m, chat, scope.actorId!);
      await recordEvents(m, {
        type: 'chat.message_posted',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: messageId, author_user_id: scope.actorId!, recipient_user_ids: await this.recipients(m, chat, scope.actorId!), preview: preview(body, attachments.length) },
      });
      return messageId;
    });
    return this.message(id);
  }

  /** Edits the caller's own message (the fields given replace the message's); `edited_at` is set. */
  async edit(scope: Scope, messageId: string, d: EditChatMessageDto): Promise<ChatMessageDto> {
    await runUnit(this.ds, async (m) => {
      const { message, chat } = await this.authored(m, scope, messageId);
      if (d.body === undefined && d.attachment_media_ids === undefined) throw ApiError.validation({ body: ['give body, attachment_media_ids or both'] });
      const body = d.body !== undefined ? d.body : message.body;
      const attachments = d.attachment_media_ids ?? message.attachmentMediaIds;
      if (body === null && !attachments.length) throw ApiError.validation({ body: ['the message needs a text or attachments'] });
      const added = attachments.filter((a) => !message.attachmentMediaIds.includes(a));
      await this.assertUploads(m, chat.companyId, added, attachments);
      await m.update(ChatMessage, { id: message.id }, { body, attachmentMediaIds: attachments, editedAt: () => 'now()' });
      await recordEvents(m, {
        type: 'chat.message_edited',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: message.id, author_user_id: message.authorUserId, recipient_user_ids: await this.recipients(m, chat, message.authorUserId) },
      });
    });
    return this.message(messageId);
  }

  /** Deletes the caller's own message: a tombstone stays (no body, no attachments, `deleted_at`). */
  async remove(scope: Scope, messageId: string): Promise<ChatMessageDto> {
    await runUnit(this.ds, async (m) => {
      const { message, chat } = await this.authored(m, scope, messageId);
      await m.update(ChatMessage, { id: message.id }, { body: null, attachmentMediaIds: [], deletedAt: () => 'now()' });
      await recordEvents(m, {
        type: 'chat.message_deleted',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: message.id, author_user_id: message.authorUserId, recipient_user_ids: await this.recipients(m, chat, message.authorUserId) },
      });
    });
    return this.message(messageId);
  }

  private async message(id: string): Promise<ChatMessageDto> {
    const [row] = await this.ds.query<MessageRow[]>(`SELECT ${MESSAGE_COLUMNS} FROM chat_messages cm WHERE cm.id = $1`, [id]);
    if (!row) throw ApiError.notFound('Message');
    return ChatMessageDto.of(row);
  }

  // ------------------------------------------------------------ membership (the one place)

  /**
   * The chats `scope` reaches: a company user the company's, a customer those of their orders (both by
   * the `@Tenant` columns); a driver the company's chats of orders on which they have a job that is not
   * aborted: a rule columns cannot say, so the jobs module's SQL narrows the widened scope here, and
   * nowhere else.
   */
  private reachable(m: EntityManager, scope: Scope): SelectQueryBuilder<Chat> {
    if (scope.kind !== 'driver') return scopedQuery(m, Chat, scope, 'c');
    return scopedQuery(m, Chat, scope.widened(), 'c').andWhere(this.jobs.driverOnOrderSql('c.order_id', 'chatDriverId'), { chatDriverId: scope.actorId });
  }

  /** A chat `scope` reaches (`reachable`), optionally locked (FOR UPDATE); else 404 `what`. */
  private async reach(m: EntityManager, scope: Scope, chatId: string, o: { lock?: boolean; what?: string } = {}): Promise<Chat> {
    const qb = this.reachable(m, scope).andWhere('c.id = :chatId', { chatId });
    if (o.lock) qb.setLock('pessimistic_write');
    const chat = await qb.getOne();
    if (!chat) throw ApiError.notFound(o.what ?? 'Chat');
    return chat;
  }

  /**
   * A message of a chat `scope` reaches, locked, and that chat; 404 otherwise (the message is looked up
   * in the company, then its chat must be reachable: a customer or driver never sees another chat's).
   * A member who is not the author: 403 `NOT_AUTHOR`. Deleted messages are gone (404).
   */
  private async authored(m: EntityManager, scope: Scope, messageId: string): Promise<{ message: ChatMessage; chat: Chat }> {
    const message = await findScoped(m, ChatMessage, scope.widened(), messageId, { what: 'Message', lock: true });
    const chat = await this.reach(m, scope, message.chatId, { what: 'Message' });
    if (message.authorUserId !== scope.actorId) throw ApiError.forbidden('NOT_AUTHOR', 'Only the author can change or delete a message.');
    return { message, chat };
  }

  /** The chat's members other than `authorId`, as user ids: the company's users, the customer, the drivers on the order. */
  private async recipients(m: EntityManager, chat: Chat, authorId: string): Promise<string[]> {
    const members = [...(await this.users.companyUserIds(chat.companyId, m)), chat.customerId, ...(await this.jobs.driversOnOrder(chat.orderId, m))];
    return [...new Set(members)].filter((id) => id !== authorId);
  }

  /** The reader has read the chat up to its newest message (never backwards). */
  private async markRead(m: EntityManager, chat: Chat, userId: string): Promise<void> {
    await m.query(
      `INSERT INTO chat_reads (company_id, chat_id, user_id, last_read_at)
       SELECT $1, $2, $3, max(created_at) FROM chat_messages WHERE chat_id = $2 HAVING max(created_at) IS NOT NULL
       ON CONFLICT (chat_id, user_id) DO UPDATE SET last_read_at = greatest(chat_reads.last_read_at, EXCLUDED.last_read_at), updated_at = now()`,
      [chat.companyId, chat.id, userId],
    );
  }

  /**
   * Attachments must be uploads (POST /upload-media) not held by another company's chat message: 422
   * `attachment_media_ids.<i>: not found` otherwise. `all`: the whole list, for the error's index.
   */
  private async assertUploads(m: EntityManager, companyId: string, ids: readonly string[], all: readonly string[] = ids): Promise<void> {
    if (!ids.length) return;
    const foreign = new Set(
      (
        await m.query<{ id: string }[]>(
          `SELECT x.id::text AS id FROM unnest($1::uuid[]) AS x(id) WHERE EXISTS (SELECT 1 FROM chat_messages cm WHERE cm.attachment_media_ids @> ARRAY[x.id] AND cm.company_id <> $2)`,
          [ids, companyId],
        )
      ).map((r) => r.id),
    );
    const missing: string[] = [];
    for (const id of ids) if (foreign.has(id) || !(await this.media.exists(m, id))) missing.push(id);
    if (missing.length) throw ApiError.validation(Object.fromEntries(missing.map((id) => [`attachment_media_ids.${all.indexOf(id)}`, ['not found']])));
  }
}

const about = (scope: Scope, chatId: string) => ({ aggregateType: 'chat', aggregateId: chatId, companyId: scope.companyId, actorId: scope.actorId });

function chatRow(c: Chat, raw: Record<string, unknown>): ChatRow {
  return {
    id: c.id,
    order_id: c.orderId,
    order_number: c.orderNumber,
    customer_id: c.customerId,
    customer_name: raw.customer_name as string | null,
    last_activity_at: c.lastActivityAt,
    created_at: c.createdAt,
    last_message: raw.last_message,
    unread_count: raw.unread_count as number,
  };
}
