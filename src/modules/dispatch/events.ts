import type { EvidenceKind } from './dispatch.entities';

/** Dispatch's events (src/common/outbox/event-catalogue.ts: declaration merging): the aggregate is the job, the actor the company user or the driver (the company for a resolution). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'job.updated': { order_id: string; fields: string[] };
    'job.reassigned': { order_id: string; from_driver_id: string | null; to_driver_id: string | null };
    'job.evidence_added': { order_id: string; evidence_id: string; kind: EvidenceKind; station_ticket_id: string | null };
    'job.issue_reported': { order_id: string; issue_id: string; type: string; blocking: boolean };
    'job.issue_resolved': { order_id: string; issue_id: string; blocking: boolean };
  }
}
