/** A day's states (attendances.status). */
export const ATTENDANCE_STATUSES = ['checked_in', 'on_break', 'checked_out'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
/** Attendance states in which a driver counts as checked in (DR-IN). */
export const OPEN_ATTENDANCE: AttendanceStatus[] = ['checked_in', 'on_break'];

/** Kinds of pause (attendance_breaks.kind): a break, or the time checked out before a resume. */
export const PAUSE_KINDS = ['break', 'checked_out'] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];
