import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { registryEnum } from '../../../common/http/openapi-registry';
import { PageQuery } from '../../../common/http/pagination';
import { webhookEventTypes } from '../../../common/outbox/webhook-events';
import { EnumQuery, Given, IntField, PartialInput, RegistryList, TextField } from '../../../common/validation/fields';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDelivery, type WebhookDeliveryStatus, type WebhookEndpoint } from './webhook.entities';

/** What a webhook URL may be (OpenAPI descriptions; docs/outbound-webhooks.md says why). */
export const URL_RULES =
  'The URL must be `https://` (plain `http://` only where the server allows it for development: OUTBOUND_ALLOW_HTTP, never in production), ' +
  'without credentials, to a public host: a name that resolves only to public unicast addresses, or such an address. Refused with 422 `URL_NOT_ALLOWED` (`errors.url` says why): ' +
  'loopback (127.0.0.0/8, ::1, `localhost`, `*.localhost`), private (10/8, 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10: cloud metadata), carrier-grade NAT (100.64/10), ' +
  'multicast, broadcast, unspecified (0.0.0.0, ::), IPv4-mapped and -compatible IPv6 (::ffff:a.b.c.d, ::a.b.c.d), unique-local (fc00::/7), documentation and other reserved ranges, ' +
  'metadata and internal names (`metadata.google.internal`, `*.internal`, `*.local`, single-label names), and names that do not resolve. ' +
  'Odd address forms (2130706433, 0x7f000001, 127.1) are read as the address they mean. The host is resolved and checked again at every delivery ' +
  '(a name that now resolves to a refused address makes the attempt `blocked`), the connection goes to the checked address, and redirects are not followed.';

const URL_FIELD = { max: 2000, description: `Where events are POSTed. ${URL_RULES}`, example: 'https://hooks.example.com/waste' };
/**
 * The events each module offers (its `events.ts`: `webhookEvents(…)`, src/common/outbox/webhook-events.ts),
 * read when a request is validated and when the OpenAPI document is built, never when this file is
 * loaded (a module loaded after payments would be missing).
 */
const EVENT_NAMES = registryEnum('webhook-events', webhookEventTypes);
const EVENTS_DOC: ApiPropertyOptions = {
  ...EVENT_NAMES,
  minItems: 1,
  example: ['order.placed', 'payment_transaction.recorded'],
  description: 'The event types sent to this endpoint (refunds are `payment_transaction.recorded` rows of kind `refund`).',
};

export class CreateWebhookDto {
  @TextField(URL_FIELD)
  url: string;

  @ApiProperty(EVENTS_DOC)
  @RegistryList(webhookEventTypes)
  events: string[];
}

/** A change of URL and/or events (at least one). */
export class UpdateWebhookDto extends PartialInput(CreateWebhookDto) {
  @TextField({ ...URL_FIELD, optional: true })
  url?: string;

  @ApiProperty({ ...EVENTS_DOC, required: false })
  @Given()
  @RegistryList(webhookEventTypes)
  events?: string[];
}

export class RotateSecretDto {
  @IntField({ optional: true, min: 0, max: 168, default: 24, example: 24, description: 'Hours the old secret keeps signing beside the new one (0: it stops at once).' })
  grace_hours?: number;
}

export class WebhookDeliveryQuery extends PageQuery {
  @EnumQuery(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;
}

/** An endpoint as listed and read: never its secret. */
export class WebhookEndpointViewDto {
  @ApiProperty({ format: 'uuid', example: '3f1c2e9a-6b1d-4c55-9a57-0d7e2f6b8a11' }) id: string;
  @ApiProperty({ example: 'https://hooks.example.com/waste' }) url: string;
  @ApiProperty({ ...EVENT_NAMES, example: ['order.placed'] }) events: string[];
  @ApiProperty({ description: 'False once disabled: nothing is sent to it until it is enabled again.', example: true }) enabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null }) disabled_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Until then the previous secret (rotated out) signs beside the current one; null when only one secret signs.', example: '2027-03-16T09:30:00.000Z' })
  previous_secret_expires_at: string | null;
  @ApiProperty({ format: 'date-time', example: '2027-03-15T09:30:00.000Z' }) created_at: string;
  @ApiProperty({ format: 'date-time', example: '2027-03-15T09:30:00.000Z' }) updated_at: string;

  static of(e: WebhookEndpoint, now = new Date()): WebhookEndpointViewDto {
    const grace = e.previousSecretExpiresAt && e.previousSecretExpiresAt > now ? e.previousSecretExpiresAt.toISOString() : null;
    return {
      id: e.id,
      url: e.url,
      events: e.events,
      enabled: !e.disabledAt,
      disabled_at: e.disabledAt?.toISOString() ?? null,
      previous_secret_expires_at: grace,
      created_at: e.createdAt.toISOString(),
      updated_at: e.updatedAt.toISOString(),
    };
  }
}

/** An endpoint with its signing secret: answered once, by the registration and by each rotation. */
export class WebhookEndpointDto extends WebhookEndpointViewDto {
  @ApiProperty({
    example: 'whsec_5d0f8c1e2b7a4f9d8e6c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e',
    description: 'The signing secret, answered only here (once). Deliveries carry `X-Signature: sha256=<hex HMAC-SHA256 of "<X-Timestamp>.<body>">`; during a rotation\'s grace period a second value signed with the previous secret follows (`sha256=<new>, sha256=<old>`).',
  })
  secret: string;

  static withSecret(e: WebhookEndpoint): WebhookEndpointDto {
    return { ...WebhookEndpointViewDto.of(e), secret: e.secret };
  }
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', example: '9b2f4c1a-3e5d-4f6a-8b7c-0d1e2f3a4b5c' }) id: string;
  @ApiProperty({ format: 'uuid', example: '3f1c2e9a-6b1d-4c55-9a57-0d7e2f6b8a11' }) endpoint_id: string;
  @ApiProperty({ format: 'uuid', description: 'The event (`X-Event-Id`); a ping has its own id.', example: '5e8d2c1b-7a6f-4e3d-9c2b-1a0f9e8d7c6b' }) event_id: string;
  @ApiProperty({ description: 'The event type, or `webhook.ping` for a test ping.', example: 'order.placed' }) event_type: string;
  @ApiProperty({ description: 'The attempt number for this event and endpoint (the relay\'s try; a manual retry adds one).', example: 1 }) attempt: number;
  @ApiProperty({
    enum: WEBHOOK_DELIVERY_STATUSES,
    description: '`succeeded` (2xx); `failed` (the relay tries again); `dead` (failed and nothing tries again: the relay\'s last try, a manual retry, a ping); `blocked` (the address is not allowed: nothing was sent, never retried by the relay).',
    example: 'succeeded',
  })
  status: WebhookDeliveryStatus;
  @ApiProperty({ type: Number, nullable: true, description: 'The HTTP status answered; null when no answer came (blocked, refused, timeout).', example: 200 }) status_code: number | null;
  @ApiProperty({ example: 84 }) duration_ms: number;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the attempt did not succeed.' }) error: string | null;
  @ApiProperty({ format: 'date-time', example: '2027-03-15T09:30:01.000Z' }) created_at: string;

  static of(d: WebhookDelivery): WebhookDeliveryDto {
    return {
      id: d.id,
      endpoint_id: d.endpointId,
      event_id: d.eventId,
      event_type: d.eventType,
      attempt: d.attempt,
      status: d.status,
      status_code: d.statusCode,
      duration_ms: d.durationMs,
      error: d.error,
      created_at: d.createdAt.toISOString(),
    };
  }
}
