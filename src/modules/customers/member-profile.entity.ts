import { Column, CreateDateColumn, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../users/user.entity';

/** What customer and driver profiles share: the id is the user's id, `user` the joined user row. */
export abstract class MemberProfile {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  /** The user row (name, e-mail, phone, status); read-only from here. */
  @OneToOne(() => User, { createForeignKeyConstraints: false })
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
