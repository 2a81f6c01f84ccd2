import { Column, Entity } from 'typeorm';
import { MemberProfile } from '../customers/member-profile.entity';

/** The driver profile of a `driver` user. */
@Entity('drivers')
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
