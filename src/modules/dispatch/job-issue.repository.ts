import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { paginate } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { JobIssue } from './dispatch.entities';
import type { JobIssueQuery } from './job-issues.dto';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** An issue with its reporter's display name. */
export interface NamedIssue {
  issue: JobIssue;
  driverName: string;
}

/**
 * The reporter's name in the issue's own statement, through the users module's SQL API (`users_name`),
 * so that a page of issues stays one statement.
 */
const DRIVER_NAME = 'users_name(i.driver_id)';
const named = (issue: JobIssue, raw: Record<string, unknown>): NamedIssue => ({ issue, driverName: (raw.driver_name as string | null) ?? '' });

/**
 * The `job_issues` table (docs/data-layer.md): reports, the company's list and resolution, what blocks
 * completion; and the events of issues reported and resolved. Writes and the reads of given jobs are
 * limited to the scope's company (the caller reached the jobs with its scope); the lists apply the tenant policy.
 */
@Injectable()
export class JobIssueRepository extends ModuleRepository {

  /** A new issue of the scope's company (its id filled in). */
  @GenerateSql({ params: [SAMPLE_SCOPE, { jobId: SQL_SAMPLE.id, driverId: SQL_SAMPLE.otherId, type: 'blocked', blocking: true, description: null, status: 'open' }] })
  async insert(scope: Scope, row: Omit<Partial<JobIssue>, 'companyId'>): Promise<JobIssue> {
    const issue = this.m.create(JobIssue, { ...row, companyId: scope.companyId });
    await this.m.insert(JobIssue, issue);
    return issue;
  }

  /** An issue `scope` reaches, locked for the rest of the unit; 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  lock(scope: Scope, id: string): Promise<JobIssue> {
    return findScoped(this.locked, JobIssue, scope, id, { what: 'Issue', lock: true });
  }

  /** Sets columns of an issue of the scope's company. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'resolved', resolutionNote: 'done', resolvedAt: SQL_SAMPLE.at, resolvedBy: SQL_SAMPLE.actorId }] })
  async update(scope: Scope, id: string, values: Partial<JobIssue>): Promise<void> {
    await this.m.update(JobIssue, { id, companyId: scope.companyId }, values);
  }

  /** An issue `scope` reaches with its reporter's name (one statement); null otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  async findNamed(scope: Scope, id: string): Promise<NamedIssue | null> {
    const { entities, raw } = await scopedQuery(this.m, JobIssue, scope, 'i').addSelect(DRIVER_NAME, 'driver_name').andWhere('i.id = :id', { id }).getRawAndEntities();
    return entities[0] ? named(entities[0], raw[0]) : null;
  }

  /** The scope's issues, newest first; filters status, blocking, driver_id, job_id (each served by an index, migrations Dispatch and DispatchDriver). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { status: 'open', blocking: true, driver_id: SQL_SAMPLE.id, job_id: SQL_SAMPLE.otherId }] })
  page(scope: Scope, q: JobIssueQuery): Promise<Page<NamedIssue>> {
    const qb = scopedQuery(this.m, JobIssue, scope, 'i').addSelect(DRIVER_NAME, 'driver_name');
    if (q.status) qb.andWhere('i.status = :status', { status: q.status });
    if (q.blocking !== undefined) qb.andWhere('i.blocking = :blocking', { blocking: q.blocking });
    if (q.driver_id) qb.andWhere('i.driverId = :driverId', { driverId: q.driver_id.toLowerCase() });
    if (q.job_id) qb.andWhere('i.jobId = :jobId', { jobId: q.job_id.toLowerCase() });
    return paginate(qb, q, { sortable: { created_at: 'i.createdAt' }, defaultSort: '-created_at', mapRaw: named });
  }

  /** Issues of jobs of the scope's company (open only with `open`), oldest first, with the reporter's name (one statement). */
  @GenerateSql({ name: 'all', params: [SAMPLE_SCOPE, [SQL_SAMPLE.id, SQL_SAMPLE.otherId], false] }, { name: 'open', params: [SAMPLE_SCOPE, [SQL_SAMPLE.id], true] })
  async ofJobs(scope: Scope, jobIds: readonly string[], open: boolean): Promise<NamedIssue[]> {
    if (!jobIds.length) return [];
    const qb = this.m
      .createQueryBuilder(JobIssue, 'i')
      .addSelect(DRIVER_NAME, 'driver_name')
      .where('i.companyId = :companyId AND i.jobId IN (:...jobIds)', { companyId: scope.companyId, jobIds: [...jobIds] });
    if (open) qb.andWhere(`i.status = 'open'`);
    const { entities, raw } = await qb.orderBy('i.createdAt', 'ASC').addOrderBy('i.id', 'ASC').getRawAndEntities();
    return entities.map((e, i) => named(e, raw[i]));
  }

  /** Open blocking issues on any of these jobs of the scope's company (one statement). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [SQL_SAMPLE.id, SQL_SAMPLE.otherId]] })
  blocked(scope: Scope, jobIds: readonly string[]): Promise<boolean> {
    return this.m.existsBy(JobIssue, { jobId: In([...jobIds]), companyId: scope.companyId, status: 'open', blocking: true });
  }
}
