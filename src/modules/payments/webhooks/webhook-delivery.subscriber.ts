import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../../common/outbox/event-subscriber';
import { WEBHOOK_EVENTS, WebhookEventName } from './webhook.entities';

/** How long one POST may take before it counts as failed (and is retried by the relay). */
export const WEBHOOK_TIMEOUT_MS = 5000;

/** `sha256=<hex>`: HMAC-SHA256 with the endpoint's secret over `${timestamp}.${body}`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

interface EndpointRow {
  id: string;
  url: string;
  secret: string;
}

/**
 * Outbound webhooks (issue #13): POSTs each subscribed event to every endpoint of the event's company
 * that asked for its type. Every attempt is logged in `webhook_deliveries`; an endpoint that already
 * answered 2xx for this event is skipped, so a retry re-sends only to the endpoints that failed. Any
 * failure (non-2xx, timeout, refused) throws, and the relay retries the event with backoff, then
 * dead-letters it. With PostgreSQL the log is written on its own connection, so failed attempts stay
 * logged when the relay rolls the handler back; with the embedded database (one connection) it is
 * written through the handler's manager, so only the attempts that succeeded are kept there (the
 * relay's `outbox_deliveries.last_error` keeps the last failure).
 */
@Injectable()
@EventSubscriber({ name: 'outbound-webhooks', events: WEBHOOK_EVENTS })
export class WebhookDeliverySubscriber implements EventHandler<WebhookEventName> {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  async handle(event: RelayedEvent<WebhookEventName>, m: EntityManager): Promise<void> {
    if (!event.companyId) return;
    const log = this.config.databaseUrl ? this.ds.manager : m;
    const endpoints = await m.query<EndpointRow[]>(
      `SELECT e.id, e.url, e.secret FROM webhook_endpoints e
        WHERE e.company_id = $1 AND $2 = ANY (e.events)
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.event_id = $3 AND d.status_code BETWEEN 200 AND 299)
        ORDER BY e.created_at, e.id`,
      [event.companyId, event.type, event.id],
    );
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      created_at: event.createdAt.toISOString(),
      aggregate_type: event.aggregateType,
      aggregate_id: event.aggregateId,
      data: event.payload,
    });
    const failures: string[] = [];
    for (const e of endpoints) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const started = Date.now();
      let statusCode: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetch(e.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Event-Id': event.id, 'X-Timestamp': timestamp, 'X-Signature': webhookSignature(e.secret, timestamp, body) },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        statusCode = res.status;
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
      } catch (err) {
        error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      await log.query(
        `INSERT INTO webhook_deliveries (company_id, endpoint_id, event_id, event_type, attempt, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [event.companyId, e.id, event.id, event.type, event.attempt, statusCode, Date.now() - started, error?.slice(0, 500) ?? null],
      );
      if (error) failures.push(`${e.id}: ${error}`);
    }
    if (failures.length) throw new Error(`webhook delivery failed: ${failures.join('; ')}`);
  }
}
