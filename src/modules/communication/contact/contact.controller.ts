import { Body, Controller, Injectable, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { withMessage } from '../../../common/http/envelope';
import { Endpoint } from '../../../common/http/openapi';
import { MailService } from '../../../common/mail/mail.service';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { UsersService } from '../../users';
import { AppConfig } from '../../../config/app-config';
import { ContactMessageDto, ContactUsDto } from './contact.dto';
import { ContactMessageRepository } from './contact-message.repository';
import { UnitOfWork } from '../../../database/unit-of-work';

/**
 * The contact form: kept in `contact_messages` with the event `contact_message.sent`; the relay's
 * subscriber (`MailContactMessage`) mails it to PLATFORM_CONTACT_EMAIL (at least once, retried).
 */
@Injectable()
export class ContactService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly messages: ContactMessageRepository,
  ) {}

  async send(actor: Actor, dto: ContactUsDto): Promise<ContactMessageDto> {
    const saved = await this.uow.transaction(async () => {
      const row = await this.messages.insert(actor.id, dto.subject, dto.message);
      await this.messages.recordEvents({ type: 'contact_message.sent', aggregateType: 'contact_message', aggregateId: row.id, companyId: actor.companyId, actorId: actor.id, payload: { subject: dto.subject } });
      return row;
    });
    return { id: saved.id, subject: saved.subject, message: saved.message, created_at: saved.createdAt.toISOString() };
  }
}

/**
 * Mails a contact message to the platform's address, with its author's name, e-mail and account type
 * (so that the platform answers by e-mail). An `outside` subscriber: the SMTP call runs with no transaction
 * open (docs/architecture.md "Events"). A failed SMTP delivery throws: the relay tries again later; the
 * message itself was kept when it was sent.
 */
@Injectable()
@EventSubscriber({ name: 'contact-mail', events: ['contact_message.sent'], outside: true })
export class MailContactMessage implements EventHandler<'contact_message.sent'> {
  constructor(
    private readonly messages: ContactMessageRepository,
    private readonly mail: MailService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  /** With no unit open (an `outside` subscriber): each read and the mail's own write commit on their own. */
  async handle(event: RelayedEvent<'contact_message.sent'>): Promise<void> {
    const row = await this.messages.find(event.aggregateId);
    if (!row) return;
    const author = await this.users.profile(row.userId);
    const from = `${author.name} <${author.email}> (${author.type}${author.company_id ? `, company ${author.company_id}` : ''})`;
    await this.mail.send(this.config.platformContactEmail, `[Contact] ${row.subject}`, `From: ${from}\nMessage id: ${row.id}\n\n${row.message}`, { retry: true });
  }
}

@ApiTags('Contact')
@Controller('api/v1/contact-us')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Post()
  @Access('TOK')
  @Endpoint({
    summary: 'Write to the platform (subject and message)',
    description: "Kept, and mailed to the platform's contact address (PLATFORM_CONTACT_EMAIL) with your name, e-mail and account type, so that the platform can answer you by e-mail.",
    type: ContactMessageDto,
    status: 201,
    message: 'Thank you: we will answer by e-mail.',
    errors: [422],
  })
  async send(@CurrentActor() actor: Actor, @Body() dto: ContactUsDto) {
    return withMessage(await this.contact.send(actor, dto), 'Thank you: we will answer by e-mail.');
  }
}
