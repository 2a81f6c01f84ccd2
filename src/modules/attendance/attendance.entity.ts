import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const ATTENDANCE_STATUSES = ['checked_in', 'on_break', 'checked_out'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
/** Attendance states in which a driver counts as checked in (DR-IN). */
export const OPEN_ATTENDANCE: AttendanceStatus[] = ['checked_in', 'on_break'];

/** One driver's work day (domain.md §6). The foundation only reads it, for DR-IN. */
@Entity('attendances')
@Index(['driverId', 'workDate'], { unique: true })
export class Attendance extends BaseEntity {
  @Index()
  @Column({ type: 'uuid' })
  companyId: string;

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
