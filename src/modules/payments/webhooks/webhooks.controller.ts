import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { Endpoint } from '../../../common/http/openapi';
import { CreateWebhookDto, WebhookEndpointDto } from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('Webhooks')
@Controller('api/v1/psp')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('create/webhook')
  @Access('TOK')
  @Endpoint({
    summary: "Register an outbound webhook endpoint for the caller's company; answers its signing secret (once)",
    description:
      'Company users only (customers, drivers and administrators: 403 `WRONG_ACTOR`). The event relay POSTs each subscribed event as JSON ' +
      '(`id`, `type`, `created_at`, `aggregate_type`, `aggregate_id`, `data`) with headers `X-Event-Id`, `X-Timestamp` (Unix seconds) and ' +
      '`X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the secret>`; a non-2xx answer or no answer within 5 s is retried with backoff. ' +
      'The secret is never answered again.',
    type: WebhookEndpointDto,
    status: 201,
    codes: { 403: ['WRONG_ACTOR', 'NO_COMPANY'] },
  })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(actor, dto);
  }
}
