import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { JobsService, type JobType } from '../jobs';
import { OrderOperations } from '../orders';

/** What the reports' rollups count of a completed job. */
export interface CompletedJobFacts {
  type: JobType;
  driverId: string | null;
  scheduledDate: string;
  /** The company's local date of the completion. */
  completedOn: string;
  /** The station ticket's net weight (null without one). */
  netKg: number | null;
  /** The order's waste type (what the ticket weighed). */
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
  ) {}

  /** A completed job's facts (null when absent or not completed): the job, its order's waste type, its ticket and its track. */
  async completedJobFacts(m: EntityManager, companyId: string, jobId: string, timezone: string): Promise<CompletedJobFacts | null> {
    const job = await this.jobs.find(Scope.company(companyId), jobId, m).catch(() => null);
    if (!job || job.status !== 'completed' || !job.completedAt) return null;
    const order = (await this.orderOps.many(companyId, [job.orderId], m)).get(job.orderId);
    const [row] = await m.query<{ net_kg: number | null; meters: number }[]>(
      `SELECT (SELECT t.net_kg FROM station_tickets t WHERE t.job_id = $1) AS net_kg,
              (SELECT coalesce(round(sum(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(p.lat - p.plat) / 2), 2)
                        + cos(radians(p.plat)) * cos(radians(p.lat)) * power(sin(radians(p.lng - p.plng) / 2), 2)))))), 0)::int
                 FROM (SELECT l.lat, l.lng, lag(l.lat) OVER w AS plat, lag(l.lng) OVER w AS plng
                         FROM job_locations l WHERE l.job_id = $1 WINDOW w AS (ORDER BY l.recorded_at, l.id)) p
                WHERE p.plat IS NOT NULL) AS meters`,
      [jobId],
    );
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
