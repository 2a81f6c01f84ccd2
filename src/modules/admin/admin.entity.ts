import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

/** A platform administrator: a separate group with its own auth routes and lock-out. */
@Entity('admins')
// Expression index UNIQUE (lower(email)): TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_admins_email', { synchronize: false })
export class Admin extends BaseEntity {
  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text', select: false })
  passwordHash: string;

  @Column({ type: 'int', default: 0 })
  failedLogins: number;

  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;
}
