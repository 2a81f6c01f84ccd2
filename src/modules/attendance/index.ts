/** What other modules may use of attendance (never its entities). */
export { AttendanceModule } from './attendance.module';
export { AttendanceService, type AttendanceState } from './attendance.service';
export { ATTENDANCE_STATUSES, OPEN_ATTENDANCE, type AttendanceStatus } from './attendance.types';
