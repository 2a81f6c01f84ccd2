import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const USER_TYPES = ['company', 'customer', 'driver'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A non-admin person who logs in: a company user, a customer or a driver. E-mail unique (case-insensitive). */
@Entity('users')
export class User extends BaseEntity {
  @Column({ type: 'text' })
  type: UserType;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  @Column({ type: 'text', nullable: true, select: false })
  passwordHash: string | null;

  @Column({ type: 'text', default: 'active' })
  status: UserStatus;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  companyId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;
}
