import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';

export const SUBSCRIPTION_STATES = ['trialing', 'active', 'past_due', 'cancelled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

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

/** A company's subscription to a plan: at most one live (not cancelled) per company, one trial ever. */
@Tenant({ customer: false, driver: false })
@Entity('subscriptions')
@Check('subscriptions_state_check', `state IN ('trialing', 'active', 'past_due', 'cancelled')`)
@Index('idx_subscriptions_company', ['companyId', 'createdAt'])
@Index('uq_subscriptions_live', ['companyId'], { unique: true, where: `state <> 'cancelled'` })
@Index('uq_subscriptions_trial', ['companyId'], { unique: true, where: 'is_trial' })
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
}
