import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Tenant } from '../../common/access/tenant-policy';

/**
 * One write an administrator made (platform administration): who, what, on which record of which
 * company, the record's view before (null on create) and after. Written in the write's transaction.
 * Only administrators read it (customers and drivers never; it is not a company's own record either,
 * but carries `company_id` for the company view).
 */
@Tenant({ customer: false, driver: false })
@Entity('platform_audit_entries')
@Index('idx_platform_audit_entries_company', ['companyId', 'createdAt', 'id'])
export class AuditEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('idx_platform_audit_entries_admin')
  @ForeignKey('admins', { name: 'platform_audit_entries_admin_id_fkey' })
  @Column({ type: 'uuid' })
  adminId: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text' })
  targetType: string;

  @Index('idx_platform_audit_entries_target')
  @Column({ type: 'uuid' })
  targetId: string;

  @ForeignKey('companies', { name: 'platform_audit_entries_company_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  companyId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before: object | null;

  @Column({ type: 'jsonb', nullable: true })
  after: object | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
