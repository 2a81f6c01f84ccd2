import { Check, Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';
import type { ChatAuthorType } from './chat.types';

/**
 * The chat of one order (domain.md §9) between the company (its users), the order's customer and the
 * drivers with a job on the order that is not aborted. A driver's membership cannot be said in columns:
 * `ChatsService.reach` checks it through the jobs module and then widens the scope (the one place).
 * `order_number` and `customer_id` are copied from the order when the chat is made (neither changes).
 * `last_activity_at`: creation, then each new message (the list's order).
 */
@Tenant({ customer: 'customerId', driver: false })
@Entity('chats')
@Unique('chats_order_id_key', ['orderId'])
@Index('idx_chats_company_activity', ['companyId', 'lastActivityAt', 'id'])
@Index('idx_chats_customer_activity', ['customerId', 'lastActivityAt', 'id'])
export class Chat extends BaseEntity {
  @ForeignKey('companies', { name: 'chats_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('orders', { name: 'chats_order_id_fkey' })
  @Column({ type: 'uuid' })
  orderId: string;

  @ForeignKey('customers', { name: 'chats_customer_id_fkey' })
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'text' })
  orderNumber: string;

  /** The user who opened the chat (a company user or the customer). */
  @Index('idx_chats_created_by')
  @ForeignKey('users', { name: 'chats_created_by_fkey' })
  @Column({ type: 'uuid' })
  createdBy: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastActivityAt: Date;
}

/**
 * A message: text (≤ 4,000 characters) and/or uploads (`media` ids). An edit sets `edited_at`; a delete
 * leaves a tombstone (no body, no attachments, `deleted_at`). Customers and drivers reach messages only
 * through their chat (`ChatsService.reachMessage`), never by columns.
 */
@Tenant({ customer: false, driver: false })
@Entity('chat_messages')
@Check('chat_messages_author_type_check', `author_type IN ('company', 'customer', 'driver')`)
@Check('chat_messages_body_check', `char_length(body) <= 4000`)
@Check('chat_messages_content_check', `deleted_at IS NOT NULL OR body IS NOT NULL OR cardinality(attachment_media_ids) > 0`)
@Check('chat_messages_tombstone_check', `deleted_at IS NULL OR (body IS NULL AND cardinality(attachment_media_ids) = 0)`)
// Newest first with a cursor, the last message, the unread count (scanned backwards).
@Index('idx_chat_messages_chat_created', ['chatId', 'createdAt', 'id'])
// GIN on the attachments (which messages hold an upload): TypeORM cannot express it; declared by name.
@Index('idx_chat_messages_attachments', { synchronize: false })
export class ChatMessage extends BaseEntity {
  @Index('idx_chat_messages_company')
  @ForeignKey('companies', { name: 'chat_messages_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('chats', { name: 'chat_messages_chat_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  chatId: string;

  @Index('idx_chat_messages_author')
  @ForeignKey('users', { name: 'chat_messages_author_user_id_fkey' })
  @Column({ type: 'uuid' })
  authorUserId: string;

  @Column({ type: 'text' })
  authorType: ChatAuthorType;

  @Column({ type: 'text', nullable: true })
  body: string | null;

  @Column({ type: 'uuid', array: true, default: () => `'{}'` })
  attachmentMediaIds: string[];

  @Column({ type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

/** How far a member (a user) has read a chat: messages created after `last_read_at` are unread. */
@Tenant({ customer: 'userId', driver: 'userId' })
@Entity('chat_reads')
@Unique('chat_reads_chat_id_user_id_key', ['chatId', 'userId'])
export class ChatRead extends BaseEntity {
  @Index('idx_chat_reads_company')
  @ForeignKey('companies', { name: 'chat_reads_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('chats', { name: 'chat_reads_chat_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  chatId: string;

  @Index('idx_chat_reads_user')
  @ForeignKey('users', { name: 'chat_reads_user_id_fkey' })
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'timestamptz' })
  lastReadAt: Date;
}
