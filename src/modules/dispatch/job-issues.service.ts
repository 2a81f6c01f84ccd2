import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { JobsService } from '../jobs';
import { userNameSql } from '../users';
import { JobIssue, type IssueType } from './dispatch.entities';
import { DriverJobsService } from './driver-jobs.service';
import { JobIssueDto, JobIssueQuery, ReportIssueDto, ResolveIssueDto } from './job-issues.dto';
import { runUnit } from '../../database/unit-of-work';

/**
 * Issues on jobs (domain.md §5): a driver reports one on their job (assigned or in progress), blocking
 * or not; a blocking one stops the job's completion (409 `JOB_BLOCKED`) until the company resolves it.
 */
@Injectable()
export class JobIssuesService {
  constructor(
    private readonly ds: DataSource,
    private readonly jobs: JobsService,
    private readonly driverJobs: DriverJobsService,
  ) {}

  async report(scope: Scope, jobId: string, d: ReportIssueDto): Promise<JobIssueDto> {
    const id = await runUnit(this.ds, async (m) => {
      const job = await this.jobs.lock(m, scope, jobId);
      await this.driverJobs.assertWorkable(m, job);
      if (job.status !== 'assigned' && job.status !== 'in_progress') throw ApiError.conflict('JOB_STATE', `Issues are reported on an assigned job or one in progress; this job is ${job.status}.`);
      const issue = m.create(JobIssue, { companyId: job.companyId, jobId: job.id, driverId: job.driverId!, type: d.type as IssueType, blocking: d.blocking ?? false, description: d.description ?? null, status: 'open' });
      await m.insert(JobIssue, issue);
      await recordEvents(m, {
        type: 'job.issue_reported',
        aggregateType: 'job',
        aggregateId: job.id,
        companyId: job.companyId,
        actorId: scope.actorId,
        payload: { order_id: job.orderId, issue_id: issue.id, type: issue.type, blocking: issue.blocking },
      });
      return issue.id;
    });
    return this.get(Scope.company(scope.companyId), id);
  }

  /** The company's issues, newest first; filters status, blocking, driver_id, job_id (each served by an index, migrations Dispatch and DispatchDriver). */
  list(scope: Scope, q: JobIssueQuery): Promise<Page<JobIssueDto>> {
    const qb = scopedQuery(this.ds.manager, JobIssue, scope, 'i').addSelect(userNameSql('i.driver_id'), 'driver_name');
    if (q.status) qb.andWhere('i.status = :status', { status: q.status });
    if (q.blocking !== undefined) qb.andWhere('i.blocking = :blocking', { blocking: q.blocking });
    if (q.driver_id) qb.andWhere('i.driverId = :driverId', { driverId: q.driver_id.toLowerCase() });
    if (q.job_id) qb.andWhere('i.jobId = :jobId', { jobId: q.job_id.toLowerCase() });
    return paginate(qb, q, { sortable: { created_at: 'i.createdAt' }, defaultSort: '-created_at', mapRaw: (e, raw) => JobIssueDto.of(e, (raw.driver_name as string | null) ?? '') });
  }

  /** Resolves an open issue with a note (an already resolved one is 409 `INVALID_TRANSITION`); completion is unblocked. */
  async resolve(actor: Actor, scope: Scope, id: string, d: ResolveIssueDto): Promise<JobIssueDto> {
    await runUnit(this.ds, async (m) => {
      const issue = await findScoped(m, JobIssue, scope, id, { what: 'Issue', lock: true });
      if (issue.status !== 'open') throw ApiError.invalidTransition(issue.status, 'resolved', 'Issue');
      await m.update(JobIssue, { id: issue.id }, { status: 'resolved', resolutionNote: d.note, resolvedAt: new Date(), resolvedBy: actor.id });
      const job = await this.jobs.find(Scope.company(issue.companyId), issue.jobId, m);
      await recordEvents(m, {
        type: 'job.issue_resolved',
        aggregateType: 'job',
        aggregateId: issue.jobId,
        companyId: issue.companyId,
        actorId: actor.id,
        payload: { order_id: job.orderId, issue_id: issue.id, blocking: issue.blocking },
      });
    });
    return this.get(scope, id);
  }

  private async get(scope: Scope, id: string): Promise<JobIssueDto> {
    const { entities, raw } = await scopedQuery(this.ds.manager, JobIssue, scope, 'i').addSelect(userNameSql('i.driver_id'), 'driver_name').andWhere('i.id = :id', { id }).getRawAndEntities();
    if (!entities[0]) throw ApiError.notFound('Issue');
    return JobIssueDto.of(entities[0], (raw[0].driver_name as string | null) ?? '');
  }
}
