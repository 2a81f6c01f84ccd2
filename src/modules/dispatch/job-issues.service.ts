import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { JobsService } from '../jobs';
import type { IssueType } from './dispatch.entities';
import { DriverJobsService } from './driver-jobs.service';
import { JobIssueDto, JobIssueQuery, ReportIssueDto, ResolveIssueDto } from './job-issues.dto';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobIssueRepository } from './job-issue.repository';

/**
 * Issues on jobs (domain.md §5): a driver reports one on their job (assigned or in progress), blocking
 * or not; a blocking one stops the job's completion (409 `JOB_BLOCKED`) until the company resolves it.
 */
@Injectable()
export class JobIssuesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly issues: JobIssueRepository,
    private readonly jobs: JobsService,
    private readonly driverJobs: DriverJobsService,
  ) {}

  async report(scope: Scope, jobId: string, d: ReportIssueDto): Promise<JobIssueDto> {
    const id = await this.uow.transaction(async () => {
      const job = await this.jobs.lock(scope, jobId);
      await this.driverJobs.assertWorkable(job);
      if (job.status !== 'assigned' && job.status !== 'in_progress') throw ApiError.conflict('JOB_STATE', `Issues are reported on an assigned job or one in progress; this job is ${job.status}.`);
      const issue = await this.issues.insert(Scope.company(job.companyId), { jobId: job.id, driverId: job.driverId!, type: d.type as IssueType, blocking: d.blocking ?? false, description: d.description ?? null, status: 'open' });
      await this.issues.recordEvents({
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
  async list(scope: Scope, q: JobIssueQuery): Promise<Page<JobIssueDto>> {
    const page = await this.issues.page(scope, q);
    return new Page(page.items.map((n) => JobIssueDto.of(n.issue, n.driverName)), page.meta);
  }

  /** Resolves an open issue with a note (an already resolved one is 409 `INVALID_TRANSITION`); completion is unblocked. */
  async resolve(actor: Actor, scope: Scope, id: string, d: ResolveIssueDto): Promise<JobIssueDto> {
    await this.uow.transaction(async () => {
      const issue = await this.issues.lock(scope, id);
      if (issue.status !== 'open') throw ApiError.invalidTransition(issue.status, 'resolved', 'Issue');
      await this.issues.update(scope, issue.id, { status: 'resolved', resolutionNote: d.note, resolvedAt: new Date(), resolvedBy: actor.id });
      const job = await this.jobs.find(Scope.company(issue.companyId), issue.jobId);
      await this.issues.recordEvents({
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
    const found = await this.issues.findNamed(scope, id);
    if (!found) throw ApiError.notFound('Issue');
    return JobIssueDto.of(found.issue, found.driverName);
  }
}
