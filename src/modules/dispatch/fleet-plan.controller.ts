import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access, Extension } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { Endpoint } from '../../common/http/openapi';
import { FleetPlanDto, FleetPlanResultDto } from './fleet-plan.dto';
import { FleetPlanService } from './fleet-plan.service';

@ApiTags('Dispatch')
@Controller('api/v1')
export class FleetPlanController {
  constructor(private readonly planner: FleetPlanService) {}

  @Post('dispatch/plan')
  @HttpCode(200)
  @Access('CO')
  @Extension('issue #26 item 1: plan the whole fleet\'s day in one call (docs/dispatch.md, "Planning the whole day")')
  @Endpoint({
    summary: "Plan the whole fleet's day: assign and sequence the day's jobs across the available drivers (extension, issue #26)",
    description:
      "For `date` (today or later): the day's unassigned jobs (of approved, scheduled or delivered orders) and the available drivers — active, not on leave, not checked out (checked in, on a break, or expected: no attendance that day yet) — each with their truck of the day " +
      "(the truck of their first job that day, else the one they checked in with, else a free active truck, those carrying the most specifications first). A job goes only to a driver whose truck's type carries its specification; " +
      'jobs already assigned or in progress stay with their driver (`pinned`) and may be re-sequenced. Each job is a block of legs as in route collapse (the nearest open station accepting its waste, the nearest open lot), ' +
      "each driver's day runs from the truck's home lot and back, and its minutes (driving at the company's average speed, plus the service minutes of each job's kind and the station minutes of each station visit) never exceed the company's shift minutes. " +
      'The plan places as many jobs as possible, then minimises the fleet\'s total km: proven optimal on small days (`exact`: up to 10 jobs and 6 drivers), else a deterministic search whose budget is counted in work, never in time. ' +
      'The answer: per driver the stops in order with their legs, km, minutes and slack; the jobs left unassigned with why; the drivers left out with why; the km before (the current assignment) and after; and `plan_id`. ' +
      '`apply: true` saves the plan in one transaction with the rules of every assignment (a container reserved on the calendar: 409 `NO_CONTAINER_AVAILABLE` saves nothing), with `plan_id` only if the day still gives exactly that plan, else 409 `PLAN_STALE` and nothing is saved.',
    type: FleetPlanResultDto,
    errors: [409, 422],
    codes: { 409: ['PLAN_STALE', 'NO_CONTAINER_AVAILABLE'], 422: ['VALIDATION_FAILED'] },
  })
  plan(@CurrentActor() actor: Actor, @Body() dto: FleetPlanDto) {
    return this.planner.plan(actor, dto);
  }
}
