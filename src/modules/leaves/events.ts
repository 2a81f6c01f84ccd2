import type { LeaveType } from './leave.types';

/** Drivers' leave (src/common/outbox/event-catalogue.ts: declaration merging): the aggregate is the request (`leave_request`) or the leave (`leave`); the actor the driver or the company user. */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'leave_request.submitted': { driver_id: string; type: LeaveType; dates: string[] };
    /** `dates`: the request's dates after the edit. */
    'leave_request.updated': { driver_id: string; fields: string[]; dates: string[] };
    'leave_request.cancelled': { driver_id: string; dates: string[] };
    /** `status`: the request's status after the decision; `leave_ids`: the leaves the approved dates are in. */
    'leave_request.dates_decided': { driver_id: string; decision: 'approved' | 'rejected' | 'in_review'; dates: string[]; note: string | null; status: string; leave_ids: string[] };
    'leave.cancelled': { driver_id: string; leave_request_id: string; start_date: string; end_date: string; note: string | null };
    /** The dates given back (`revoked_from`..`revoked_to`); the leave now ends on `end_date`. */
    'leave.revoked': { driver_id: string; leave_request_id: string; end_date: string; revoked_from: string; revoked_to: string; note: string | null };
  }
}
