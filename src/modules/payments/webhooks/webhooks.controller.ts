import { Body, Controller, Delete, Get, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { withMessage } from '../../../common/http/envelope';
import { ApiIdParam, IdParam } from '../../../common/http/id-param';
import { Endpoint } from '../../../common/http/openapi';
import { PageQuery } from '../../../common/http/pagination';
import { ThrottleGuard } from '../../../common/throttle/throttle.guard';
import { CreateWebhookDto, RotateSecretDto, UpdateWebhookDto, URL_RULES, WebhookDeliveryDto, WebhookDeliveryQuery, WebhookEndpointDto, WebhookEndpointViewDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

const DELIVERY =
  'The event relay POSTs each subscribed event as JSON (`id`, `type`, `created_at`, `aggregate_type`, `aggregate_id`, `data`) with headers `X-Event-Id`, `X-Timestamp` (Unix seconds) and ' +
  '`X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the secret>` (during a secret rotation\'s grace period a second value follows, signed with the previous secret: ' +
  '`sha256=<new>, sha256=<old>`; accept the delivery when any value matches). A non-2xx answer (a 3xx too: redirects are not followed) or no answer within 5 s is retried with backoff; ' +
  'an attempt whose address is not allowed is `blocked` and not retried. ';
const ENDPOINT_PARAM = 'One of the company\'s webhook endpoints; another company\'s, or a deleted one, is 404.';
const EXT = 'extension, issue #28';
/** Pings and manual retries per client address per minute: each makes the server send a request now. */
export const SENDS_PER_MINUTE = 30;

@ApiTags('Webhooks')
@Controller('api/v1/psp')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('create/webhook')
  @Access('TOK')
  @Endpoint({
    summary: "Register an outbound webhook endpoint for the caller's company; answers its signing secret (once)",
    description: 'Company users only (customers, drivers and administrators: 403 `WRONG_ACTOR`). ' + URL_RULES + ' ' + DELIVERY + 'The secret is never answered again (rotate it to get a new one).',
    type: WebhookEndpointDto,
    status: 201,
    codes: { 403: ['WRONG_ACTOR', 'NO_COMPANY'], 422: ['VALIDATION_FAILED', 'URL_NOT_ALLOWED'] },
  })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(actor, dto);
  }

  @Get('webhook-endpoints')
  @Access('CO')
  @Endpoint({ summary: `The company's webhook endpoints, newest first (${EXT}; secrets are never listed)`, description: DELIVERY, type: WebhookEndpointViewDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: PageQuery) {
    return this.webhooks.list(scope, q);
  }

  @Get('webhook-endpoints/:webhookEndpoint')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({ summary: `A webhook endpoint (${EXT}; without its secret)`, type: WebhookEndpointViewDto, errors: [404] })
  get(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string) {
    return this.webhooks.get(scope, id);
  }

  @Patch('webhook-endpoints/:webhookEndpoint')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({
    summary: `Change a webhook endpoint's URL and/or events (${EXT})`,
    description: 'At least one of `url`, `events`. A new URL is checked like at registration: ' + URL_RULES,
    type: WebhookEndpointViewDto,
    errors: [404],
    codes: { 422: ['VALIDATION_FAILED', 'URL_NOT_ALLOWED'] },
  })
  update(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string, @Body() dto: UpdateWebhookDto) {
    return this.webhooks.update(scope, id, dto);
  }

  @Post('webhook-endpoints/:webhookEndpoint/disable')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({ summary: `Disable a webhook endpoint: nothing is sent to it until it is enabled (${EXT})`, description: 'Events that happen while it is disabled are not sent later. Disabling a disabled endpoint changes nothing.', type: WebhookEndpointViewDto, errors: [404] })
  disable(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string) {
    return this.webhooks.setEnabled(scope, id, false);
  }

  @Post('webhook-endpoints/:webhookEndpoint/enable')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({ summary: `Enable a disabled webhook endpoint again (${EXT})`, description: 'Enabling an enabled endpoint changes nothing.', type: WebhookEndpointViewDto, errors: [404] })
  enable(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string) {
    return this.webhooks.setEnabled(scope, id, true);
  }

  @Delete('webhook-endpoints/:webhookEndpoint')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({ summary: `Delete a webhook endpoint (${EXT})`, description: 'Nothing is sent to it again and it is 404 from now on; its delivery log is kept.', message: 'Webhook endpoint deleted.', errors: [404] })
  async remove(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string) {
    await this.webhooks.remove(scope, id);
    return withMessage(null, 'Webhook endpoint deleted.');
  }

  @Post('webhook-endpoints/:webhookEndpoint/rotate-secret')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({
    summary: `Rotate a webhook endpoint's signing secret: the new one is answered once (${EXT})`,
    description:
      'The old secret keeps signing beside the new one for `grace_hours` (default 24, 0 to stop it at once): deliveries then carry `X-Signature: sha256=<new>, sha256=<old>` ' +
      'until `previous_secret_expires_at`, so receivers can switch secrets without losing a delivery. Rotating again during a grace period drops the older secret at once.',
    type: WebhookEndpointDto,
    errors: [404, 422],
  })
  rotate(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string, @Body() dto: RotateSecretDto) {
    return this.webhooks.rotateSecret(scope, id, dto);
  }

  @Post('webhook-endpoints/:webhookEndpoint/ping')
  @Access('CO')
  @UseGuards(ThrottleGuard)
  @Throttle({ default: { limit: SENDS_PER_MINUTE, ttl: 60_000 } })
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({
    summary: `Send a signed test ping to a webhook endpoint now and answer the attempt (${EXT})`,
    description:
      'The body is `{ id, type: "webhook.ping", created_at, aggregate_type: "webhook_endpoint", aggregate_id, data: {} }`, signed like any delivery and sent through the same guarded client ' +
      '(the URL is resolved and checked again: `blocked` when it is not allowed). Answers 201 with the attempt whatever it came to: `succeeded` (2xx), `dead` (any other answer or none: a ping is not retried) or `blocked`. ' +
      `${SENDS_PER_MINUTE} pings and retries a minute per client address (429).`,
    type: WebhookDeliveryDto,
    status: 201,
    errors: [404, 429],
  })
  ping(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string) {
    return this.webhooks.ping(scope, id);
  }

  @Get('webhook-endpoints/:webhookEndpoint/deliveries')
  @Access('CO')
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @Endpoint({ summary: `A webhook endpoint's delivery attempts, newest first: status, answer code, duration, time (${EXT})`, description: '`status` filters.', type: WebhookDeliveryDto, list: true, errors: [404, 422] })
  deliveries(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string, @Query() q: WebhookDeliveryQuery) {
    return this.webhooks.deliveries(scope, id, q);
  }

  @Post('webhook-endpoints/:webhookEndpoint/deliveries/:webhookDelivery/retry')
  @Access('CO')
  @UseGuards(ThrottleGuard)
  @Throttle({ default: { limit: SENDS_PER_MINUTE, ttl: 60_000 } })
  @ApiIdParam('webhookEndpoint', ENDPOINT_PARAM)
  @ApiIdParam('webhookDelivery', 'One of this endpoint\'s delivery attempts (any attempt of the event).')
  @Endpoint({
    summary: `Send a dead or blocked delivery's event to its endpoint again, now, and answer the new attempt (${EXT})`,
    description:
      'The event as it was recorded, signed with the current secret(s), through the guarded client (checked again). Only when the event has not reached the endpoint and nothing retries it any more ' +
      '(its last attempt `dead` or `blocked`): otherwise 409 `NOT_RETRYABLE` (delivered already, the relay still retries it, a ping). A disabled endpoint is 409 `ENDPOINT_DISABLED`. ' +
      'Answers 201 with the attempt: `succeeded`, `dead` (failed again: retry it again) or `blocked`. Receivers see an event at least once: de-duplicate by `X-Event-Id`. ' +
      `${SENDS_PER_MINUTE} pings and retries a minute per client address (429).`,
    type: WebhookDeliveryDto,
    status: 201,
    errors: [404, 429],
    codes: { 409: ['NOT_RETRYABLE', 'ENDPOINT_DISABLED'] },
  })
  retry(@CurrentScope() scope: Scope, @IdParam('webhookEndpoint') id: string, @IdParam('webhookDelivery') deliveryId: string) {
    return this.webhooks.retry(scope, id, deliveryId);
  }
}
