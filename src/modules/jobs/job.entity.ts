import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';
import { JOB_STATUSES, JOB_TYPES, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType } from './job.types';
export { JOB_STATUSES, JOB_TYPES, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType };


/**
 * A driver's job (domain.md §5). Orders create them unassigned (approval: delivery, and pickup when a
 * pickup date is set; change requests: swap, dump_return, relocate); dispatch assigns driver, truck and
 * asset, and orders them per driver and day (`sequence`).
 */
@Tenant({ driver: 'driverId', customer: false })
@Entity('jobs')
@Index('idx_jobs_company_date_status', ['companyId', 'scheduledDate', 'status'])
@Index('idx_jobs_driver_date', ['driverId', 'scheduledDate'], { where: 'driver_id IS NOT NULL' })
// Company-side lists (migration DispatchCompany): one index per sort and per filter with the default sort.
@Index('idx_jobs_company_date_id', ['companyId', 'scheduledDate', 'id'])
@Index('idx_jobs_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_jobs_company_status_date', ['companyId', 'status', 'scheduledDate', 'id'])
@Index('idx_jobs_company_type_date', ['companyId', 'type', 'scheduledDate', 'id'])
// A driver's finished jobs, newest first (migration DispatchDriver): on an expression, which TypeORM cannot express; declared by name.
@Index('idx_jobs_driver_finished', { synchronize: false })
@Check('jobs_type_check', `type IN ('delivery', 'pickup', 'swap', 'dump_return', 'relocate')`)
@Check('jobs_status_check', `status IN ('unassigned', 'assigned', 'in_progress', 'completed', 'aborted')`)
@Check('jobs_last_lat_check', `last_lat BETWEEN -90 AND 90`)
@Check('jobs_last_lng_check', `last_lng BETWEEN -180 AND 180`)
@Check('jobs_pickup_order_check', `(type = 'swap') = (pickup_order_id IS NOT NULL)`)
export class Job extends BaseEntity {
  @ForeignKey('companies', { name: 'jobs_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Index('idx_jobs_order') @ForeignKey('orders', { name: 'jobs_order_id_fkey' }) @Column({ type: 'uuid' }) orderId: string;
  @Column({ type: 'text' }) type: JobType;
  @Column({ type: 'text', default: 'unassigned' }) status: JobStatus;
  @Column({ type: 'date' }) scheduledDate: string;
  @Column({ type: 'int', nullable: true }) sequence: number | null;
  @ForeignKey('drivers', { name: 'jobs_driver_id_fkey' }) @Column({ type: 'uuid', nullable: true }) driverId: string | null;
  @Index('idx_jobs_truck', { where: 'truck_id IS NOT NULL' })
  @ForeignKey('trucks', { name: 'jobs_truck_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  truckId: string | null;
  @Index('idx_jobs_asset', { where: 'asset_id IS NOT NULL' })
  @ForeignKey('assets', { name: 'jobs_asset_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  assetId: string | null;
  /** The lot a delivery leaves from, or a pickup returns to. */
  @Index('idx_jobs_lot', { where: 'lot_id IS NOT NULL' })
  @ForeignKey('lots', { name: 'jobs_lot_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  lotId: string | null;
  /** A relocation's new address (customer_addresses). */
  @Index('idx_jobs_destination_address', { where: 'destination_address_id IS NOT NULL' })
  @ForeignKey('customer_addresses', { name: 'jobs_destination_address_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  destinationAddressId: string | null;
  /** The change request that created it, if any. */
  @Index('idx_jobs_change_request', { where: 'change_request_id IS NOT NULL' })
  @ForeignKey('order_change_requests', { name: 'jobs_change_request_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  changeRequestId: string | null;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ type: 'text', nullable: true }) abortReason: string | null;
  @Column({ type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) abortedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) assignedAt: Date | null;
  /** The asset a pickup or swap takes away from the site (set when the job completes). */
  @Index('idx_jobs_removed_asset', { where: 'removed_asset_id IS NOT NULL' })
  @ForeignKey('assets', { name: 'jobs_removed_asset_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  removedAssetId: string | null;
  /** A pickup merged into a swap by route collapse: it keeps its order and completes with the swap. */
  @Index('idx_jobs_merged_into', { where: 'merged_into_job_id IS NOT NULL' })
  @ForeignKey('jobs', { name: 'jobs_merged_into_job_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  mergedIntoJobId: string | null;
  /**
   * A swap's side coming back (migration SwapCarriesPickup): the order whose on-site container it takes
   * away and dumps (its waste type chooses the station and the ticket; its final bill takes the overage).
   * The swap's own order for a swap added to one order; the merged pickup's order for a swap made by
   * route collapse. Every swap has one, other types none. The side going out is the job's own order
   * (specification, the reserved `asset_id`).
   */
  @Index('idx_jobs_pickup_order', { where: 'pickup_order_id IS NOT NULL' })
  @ForeignKey('orders', { name: 'jobs_pickup_order_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  pickupOrderId: string | null;
  /** The latest location the driver sent for the job. */
  @Column({ type: 'double precision', nullable: true }) lastLat: number | null;
  @Column({ type: 'double precision', nullable: true }) lastLng: number | null;
  @Column({ type: 'timestamptz', nullable: true }) lastLocationAt: Date | null;
}

/** Every status move of a job: from, to, the driver then, who made it, why, when. */
@Tenant({ customer: false, driver: false })
@Entity('job_status_history')
@Index('idx_job_status_history_job', ['jobId', 'createdAt'])
export class JobStatusChange {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Index('idx_job_status_history_company')
  @ForeignKey('companies', { name: 'job_status_history_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  @ForeignKey('jobs', { name: 'job_status_history_job_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) jobId: string;
  @Column({ type: 'text', nullable: true }) fromStatus: JobStatus | null;
  @Column({ type: 'text' }) toStatus: JobStatus;
  @Column({ type: 'uuid', nullable: true }) driverId: string | null;
  @Column({ type: 'uuid', nullable: true }) actorId: string | null;
  @Column({ type: 'text' }) actorType: string;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  /** clock_timestamp(): moves made in one transaction keep their order. */
  @CreateDateColumn({ type: 'timestamptz', default: () => 'clock_timestamp()' }) createdAt: Date;
}
