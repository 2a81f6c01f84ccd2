import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { MailService } from '../../../common/mail/mail.service';
import { draftsOf, mailedEvents } from '../../../common/outbox/notification-rules';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { JobsService } from '../../jobs';
import { UsersService } from '../../users';

/**
 * Mails the notifications of the events a module asked for (`mailNotifications`, e.g. dispatch's arrival
 * times) to their recipients who are people (named user ids; `company` is not mailed): the same title and
 * body as the notification. An `outside` subscriber: no transaction is open while it sends (SMTP, or the
 * `mail_messages` outbox without SMTP). A failed SMTP delivery throws and the relay tries again: at least
 * once (a retry after a partial failure may mail a recipient twice).
 */
@Injectable()
@EventSubscriber({ name: 'notification-mail', events: mailedEvents, outside: true })
export class MailNotifications implements EventHandler {
  constructor(
    private readonly mail: MailService,
    private readonly users: UsersService,
    private readonly jobs: JobsService,
  ) {}

  async handle(event: RelayedEvent): Promise<void> {
    const companyId = event.companyId;
    if (!companyId) return;
    const drafts = await draftsOf(event, {
      jobDriver: async (jobId) => (await this.jobs.find(Scope.company(companyId), jobId).catch(() => null))?.driverId ?? null,
    });
    for (const d of drafts) {
      for (const to of new Set(d.to)) {
        if (!to || to === 'company' || to === event.actorId) continue;
        const user = await this.users.profile(to).catch(() => null);
        if (user?.email) await this.mail.send(user.email, d.title, d.body, { retry: true });
      }
    }
  }
}
