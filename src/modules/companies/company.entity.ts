import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const COMPANY_STATUSES = ['active', 'inactive'] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];

/** The tenant: a hauler. Every company-owned row carries its id. */
@Entity('companies')
@Check('companies_status_check', `status IN ('active', 'inactive')`)
@Check('companies_platform_fee_bps_check', `platform_fee_bps IS NULL OR (platform_fee_bps >= 0 AND platform_fee_bps <= 10000)`)
// The administrators' lists (platform): newest first, optionally by status.
@Index('idx_companies_created', ['createdAt', 'id'])
@Index('idx_companies_status_created', ['status', 'createdAt', 'id'])
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

  /**
   * Platform settings (written by the platform's administrators through `CompaniesService`, read by
   * payments): the card fee in basis points (null = the platform's default), a plan whose limits apply
   * whatever the subscription (null = none), and feature flags.
   */
  @Column({ type: 'int', nullable: true })
  platformFeeBps: number | null;

  @Column({ type: 'text', nullable: true })
  planOverride: string | null;

  @Column({ type: 'jsonb', default: {} })
  featureFlags: Record<string, boolean>;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
