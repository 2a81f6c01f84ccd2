import { ApiProperty } from '@nestjs/swagger';
import { TextField } from '../../../common/validation/fields';
import { SUBSCRIPTION_STATES, type Plan, type Subscription, type SubscriptionState } from './subscription.entities';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** POST /psp/subscription/{plan}/create: the company's card, as a token from the provider's client-side form. */
export class SubscribeDto {
  @TextField({
    max: 120,
    description: "A token from the provider's client-side form for the company's card (the company pays as a buyer). Sandbox: tok_visa (succeeds), tok_declined (card_declined), tok_insufficient_funds (insufficient_funds), tok_3ds (authentication_required).",
    example: 'tok_visa',
  })
  token: string;
}

export class PlanLimitsDto {
  @ApiProperty({ example: 25, description: 'Drivers the company may have (403 `PLAN_LIMIT` on the next POST /driver/create).' }) drivers: number;
  @ApiProperty({ example: 500, description: 'Live assets the company may have (403 `PLAN_LIMIT` on the next POST /assets).' }) assets: number;
  @ApiProperty({ example: 2000, description: "Orders placed per calendar month, in the company's time zone, whatever becomes of them (403 `PLAN_LIMIT` on the next POST /customer/orders)." }) monthly_orders: number;
}

export class PlanDto {
  @ApiProperty({ example: 'starter', description: 'The plan code, as the `{plan}` path parameter takes it.' }) code: string;
  @ApiProperty({ example: 'Starter' }) name: string;
  @ApiProperty({ example: 4900, description: 'Per month, minor units (4900 = 49.00).' }) price: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: ['month'], example: 'month' }) interval: 'month';
  @ApiProperty({ example: 14, description: 'Days of the free trial (0 = no trial).' }) trial_days: number;
  @ApiProperty({ type: PlanLimitsDto }) limits: PlanLimitsDto;

  static of(p: Plan): PlanDto {
    return {
      code: p.code,
      name: p.name,
      price: p.price,
      currency: p.currency,
      interval: 'month',
      trial_days: p.trialDays,
      limits: { drivers: p.maxDrivers, assets: p.maxAssets, monthly_orders: p.maxMonthlyOrders },
    };
  }
}

export class SubscriptionDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "null: no subscription, the free plan's implied one." }) id: string | null;
  @ApiProperty({ type: PlanDto }) plan: PlanDto;
  @ApiProperty({ enum: SUBSCRIPTION_STATES, example: 'active' }) state: SubscriptionState;
  @ApiProperty({ example: false, description: 'Started as a trial (one per company, ever).' }) trial: boolean;
  @ApiProperty({ example: 4900, description: 'What each period costs, minor units (0 for a trial and the free plan).' }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) current_period_start: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the period (or the trial) ends.' }) current_period_end: string | null;
  @ApiProperty({ example: false, description: 'Cancelled: stays in force until `current_period_end`, then `cancelled`.' }) cancel_at_period_end: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the cancellation was asked (or the subscription ended).' }) cancelled_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: '`past_due`: the renewal is retried daily until then; unpaid by then, the subscription is `cancelled` and the free plan applies.' }) grace_ends_at: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: "`past_due`: why the last renewal charge failed (the provider's code, e.g. `card_declined`)." }) last_failure_code: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) created_at: string | null;

  static of(s: Subscription, plan: Plan): SubscriptionDto {
    return {
      id: s.id,
      plan: PlanDto.of(plan),
      state: s.state,
      trial: s.isTrial,
      amount: s.amount,
      currency: s.currency,
      current_period_start: iso(s.currentPeriodStart),
      current_period_end: iso(s.currentPeriodEnd),
      cancel_at_period_end: s.cancelAtPeriodEnd,
      cancelled_at: iso(s.cancelledAt),
      grace_ends_at: iso(s.graceEndsAt),
      last_failure_code: s.lastFailureCode,
      created_at: iso(s.createdAt),
    };
  }

  /** No subscription: the free plan, in force without end. */
  static free(plan: Plan): SubscriptionDto {
    return { id: null, plan: PlanDto.of(plan), state: 'active', trial: false, amount: 0, currency: plan.currency, current_period_start: null, current_period_end: null, cancel_at_period_end: false, cancelled_at: null, grace_ends_at: null, last_failure_code: null, created_at: null };
  }
}
