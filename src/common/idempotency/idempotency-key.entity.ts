import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** A remembered `Idempotency-Key`: the request's hash and, once done, its response (kept 24 h). */
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
