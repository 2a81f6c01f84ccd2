/** What other modules may use of jobs (never the entity). */
export { JobsModule } from './jobs.module';
export { JobsService, JOB_TRANSITIONS, pickupSideOf, type JobActor, type JobChanges, type JobView, type NewJob } from './jobs.service';
export { JOB_STATUSES, JOB_TYPES, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType } from './job.types';
// Company-side dispatch reads.
export type { JobFilters, JobRow } from './jobs.service';
export { ARRIVAL_WINDOW_MINUTES, arrivalView, type ArrivalTimes, type ArrivalView } from './arrivals';
export type { ArrivalWrite } from './job-arrival.repository';
