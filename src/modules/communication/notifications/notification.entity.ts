import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { Tenant } from '../../../common/access/tenant-policy';
import { BaseEntity } from '../../../database/base.entity';

/**
 * A notification for one user (a company user, a customer or a driver), made from a domain event by the
 * subscribers of `notification-subscribers.ts`; (event, user) is unique, so a redelivered event makes no
 * second row. Customers and drivers reach their own rows by the tenant policy (their user id is their
 * customer/driver id); a company user's reads add `user_id` = the caller (see NotificationsService).
 */
@Tenant({ customer: 'userId', driver: 'userId' })
@Entity('notifications')
@Unique('notifications_event_id_user_id_key', ['eventId', 'userId'])
// A user's list, newest first, and the unread filter and count.
@Index('idx_notifications_user_created', ['userId', 'createdAt', 'id'])
@Index('idx_notifications_user_unread', ['userId', 'createdAt', 'id'], { where: 'read_at IS NULL' })
export class Notification extends BaseEntity {
  @Index('idx_notifications_company')
  @ForeignKey('companies', { name: 'notifications_company_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('users', { name: 'notifications_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  userId: string;

  /** The outbox event it was made from. */
  @Column({ type: 'uuid' })
  eventId: string;

  /** The event's name (`order.approved`). */
  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  body: string;

  /** Ids of what it is about (`order_id`, `job_id`, …). */
  @Column({ type: 'jsonb', default: {} })
  data: Record<string, string>;

  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;
}
