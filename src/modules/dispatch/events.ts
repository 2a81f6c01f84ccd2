import type { JobType } from '../jobs';
import type { EvidenceKind } from './dispatch.entities';

/** What the customer is told of an arrival (issue #26): the job, its order and the expected time, also as company time. */
export interface ArrivalToldPayload {
  order_id: string;
  order_number: string;
  customer_id: string;
  driver_id: string;
  type: JobType;
  expected_at: string;
  /** `HH:MM` in the company's time zone. */
  expected_local: string;
  timezone: string;
}

/** Dispatch's events (src/common/outbox/event-catalogue.ts: declaration merging): the aggregate is the job, the actor the company user or the driver (the company for a resolution). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    'job.updated': { order_id: string; fields: string[] };
    'job.reassigned': { order_id: string; from_driver_id: string | null; to_driver_id: string | null };
    'job.evidence_added': { order_id: string; evidence_id: string; kind: EvidenceKind; station_ticket_id: string | null };
    'job.issue_reported': { order_id: string; issue_id: string; type: string; blocking: boolean };
    'job.issue_resolved': { order_id: string; issue_id: string; blocking: boolean };
    /** A location point that starts a new ARRIVAL_SAMPLE_SECONDS slot of the driver's points: arrivals are recomputed from it. */
    'job.position_sampled': { order_id: string; driver_id: string; lat: number; lng: number; recorded_at: string };
    /** The driver set off toward the job's stop (it was started): the customer is told when to expect them. */
    'job.arrival_on_the_way': ArrivalToldPayload;
    /** The expected arrival slipped more than `arrival_slip_minutes` past what the customer was last told. */
    'job.arrival_slipped': ArrivalToldPayload & { previously_told_at: string; previously_told_local: string; slip_minutes: number };
  }
}
