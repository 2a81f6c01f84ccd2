import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';

/** The events an outbound endpoint may subscribe to (order status changes, ledger rows, refunds). */
export const WEBHOOK_EVENTS = [
  'order.placed',
  'order.approved',
  'order.rejected',
  'order.scheduled',
  'order.delivered',
  'order.completed',
  'order.cancelled',
  'payment_transaction.recorded',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/**
 * A company's outbound webhook endpoint (issue #13): the relay POSTs the subscribed events to `url`,
 * signed with `secret` (HMAC-SHA256). The secret is kept as it is (it is needed to sign every delivery)
 * and answered only once, by the registration.
 */
@Tenant({ customer: false, driver: false })
@Entity('webhook_endpoints')
@Index('idx_webhook_endpoints_company', ['companyId', 'createdAt'])
export class WebhookEndpoint extends BaseEntity {
  @ForeignKey('companies', { name: 'webhook_endpoints_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) url: string;
  @Column({ type: 'text', array: true }) events: string[];
  @Column({ type: 'text' }) secret: string;
  @Index('idx_webhook_endpoints_created_by')
  @ForeignKey('users', { name: 'webhook_endpoints_created_by_fkey' })
  @Column({ type: 'uuid' })
  createdBy: string;
}

/** One POST of one event to one endpoint (every attempt, failed or not). */
@Tenant({ customer: false, driver: false })
@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_endpoint', ['endpointId', 'eventId'])
@Check('webhook_deliveries_attempt_check', `attempt >= 1`)
export class WebhookDelivery extends BaseEntity {
  @ForeignKey('companies', { name: 'webhook_deliveries_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('webhook_endpoints', { name: 'webhook_deliveries_endpoint_id_fkey' }) @Column({ type: 'uuid' }) endpointId: string;
  @Column({ type: 'uuid' }) eventId: string;
  @Column({ type: 'text' }) eventType: string;
  @Column({ type: 'int' }) attempt: number;
  /** The HTTP status answered; null when no answer came (timeout, refused connection). */
  @Column({ type: 'int', nullable: true }) statusCode: number | null;
  @Column({ type: 'int' }) durationMs: number;
  @Column({ type: 'text', nullable: true }) error: string | null;
}

export const INBOUND_OUTCOMES = ['applied', 'no_match', 'ignored'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/**
 * An event the payment provider sent to POST /psp/webhooks/{provider}, kept once per (provider, event
 * id): a replay finds it and changes nothing. `outcome`: applied, no_match (no pending charge or merchant
 * with that reference) or ignored (a type we do not handle). Not a tenant's record (the provider's).
 */
@Entity('webhook_inbound_events')
@Index('uq_webhook_inbound_events_provider_event', ['provider', 'eventId'], { unique: true })
@Check('webhook_inbound_events_outcome_check', `outcome IN ('applied', 'no_match', 'ignored')`)
export class WebhookInboundEvent extends BaseEntity {
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) eventId: string;
  @Column({ type: 'text' }) type: string;
  @Column({ type: 'jsonb' }) payload: object;
  @Column({ type: 'text' }) outcome: InboundOutcome;
  /** Why the event changed nothing (no_match, ignored); null when applied. */
  @Column({ type: 'text', nullable: true }) reason: string | null;
}
