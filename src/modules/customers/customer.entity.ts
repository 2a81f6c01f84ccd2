import { Column, Entity, Index } from 'typeorm';
import { MemberProfile } from './member-profile.entity';

/** The customer profile of a `customer` user. */
@Entity('customers')
export class Customer extends MemberProfile {
  @Column({ type: 'text', nullable: true })
  billingName: string | null;

  @Column({ type: 'text', nullable: true })
  billingEmail: string | null;

  @Column({ type: 'boolean', default: false })
  taxExempt: boolean;

  /** The customer's price book (pricing_profiles); null = the company's default. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  pricingProfileId: string | null;
}
