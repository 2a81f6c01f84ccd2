import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { Page } from '../../../common/http/envelope';
import { countRows, paginate } from '../../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import type { NotificationQuery } from './notification.dto';
import { Notification } from './notification.entity';

/** A notification to insert: one recipient of one event (its company: the scope's). */
export type NewNotification = Pick<Notification, 'userId' | 'eventId' | 'type' | 'title' | 'body' | 'data'>;

/** The caller's own notifications (`notifications`): the module's SQL for them (docs/data-layer.md). */
@Injectable()
export class NotificationRepository extends ModuleRepository {

  /** A page of the caller's notifications, newest first; `unread` filters. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { page: 1, per_page: 20 }] }, { name: 'unread', params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { unread: true }] })
  page(scope: Scope, q: NotificationQuery): Promise<Page<Notification>> {
    const qb = own(this.m, scope);
    if (q.unread === true) qb.andWhere('n.readAt IS NULL');
    if (q.unread === false) qb.andWhere('n.readAt IS NOT NULL');
    return paginate(qb, q, { sortable: { created_at: 'n.createdAt' }, defaultSort: '-created_at', count: () => countRows(qb) });
  }

  /** How many of the caller's notifications are unread. */
  unreadCount(scope: Scope): Promise<number> {
    return countRows(own(this.m, scope).andWhere('n.readAt IS NULL'));
  }

  /** One of the caller's notifications, locked (FOR UPDATE); else 404. */
  lock(scope: Scope, id: string): Promise<Notification> {
    return findScoped(this.locked, Notification, scope, id, { what: 'Notification', where: { userId: scope.actorId ?? undefined }, lock: true });
  }

  /** Marks a notification of the scope's company read (the caller's own, locked by `lock`). */
  async markRead(scope: Scope, id: string, readAt: Date): Promise<void> {
    await this.locked.update(Notification, { id, companyId: scope.companyId }, { readAt });
  }

  /** Marks every unread notification of the caller read; how many. */
  async markAllRead(scope: Scope): Promise<number> {
    const ids = own(this.locked, scope).select('n.id', 'id').andWhere('n.readAt IS NULL');
    const result = await this.locked
      .createQueryBuilder()
      .update(Notification)
      .set({ readAt: () => 'now()' })
      .where(`id IN (${ids.getQuery()})`)
      .setParameters(ids.getParameters())
      .execute();
    return result.affected ?? 0;
  }

  /** Deletes a notification of the scope's company (the caller's own, locked by `lock`). */
  async delete(scope: Scope, id: string): Promise<void> {
    await this.locked.delete(Notification, { id, companyId: scope.companyId });
  }

  /** Inserts the rows in the scope's company, (event, user) unique: a redelivery adds nothing. Answers the rows made now. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [{ userId: SQL_SAMPLE.actorId, eventId: SQL_SAMPLE.id, type: 'chat.message_posted', title: 'New message', body: 'On my way', data: { chat_id: SQL_SAMPLE.otherId } }]] })
  async insertNew(scope: Scope, rows: NewNotification[]): Promise<Notification[]> {
    if (!rows.length) return [];
    const m = this.locked;
    const result = await m
      .createQueryBuilder()
      .insert()
      .into(Notification)
      .values(rows.map((r) => ({ ...r, companyId: scope.companyId })))
      .orIgnore().returning('*').execute();
    return (result.raw as Record<string, unknown>[]).map((r) =>
      m.create(Notification, {
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
      }),
    );
  }
}

/** The caller's notifications: company (tenant policy) and user. */
function own(m: EntityManager, scope: Scope): SelectQueryBuilder<Notification> {
  return scopedQuery(m, Notification, scope, 'n').andWhere('n.userId = :me', { me: scope.actorId });
}
