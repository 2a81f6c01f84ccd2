import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { MemberProfile } from '../users';
import { Tenant } from '../../common/access/tenant-policy';

/** The customer profile of a `customer` user. */
@Tenant({ customer: 'id', driver: false })
@Entity('customers')
@ForeignKey('users', ['id'], ['id'], { name: 'customers_id_fkey', onDelete: 'CASCADE' })
@ForeignKey('companies', ['companyId'], ['id'], { name: 'customers_company_id_fkey' })
@Index('idx_customers_company_id', ['companyId'])
// Lists by creation, of one company or (platform administrators) of all (migration 1764400004000-Platform).
@Index('idx_customers_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_customers_created', ['createdAt', 'id'])
export class Customer extends MemberProfile {
  @Column({ type: 'text', nullable: true })
  billingName: string | null;

  @Column({ type: 'text', nullable: true })
  billingEmail: string | null;

  @Column({ type: 'boolean', default: false })
  taxExempt: boolean;

  /** The customer's price book (pricing_profiles); null = the company's default. */
  @Index('idx_customers_pricing_profile_id')
  @ForeignKey('pricing_profiles', { name: 'customers_pricing_profile_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  pricingProfileId: string | null;

  /** The customer's live demerit points: kept by the accountability module (`setDemerit`) in the transaction of each change. */
  @Column({ type: 'int', default: 0 })
  demeritPoints: number;

  /** At or over the company's block threshold: placement refuses new orders (403 `DEMERIT_BLOCKED`). Kept with `demeritPoints`. */
  @Column({ type: 'boolean', default: false })
  demeritBlocked: boolean;
}
