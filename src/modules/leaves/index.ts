/** What other modules may use of leaves (never its entities). */
export { LeavesModule } from './leaves.module';
export { LeaveRequestsService } from './leave-requests.service';
export { LeavesService } from './leaves.service';
export { LeaveDto, LeaveRequestDto, LeaveStatsDto } from './leave.dto';
export { LEAVE_DATE_STATUSES, LEAVE_REQUEST_STATUSES, LEAVE_STATUSES, LEAVE_TYPES, type LeaveDateStatus, type LeaveRequestStatus, type LeaveStatus, type LeaveType } from './leave.types';
