import type { JobStatus, JobType } from './job.types';

/** A job's status move: `job.assigned`, `job.in_progress`, `job.completed`, `job.aborted`. */
export interface JobStatusPayload {
  order_id: string;
  type: JobType;
  from: JobStatus;
  to: JobStatus;
  driver_id: string | null;
  reason: string | null;
}
type JobStatusEvents = { [K in 'job.assigned' | 'job.in_progress' | 'job.completed' | 'job.aborted']: JobStatusPayload };

/** The jobs module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue extends JobStatusEvents {
    'job.created': { order_id: string; type: string; scheduled_date: string };
    'job.deleted': { order_id: string; type: string };
  }
}
