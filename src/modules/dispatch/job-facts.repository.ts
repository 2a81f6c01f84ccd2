import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';

/** What the company's job detail shows besides the job: its order's names and its evidence and issue counts. */
export interface JobDetailFacts {
  customer: string | null;
  specification: string | null;
  waste_type: string | null;
  evidence: number;
  issues: number;
  blocking: number;
}

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * Reads across dispatch's own rows of a job (evidence, issues, station ticket, locations) in one
 * statement each (docs/data-layer.md), within the scope's company: the company's job detail and the
 * reports' facts of a completed job. And the outbox events of dispatch's changes of jobs.
 */
@Injectable()
export class JobFactsRepository extends ModuleRepository {

  /**
   * The names of the order's customer, specification and waste type (through the owning modules' SQL
   * APIs: users_name, catalogue_…_name) and the job's evidence, issue and open blocking issue counts:
   * one statement.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.actorId, SQL_SAMPLE.otherId, SQL_SAMPLE.otherId] })
  async detail(scope: Scope, jobId: string, customerId: string | null, specificationId: string | null, wasteTypeId: string | null): Promise<JobDetailFacts | undefined> {
    const [row] = await this.sql<JobDetailFacts>(
      `SELECT users_name($2::uuid) AS customer, catalogue_specification_name($3::uuid) AS specification, catalogue_waste_type_name($4::uuid) AS waste_type,
              (SELECT count(*)::int FROM job_evidence WHERE job_id = $1 AND company_id = $5) AS evidence,
              (SELECT count(*)::int FROM job_issues WHERE job_id = $1 AND company_id = $5) AS issues,
              (SELECT count(*)::int FROM job_issues WHERE job_id = $1 AND company_id = $5 AND status = 'open' AND blocking) AS blocking`,
      [jobId, customerId, specificationId, wasteTypeId, scope.companyId],
    );
    return row;
  }

  /**
   * A job's station ticket net weight (null without one) and the distance along its location points
   * (haversine between consecutive points, by `recorded_at`, in metres): one statement.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async track(scope: Scope, jobId: string): Promise<{ net_kg: number | null; meters: number } | undefined> {
    const [row] = await this.sql<{ net_kg: number | null; meters: number }>(
      `SELECT (SELECT t.net_kg FROM station_tickets t WHERE t.job_id = $1 AND t.company_id = $2) AS net_kg,
              (SELECT coalesce(round(sum(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(p.lat - p.plat) / 2), 2)
                        + cos(radians(p.plat)) * cos(radians(p.lat)) * power(sin(radians(p.lng - p.plng) / 2), 2)))))), 0)::int
                 FROM (SELECT l.lat, l.lng, lag(l.lat) OVER w AS plat, lag(l.lng) OVER w AS plng
                         FROM job_locations l WHERE l.job_id = $1 AND l.company_id = $2 WINDOW w AS (ORDER BY l.recorded_at, l.id)) p
                WHERE p.plat IS NOT NULL) AS meters`,
      [jobId, scope.companyId],
    );
    return row;
  }
}
