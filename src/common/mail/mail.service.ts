import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
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
    if (config.smtpUrl) this.transport = nodemailer.createTransport(config.smtpUrl);
  }

  async send(to: string, subject: string, body: string): Promise<void> {
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
      }
    } else {
      this.logger.log({ msg: 'mail (no SMTP configured; kept in the local outbox)', to, subject, body });
    }
    await this.ds.getRepository(MailMessage).insert({ to, subject, body, status, error });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
