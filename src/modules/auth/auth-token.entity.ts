import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One issued JWT (by its `jti`): lets logout, refresh and password changes revoke tokens. */
@Entity('auth_tokens')
export class AuthToken {
  @PrimaryColumn({ type: 'uuid' })
  jti: string;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  adminId: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
