import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type CodeAudience = 'user' | 'admin';
export type CodePurpose = 'verify_email' | 'reset_password';

/** A 6-digit code, stored hashed, valid 10 minutes for 5 tries. */
@Entity('one_time_codes')
@Index(['audience', 'email', 'purpose'])
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
