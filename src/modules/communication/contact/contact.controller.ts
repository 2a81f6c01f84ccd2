import { Body, Controller, Injectable, Logger, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { withMessage } from '../../../common/http/envelope';
import { Endpoint } from '../../../common/http/openapi';
import { MailService } from '../../../common/mail/mail.service';
import { recordEvents } from '../../../common/outbox/outbox';
import { AppConfig } from '../../../config/app-config';
import { ContactMessageDto, ContactUsDto } from './contact.dto';
import { ContactMessage } from './contact-message.entity';

/** The contact form: kept in `contact_messages`, then mailed to PLATFORM_CONTACT_EMAIL after the commit. */
@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');

  constructor(
    private readonly ds: DataSource,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  async send(actor: Actor, dto: ContactUsDto): Promise<ContactMessageDto> {
    const saved = await this.ds.transaction(async (m) => {
      const row = m.create(ContactMessage, { userId: actor.id, subject: dto.subject, message: dto.message });
      await m.insert(ContactMessage, row);
      await recordEvents(m, { type: 'contact_message.sent', aggregateType: 'contact_message', aggregateId: row.id, companyId: actor.companyId, actorId: actor.id, payload: { subject: dto.subject } });
      return m.findOneByOrFail(ContactMessage, { id: row.id });
    });
    // The message is kept whatever the mail does (a failed SMTP delivery is recorded in mail_messages).
    const from = `${actor.name} <${actor.email}> (${actor.type}${actor.companyId ? `, company ${actor.companyId}` : ''})`;
    await this.mail.send(this.config.platformContactEmail, `[Contact] ${dto.subject}`, `From: ${from}\nMessage id: ${saved.id}\n\n${dto.message}`).catch((e: unknown) => {
      this.logger.error({ msg: 'contact message not mailed', contact_message_id: saved.id, error: (e as Error).message });
    });
    return { id: saved.id, subject: saved.subject, message: saved.message, created_at: saved.createdAt.toISOString() };
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
