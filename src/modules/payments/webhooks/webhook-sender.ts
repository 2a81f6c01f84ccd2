import { Injectable, Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { OutboundHttpClient } from '../../../common/http/outbound';
import type { WebhookDeliveryStatus } from './webhook.entities';

/** `sha256=<hex>`: HMAC-SHA256 with the endpoint's secret over `${timestamp}.${body}`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What signs a delivery: the current secret, and the previous one while its grace period lasts. */
export interface SigningKeys {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * `X-Signature`: one `sha256=<hex>` per secret in force, comma-separated, the current secret's first;
 * during a rotation's grace period the previous secret's follows (`sha256=<new>, sha256=<old>`).
 * Receivers accept the delivery when any value matches a secret they hold.
 */
export function signatureHeader(keys: SigningKeys, timestamp: string, body: string, now = new Date()): string {
  const values = [webhookSignature(keys.secret, timestamp, body)];
  if (keys.previousSecret && keys.previousSecretExpiresAt && keys.previousSecretExpiresAt > now) values.push(webhookSignature(keys.previousSecret, timestamp, body));
  return values.join(', ');
}

/** The JSON body of a delivery: `{ id, type, created_at, aggregate_type, aggregate_id, data }`. */
export function webhookBody(event: { id: string; type: string; createdAt: Date; aggregateType: string; aggregateId: string; payload: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), aggregate_type: event.aggregateType, aggregate_id: event.aggregateId, data: event.payload });
}

/** One attempt's outcome, as the delivery log keeps it (`status` before the relay's retry rule: `failed` or `dead` is the caller's call). */
export interface SendResult {
  status: Exclude<WebhookDeliveryStatus, 'dead'>;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Sends one signed delivery through the guarded outbound client (every URL a user supplies goes
 * through it): the host is resolved and checked at every delivery, so a name that turned private since
 * the endpoint was registered is `blocked` (logged, nothing sent). Used by the relay's subscriber, the
 * test ping and the manual retry.
 */
@Injectable()
export class WebhookSender {
  private readonly logger = new Logger('OutboundWebhooks');

  constructor(private readonly client: OutboundHttpClient) {}

  async send(endpoint: SigningKeys & { id: string; url: string }, eventId: string, body: string): Promise<SendResult> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const result = await this.client.post(endpoint.url, {
      headers: { 'content-type': 'application/json', 'user-agent': 'HaulOps-Webhooks/1', 'x-event-id': eventId, 'x-timestamp': timestamp, 'x-signature': signatureHeader(endpoint, timestamp, body) },
      body,
    });
    switch (result.outcome) {
      case 'blocked':
        this.logger.warn({ msg: 'webhook delivery blocked', endpoint_id: endpoint.id, event_id: eventId, reason: result.reason });
        return { status: 'blocked', statusCode: null, durationMs: result.durationMs, error: `blocked: ${result.reason}`.slice(0, 500) };
      case 'failed':
        return { status: 'failed', statusCode: null, durationMs: result.durationMs, error: result.error.slice(0, 500) };
      case 'answered': {
        const ok = result.status >= 200 && result.status <= 299;
        const redirect = result.status >= 300 && result.status <= 399 ? ' (redirects are not followed)' : '';
        return { status: ok ? 'succeeded' : 'failed', statusCode: result.status, durationMs: result.durationMs, error: ok ? null : `HTTP ${result.status}${redirect}` };
      }
    }
  }
}
