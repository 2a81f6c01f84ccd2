import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type CodeAudience = 'user' | 'admin';
export type CodePurpose = 'verify_email' | 'reset_password';

/** A 6-digit code, stored hashed, valid 10 minutes for 5 tries. */
@Entity('one_time_codes')
@Check('one_time_codes_audience_check', `audience IN ('user', 'admin')`)
@Check('one_time_codes_purpose_check', `purpose IN ('verify_email', 'reset_password')`)
// Expression index (audience, lower(email), purpose): TypeORM cannot express it, so it is declared by name and left alone.
@Index('idx_one_time_codes_lookup', { synchronize: false })
export class OneTimeCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  audience: CodeAudience;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  purpose: CodePurpose;

  @Column({ type: 'text' })
  codeHash: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', nullable: true })
  consumedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
