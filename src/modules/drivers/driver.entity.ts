import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { MemberProfile } from '../users';
import { Tenant } from '../../common/access/tenant-policy';

/** The driver profile of a `driver` user. */
@Tenant({ driver: 'id', customer: false })
@Entity('drivers')
@ForeignKey('users', ['id'], ['id'], { name: 'drivers_id_fkey', onDelete: 'CASCADE' })
@ForeignKey('companies', ['companyId'], ['id'], { name: 'drivers_company_id_fkey' })
@Index('idx_drivers_company_id', ['companyId'])
// Lists by creation, of one company or (platform administrators) of all (migration 1764400004000-Platform).
@Index('idx_drivers_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_drivers_created', ['createdAt', 'id'])
export class Driver extends MemberProfile {
  @Column({ type: 'text', nullable: true })
  licenseNumber: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  licenseExpiresOn: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  hiredOn: string | null;
}
