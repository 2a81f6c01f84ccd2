import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

/** A document the company keeps on file (licence, insurance certificate, permit…). */
@Entity('company_documents')
export class CompanyDocument extends BaseEntity {
  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  url: string;

  /** YYYY-MM-DD */
  @Column({ type: 'date', nullable: true })
  expiresOn: string | null;
}

/**
 * The company's settings, one row per company (keyed by company_id), created on first write; until
 * then the defaults apply. timezone and currency mirror the company's own columns.
 */
@Entity('company_settings')
export class CompanySettings {
  @PrimaryColumn({ type: 'uuid' })
  companyId: string;

  @Column({ type: 'text', default: 'UTC' })
  timezone: string;

  @Column({ type: 'char', length: 3, default: 'USD' })
  currency: string;

  @Column({ type: 'int', default: 1 })
  orderLeadTimeDays: number;

  @Column({ type: 'boolean', default: false })
  autoApproveOrders: boolean;

  @Column({ type: 'int', default: 24 })
  freeCancellationHours: number;

  @Column({ type: 'int', default: 0 })
  cancellationFeeAmount: number;

  @Column({ type: 'int', default: 10 })
  demeritWarningThreshold: number;

  @Column({ type: 'int', default: 20 })
  demeritBlockThreshold: number;

  @Column({ type: 'int', default: 365 })
  demeritWindowDays: number;

  @Column({ type: 'int', default: 20 })
  annualLeaveAllowanceDays: number;

  @Column({ type: 'int', default: 10 })
  sickLeaveAllowanceDays: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
