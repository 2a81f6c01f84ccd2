import { Injectable } from '@nestjs/common';
import type { Scope } from '../../../common/access/scope';
import { Page } from '../../../common/http/envelope';
import { UnitOfWork } from '../../../database/unit-of-work';
import { MarkedReadDto, NotificationDto, NotificationQuery } from './notification.dto';
import { Notification } from './notification.entity';
import { NotificationRepository, type NewNotification } from './notification.repository';

/** What a subscriber asks to be told: one notification per recipient user. */
export interface NotificationDraft {
  userIds: readonly string[];
  title: string;
  body: string;
  data: Record<string, string>;
}

/**
 * The caller's own notifications, for the three kinds of caller alike (the company routes, the
 * customer's and the driver's differ only by prefix and access code). The tenant policy scopes by
 * company (and by customer or driver); the rows are further limited to the calling user, so a company
 * user sees only theirs. Another user's or another company's notification is 404.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly notifications: NotificationRepository,
  ) {}

  /** Newest first; `unread` filters; `meta.unread_count` counts every unread one. */
  async list(scope: Scope, q: NotificationQuery): Promise<Page<NotificationDto>> {
    const page = await this.notifications.page(scope, q);
    return new Page(page.items.map(NotificationDto.of), { ...page.meta, unread_count: await this.notifications.unreadCount(scope) } as Page<NotificationDto>['meta']);
  }

  /** Marks one read (already read: unchanged, `read_at` kept). */
  async read(scope: Scope, id: string): Promise<NotificationDto> {
    return this.uow.transaction(async () => {
      const n = await this.notifications.lock(scope, id);
      if (!n.readAt) {
        n.readAt = new Date();
        await this.notifications.markRead(scope, n.id, n.readAt);
        await this.recordRead(scope, [n.id], false);
      }
      return NotificationDto.of(n);
    });
  }

  /** Marks every unread one of the caller read. */
  async readAll(scope: Scope): Promise<MarkedReadDto> {
    return this.uow.transaction(async () => {
      const updated = await this.notifications.markAllRead(scope);
      if (updated) await this.recordRead(scope, [], true);
      return { updated, unread_count: await this.notifications.unreadCount(scope) };
    });
  }

  async remove(scope: Scope, id: string): Promise<void> {
    await this.uow.transaction(async () => {
      const n = await this.notifications.lock(scope, id);
      await this.notifications.delete(scope, n.id);
      await this.notifications.recordEvents({ type: 'notification.deleted', aggregateType: 'user', aggregateId: n.userId, companyId: n.companyId, actorId: n.userId, payload: { notification_id: n.id } });
    });
  }

  private recordRead(scope: Scope, ids: string[], all: boolean): Promise<void> {
    const me = scope.actorId!;
    return this.notifications.recordEvents({ type: 'notification.read', aggregateType: 'user', aggregateId: me, companyId: scope.companyId, actorId: me, payload: { notification_ids: ids, all } });
  }

  /**
   * Makes the notifications of one event of the scope's company (inside the relay's unit of work): one
   * row per recipient, (event, user) unique, so a redelivery adds nothing. Answers the rows made now.
   */
  async make(scope: Scope, event: { id: string; type: string }, drafts: readonly NotificationDraft[]): Promise<Notification[]> {
    const seen = new Set<string>();
    const rows: NewNotification[] = [];
    for (const d of drafts) {
      for (const userId of d.userIds) {
        if (seen.has(userId)) continue;
        seen.add(userId);
        rows.push({ userId, eventId: event.id, type: event.type, title: d.title, body: d.body, data: d.data });
      }
    }
    return this.notifications.insertNew(scope, rows);
  }
}
