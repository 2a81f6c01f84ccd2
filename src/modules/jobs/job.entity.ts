import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const JOB_TYPES = ['delivery', 'pickup', 'swap', 'dump_return', 'relocate'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = ['unassigned', 'assigned', 'in_progress', 'completed', 'aborted'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Jobs that still have work to do (moved on reassignment, aborted when their order is cancelled). */
export const UNFINISHED_JOB_STATUSES: JobStatus[] = ['unassigned', 'assigned', 'in_progress'];

/**
 * A driver's job (domain.md §5). Orders create them unassigned (approval: delivery, and pickup when a
 * pickup date is set; change requests: swap, dump_return, relocate); dispatch assigns driver, truck and
 * asset, and orders them per driver and day (`sequence`).
 */
@Entity('jobs')
@Index(['companyId', 'scheduledDate', 'status'])
export class Job extends BaseEntity {
  @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text' }) type: JobType;
  @Column({ type: 'text', default: 'unassigned' }) status: JobStatus;
  @Column({ type: 'date' }) scheduledDate: string;
  @Column({ type: 'int', nullable: true }) sequence: number | null;
  @Index() @Column({ type: 'uuid', nullable: true }) driverId: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) truckId: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) assetId: string | null;
  /** The lot a delivery leaves from, or a pickup returns to. */
  @Index() @Column({ type: 'uuid', nullable: true }) lotId: string | null;
  /** A relocation's new address (customer_addresses). */
  @Index() @Column({ type: 'uuid', nullable: true }) destinationAddressId: string | null;
  /** The change request that created it, if any. */
  @Index() @Column({ type: 'uuid', nullable: true }) changeRequestId: string | null;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ type: 'text', nullable: true }) abortReason: string | null;
  @Column({ type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) abortedAt: Date | null;
}
