import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A domain event, written in the same transaction as the change it describes (transactional outbox).
 * A publisher turns unpublished rows into notifications, pushes and webhooks, at least once.
 */
@Entity('outbox_events')
@Index('idx_outbox_events_unpublished', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  companyId: string | null;

  /** Dotted name, e.g. `company.created`, `order.status_changed`. */
  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  aggregateType: string;

  @Column({ type: 'uuid' })
  aggregateId: string;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  payload: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  publishedAt: Date | null;
}
