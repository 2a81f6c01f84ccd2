import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { JobIssueDto, JobIssueQuery, ResolveIssueDto } from './job-issues.dto';
import { JobIssuesService } from './job-issues.service';

@ApiTags('Job issues')
@Controller('api/v1/order/jobs/issues')
export class JobIssuesController {
  constructor(private readonly issues: JobIssuesService) {}

  @Get()
  @Access('CO')
  @Endpoint({ summary: 'Issues drivers reported on jobs, newest first (filters: status, blocking, driver_id, job_id)', type: JobIssueDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: JobIssueQuery) {
    return this.issues.list(scope, q);
  }

  @Patch(':issue')
  @Access('CO')
  @ApiIdParam('issue', 'A job issue of the company.')
  @Endpoint({
    summary: 'Resolve an issue with a note (unblocks the job\'s completion)',
    description: 'An issue already resolved is 409 `INVALID_TRANSITION`.',
    type: JobIssueDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  resolve(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('issue') id: string, @Body() dto: ResolveIssueDto) {
    return this.issues.resolve(actor, scope, id, dto);
  }
}
