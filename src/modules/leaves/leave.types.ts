/** Kinds of leave a driver asks for (leave_requests.type, leaves.type). */
export const LEAVE_TYPES = ['annual', 'sick', 'unpaid', 'other'] as const;
export type LeaveType = (typeof LEAVE_TYPES)[number];

/** The decision on one requested date (leave_request_dates.status). */
export const LEAVE_DATE_STATUSES = ['pending', 'in_review', 'approved', 'rejected'] as const;
export type LeaveDateStatus = (typeof LEAVE_DATE_STATUSES)[number];

/** A request's status, derived from its dates (`requestStatusOf`), or `cancelled` by the driver. */
export const LEAVE_REQUEST_STATUSES = ['pending', 'in_review', 'partially_approved', 'approved', 'rejected', 'cancelled'] as const;
export type LeaveRequestStatus = (typeof LEAVE_REQUEST_STATUSES)[number];

/** A leave: `approved` (in force), `cancelled` before it started, `revoked` from a date while under way (the days before stay taken). */
export const LEAVE_STATUSES = ['approved', 'cancelled', 'revoked'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];
/** Leaves whose (remaining) days keep the driver off work. */
export const LIVE_LEAVE_STATUSES: LeaveStatus[] = ['approved', 'revoked'];

/** Where an approved leave stands against the company's today (computed, not stored). */
export const LEAVE_PHASES = ['upcoming', 'under_way', 'over'] as const;
export type LeavePhase = (typeof LEAVE_PHASES)[number];

/** The three decisions the company takes on requested dates, and the date status each sets. */
export const LEAVE_DECISIONS = { approve: 'approved', reject: 'rejected', review: 'in_review' } as const satisfies Record<string, LeaveDateStatus>;
export type LeaveDecision = keyof typeof LEAVE_DECISIONS;

/** At most this many dates per request. */
export const MAX_LEAVE_DATES = 60;
/** A sick-leave request may start this many days before today; other types start today at the earliest. */
export const SICK_BACKDATE_DAYS = 7;
