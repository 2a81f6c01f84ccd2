import { Check, Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';
import type { AttendanceStatus, PauseKind } from './attendance.types';
export { ATTENDANCE_STATUSES, OPEN_ATTENDANCE, PAUSE_KINDS, type AttendanceStatus, type PauseKind } from './attendance.types';

/**
 * One driver's work day (domain.md §6): `checked_in` → `on_break` → `checked_in` → `checked_out`, and
 * back to `checked_in` on resume. The access guard reads it for DR-IN (an open day).
 */
@Tenant({ driver: 'driverId', customer: false })
@Entity('attendances')
@Check('attendances_status_check', `status IN ('checked_in', 'on_break', 'checked_out')`)
@Check('attendances_check_in_lat_check', `check_in_lat BETWEEN -90 AND 90`)
@Check('attendances_check_in_lng_check', `check_in_lng BETWEEN -180 AND 180`)
@Check('attendances_check_out_lat_check', `check_out_lat BETWEEN -90 AND 90`)
@Check('attendances_check_out_lng_check', `check_out_lng BETWEEN -180 AND 180`)
@Check('attendances_check_in_position_check', `(check_in_lat IS NULL) = (check_in_lng IS NULL)`)
@Check('attendances_check_out_position_check', `(check_out_lat IS NULL) = (check_out_lng IS NULL)`)
@Check('attendances_checked_out_at_check', `checked_out_at IS NULL OR checked_out_at >= checked_in_at`)
// Also serves the driver filter of the company's list and a driver's own list (newest day first).
@Unique('attendances_driver_id_work_date_key', ['driverId', 'workDate'])
@Index('idx_attendances_open', ['driverId'], { where: `status IN ('checked_in', 'on_break')` })
// The company's list, newest day first (the tiebreak id follows the sort's direction), plain and by status.
@Index('idx_attendances_company_date', ['companyId', 'workDate', 'id'])
@Index('idx_attendances_company_status_date', ['companyId', 'status', 'workDate', 'id'])
export class Attendance extends BaseEntity {
  @ForeignKey('companies', { name: 'attendances_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('drivers', { name: 'attendances_driver_id_fkey' })
  @Column({ type: 'uuid' })
  driverId: string;

  /** The company's local date of the check-in (`YYYY-MM-DD`). */
  @Column({ type: 'date' })
  workDate: string;

  @Column({ type: 'text' })
  status: AttendanceStatus;

  @Column({ type: 'timestamptz' })
  checkedInAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  checkedOutAt: Date | null;

  @Column({ type: 'double precision', nullable: true })
  checkInLat: number | null;

  @Column({ type: 'double precision', nullable: true })
  checkInLng: number | null;

  @Column({ type: 'double precision', nullable: true })
  checkOutLat: number | null;

  @Column({ type: 'double precision', nullable: true })
  checkOutLng: number | null;

  /** The truck the driver took at check-in (an active truck of the company), if any. */
  @Index('idx_attendances_truck', { where: 'truck_id IS NOT NULL' })
  @ForeignKey('trucks', { name: 'attendances_truck_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  truckId: string | null;
}

/**
 * A pause of a day, excluded from the worked time: a `break` (start-break → end-break, or closed by
 * check-out), or `checked_out`, the time between a check-out and a resume of the same day.
 * Drivers reach them only through their day (loaded with the tenant policy).
 */
@Tenant({ customer: false, driver: false })
@Entity('attendance_breaks')
@Check('attendance_breaks_kind_check', `kind IN ('break', 'checked_out')`)
@Check('attendance_breaks_ended_at_check', `ended_at IS NULL OR ended_at >= started_at`)
@Index('idx_attendance_breaks_attendance', ['attendanceId', 'startedAt'])
@Index('uq_attendance_breaks_open', ['attendanceId'], { unique: true, where: 'ended_at IS NULL' })
export class AttendanceBreak extends BaseEntity {
  @Index('idx_attendance_breaks_company_id')
  @ForeignKey('companies', { name: 'attendance_breaks_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('attendances', { name: 'attendance_breaks_attendance_id_fkey', onDelete: 'CASCADE' })
  @Column({ type: 'uuid' })
  attendanceId: string;

  @Column({ type: 'text', default: 'break' })
  kind: PauseKind;

  @Column({ type: 'timestamptz' })
  startedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
