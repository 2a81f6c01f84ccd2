import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';

/** A message sent through the contact form (`POST /contact-us`), kept and mailed to the platform. */
@Entity('contact_messages')
@Index('idx_contact_messages_user', ['userId', 'createdAt'])
export class ContactMessage extends BaseEntity {
  @ForeignKey('users', { name: 'contact_messages_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  message: string;
}
