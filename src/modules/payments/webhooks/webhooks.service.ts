import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { Page } from '../../../common/http/envelope';
import { OutboundHttpClient } from '../../../common/http/outbound';
import type { PageQuery } from '../../../common/http/pagination';
import type { EventType } from '../../../common/outbox/event-catalogue';
import type { DomainEvent, EventAbout } from '../../../common/outbox/outbox';
import { PING_EVENT, type WebhookEndpoint } from './webhook.entities';
import { CreateWebhookDto, RotateSecretDto, UpdateWebhookDto, WebhookDeliveryDto, WebhookDeliveryQuery, WebhookEndpointDto, WebhookEndpointViewDto } from './webhooks.dto';
import { webhookBody, WebhookSender } from './webhook-sender';
import { WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.repository';
import { UnitOfWork } from '../../../database/unit-of-work';

/** Hours the previous secret keeps signing after a rotation unless the request says otherwise. */
export const DEFAULT_GRACE_HOURS = 24;

type EndpointEventType = Extract<EventType, `webhook_endpoint.${string}`>;
/** One of the endpoint's events, type and payload checked together. */
type EndpointEvent = { [K in EndpointEventType]: Omit<DomainEvent<K>, keyof EventAbout> }[EndpointEventType];

const newSecret = () => `whsec_${randomBytes(32).toString('hex')}`;
const urlNotAllowed = (reason: string) => ApiError.unprocessable('URL_NOT_ALLOWED', `This URL is not allowed: ${reason}.`, { url: [`url ${reason}`] });
const notRetryable = (why: string) => ApiError.conflict('NOT_RETRYABLE', why);

/**
 * A company's outbound webhook endpoints (issues #13, #28): registration, list, read, change, disable
 * and enable, delete, secret rotation, a test ping, the delivery log and the manual retry of a dead or
 * blocked delivery. Every URL is checked by the guarded outbound client before it is stored (422
 * `URL_NOT_ALLOWED`), outside any transaction (the check resolves the host); sending happens outside any
 * transaction too, and its attempt is logged after.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryLog: WebhookDeliveryRepository,
    private readonly client: OutboundHttpClient,
    private readonly sender: WebhookSender,
  ) {}

  /** 422 `URL_NOT_ALLOWED` (why) unless the URL may be called now: scheme, credentials, host, every address it resolves to. */
  private async checkUrl(url: string): Promise<void> {
    const checked = await this.client.check(url);
    if (!checked.ok) throw urlNotAllowed(checked.reason);
  }

  /** A `webhook_endpoint.*` event about `e`, in the caller's unit. */
  private event(e: WebhookEndpoint, actorId: string | null, event: EndpointEvent): Promise<void> {
    return this.endpoints.recordEvents({ ...event, aggregateType: 'webhook_endpoint', aggregateId: e.id, companyId: e.companyId, actorId } as DomainEvent<EndpointEventType>);
  }

  /** Registers an endpoint for the caller's company (company users only) and answers its secret, once. */
  async create(actor: Actor, dto: CreateWebhookDto): Promise<WebhookEndpointDto> {
    if (actor.kind !== 'user' || actor.type !== 'company') throw ApiError.forbidden('WRONG_ACTOR', 'Webhook endpoints are registered by company users.');
    const scope = Scope.of(actor);
    await this.checkUrl(dto.url);
    return this.uow.transaction(async () => {
      const row = await this.endpoints.insert(scope, { url: dto.url, events: [...new Set(dto.events)], secret: newSecret(), createdBy: actor.id, previousSecret: null, previousSecretExpiresAt: null, disabledAt: null });
      await this.event(row, actor.id, { type: 'webhook_endpoint.created', payload: { events: row.events } });
      return WebhookEndpointDto.withSecret(row);
    });
  }

  async list(scope: Scope, q: PageQuery): Promise<Page<WebhookEndpointViewDto>> {
    const page = await this.endpoints.page(scope, q);
    return new Page(page.items.map((e) => WebhookEndpointViewDto.of(e)), page.meta);
  }

  async get(scope: Scope, id: string): Promise<WebhookEndpointViewDto> {
    return WebhookEndpointViewDto.of(await this.endpoints.find(scope, id));
  }

  /** Changes the URL (checked again) and/or the events; at least one of them. */
  async update(scope: Scope, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpointViewDto> {
    await this.endpoints.find(scope, id); // 404 before anything else (and before the URL is looked up)
    if (dto.url === undefined && dto.events === undefined) throw ApiError.validation({ url: ['give url or events (or both)'], events: ['give url or events (or both)'] });
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    return this.uow.transaction(async () => {
      const e = await this.endpoints.find(scope, id, true);
      const fields: string[] = [];
      if (dto.url !== undefined && dto.url !== e.url) (e.url = dto.url), fields.push('url');
      const events = dto.events && [...new Set(dto.events)];
      if (events && events.join() !== e.events.join()) (e.events = events), fields.push('events');
      if (fields.length) {
        await this.endpoints.update(scope, e.id, { url: e.url, events: e.events });
        await this.event(e, scope.actorId, { type: 'webhook_endpoint.updated', payload: { fields } });
      }
      return WebhookEndpointViewDto.of(await this.endpoints.find(scope, id));
    });
  }

  /** Disables (nothing is sent to it, the relay skips it) or enables it again; asking for the state it is in changes nothing. */
  async setEnabled(scope: Scope, id: string, enabled: boolean): Promise<WebhookEndpointViewDto> {
    return this.uow.transaction(async () => {
      const e = await this.endpoints.find(scope, id, true);
      if (enabled === !e.disabledAt) return WebhookEndpointViewDto.of(e);
      await this.endpoints.update(scope, e.id, { disabledAt: enabled ? null : new Date() });
      await this.event(e, scope.actorId, { type: enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled' });
      return WebhookEndpointViewDto.of(await this.endpoints.find(scope, id));
    });
  }

  /** Soft-deletes it: gone for the company (404 from now on), never sent anything again; its delivery log stays. */
  async remove(scope: Scope, id: string): Promise<void> {
    await this.uow.transaction(async () => {
      const e = await this.endpoints.find(scope, id, true);
      await this.endpoints.softDelete(scope, e.id);
      await this.event(e, scope.actorId, { type: 'webhook_endpoint.deleted' });
    });
  }

  /**
   * A new signing secret, answered once. The current one becomes the previous one and keeps signing
   * beside it for `grace_hours` (default 24; 0: it stops at once); a secret rotated out earlier stops.
   */
  async rotateSecret(scope: Scope, id: string, dto: RotateSecretDto): Promise<WebhookEndpointDto> {
    const hours = dto.grace_hours ?? DEFAULT_GRACE_HOURS;
    return this.uow.transaction(async () => {
      const e = await this.endpoints.find(scope, id, true);
      const expires = hours > 0 ? new Date(Date.now() + hours * 3_600_000) : null;
      await this.endpoints.update(scope, e.id, { secret: newSecret(), previousSecret: expires ? e.secret : null, previousSecretExpiresAt: expires });
      await this.event(e, scope.actorId, { type: 'webhook_endpoint.secret_rotated', payload: { previous_secret_expires_at: expires?.toISOString() ?? null } });
      return WebhookEndpointDto.withSecret(await this.endpoints.find(scope, id));
    });
  }

  /** Sends a signed `webhook.ping` now (disabled endpoints too) and answers its logged attempt; a failure is `dead` (nothing retries a ping). */
  async ping(scope: Scope, id: string): Promise<WebhookDeliveryDto> {
    const e = await this.endpoints.find(scope, id);
    const eventId = randomUUID();
    const body = webhookBody({ id: eventId, type: PING_EVENT, createdAt: new Date(), aggregateType: 'webhook_endpoint', aggregateId: e.id, payload: {} });
    const sent = await this.sender.send(e, eventId, body);
    const row = await this.deliveryLog.insert(scope, { endpointId: e.id, eventId, eventType: PING_EVENT, attempt: 1, ...sent, status: sent.status === 'failed' ? 'dead' : sent.status });
    return WebhookDeliveryDto.of(row);
  }

  /** The endpoint's delivery attempts, newest first (`status` filters), a page in SQL. */
  async deliveries(scope: Scope, id: string, q: WebhookDeliveryQuery): Promise<Page<WebhookDeliveryDto>> {
    const e = await this.endpoints.find(scope, id);
    const page = await this.deliveryLog.page(scope, e.id, q);
    return new Page(page.items.map((d) => WebhookDeliveryDto.of(d)), page.meta);
  }

  /**
   * Sends a delivery's event to its endpoint again, now, and answers the new attempt. Only a dead or
   * blocked one: 409 `NOT_RETRYABLE` when the event reached the endpoint already, when the relay still
   * retries it (its last attempt `failed`), for a ping, or when the event is gone; 409
   * `ENDPOINT_DISABLED` for a disabled endpoint. A retry that fails is `dead` (retry it again).
   */
  async retry(scope: Scope, id: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const e = await this.endpoints.find(scope, id);
    const d = await this.deliveryLog.find(scope, e.id, deliveryId);
    if (e.disabledAt) throw ApiError.conflict('ENDPOINT_DISABLED', 'This endpoint is disabled: enable it first.');
    if (d.eventType === PING_EVENT) throw notRetryable('A ping is not retried: send another.');
    const state = await this.deliveryLog.state(scope, e.id, d.eventId);
    if (state.delivered) throw notRetryable('This event already reached the endpoint (a 2xx answer).');
    if (state.last_status === 'failed') throw notRetryable('The relay still retries this event: it can be retried by hand once it is dead.');
    const event = await this.deliveryLog.relayedEvent(d.eventId, Scope.company(e.companyId), state.last_attempt + 1);
    if (!event) throw notRetryable('This event is no longer kept.');
    const sent = await this.sender.send(e, event.id, webhookBody(event));
    const row = await this.deliveryLog.insert(scope, { endpointId: e.id, eventId: event.id, eventType: event.type, attempt: event.attempt, ...sent, status: sent.status === 'failed' ? 'dead' : sent.status });
    return WebhookDeliveryDto.of(row);
  }
}
