import { Injectable } from '@nestjs/common';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import type { Page } from '../../../common/http/envelope';
import { countRows, paginate, type PageQuery } from '../../../common/http/pagination';
import { findRelayedEvent } from '../../../common/outbox/outbox-read';
import type { RelayedEvent } from '../../../common/outbox/event-subscriber';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import { WebhookDelivery, WebhookEndpoint, WebhookInboundEvent, type InboundOutcome, type WebhookDeliveryStatus } from './webhook.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** An enabled endpoint the relay sends an event to (the delivery subscriber's read). */
export interface EndpointToSend {
  id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** One attempt for the delivery log (its company is the scope's). */
export interface DeliveryAttempt {
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: WebhookDeliveryStatus;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * The `webhook_endpoints` table: a company's outbound endpoints (registration, changes, the relay's read
 * of the endpoints an event goes to). Reads and writes run in the open unit of work, else on the pool.
 */
@Injectable()
export class WebhookEndpointRepository extends ModuleRepository {
  /** An endpoint `scope` reaches (`lock`: FOR UPDATE, inside a unit); 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  find(scope: Scope, id: string, lock = false): Promise<WebhookEndpoint> {
    return findScoped(lock ? this.locked : this.m, WebhookEndpoint, scope, id, { what: 'Webhook endpoint', lock });
  }

  /** A new endpoint of the scope's company, saved (its generated columns read back). */
  @GenerateSql({ params: [SAMPLE_SCOPE, { url: 'https://hooks.example.test/a', events: ['order.created'], secret: 'whsec_x', createdBy: SQL_SAMPLE.actorId, previousSecret: null, previousSecretExpiresAt: null, disabledAt: null }] })
  insert(scope: Scope, values: Omit<Partial<WebhookEndpoint>, 'companyId'>): Promise<WebhookEndpoint> {
    const repo = this.m.getRepository(WebhookEndpoint);
    return repo.save(repo.create({ ...values, companyId: scope.companyId }));
  }

  /** The endpoints `scope` reaches, a page (newest first by default). */
  page(scope: Scope, q: PageQuery): Promise<Page<WebhookEndpoint>> {
    const qb = scopedQuery(this.m, WebhookEndpoint, scope, 'e');
    return paginate(qb, q, { sortable: { created_at: 'e.createdAt' }, defaultSort: '-created_at', map: (e) => e, count: () => countRows(qb) });
  }

  /** The scope's company's endpoint, changed. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { url: 'https://hooks.example.test/b' }] })
  async update(scope: Scope, id: string, values: Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'disabledAt' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>>): Promise<void> {
    await this.m.update(WebhookEndpoint, { id, companyId: scope.companyId }, values);
  }

  /** Soft delete of the scope's company's endpoint (the delivery log stays). */
  async softDelete(scope: Scope, id: string): Promise<void> {
    await this.m.softDelete(WebhookEndpoint, { id, companyId: scope.companyId });
  }

  /**
   * The company's enabled endpoints that asked for `type` and have not yet had `eventId` delivered
   * (any attempt other than `failed`: succeeded, blocked, dead), in registration order.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'order.created', SQL_SAMPLE.otherId] })
  toSend(scope: Scope, type: string, eventId: string): Promise<EndpointToSend[]> {
    return this.sql<EndpointToSend>(
      `SELECT e.id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at FROM webhook_endpoints e
        WHERE e.company_id = $1 AND $2 = ANY (e.events) AND e.disabled_at IS NULL AND e.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.event_id = $3 AND d.status <> 'failed')
        ORDER BY e.created_at, e.id`,
      [scope.companyId, type, eventId],
    );
  }
}

/** The delivery log (`webhook_deliveries`): one row per attempt, written by the relay's subscriber, the ping and the manual retry. */
@Injectable()
export class WebhookDeliveryRepository extends ModuleRepository {
  /** Logs an attempt of the scope's company (its error cut to 500 characters) and answers the row. */
  @GenerateSql({ params: [SAMPLE_SCOPE, { endpointId: SQL_SAMPLE.id, eventId: SQL_SAMPLE.otherId, eventType: 'webhook.ping', attempt: 1, status: 'succeeded', statusCode: 200, durationMs: 12, error: null }] })
  insert(scope: Scope, row: DeliveryAttempt): Promise<WebhookDelivery> {
    const repo = this.m.getRepository(WebhookDelivery);
    return repo.save(repo.create({ ...row, companyId: scope.companyId, error: row.error?.slice(0, 500) ?? null }));
  }

  /** A delivery of the endpoint that `scope` reaches; 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId] })
  find(scope: Scope, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    return findScoped(this.m, WebhookDelivery, scope, deliveryId, { what: 'Webhook delivery', where: { endpointId } });
  }

  /** The endpoint's attempts, a page (newest first by default; `status` filters). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, {}] }, { name: 'by status', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'dead' }] })
  page(scope: Scope, endpointId: string, q: PageQuery & { status?: WebhookDeliveryStatus }): Promise<Page<WebhookDelivery>> {
    const qb = scopedQuery(this.m, WebhookDelivery, scope, 'd').andWhere('d.endpointId = :endpoint', { endpoint: endpointId });
    if (q.status) qb.andWhere('d.status = :status', { status: q.status });
    return paginate(qb, q, { sortable: { created_at: 'd.createdAt' }, defaultSort: '-created_at', map: (d) => d, count: () => countRows(qb) });
  }

  /** Where the event stands with the scope's company's endpoint: delivered once, the last attempt's status and number. */
  async state(scope: Scope, endpointId: string, eventId: string): Promise<{ delivered: boolean; last_status: string; last_attempt: number }> {
    const [state] = await this.sql<{ delivered: boolean; last_status: string; last_attempt: number }>(
      `SELECT bool_or(status = 'succeeded') AS delivered,
              (array_agg(status ORDER BY attempt DESC, created_at DESC))[1] AS last_status,
              max(attempt)::int AS last_attempt
         FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2 AND company_id = $3`,
      [endpointId, eventId, scope.companyId],
    );
    return state;
  }

  /** The relayed event a delivery sent (common's outbox read), as attempt `attempt`; null when it is no longer kept. */
  @GenerateSql({ params: [SQL_SAMPLE.id, SAMPLE_SCOPE, 2] })
  relayedEvent(eventId: string, scope: Scope, attempt: number): Promise<RelayedEvent | null> {
    return findRelayedEvent(this.m, eventId, scope.companyId, attempt);
  }
}

/** The provider's inbound events (`webhook_inbound_events`), kept once per (provider, event id). */
@Injectable()
export class InboundEventRepository extends ModuleRepository {
  /** Claims the event (outcome `ignored` until applied); null when it was kept already (a replay). */
  @GenerateSql({ params: ['sandbox', 'evt_1', 'charge.succeeded', { id: 'evt_1' }] })
  async claim(provider: string, eventId: string, type: string, payload: object): Promise<string | null> {
    const claimed = await this.sql<{ id: string }>(
      `INSERT INTO webhook_inbound_events (provider, event_id, type, payload, outcome) VALUES ($1, $2, $3, $4, 'ignored')
         ON CONFLICT (provider, event_id) DO NOTHING RETURNING id`,
      [provider, eventId, type, JSON.stringify(payload)],
    );
    return claimed.length ? claimed[0].id : null;
  }

  /** The kept event (a replay's answer); null when there is none. */
  @GenerateSql({ params: ['sandbox', 'evt_1'] })
  find(provider: string, eventId: string): Promise<WebhookInboundEvent | null> {
    return this.m.getRepository(WebhookInboundEvent).findOneBy({ provider, eventId });
  }

  /** Records what applying the event came to. */
  @GenerateSql({ params: [SQL_SAMPLE.id, 'no_match', 'No pending charge has this reference.'] })
  async setOutcome(id: string, outcome: InboundOutcome, reason: string | null): Promise<void> {
    await this.m.update(WebhookInboundEvent, { id }, { outcome, reason });
  }
}
