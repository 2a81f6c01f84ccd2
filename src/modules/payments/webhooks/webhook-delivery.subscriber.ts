import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { webhookEventTypes } from '../../../common/outbox/webhook-events';
import { webhookBody, WebhookSender } from './webhook-sender';
import { WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.repository';
import { Scope } from '../../../common/access/scope';

/**
 * Outbound webhooks (issues #13, #28): POSTs each subscribed event (the events modules offer in their
 * `events.ts`, src/common/outbox/webhook-events.ts, read when the relay starts) to every enabled endpoint of
 * the event's company that asked for its type, through the guarded outbound client (WebhookSender). An
 * `outside` subscriber: the relay calls it with no transaction open and no row locked (an endpoint that
 * answers slowly holds no database connection, on PostgreSQL or the embedded database), so the repositories
 * read and write on the pool, each write committing on its own. Every attempt is logged in
 * `webhook_deliveries` with its status. An endpoint is sent the event again only while all its attempts
 * so far `failed`: one that `succeeded`, was `blocked` (its host is or now resolves to an address that is
 * not allowed: logged, never retried) or is `dead` is skipped. Any `failed` attempt throws, and the relay
 * retries the event with backoff; the attempt of the relay's last try is logged `dead`. At least once: a
 * crash between a send and its log line sends again after the relay's lease (receivers de-duplicate by
 * `X-Event-Id`).
 */
@Injectable()
@EventSubscriber({ name: 'outbound-webhooks', events: webhookEventTypes, outside: true })
export class WebhookDeliverySubscriber implements EventHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly sender: WebhookSender,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveryLog: WebhookDeliveryRepository,
  ) {}

  async handle(event: RelayedEvent): Promise<void> {
    if (!event.companyId) return;
    const company = Scope.company(event.companyId);
    const endpoints = await this.endpoints.toSend(company, event.type, event.id);
    const body = webhookBody(event);
    const last = event.attempt >= this.config.outboxRelayMaxAttempts;
    const failures: string[] = [];
    for (const e of endpoints) {
      const sent = await this.sender.send({ id: e.id, url: e.url, secret: e.secret, previousSecret: e.previous_secret, previousSecretExpiresAt: e.previous_secret_expires_at }, event.id, body);
      const status = sent.status === 'failed' && last ? 'dead' : sent.status;
      await this.deliveryLog.insert(company, { endpointId: e.id, eventId: event.id, eventType: event.type, attempt: event.attempt, ...sent, status });
      if (sent.status === 'failed') failures.push(`${e.id}: ${sent.error}`);
    }
    if (failures.length) throw new Error(`webhook delivery failed: ${failures.join('; ')}`);
  }
}
