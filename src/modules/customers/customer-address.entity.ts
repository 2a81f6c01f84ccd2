import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

/** A customer's service address (where containers go). Soft-deleted; at most one default per customer. */
@Tenant({ customer: 'customerId', driver: false })
@Entity('customer_addresses')
@Index('idx_customer_addresses_customer_id', ['customerId'], { where: 'deleted_at IS NULL' })
@Index('uq_customer_addresses_default', ['customerId'], { unique: true, where: 'is_default AND deleted_at IS NULL' })
@Check('customer_addresses_latitude_check', `latitude BETWEEN -90 AND 90`)
@Check('customer_addresses_longitude_check', `longitude BETWEEN -180 AND 180`)
export class CustomerAddress extends BaseEntity {
  @Index('idx_customer_addresses_company_id')
  @ForeignKey('companies', { name: 'customer_addresses_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('customers', { name: 'customer_addresses_customer_id_fkey' })
  @Column({ type: 'uuid' })
  customerId: string;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  @Column({ type: 'text' })
  line1: string;

  @Column({ type: 'text', nullable: true })
  line2: string | null;

  @Column({ type: 'text' })
  city: string;

  @Column({ type: 'text', nullable: true })
  region: string | null;

  @Column({ type: 'text', nullable: true })
  postalCode: string | null;

  @Column({ type: 'char', length: 2, nullable: true })
  country: string | null;

  @Column({ type: 'double precision' })
  latitude: number;

  @Column({ type: 'double precision' })
  longitude: number;

  @Column({ type: 'text', nullable: true })
  instructions: string | null;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  @DeleteDateColumn({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
