import { Column, CreateDateColumn, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { User } from './user.entity';

/**
 * What customer and driver profiles share: the id is the user's id, `user` the joined user row.
 * Each table declares its own indexes and foreign keys (id → users, company_id → companies): their
 * names carry the table's name.
 */
export abstract class MemberProfile {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  companyId: string;

  /** The user row (name, e-mail, phone, status); read-only from here. */
  @OneToOne('User', { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'id' })
  user?: User;

  /** Internal notes of the company (not shown to the member). */
  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
