import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One issued JWT (by its `jti`): lets logout, refresh and password changes revoke tokens. */
@Entity('auth_tokens')
@Check('auth_tokens_check', `(user_id IS NULL) <> (admin_id IS NULL)`)
export class AuthToken {
  @PrimaryColumn({ type: 'uuid' })
  jti: string;

  @Index('idx_auth_tokens_user_id')
  @ForeignKey('users', { name: 'auth_tokens_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Index('idx_auth_tokens_admin_id')
  @ForeignKey('admins', { name: 'auth_tokens_admin_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid', nullable: true })
  adminId: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
