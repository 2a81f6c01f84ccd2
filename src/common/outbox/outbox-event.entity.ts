import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A domain event, written in the same transaction as the change it describes (transactional outbox).
 * The relay (outbox-relay.ts) hands unpublished rows to the event subscribers, at least once.
 */
@Entity('outbox_events')
@Index('idx_outbox_events_unpublished', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxEvent {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('idx_outbox_events_company_id')
  @ForeignKey('companies', { name: 'outbox_events_company_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  companyId: string | null;

  /** Dotted name from the event catalogue (event-catalogue.ts), e.g. `company.created`, `order.cancelled`. */
  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  aggregateType: string;

  @Column({ type: 'uuid' })
  aggregateId: string;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'jsonb', default: {} })
  payload: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** Every subscriber processed it or gave up (dead letter); no subscriber: set at its first relay. */
  @Column({ type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  /** A relay claimed it until then (its lease); another relay may take it over once passed. */
  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  /** The earliest retry of a failed delivery; null: due now. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;
}
