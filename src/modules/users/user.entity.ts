import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

import { USER_STATUSES, USER_TYPES, type UserStatus, type UserType } from './user.types';
import { Tenant } from '../../common/access/tenant-policy';
export { USER_STATUSES, USER_TYPES, type UserStatus, type UserType };

/** A non-admin person who logs in: a company user, a customer or a driver. E-mail unique (case-insensitive). */
@Tenant({ customer: 'id', driver: 'id' })
@Entity('users')
@Check('users_type_check', `type IN ('company', 'customer', 'driver')`)
@Check('users_status_check', `status IN ('active', 'inactive')`)
// Expression index UNIQUE (lower(email)): TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_users_email', { synchronize: false })
@Index('idx_users_company_type_status', ['companyId', 'type', 'status'])
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

  @Index('idx_users_company_id')
  @ForeignKey('companies', { name: 'fk_users_company' })
  @Column({ type: 'uuid', nullable: true })
  companyId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;
}
