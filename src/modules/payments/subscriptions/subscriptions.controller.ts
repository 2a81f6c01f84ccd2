import { Body, Controller, Delete, Get, HttpStatus, Param, Post, Res } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { Endpoint } from '../../../common/http/openapi';
import { ApiIdParam, IdParam } from '../../../common/http/id-param';
import { PlanDto, SubscribeDto, SubscriptionDto } from './subscriptions.dto';
import { SubscriptionsService } from './subscriptions.service';

/** The response object a handler may set the status of (`@Res({ passthrough: true })`). */
interface StatusResponse {
  status(code: number): unknown;
}

const STATES =
  'States: `pending` (subscribed, the first month\'s charge still waiting for the provider\'s outcome: not in force, settled within minutes to `active` or dropped) → `active`; `trialing` (a trial: one per company, ever) → `active` (first month charged) or, at the trial\'s end, `cancelled`; `active` → `cancelled` at the end of a cancelled period. ' +
  'At each period end the renewal job charges the next month to the card the company subscribed with: paid, the period is extended; declined, `past_due` (retried daily for a 7-day grace period, ' +
  'the plan\'s limits still apply), then `cancelled`. Without a subscription in force the company has the free plan and its limits. ';
const PLAN_PARAM = { name: 'plan', description: 'A plan code: `free`, `starter` or `pro` (GET /psp/plans); another is 404.', example: 'starter', type: String };

@ApiTags('Subscriptions')
@Controller('api/v1/psp')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get('plans')
  @Access('CO')
  @Endpoint({ summary: 'The plans: price per month, trial days and limits on drivers, assets and monthly orders', type: PlanDto, array: true })
  plans() {
    return this.subscriptions.plans();
  }

  @Post('plans/:plan/trial')
  @Access('CO')
  @ApiParam(PLAN_PARAM)
  @Endpoint({
    summary: "Start a free trial of a plan (its `trial_days`; the plan's limits apply at once)",
    description: STATES + 'One trial per company, ever: another is 409 `TRIAL_USED`; with a subscription in force 409 `SUBSCRIPTION_EXISTS`, with a subscribe pending 409 `SUBSCRIPTION_PENDING`; the free plan has none (409 `PLAN_NOT_PURCHASABLE`).',
    type: SubscriptionDto,
    status: 201,
    errors: [404],
    codes: { 409: ['TRIAL_USED', 'SUBSCRIPTION_EXISTS', 'SUBSCRIPTION_PENDING', 'PLAN_NOT_PURCHASABLE'] },
  })
  trial(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Param('plan') plan: string) {
    return this.subscriptions.startTrial(actor, scope, plan);
  }

  @Get('subscription')
  @Access('CO')
  @Endpoint({ summary: "The company's subscription in force, or the free plan's implied one (`id` null)", description: STATES, type: SubscriptionDto })
  current(@CurrentScope() scope: Scope) {
    return this.subscriptions.current(scope);
  }

  @Post('subscription/:plan/create')
  @Access('CO')
  @ApiParam(PLAN_PARAM)
  @Endpoint({
    summary: "Subscribe to a plan: the first month is charged to the company's card at once (the card is kept for the renewals)",
    description:
      STATES +
      'The company pays as a buyer with a card token (`token`). A declined card is 409 `PAYMENT_FAILED` (`errors.token` = the failure code) and nothing is recorded; an unknown token 422 `INVALID_PAYMENT_TOKEN`. ' +
      'A trial or a `past_due` subscription in force is replaced (how a past_due company pays with another card); an `active` one is 409 `SUBSCRIPTION_EXISTS`; the free plan is 409 `PLAN_NOT_PURCHASABLE`. ' +
      'No transaction or lock is held while the provider is called: a `pending` subscription with its pending first charge is reserved, the provider called, then it is settled. When the provider does not answer (timeout, lost answer) or is still processing, the answer is **202** with the `pending` subscription (its limits do not apply yet); subscribing again meanwhile is 409 `SUBSCRIPTION_PENDING`. ' +
      "The provider's webhook or the reconciler (within minutes) makes it `active` (GET /psp/subscription then answers it) or, when the provider did not charge, drops it (the company keeps its plan and may subscribe again).",
    type: SubscriptionDto,
    status: 201,
    errors: [404],
    codes: { 409: ['PAYMENT_FAILED', 'SUBSCRIPTION_EXISTS', 'SUBSCRIPTION_PENDING', 'PLAN_NOT_PURCHASABLE'], 422: ['VALIDATION_FAILED', 'INVALID_PAYMENT_TOKEN'], 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] },
  })
  @ApiResponse({
    status: HttpStatus.ACCEPTED,
    description: "The payment provider did not answer in time (or is still processing): the subscription is `pending` (the first month may or may not have been charged); subscribing again is 409 `SUBSCRIPTION_PENDING` until the provider's webhook or the reconciler settles it (within minutes).",
    schema: {
      type: 'object',
      required: ['success', 'data'],
      properties: { success: { type: 'boolean', enum: [true], example: true }, data: { $ref: getSchemaPath(SubscriptionDto) } },
      example: { success: true, data: { id: '6f1c2a9e-3b7d-4e8a-9c21-5d4b8e7f0a13', plan: { code: 'starter', name: 'Starter', price: 4900, currency: 'USD', interval: 'month', trial_days: 14, limits: { drivers: 50, assets: 500, monthly_orders: 2000 } }, state: 'pending', trial: false, amount: 4900, currency: 'USD', current_period_start: '2026-11-27T15:20:00.000Z', current_period_end: '2026-12-27T15:20:00.000Z', cancel_at_period_end: false, cancelled_at: null, grace_ends_at: null, last_failure_code: null, created_at: '2026-11-27T15:20:00.000Z' } },
    } as never,
  })
  async subscribe(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Param('plan') plan: string, @Body() dto: SubscribeDto, @Res({ passthrough: true }) res: StatusResponse) {
    const answered = await this.subscriptions.subscribe(actor, scope, plan, dto);
    res.status(answered.status);
    return answered.body;
  }

  @Delete('subscription/:subscriptionId/cancel')
  @Access('CO')
  @ApiIdParam('subscriptionId')
  @Endpoint({
    summary: 'Cancel a subscription at the end of its period (it stays in force until `current_period_end`)',
    description: STATES + 'A `past_due` subscription (its period has ended) is cancelled at once. Asking again answers the same; an already cancelled subscription is 409 `INVALID_TRANSITION`; a `pending` one (its first charge not settled yet) 409 `SUBSCRIPTION_PENDING`.',
    type: SubscriptionDto,
    errors: [404],
    codes: { 409: ['INVALID_TRANSITION', 'SUBSCRIPTION_PENDING'] },
  })
  cancel(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('subscriptionId') id: string) {
    return this.subscriptions.cancel(actor, scope, id);
  }
}
