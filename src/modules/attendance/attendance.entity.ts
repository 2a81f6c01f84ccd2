import { Check, Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const ATTENDANCE_STATUSES = ['checked_in', 'on_break', 'checked_out'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
/** Attendance states in which a driver counts as checked in (DR-IN). */
export const OPEN_ATTENDANCE: AttendanceStatus[] = ['checked_in', 'on_break'];

/** One driver's work day (domain.md §6). The foundation only reads it, for DR-IN. */
@Tenant({ driver: 'driverId', customer: false })
@Entity('attendances')
@Check('attendances_status_check', `status IN ('checked_in', 'on_break', 'checked_out')`)
@Unique('attendances_driver_id_work_date_key', ['driverId', 'workDate'])
@Index('idx_attendances_open', ['driverId'], { where: `status IN ('checked_in', 'on_break')` })
export class Attendance extends BaseEntity {
  @Index('idx_attendances_company_id')
  @ForeignKey('companies', { name: 'attendances_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;

  @ForeignKey('drivers', { name: 'attendances_driver_id_fkey' })
  @Column({ type: 'uuid' })
  driverId: string;

  @Column({ type: 'date' })
  workDate: string;

  @Column({ type: 'text' })
  status: AttendanceStatus;

  @Column({ type: 'timestamptz' })
  checkedInAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  checkedOutAt: Date | null;
}
