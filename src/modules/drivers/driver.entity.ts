import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../users/user.entity';

/** The driver profile of a `driver` user; its id is the user's id. */
@Entity('drivers')
export class Driver {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  /** The user row (name, e-mail, phone, status); read-only from here. */
  @OneToOne(() => User, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'id' })
  user?: User;

  @Column({ type: 'text', nullable: true })
  licenseNumber: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  licenseExpiresOn: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  hiredOn: string | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
