import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { Page } from '../../../common/http/envelope';
import { countRows, paginate } from '../../../common/http/pagination';
import { recordEvents } from '../../../common/outbox/outbox';
import { MarkedReadDto, NotificationDto, NotificationQuery } from './notification.dto';
import { Notification } from './notification.entity';
import { runUnit } from '../../../database/unit-of-work';

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
  constructor(private readonly ds: DataSource) {}

  /** The caller's notifications: company (tenant policy) and user. */
  private own(m: EntityManager, scope: Scope): SelectQueryBuilder<Notification> {
    return scopedQuery(m, Notification, scope, 'n').andWhere('n.userId = :me', { me: scope.actorId });
  }

  private async one(m: EntityManager, scope: Scope, id: string, lock = false): Promise<Notification> {
    return findScoped(m, Notification, scope, id, { what: 'Notification', where: { userId: scope.actorId ?? undefined }, lock });
  }

  private unreadCount(m: EntityManager, scope: Scope): Promise<number> {
    return countRows(this.own(m, scope).andWhere('n.readAt IS NULL'));
  }

  /** Newest first; `unread` filters; `meta.unread_count` counts every unread one. */
  async list(scope: Scope, q: NotificationQuery): Promise<Page<NotificationDto>> {
    const m = this.ds.manager;
    const qb = this.own(m, scope);
    if (q.unread === true) qb.andWhere('n.readAt IS NULL');
    if (q.unread === false) qb.andWhere('n.readAt IS NOT NULL');
    const page = await paginate(qb, q, { sortable: { created_at: 'n.createdAt' }, defaultSort: '-created_at', map: NotificationDto.of, count: () => countRows(qb) });
    return new Page(page.items, { ...page.meta, unread_count: await this.unreadCount(m, scope) } as Page<NotificationDto>['meta']);
  }

  /** Marks one read (already read: unchanged, `read_at` kept). */
  async read(scope: Scope, id: string): Promise<NotificationDto> {
    return runUnit(this.ds, async (m) => {
      const n = await this.one(m, scope, id, true);
      if (!n.readAt) {
        n.readAt = new Date();
        await m.update(Notification, { id: n.id }, { readAt: n.readAt });
        await this.recordRead(m, scope, [n.id], false);
      }
      return NotificationDto.of(n);
    });
  }

  /** Marks every unread one of the caller read. */
  async readAll(scope: Scope): Promise<MarkedReadDto> {
    return runUnit(this.ds, async (m) => {
      const ids = this.own(m, scope).select('n.id', 'id').andWhere('n.readAt IS NULL');
      const result = await m
        .createQueryBuilder()
        .update(Notification)
        .set({ readAt: () => 'now()' })
        .where(`id IN (${ids.getQuery()})`)
        .setParameters(ids.getParameters())
        .execute();
      const updated = result.affected ?? 0;
      if (updated) await this.recordRead(m, scope, [], true);
      return { updated, unread_count: await this.unreadCount(m, scope) };
    });
  }

  async remove(scope: Scope, id: string): Promise<void> {
    await runUnit(this.ds, async (m) => {
      const n = await this.one(m, scope, id, true);
      await m.delete(Notification, { id: n.id });
      await recordEvents(m, { type: 'notification.deleted', aggregateType: 'user', aggregateId: n.userId, companyId: n.companyId, actorId: n.userId, payload: { notification_id: n.id } });
    });
  }

  private recordRead(m: EntityManager, scope: Scope, ids: string[], all: boolean): Promise<void> {
    const me = scope.actorId!;
    return recordEvents(m, { type: 'notification.read', aggregateType: 'user', aggregateId: me, companyId: scope.companyId, actorId: me, payload: { notification_ids: ids, all } });
  }

  /**
   * Makes the notifications of one event (inside the relay's transaction): one row per recipient,
   * (event, user) unique, so a redelivery adds nothing. Answers the rows made now.
   */
  async make(m: EntityManager, event: { id: string; type: string; companyId: string }, drafts: readonly NotificationDraft[]): Promise<Notification[]> {
    const seen = new Set<string>();
    const rows: Partial<Notification>[] = [];
    for (const d of drafts) {
      for (const userId of d.userIds) {
        if (seen.has(userId)) continue;
        seen.add(userId);
        rows.push({ companyId: event.companyId, userId, eventId: event.id, type: event.type, title: d.title, body: d.body, data: d.data });
      }
    }
    if (!rows.length) return [];
    const result = await m.createQueryBuilder().insert().into(Notification).values(rows).orIgnore().returning('*').execute();
    const made = (result.raw as Record<string, unknown>[]).map((r) => m.create(Notification, {
      id: r.id as string,
      companyId: r.company_id as string,
      userId: r.user_id as string,
      eventId: r.event_id as string,
      type: r.type as string,
      title: r.title as string,
      body: r.body as string,
      data: r.data as Record<string, string>,
      readAt: (r.read_at as Date | null) ?? null,
      createdAt: new Date(r.created_at as string),
      updatedAt: new Date(r.updated_at as string),
    }));
    return made;
  }
}
