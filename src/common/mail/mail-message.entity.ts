import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every e-mail the service sends; without SMTP this table is the local outbox. */
@Entity('mail_messages')
export class MailMessage {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', name: 'to_address' })
  to: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  body: string;

  /** `sent` (SMTP accepted it), `outbox` (no SMTP configured) or `failed`. */
  @Column({ type: 'text' })
  status: 'sent' | 'outbox' | 'failed';

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
