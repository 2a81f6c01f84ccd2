import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../users/user.entity';

/** The customer profile of a `customer` user; its id is the user's id. */
@Entity('customers')
export class Customer {
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
  billingName: string | null;

  @Column({ type: 'text', nullable: true })
  billingEmail: string | null;

  @Column({ type: 'boolean', default: false })
  taxExempt: boolean;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  /** The customer's price book (pricing_profiles); null = the company's default. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  pricingProfileId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
