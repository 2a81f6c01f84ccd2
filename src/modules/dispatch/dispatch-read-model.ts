import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { JobsService, pickupSideOf, type JobType } from '../jobs';
import { OrderOperations } from '../orders';
import { JobFactsRepository } from './job-facts.repository';

/** What the reports' rollups count of a completed job. */
export interface CompletedJobFacts {
  type: JobType;
  driverId: string | null;
  scheduledDate: string;
  /** The company's local date of the completion. */
  completedOn: string;
  /** The station ticket's net weight (null without one). */
  netKg: number | null;
  /** The waste type of what the ticket weighed: the order's, a swap's pickup side's (`pickupSideOf`). */
  wasteTypeId: string | null;
  /** The distance along the location points the driver sent for the job (haversine between consecutive points, by `recorded_at`). */
  meters: number;
}

/** Reads of dispatch's rows for the reports module (layer 7). */
@Injectable()
export class DispatchReadModel {
  constructor(
    private readonly jobs: JobsService,
    private readonly orderOps: OrderOperations,
    private readonly facts: JobFactsRepository,
  ) {}

  /** A completed job's facts (null when absent or not completed): the job, the waste type it dumped, its ticket and its track. */
  async completedJobFacts(company: Scope, jobId: string, timezone: string): Promise<CompletedJobFacts | null> {
    const scope = Scope.company(company.companyId);
    const job = await this.jobs.find(scope, jobId).catch(() => null);
    if (!job || job.status !== 'completed' || !job.completedAt) return null;
    const order = (await this.orderOps.many(scope, [pickupSideOf(job)])).get(pickupSideOf(job));
    const row = await this.facts.track(scope, jobId);
    return {
      type: job.type,
      driverId: job.driverId,
      scheduledDate: job.scheduledDate,
      completedOn: todayIn(timezone, new Date(job.completedAt)),
      netKg: row?.net_kg === null || row?.net_kg === undefined ? null : Number(row.net_kg),
      wasteTypeId: order?.wasteTypeId ?? null,
      meters: Number(row?.meters ?? 0),
    };
  }
}
