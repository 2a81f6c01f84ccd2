import { Check, Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';
import type { LeaveDateStatus, LeaveRequestStatus, LeaveStatus, LeaveType } from './leave.types';

/**
 * A driver's request for leave (domain.md §6): a type, a set of dates (`leave_request_dates`), a reason
 * and an optional attachment. Its `status` follows its dates' decisions (`requestStatusOf`), recomputed
 * in the transaction of each decision, or is `cancelled` by the driver. `first_date`/`last_date` span the
 * dates (list filters and sort).
 */
@Tenant({ driver: 'driverId', customer: false })
@Entity('leave_requests')
@Check('leave_requests_type_check', `type IN ('annual', 'sick', 'unpaid', 'other')`)
@Check('leave_requests_status_check', `status IN ('pending', 'in_review', 'partially_approved', 'approved', 'rejected', 'cancelled')`)
@Check('leave_requests_dates_check', `last_date >= first_date`)
@Check('leave_requests_cancelled_at_check', `(status = 'cancelled') = (cancelled_at IS NOT NULL)`)
// The company's list: newest first, plain, by status and by type; by first date (also the from/to filter).
@Index('idx_leave_requests_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_leave_requests_company_status_created', ['companyId', 'status', 'createdAt', 'id'])
@Index('idx_leave_requests_company_type_created', ['companyId', 'type', 'createdAt', 'id'])
@Index('idx_leave_requests_company_first_date', ['companyId', 'firstDate', 'id'])
// A driver's own list (and the company's driver filter).
@Index('idx_leave_requests_driver_created', ['driverId', 'createdAt', 'id'])
@Index('idx_leave_requests_driver_first_date', ['driverId', 'firstDate', 'id'])
export class LeaveRequest extends BaseEntity {
  @ForeignKey('companies', { name: 'leave_requests_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('drivers', { name: 'leave_requests_driver_id_fkey' })
  @Column({ type: 'uuid' })
  driverId: string;

  @Column({ type: 'text' })
  type: LeaveType;

  @Column({ type: 'text', default: 'pending' })
  status: LeaveRequestStatus;

  @Column({ type: 'text' })
  reason: string;

  /** An uploaded file (POST /upload-media) backing the request, e.g. a doctor's note. */
  @Index('idx_leave_requests_attachment', { where: 'attachment_media_id IS NOT NULL' })
  @ForeignKey('media', { name: 'leave_requests_attachment_media_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  attachmentMediaId: string | null;

  @Column({ type: 'date' })
  firstDate: string;

  @Column({ type: 'date' })
  lastDate: string;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;
}

/** One requested date and the company's decision on it; an approved date points at the leave it became. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('leave_request_dates')
@Unique('leave_request_dates_leave_request_id_date_key', ['leaveRequestId', 'date'])
@Check('leave_request_dates_status_check', `status IN ('pending', 'in_review', 'approved', 'rejected')`)
@Check('leave_request_dates_leave_check', `leave_id IS NULL OR status = 'approved'`)
// Overlap checks (a driver's pending dates) and the stats.
@Index('idx_leave_request_dates_driver_date', ['driverId', 'date'])
export class LeaveRequestDate extends BaseEntity {
  @Index('idx_leave_request_dates_company')
  @ForeignKey('companies', { name: 'leave_request_dates_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('leave_requests', { name: 'leave_request_dates_leave_request_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  leaveRequestId: string;

  @ForeignKey('drivers', { name: 'leave_request_dates_driver_id_fkey' })
  @Column({ type: 'uuid' })
  driverId: string;

  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'text', default: 'pending' })
  status: LeaveDateStatus;

  /** The note of the latest decision on this date. */
  @Column({ type: 'text', nullable: true })
  note: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  /** The company user who took the latest decision. */
  @Index('idx_leave_request_dates_decided_by', { where: 'decided_by IS NOT NULL' })
  @ForeignKey('users', { name: 'leave_request_dates_decided_by_fkey' })
  @Column({ type: 'uuid', nullable: true })
  decidedBy: string | null;

  /** The leave an approved date became. */
  @Index('idx_leave_request_dates_leave', { where: 'leave_id IS NOT NULL' })
  @ForeignKey('leaves', { name: 'leave_request_dates_leave_id_fkey', onDelete: 'SET NULL' })
  @Column({ type: 'uuid', nullable: true })
  leaveId: string | null;
}

/**
 * Consecutive approved dates of one request: a driver off work from `start_date` to `end_date`
 * (inclusive). Cancelled before it starts, or revoked while under way: then `end_date` becomes the day
 * of the revocation and the dates given back are kept in `revoked_from`..`revoked_to`.
 */
@Tenant({ driver: 'driverId', customer: false })
@Entity('leaves')
@Check('leaves_type_check', `type IN ('annual', 'sick', 'unpaid', 'other')`)
@Check('leaves_status_check', `status IN ('approved', 'cancelled', 'revoked')`)
@Check('leaves_dates_check', `end_date >= start_date`)
@Check('leaves_cancelled_at_check', `(status = 'cancelled') = (cancelled_at IS NOT NULL)`)
@Check('leaves_revoked_check', `(status = 'revoked') = (revoked_at IS NOT NULL AND revoked_from IS NOT NULL AND revoked_to IS NOT NULL)`)
@Check('leaves_revoked_dates_check', `revoked_from IS NULL OR (revoked_from = end_date + 1 AND revoked_to >= revoked_from)`)
// The company's list (by start date; plain, by status, by type); a driver's own (and the calendar: on leave that day).
@Index('idx_leaves_company_start', ['companyId', 'startDate', 'id'])
@Index('idx_leaves_company_status_start', ['companyId', 'status', 'startDate', 'id'])
@Index('idx_leaves_company_type_start', ['companyId', 'type', 'startDate', 'id'])
@Index('idx_leaves_driver_start', ['driverId', 'startDate', 'id'])
export class Leave extends BaseEntity {
  @ForeignKey('companies', { name: 'leaves_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('drivers', { name: 'leaves_driver_id_fkey' })
  @Column({ type: 'uuid' })
  driverId: string;

  @Index('idx_leaves_leave_request')
  @ForeignKey('leave_requests', { name: 'leaves_leave_request_id_fkey' })
  @Column({ type: 'uuid' })
  leaveRequestId: string;

  @Column({ type: 'text' })
  type: LeaveType;

  @Column({ type: 'text', default: 'approved' })
  status: LeaveStatus;

  @Column({ type: 'date' })
  startDate: string;

  @Column({ type: 'date' })
  endDate: string;

  @Column({ type: 'date', nullable: true })
  revokedFrom: string | null;

  @Column({ type: 'date', nullable: true })
  revokedTo: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Why it was cancelled or revoked. */
  @Column({ type: 'text', nullable: true })
  note: string | null;
}
