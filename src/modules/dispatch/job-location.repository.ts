import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { scopedQuery } from '../../common/access/tenant-policy';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { JobLocation } from './dispatch.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * The `job_locations` table (docs/data-layer.md): the points drivers send for their jobs in progress,
 * within the scope's company (the caller locked the job with its scope).
 */
@Injectable()
export class JobLocationRepository extends ModuleRepository {
  /** Serialises the driver's points until the unit commits (a transaction-scoped advisory lock). */
  @GenerateSql({ params: [SQL_SAMPLE.id] })
  async serialiseDriver(driverId: string): Promise<void> {
    await this.locked.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`job_locations:${driverId}`]);
  }

  /** Whether the driver sent a point (in the scope's company) within the last second (one statement). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async sentWithinASecond(scope: Scope, driverId: string): Promise<boolean> {
    const [recent] = await this.sql<{ '?column?': number }>(
      `SELECT 1 FROM job_locations WHERE driver_id = $1 AND company_id = $2 AND created_at > clock_timestamp() - interval '1 second' LIMIT 1`,
      [driverId, scope.companyId],
    );
    return !!recent;
  }

  /** How many points the job (of the scope's company) has. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async countOfJob(scope: Scope, jobId: string): Promise<number> {
    const [{ n }] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM job_locations WHERE job_id = $1 AND company_id = $2`, [jobId, scope.companyId]);
    return n;
  }

  /** A new point of the scope's company (its id filled in). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { jobId: SQL_SAMPLE.id, driverId: SQL_SAMPLE.otherId, lat: 52.5, lng: 13.4, accuracyM: null, heading: null, speedMps: null, recordedAt: SQL_SAMPLE.at }] })
  async insert(scope: Scope, row: Omit<Partial<JobLocation>, 'companyId'>): Promise<JobLocation> {
    const point = this.m.create(JobLocation, { ...row, companyId: scope.companyId });
    await this.m.insert(JobLocation, point);
    return point;
  }

  /** A point of the scope's company by id, as stored (its defaults read back). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async get(scope: Scope, id: string): Promise<JobLocation> {
    const row = await this.m.findOneBy(JobLocation, { id, companyId: scope.companyId });
    if (!row) throw ApiError.notFound('Location point');
    return row;
  }

  /** The newest point `scope` reaches (a driver: their own); null when none. */
  @GenerateSql({ params: [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId)] })
  latest(scope: Scope): Promise<JobLocation | null> {
    return scopedQuery(this.m, JobLocation, scope, 'p').orderBy('p.createdAt', 'DESC').addOrderBy('p.id', 'DESC').getOne();
  }
}
