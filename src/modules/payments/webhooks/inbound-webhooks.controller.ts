import { Body, Controller, Headers, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { ApiError } from '../../../common/http/api-error';
import { Endpoint } from '../../../common/http/openapi';
import { validationPipe } from '../../../common/http/validation';
import { InboundEventDto, InboundEventResultDto } from './inbound.dto';
import { InboundWebhooksService } from './inbound-webhooks.service';

@ApiTags('Webhooks')
@Controller('api/v1/psp/webhooks')
export class InboundWebhooksController {
  constructor(private readonly inbound: InboundWebhooksService) {}

  @Post(':provider')
  @Access('PUB')
  @ApiParam({ name: 'provider', enum: ['sandbox', 'stripe'], description: 'The payment provider sending the event (`sandbox`, `stripe`; other names 404).' })
  @ApiHeader({ name: 'X-Timestamp', required: false, description: '`sandbox`: Unix seconds; within 5 minutes of now.' })
  @ApiHeader({ name: 'X-Signature', required: false, description: '`sandbox`: `sha256=<hex HMAC-SHA256 of "<X-Timestamp>.<raw body>" with PAYMENT_WEBHOOK_SECRET>`.' })
  @ApiHeader({ name: 'Stripe-Signature', required: false, description: "`stripe`: Stripe's signature header (`t=…,v1=…`) over the raw body with STRIPE_WEBHOOK_SECRET, checked by the SDK (5 minutes tolerance)." })
  @ApiExtraModels(InboundEventDto)
  @ApiBody({
    description: '`sandbox`: `{ id, type, data }` (validated: 422 on unknown or missing fields). `stripe`: a Stripe Event object as Stripe sends it.',
    examples: {
      sandbox: { summary: 'sandbox: a charge settled', value: { id: 'evt_3f1c2e9a6b1d', type: 'charge.succeeded', data: { reference: 'ch_sandbox_1', failure_code: null } } },
      stripe: { summary: 'stripe: a payment intent succeeded', value: { id: 'evt_1QdT8uAbc', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_3QdT8uAbc', object: 'payment_intent', status: 'succeeded' } } } },
    },
    schema: { anyOf: [{ $ref: getSchemaPath(InboundEventDto) }, { type: 'object', title: 'StripeEvent', description: 'A Stripe Event (`id`, `object: event`, `type`, `data.object`, …).', additionalProperties: true, example: { id: 'evt_1QdT8uAbc', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_3QdT8uAbc', object: 'payment_intent', status: 'succeeded' } } } }] },
  })
  @Endpoint({
    summary: "Receive a payment provider's event (extension: signed, de-duplicated by event id, applied in one transaction)",
    description:
      'No token: the signature authenticates the provider (400 `INVALID_SIGNATURE` when missing, wrong, stale or not configured). ' +
      '`charge.succeeded` / `charge.failed` (Stripe: `payment_intent.succeeded` / `payment_intent.payment_failed`) settle the pending ledger charge with `data.reference` (the order\'s paid amount derived again); ' +
      '`charge.refunded` (Stripe: the same) records what the provider refunded beyond what the ledger holds; ' +
      '`refund.failed` (Stripe: the same) fails the refund with `data.reference` and credits its amount to the customer\'s wallet instead; ' +
      '`merchant.updated` (Stripe: `account.updated`) records the merchant\'s onboarding state (`data.status`). Other types are recorded and ignored; `reason` says why an event changed nothing. ' +
      'A replayed event id answers 200 with `duplicate: true` and changes nothing.',
    type: InboundEventResultDto,
    errors: [404],
    codes: { 400: ['INVALID_SIGNATURE'] },
  })
  async receive(
    @Param('provider') provider: string,
    @Req() req: { rawBody?: Buffer },
    @Headers('x-timestamp') timestamp: string | undefined,
    @Headers('x-signature') signature: string | undefined,
    @Headers('stripe-signature') stripeSignature: string | undefined,
    @Body() body: unknown,
  ) {
    if (provider === 'stripe') return this.inbound.receive('stripe', this.inbound.verifyStripe(req.rawBody, stripeSignature));
    if (provider !== 'sandbox') throw ApiError.notFound('Webhook provider');
    // The sandbox's body is our own shape: validated (422) before the signature is checked.
    const dto = (await validationPipe.transform(body, { type: 'body', metatype: InboundEventDto })) as InboundEventDto;
    this.inbound.verify(provider, req.rawBody, timestamp, signature);
    return this.inbound.receive(provider, dto);
  }
}
