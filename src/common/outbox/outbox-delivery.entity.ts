import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { OutboxEvent } from './outbox-event.entity';

export const DELIVERY_STATUSES = ['pending', 'processed', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event handed to one subscriber (migrations/1764000000000-OutboxRelay.ts). `processed` is written in
 * the subscriber's own transaction, so a subscriber that works through the manager it is given sees
 * each event exactly once; `pending` counts failed attempts until the next one; `dead` gave up.
 */
@Entity('outbox_deliveries')
@Index('idx_outbox_deliveries_dead', ['lastAttemptAt'], { where: `status = 'dead'` })
@Check('outbox_deliveries_status_check', `status IN ('pending', 'processed', 'dead')`)
@Check('outbox_deliveries_attempts_check', `attempts >= 0`)
export class OutboxDelivery {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'outbox_deliveries_pkey' })
  @ForeignKey(() => OutboxEvent, { name: 'outbox_deliveries_event_id_fkey', onDelete: 'CASCADE' })
  eventId: string;

  /** The subscriber's name (its class name unless `@EventSubscriber({ name })` says otherwise). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'outbox_deliveries_pkey' })
  subscriber: string;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  /** Handler runs so far (successful or not). */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  /** When a failed delivery is due again (pending only). */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** When it was processed, or given up (dead). */
  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
