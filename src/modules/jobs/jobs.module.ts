import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { JobArrivalRepository } from './job-arrival.repository';
import { JobRepository } from './job.repository';
import { JobsService } from './jobs.service';

/**
 * Jobs (layer 3): the job rows, created, moved and aborted for the modules above (orders today,
 * dispatch next). Imports no module of a higher layer; asset statuses go through catalogue.
 */
@Module({ imports: [CatalogueModule], providers: [JobsService, JobRepository, JobArrivalRepository], exports: [JobsService] })
export class JobsModule {}
