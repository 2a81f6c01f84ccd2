import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const COMPANY_STATUSES = ['active', 'inactive'] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];

/** The tenant: a hauler. Every company-owned row carries its id. */
@Entity('companies')
@Check('companies_status_check', `status IN ('active', 'inactive')`)
export class Company extends BaseEntity {
  @Index('idx_companies_owner_id')
  @ForeignKey('users', { name: 'companies_owner_id_fkey' })
  @Column({ type: 'uuid' })
  ownerId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ type: 'text', default: 'UTC' })
  timezone: string;

  @Column({ type: 'char', length: 3, default: 'USD' })
  currency: string;

  @Column({ type: 'text', default: 'active' })
  status: CompanyStatus;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
