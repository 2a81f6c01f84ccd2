import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { JobArrival } from './job-arrival.entity';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** What a recomputation writes of one job's arrival (its company is the scope's). */
export type ArrivalWrite = Pick<JobArrival, 'jobId' | 'driverId' | 'scheduledDate' | 'plannedAt' | 'expectedAt' | 'arrivedAt' | 'toldAt' | 'onTheWayAt'>;

interface ArrivalRaw {
  job_id: string;
  driver_id: string;
  scheduled_date: string;
  planned_at: Date | null;
  expected_at: Date | null;
  arrived_at: Date | null;
  told_at: Date | null;
  on_the_way_at: Date | null;
}

const rowOf = (r: ArrivalRaw): ArrivalWrite => ({
  jobId: r.job_id,
  driverId: r.driver_id,
  scheduledDate: r.scheduled_date,
  plannedAt: r.planned_at && new Date(r.planned_at),
  expectedAt: r.expected_at && new Date(r.expected_at),
  arrivedAt: r.arrived_at && new Date(r.arrived_at),
  toldAt: r.told_at && new Date(r.told_at),
  onTheWayAt: r.on_the_way_at && new Date(r.on_the_way_at),
});

/**
 * The `job_arrivals` table (issue #26): a job's planned and expected arrival and what its customer was
 * told, written by dispatch's recomputation of a driver's day (one statement per read and write).
 */
@Injectable()
export class JobArrivalRepository extends ModuleRepository {
  /** Serialises the recomputations of one driver's day until the unit commits (a transaction-scoped advisory lock). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date] })
  async serialiseDay(scope: Scope, driverId: string, date: string): Promise<void> {
    await this.locked.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`job_arrivals:${scope.companyId}:${driverId}:${date}`]);
  }

  /** The scope's company's arrival rows of a driver's day, and those of `jobIds` whatever day they were computed for. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date, [SQL_SAMPLE.otherId]] })
  async ofDay(scope: Scope, driverId: string | null, date: string | null, jobIds: readonly string[]): Promise<ArrivalWrite[]> {
    const rows = await this.sql<ArrivalRaw>(
      `SELECT job_id, driver_id, scheduled_date::text AS scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at
         FROM job_arrivals WHERE company_id = $1 AND ((driver_id = $2 AND scheduled_date = $3::date) OR job_id = ANY($4::uuid[]))`,
      [scope.companyId, driverId, date, [...jobIds]],
    );
    return rows.map(rowOf);
  }

  /** Writes the rows of the scope's company (one INSERT … ON CONFLICT: new rows, or the job's row recomputed). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, [{ jobId: SQL_SAMPLE.id, driverId: SQL_SAMPLE.otherId, scheduledDate: SQL_SAMPLE.date, plannedAt: SQL_SAMPLE.at, expectedAt: SQL_SAMPLE.at, arrivedAt: null, toldAt: null, onTheWayAt: null }]] })
  async save(scope: Scope, rows: readonly ArrivalWrite[]): Promise<void> {
    if (!rows.length) return;
    const col = <K extends keyof ArrivalWrite>(k: K) => rows.map((r) => r[k]);
    await this.sql(
      `INSERT INTO job_arrivals (job_id, company_id, driver_id, scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at, computed_at)
       SELECT v.job_id, $1, v.driver_id, v.scheduled_date, v.planned_at, v.expected_at, v.arrived_at, v.told_at, v.on_the_way_at, now()
         FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[])
              AS v (job_id, driver_id, scheduled_date, planned_at, expected_at, arrived_at, told_at, on_the_way_at)
       ON CONFLICT (job_id) DO UPDATE SET driver_id = EXCLUDED.driver_id, scheduled_date = EXCLUDED.scheduled_date, planned_at = EXCLUDED.planned_at,
         expected_at = EXCLUDED.expected_at, arrived_at = EXCLUDED.arrived_at, told_at = EXCLUDED.told_at, on_the_way_at = EXCLUDED.on_the_way_at, computed_at = now()
       WHERE job_arrivals.company_id = $1`,
      [scope.companyId, col('jobId'), col('driverId'), col('scheduledDate'), col('plannedAt'), col('expectedAt'), col('arrivedAt'), col('toldAt'), col('onTheWayAt')],
    );
  }

  /** Deletes the scope's company's rows of these jobs (they left the day they were computed for). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [SQL_SAMPLE.id]] })
  async remove(scope: Scope, jobIds: readonly string[]): Promise<void> {
    if (jobIds.length) await this.sql(`DELETE FROM job_arrivals WHERE company_id = $1 AND job_id = ANY($2::uuid[])`, [scope.companyId, [...jobIds]]);
  }
}
