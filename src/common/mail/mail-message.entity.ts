import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Every e-mail the service sends; without SMTP this table is the local outbox. */
@Entity('mail_messages')
@Check('mail_messages_status_check', `status IN ('sent', 'outbox', 'failed')`)
// Expression index (lower(to_address), created_at): TypeORM cannot express it, so it is declared by name and left alone.
@Index('idx_mail_messages_to', { synchronize: false })
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
