import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { MailMessage } from './mail-message.entity';

/**
 * Sends e-mail through SMTP_URL when configured; otherwise writes it to the log and keeps it in the
 * local outbox (`mail_messages`). Every message is recorded either way.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;

  constructor(
    private readonly config: AppConfig,
    private readonly ds: DataSource,
  ) {
    // nodemailer only when SMTP is configured (39 modules a process without mail never needs).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (config.smtpUrl) this.transport = (require('nodemailer') as typeof import('nodemailer')).createTransport(config.smtpUrl);
  }

  /**
   * Sends (or keeps in the local outbox) and records the message. `manager`: record it through this
   * manager (an event subscriber's, which holds the embedded database's one connection). `retry`: a
   * failed SMTP delivery throws instead of being recorded as failed, so that the relay tries again.
   */
  async send(to: string, subject: string, body: string, opts: { manager?: EntityManager; retry?: boolean } = {}): Promise<void> {
    let status: MailMessage['status'] = 'outbox';
    let error: string | null = null;
    if (this.transport) {
      try {
        await this.transport.sendMail({ from: this.config.mailFrom, to, subject, text: body });
        status = 'sent';
      } catch (e) {
        status = 'failed';
        error = (e as Error).message;
        this.logger.warn({ msg: 'mail delivery failed', to, subject, error });
        if (opts.retry) throw e;
      }
    } else {
      this.logger.log({ msg: 'mail (no SMTP configured; kept in the local outbox)', to, subject, body });
    }
    await (opts.manager ?? this.ds.manager).getRepository(MailMessage).insert({ to, subject, body, status, error });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
