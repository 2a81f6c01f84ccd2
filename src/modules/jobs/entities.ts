import { JobArrival } from './job-arrival.entity';
import { Job, JobStatusChange } from './job.entity';

/**
 * This module's entities (its tables). Every data source gets them from here (src/app.entities.ts loads
 * the `ENTITIES` of each module's entities.ts); a new entity of the module is added to this list.
 */
export const ENTITIES = [Job, JobStatusChange, JobArrival];
