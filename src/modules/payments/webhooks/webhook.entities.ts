import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index } from 'typeorm';
import { BaseEntity } from '../../../database/base.entity';
import { Tenant } from '../../../common/access/tenant-policy';

/**
 * A company's outbound webhook endpoint (issues #13, #28): the relay POSTs the subscribed events to `url`,
 * signed with `secret` (HMAC-SHA256). The secret is kept as it is (it is needed to sign every delivery)
 * and answered only once, by the registration or a rotation; after a rotation `previousSecret` signs
 * beside it until `previousSecretExpiresAt`. A disabled endpoint is sent nothing; a deleted one is gone
 * for its company (its delivery log stays).
 */
@Tenant({ customer: false, driver: false })
@Entity('webhook_endpoints')
@Index('idx_webhook_endpoints_company', ['companyId', 'createdAt'])
@Check('webhook_endpoints_previous_secret_check', `(previous_secret IS NULL) = (previous_secret_expires_at IS NULL)`)
export class WebhookEndpoint extends BaseEntity {
  @ForeignKey('companies', { name: 'webhook_endpoints_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) url: string;
  @Column({ type: 'text', array: true }) events: string[];
  @Column({ type: 'text' }) secret: string;
  @Index('idx_webhook_endpoints_created_by')
  @ForeignKey('users', { name: 'webhook_endpoints_created_by_fkey' })
  @Column({ type: 'uuid' })
  createdBy: string;
  @Column({ type: 'text', nullable: true }) previousSecret: string | null;
  @Column({ type: 'timestamptz', nullable: true }) previousSecretExpiresAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) disabledAt: Date | null;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/**
 * What an attempt came to: `succeeded` (2xx); `failed` (the relay tries again); `dead` (failed, and
 * nothing tries again: the relay's last try, a manual retry or a ping); `blocked` (the URL's host is, or
 * now resolves to, an address that is not allowed: nothing was sent, never retried by the relay).
 */
export const WEBHOOK_DELIVERY_STATUSES = ['succeeded', 'failed', 'dead', 'blocked'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
/** The event type of a test ping (POST …/ping): not a domain event, never retried. */
export const PING_EVENT = 'webhook.ping';

/** One POST of one event to one endpoint (every attempt, failed or not). */
@Tenant({ customer: false, driver: false })
@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_endpoint', ['endpointId', 'eventId'])
@Index('idx_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt', 'id'])
@Check('webhook_deliveries_attempt_check', `attempt >= 1`)
@Check('webhook_deliveries_status_check', `status IN ('succeeded', 'failed', 'dead', 'blocked')`)
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
  @Column({ type: 'text' }) status: WebhookDeliveryStatus;
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
