import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import type { EventType } from '../../../common/outbox/event-catalogue';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { UnitOfWork } from '../../../database/unit-of-work';
import { JobsService } from '../../jobs';
import { UsersService } from '../../users';
import { afterCommit } from '../push/after-commit';
import { LivePush } from '../push/live-push';
import { NotificationDto } from './notification.dto';
import { draftsOf, notificationRulesOf, notifiedEvents, type RuleContext } from '../../../common/outbox/notification-rules';
import './notification-rules'; // this module's own rules, registered
import { NotificationDraft, NotificationsService } from './notifications.service';

/**
 * Makes the notifications of an event (the rules registered for it: NOTIFICATION_RULES and the modules'
 * own, src/common/outbox/notification-rules.ts) inside the relay's transaction, then, once
 * they are committed, pushes each to its user's live connections (`notification`, the row as the list
 * shows it). A redelivered event makes no second row and pushes nothing again.
 */
@Injectable()
@EventSubscriber({ name: 'notifications', events: notifiedEvents })
export class MakeNotifications implements EventHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly notifications: NotificationsService,
    private readonly users: UsersService,
    private readonly jobs: JobsService,
    private readonly push: LivePush,
  ) {}

  /** Runs in the delivery's unit of work (the rows it makes join it; pushes wait for its commit). */
  async handle(event: RelayedEvent): Promise<void> {
    const rules = notificationRulesOf(event.type);
    const companyId = event.companyId;
    if (!rules.length || !companyId) return;
    const ctx: RuleContext = {
      jobDriver: async (jobId) => {
        try {
          return (await this.jobs.find(Scope.company(companyId), jobId)).driverId;
        } catch {
          return null; // the job is gone
        }
      },
    };
    const drafts = await draftsOf(event, ctx);
    let companyUsers: string[] | undefined;
    const resolved: NotificationDraft[] = [];
    for (const d of drafts) {
      const userIds: string[] = [];
      for (const to of d.to) {
        if (!to) continue;
        if (to === 'company') userIds.push(...(companyUsers ??= await this.users.companyUserIds(Scope.company(companyId))));
        else userIds.push(to);
      }
      const data = Object.fromEntries(Object.entries(d.data).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
      resolved.push({ userIds: userIds.filter((id) => id !== event.actorId), title: d.title, body: d.body, data });
    }
    const made = await this.notifications.make(Scope.company(companyId), { id: event.id, type: event.type as EventType }, resolved);
    if (made.length) afterCommit(this.uow, () => made.forEach((n) => this.push.toUsers([n.userId], 'notification', NotificationDto.of(n))));
  }
}
