import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';

export const SUBSCRIPTION_STATES = ['pending', 'trialing', 'active', 'past_due', 'cancelled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
/**
 * The states of a subscription in force (at most one per company). `pending`: subscribed, its first charge
 * asked of the provider with the outcome not known yet (issue #22): not in force (the plan stays as it
 * was), at most one per company, settled by the subscribe itself, the provider's webhook or the reconciler.
 */
export const LIVE_SUBSCRIPTION_STATES = ['trialing', 'active', 'past_due'] as const;
/** `LIVE_SUBSCRIPTION_STATES` as SQL (`state IN …`). */
export const LIVE_STATES_SQL = `('trialing', 'active', 'past_due')`;

/** A plan (global, seeded by migration 1764300004000): price per month and the limits it grants. */
@Entity('plans')
@Check('plans_price_check', `price >= 0`)
@Check('plans_trial_days_check', `trial_days >= 0`)
export class Plan extends BaseEntity {
  @Index('uq_plans_code', { unique: true }) @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  /** Per month, minor units. */
  @Column({ type: 'integer' }) price: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'integer' }) trialDays: number;
  @Column({ type: 'integer' }) maxDrivers: number;
  @Column({ type: 'integer' }) maxAssets: number;
  @Column({ type: 'integer' }) maxMonthlyOrders: number;
  @Column({ type: 'integer' }) position: number;
}

/** A company's subscription to a plan: at most one live (trialing, active, past_due) and one pending per company, one trial ever. */
@Tenant({ customer: false, driver: false })
@Entity('subscriptions')
@Check('subscriptions_state_check', `state IN ('pending', 'trialing', 'active', 'past_due', 'cancelled')`)
@Index('idx_subscriptions_company', ['companyId', 'createdAt'])
@Index('uq_subscriptions_live', ['companyId'], { unique: true, where: `state IN ('trialing', 'active', 'past_due')` })
@Index('uq_subscriptions_pending', ['companyId'], { unique: true, where: `state = 'pending'` })
@Index('uq_subscriptions_trial', ['companyId'], { unique: true, where: 'is_trial' })
@Index('idx_subscriptions_next_action', ['nextActionAt'], { where: `state <> 'cancelled'` })
export class Subscription extends BaseEntity {
  @ForeignKey('companies', { name: 'subscriptions_company_id_fkey' })
  @Column({ type: 'uuid' })
  companyId: string;
  @Index('idx_subscriptions_plan')
  @ForeignKey('plans', { name: 'subscriptions_plan_id_fkey' })
  @Column({ type: 'uuid' })
  planId: string;
  @Column({ type: 'text' }) state: SubscriptionState;
  @Column({ type: 'boolean', default: false }) isTrial: boolean;
  /** What each period costs (minor units; 0 while trialing). */
  @Column({ type: 'integer' }) amount: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'timestamptz' }) currentPeriodStart: Date;
  @Column({ type: 'timestamptz' }) currentPeriodEnd: Date;
  @Column({ type: 'boolean', default: false }) cancelAtPeriodEnd: boolean;
  @Column({ type: 'timestamptz', nullable: true }) cancelledAt: Date | null;
  /** The provider's charge of the first period (null for a trial). */
  @Column({ type: 'text', nullable: true }) chargeReference: string | null;
  @Index('idx_subscriptions_created_by')
  @ForeignKey('users', { name: 'subscriptions_created_by_fkey' })
  @Column({ type: 'uuid' })
  createdBy: string;
  /** The card the company subscribed with, at the provider (null for a trial): renewals charge it. */
  @Column({ type: 'text', nullable: true }) buyerReference: string | null;
  @Column({ type: 'text', nullable: true }) instrumentReference: string | null;
  /** The current period, from 1 (idempotency keys `subscription:<id>:period:<n>`). */
  @Column({ type: 'integer', default: 1 }) periodNumber: number;
  /** Failed renewal attempts of the next period (0 once it is paid). */
  @Column({ type: 'integer', default: 0 }) renewalAttempts: number;
  /** `past_due`: when the grace period ends (the company then falls to the free plan). */
  @Column({ type: 'timestamptz', nullable: true }) graceEndsAt: Date | null;
  @Column({ type: 'text', nullable: true }) lastFailureCode: string | null;
  /** When the renewal job next looks at it: the period end, or the next retry of a past_due renewal. */
  @Column({ type: 'timestamptz' }) nextActionAt: Date;
}

/**
 * One charge of a subscription (first period, renewal, retry), succeeded or failed; `pending` while the
 * first period's charge waits for the provider's outcome (no reference yet; the reconciler asks about it at
 * `next_check_at`, backoff in `check_attempts`, as for `payment_transactions`).
 */
@Tenant({ customer: false, driver: false })
@Entity('subscription_charges')
@Check('subscription_charges_amount_check', `amount > 0`)
@Check('subscription_charges_status_check', `status IN ('pending', 'succeeded', 'failed')`)
@Index('idx_subscription_charges_pending_check', ['nextCheckAt', 'id'], { where: `status = 'pending'` })
@Index('idx_subscription_charges_subscription', ['subscriptionId', 'createdAt'])
@Index('idx_subscription_charges_company', ['companyId', 'createdAt'])
export class SubscriptionCharge extends BaseEntity {
  @ForeignKey('companies', { name: 'subscription_charges_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('subscriptions', { name: 'subscription_charges_subscription_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) subscriptionId: string;
  @Column({ type: 'integer' }) periodNumber: number;
  /** 1 for the first try of a period, then 2, 3… for the daily retries. */
  @Column({ type: 'integer' }) attempt: number;
  @Column({ type: 'integer' }) amount: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'text' }) status: 'pending' | 'succeeded' | 'failed';
  /** The provider's charge (null while pending with its answer lost). */
  @Column({ type: 'text', nullable: true }) providerReference: string | null;
  @Column({ type: 'text', nullable: true }) failureCode: string | null;
  @Index('uq_subscription_charges_key', { unique: true }) @Column({ type: 'text' }) idempotencyKey: string;
  /** `pending`: when the reconciler next asks the provider about it. */
  @Column({ type: 'timestamptz', nullable: true }) nextCheckAt: Date | null;
  @Column({ type: 'integer', default: 0 }) checkAttempts: number;
}
