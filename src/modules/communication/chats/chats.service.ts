import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { Enveloped, Page } from '../../../common/http/envelope';
import { DEFAULT_PER_PAGE } from '../../../common/http/pagination';
import { jsonValue } from '../../../database/json-value';
import { UnitOfWork } from '../../../database/unit-of-work';
import { JobsService } from '../../jobs';
import { MediaService } from '../../media';
import { OrdersService } from '../../orders';
import { UsersService } from '../../users';
import { ChatDto, ChatListQuery, ChatMessageDto, ChatMessagesQuery, EditChatMessageDto, MessagePage, PostChatMessageDto, type MessageRow } from './chat.dto';
import { Chat, ChatMessage } from './chat.entities';
import type { ChatAuthorType } from './chat.types';
import { ChatRepository, type ChatWithExtras, type MessageColumns } from './chat.repository';

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
    private readonly uow: UnitOfWork,
    private readonly chats: ChatRepository,
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
    const { id, created } = await this.uow.transaction(async () => {
      const order = await this.orders.get(scope, orderId);
      const madeId = await this.chats.insertIfNone(scope, { orderId: order.id, customerId: order.customer.id, orderNumber: order.number, createdBy: scope.actorId! });
      if (madeId) {
        await this.chats.recordEvents({ type: 'chat.created', ...about(scope, madeId), payload: { order_id: order.id } });
        return { id: madeId, created: true };
      }
      // The order's chat exists (made before, or by a concurrent call that committed first).
      const existing = await this.chats.ofOrder(scope, order.id);
      if (!existing) throw ApiError.notFound('Chat');
      return { id: existing.id, created: false };
    });
    return { chat: await this.chat(scope, id), created };
  }

  /** The caller's chats, latest activity first, each with its last message and the caller's unread count (one statement a page, and one for the names). */
  async list(scope: Scope, q: ChatListQuery): Promise<Page<ChatDto>> {
    const page = await this.chats.page(scope, q);
    return new Page(await this.chatDtos(scope, page.items), page.meta);
  }

  private async chat(scope: Scope, id: string): Promise<ChatDto> {
    const found = await this.chats.findWithExtras(scope, id);
    if (!found) throw ApiError.notFound('Chat');
    return (await this.chatDtos(scope, [found]))[0];
  }

  /** The chats as answered: their customers' and last authors' names in one read. */
  private async chatDtos(scope: Scope, found: ChatWithExtras[]): Promise<ChatDto[]> {
    const lasts = found.map((f) => jsonValue<MessageColumns | null>(f.lastMessage));
    const names = await this.names(scope, [...found.map((f) => f.chat.customerId), ...lasts.filter((l): l is MessageColumns => !!l).map((l) => l.author_user_id)]);
    return found.map(({ chat: c, unreadCount }, i) => {
      const last = lasts[i];
      return ChatDto.of({
        id: c.id,
        order_id: c.orderId,
        order_number: c.orderNumber,
        customer_id: c.customerId,
        customer_name: names.get(c.customerId) ?? null,
        last_activity_at: c.lastActivityAt,
        created_at: c.createdAt,
        last_message: last ? { ...last, author_name: names.get(last.author_user_id) ?? null } : null,
        unread_count: unreadCount,
      });
    });
  }

  // ------------------------------------------------------------ messages

  /**
   * A page of the chat's messages, newest first (tombstones included): `before` (a message of the chat)
   * continues after the previous page's `meta.next_cursor`. Reading the newest page marks the chat read
   * for the caller up to its newest message.
   */
  async messages(scope: Scope, chatId: string, q: ChatMessagesQuery): Promise<Enveloped> {
    const perPage = q.per_page ?? DEFAULT_PER_PAGE;
    const page = await this.uow.transaction(async () => {
      const chat = await this.reach(scope, chatId);
      const before = q.before ? q.before.toLowerCase() : null;
      if (before && !(await this.chats.hasMessage(scope, chat.id, before))) throw ApiError.validation({ before: ['not a message of this chat'] });
      const rows = await this.chats.messages(scope, chat.id, perPage + 1, before);
      if (!before) await this.chats.markRead(scope, chat.id);
      return rows;
    });
    const items = await this.messageRows(scope, page.slice(0, perPage));
    const body: MessagePage = {
      success: true,
      data: items.map(ChatMessageDto.of),
      meta: { per_page: perPage, next_cursor: page.length > perPage ? items.at(-1)!.id : null },
    };
    return new Enveloped(body);
  }

  /** Posts a message (text, attachments or both) as the caller; the author has read the chat up to it. */
  async post(scope: Scope, chatId: string, d: PostChatMessageDto): Promise<ChatMessageDto> {
    const id = await this.uow.transaction(async () => {
      // The chat row is locked: one chat's posts queue (last_activity_at, the members' read marks).
      const chat = await this.reach(scope, chatId, { lock: true });
      const body = d.body ?? null;
      const attachments = d.attachment_media_ids ?? [];
      if (body === null && !attachments.length) throw ApiError.validation({ body: ['give a text, attachments or both'] });
      await this.assertUploads(scope, attachments);
      // Taken under the chat's lock (not the transaction's start): one chat's messages are stamped in commit
      // order, so a reader's mark (the newest committed message) never passes a message still being posted.
      const messageId = await this.chats.insertMessage(scope, { chatId: chat.id, authorUserId: scope.actorId!, authorType: scope.kind as ChatAuthorType, body, attachmentMediaIds: attachments });
      await this.chats.touch(scope, chat.id);
      await this.chats.markRead(scope, chat.id);
      await this.chats.recordEvents({
        type: 'chat.message_posted',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: messageId, author_user_id: scope.actorId!, recipient_user_ids: await this.recipients(chat, scope.actorId!), preview: preview(body, attachments.length) },
      });
      return messageId;
    });
    return this.message(scope, id);
  }

  /** Edits the caller's own message (the fields given replace the message's); `edited_at` is set. */
  async edit(scope: Scope, messageId: string, d: EditChatMessageDto): Promise<ChatMessageDto> {
    await this.uow.transaction(async () => {
      const { message, chat } = await this.authored(scope, messageId);
      if (d.body === undefined && d.attachment_media_ids === undefined) throw ApiError.validation({ body: ['give body, attachment_media_ids or both'] });
      const body = d.body !== undefined ? d.body : message.body;
      const attachments = d.attachment_media_ids ?? message.attachmentMediaIds;
      if (body === null && !attachments.length) throw ApiError.validation({ body: ['the message needs a text or attachments'] });
      const added = attachments.filter((a) => !message.attachmentMediaIds.includes(a));
      await this.assertUploads(scope, added, attachments);
      await this.chats.editMessage(scope, message.id, body, attachments);
      await this.chats.recordEvents({
        type: 'chat.message_edited',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: message.id, author_user_id: message.authorUserId, recipient_user_ids: await this.recipients(chat, message.authorUserId) },
      });
    });
    return this.message(scope, messageId);
  }

  /** Deletes the caller's own message: a tombstone stays (no body, no attachments, `deleted_at`). */
  async remove(scope: Scope, messageId: string): Promise<ChatMessageDto> {
    await this.uow.transaction(async () => {
      const { message, chat } = await this.authored(scope, messageId);
      await this.chats.deleteMessage(scope, message.id);
      await this.chats.recordEvents({
        type: 'chat.message_deleted',
        ...about(scope, chat.id),
        payload: { chat_id: chat.id, order_id: chat.orderId, message_id: message.id, author_user_id: message.authorUserId, recipient_user_ids: await this.recipients(chat, message.authorUserId) },
      });
    });
    return this.message(scope, messageId);
  }

  private async message(scope: Scope, id: string): Promise<ChatMessageDto> {
    const row = await this.chats.message(scope, id);
    if (!row) throw ApiError.notFound('Message');
    return ChatMessageDto.of((await this.messageRows(scope, [row]))[0]);
  }

  /** The messages with their authors' names (one read for them all). */
  private async messageRows(scope: Scope, rows: MessageColumns[]): Promise<MessageRow[]> {
    const names = await this.names(scope, rows.map((r) => r.author_user_id));
    return rows.map((r) => ({ ...r, author_name: names.get(r.author_user_id) ?? null }));
  }

  /** Users' display names (the users module's read; none asked, no statement). */
  private names(scope: Scope, ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    return unique.length ? this.users.names(scope, unique) : Promise.resolve(new Map());
  }

  // ------------------------------------------------------------ membership (ChatRepository.reach is the one place)

  /** A chat `scope` reaches, optionally locked (FOR UPDATE); else 404 `what`. */
  private async reach(scope: Scope, chatId: string, o: { lock?: boolean; what?: string } = {}): Promise<Chat> {
    const chat = await this.chats.reach(scope, chatId, o.lock ?? false);
    if (!chat) throw ApiError.notFound(o.what ?? 'Chat');
    return chat;
  }

  /**
   * A message of a chat `scope` reaches, locked, and that chat; 404 otherwise (the message is looked up
   * in the company, then its chat must be reachable: a customer or driver never sees another chat's).
   * A member who is not the author: 403 `NOT_AUTHOR`. Deleted messages are gone (404).
   */
  private async authored(scope: Scope, messageId: string): Promise<{ message: ChatMessage; chat: Chat }> {
    const message = await this.chats.lockMessage(scope, messageId);
    const chat = await this.reach(scope, message.chatId, { what: 'Message' });
    if (message.authorUserId !== scope.actorId) throw ApiError.forbidden('NOT_AUTHOR', 'Only the author can change or delete a message.');
    return { message, chat };
  }

  /** The chat's members other than `authorId`, as user ids: the company's users, the customer, the drivers on the order. */
  private async recipients(chat: Chat, authorId: string): Promise<string[]> {
    const members = [...(await this.users.companyUserIds(Scope.company(chat.companyId))), chat.customerId, ...(await this.jobs.driversOnOrder(Scope.company(chat.companyId), chat.orderId))];
    return [...new Set(members)].filter((id) => id !== authorId);
  }

  /**
   * Attachments must be uploads (POST /upload-media) not held by another company's chat message: 422
   * `attachment_media_ids.<i>: not found` otherwise. `all`: the whole list, for the error's index.
   */
  private async assertUploads(scope: Scope, ids: readonly string[], all: readonly string[] = ids): Promise<void> {
    if (!ids.length) return;
    const foreign = await this.chats.heldElsewhere(scope, ids);
    const missing: string[] = [];
    for (const id of ids) if (foreign.has(id) || !(await this.media.exists(id))) missing.push(id);
    if (missing.length) throw ApiError.validation(Object.fromEntries(missing.map((id) => [`attachment_media_ids.${all.indexOf(id)}`, ['not found']])));
  }
}

const about = (scope: Scope, chatId: string) => ({ aggregateType: 'chat', aggregateId: chatId, companyId: scope.companyId, actorId: scope.actorId });
