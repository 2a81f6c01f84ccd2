export const JOB_TYPES = ['delivery', 'pickup', 'swap', 'dump_return', 'relocate'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = ['unassigned', 'assigned', 'in_progress', 'completed', 'aborted'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Jobs that still have work to do (moved on reassignment, aborted when their order is cancelled). */
export const UNFINISHED_JOB_STATUSES: JobStatus[] = ['unassigned', 'assigned', 'in_progress'];
