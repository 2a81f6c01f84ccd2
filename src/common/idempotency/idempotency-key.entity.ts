import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * A remembered `Idempotency-Key`: the request's hash and its response (kept 24 h). Written in the
 * transaction of the work it guards, so it exists only once that work is committed, as `done`.
 * `in_flight` remains for rows of the previous interceptor, which claimed keys in a committed statement
 * of their own: they count as running for LEGACY_IN_FLIGHT_SECONDS, then are taken over.
 */
@Entity('idempotency_keys')
@Check('idempotency_keys_status_check', `status IN ('in_flight', 'done')`)
@Unique('idempotency_keys_scope_key_key', ['scope', 'key'])
export class IdempotencyKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Who sent it: the actor's id, so two users' keys never collide. */
  @Column({ type: 'text' })
  scope: string;

  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'text' })
  requestHash: string;

  @Column({ type: 'text' })
  status: 'in_flight' | 'done';

  @Column({ type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'jsonb', nullable: true })
  responseBody: unknown;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Index('idx_idempotency_keys_expires_at')
  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
