import { Column, DeleteDateColumn, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

/** A customer's service address (where containers go). Soft-deleted; at most one default per customer. */
@Entity('customer_addresses')
export class CustomerAddress extends BaseEntity {
  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

  @Index()
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
