import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Tenant } from '../../common/access/tenant-policy';

/**
 * A job's arrival times (issue #26, migration ArrivalTimes), computed by dispatch in the relay for the
 * driver's day (`driverId`, `scheduledDate`: the day the row was last computed for). `plannedAt`: the
 * day's plan from the shift start; `expectedAt`: from the driver's progress and position; `arrivedAt`:
 * when a point put the driver at the site; `toldAt`: the arrival the customer was last told ("on the way"
 * or a slip), `onTheWayAt`: when they were told the driver set off.
 */
@Tenant({ driver: 'driverId', customer: false })
@Entity('job_arrivals')
@Index('idx_job_arrivals_driver_date', ['driverId', 'scheduledDate'])
export class JobArrival {
  @ForeignKey('jobs', { name: 'job_arrivals_job_id_fkey', onDelete: 'CASCADE' }) @PrimaryColumn({ type: 'uuid' }) jobId: string;
  @Index('idx_job_arrivals_company') @ForeignKey('companies', { name: 'job_arrivals_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('drivers', { name: 'job_arrivals_driver_id_fkey' }) @Column({ type: 'uuid' }) driverId: string;
  @Column({ type: 'date' }) scheduledDate: string;
  @Column({ type: 'timestamptz', nullable: true }) plannedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) expectedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) arrivedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) toldAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) onTheWayAt: Date | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) computedAt: Date;
}
