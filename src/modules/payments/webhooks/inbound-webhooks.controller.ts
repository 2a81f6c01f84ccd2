import { Body, Controller, Headers, Param, Post, Req } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiTags } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Endpoint } from '../../../common/http/openapi';
import { InboundEventDto, InboundEventResultDto } from './inbound.dto';
import { InboundWebhooksService } from './inbound-webhooks.service';

@ApiTags('Webhooks')
@Controller('api/v1/psp/webhooks')
export class InboundWebhooksController {
  constructor(private readonly inbound: InboundWebhooksService) {}

  @Post(':provider')
  @Access('PUB')
  @ApiParam({ name: 'provider', enum: ['sandbox'], description: 'The payment provider sending the event (`sandbox`; other names 404).' })
  @ApiHeader({ name: 'X-Timestamp', required: true, description: 'Unix seconds; within 5 minutes of now.' })
  @ApiHeader({ name: 'X-Signature', required: true, description: '`sha256=<hex HMAC-SHA256 of "<X-Timestamp>.<raw body>" with PAYMENT_WEBHOOK_SECRET>`.' })
  @Endpoint({
    summary: "Receive a payment provider's event (extension: signed, de-duplicated by event id, applied in one transaction)",
    description:
      'No token: the signature authenticates the provider (400 `INVALID_SIGNATURE` when missing, wrong, stale or not configured). ' +
      '`charge.succeeded` / `charge.failed` settle the pending ledger charge with `data.reference` (the order\'s paid amount derived again); ' +
      '`merchant.updated` records the merchant\'s onboarding state (`data.status`). Other types are recorded and ignored. ' +
      'A replayed event id answers 200 with `duplicate: true` and changes nothing.',
    type: InboundEventResultDto,
    errors: [404],
    codes: { 400: ['INVALID_SIGNATURE'] },
  })
  receive(
    @Param('provider') provider: string,
    @Req() req: { rawBody?: Buffer },
    @Headers('x-timestamp') timestamp: string | undefined,
    @Headers('x-signature') signature: string | undefined,
    @Body() dto: InboundEventDto,
  ) {
    this.inbound.verify(provider, req.rawBody, timestamp, signature);
    return this.inbound.receive(provider, dto);
  }
}
