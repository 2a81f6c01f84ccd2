import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn } from 'class-validator';
import { TextField } from '../../../common/validation/fields';
import { WEBHOOK_EVENTS, type WebhookEndpoint } from './webhook.entities';

export class CreateWebhookDto {
  @TextField({ max: 2000, description: 'Where events are POSTed: https (http only for localhost or 127.0.0.1).', example: 'https://hooks.example.com/waste' })
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, minItems: 1, maxItems: WEBHOOK_EVENTS.length, example: ['order.placed', 'payment_transaction.recorded'], description: 'The event types sent to this endpoint (refunds are `payment_transaction.recorded` rows of kind `refund`).' })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @IsIn(WEBHOOK_EVENTS as unknown as string[], { each: true, message: `each value must be one of ${WEBHOOK_EVENTS.join(', ')}` })
  events: string[];
}

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid', example: '3f1c2e9a-6b1d-4c55-9a57-0d7e2f6b8a11' }) id: string;
  @ApiProperty({ example: 'https://hooks.example.com/waste' }) url: string;
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENTS, example: ['order.placed'] }) events: string[];
  @ApiProperty({ example: 'whsec_5d0f…', description: 'The signing secret, answered only here (once): deliveries carry `X-Signature: sha256=<hex HMAC-SHA256 of `${X-Timestamp}.${body}`>`.' })
  secret: string;
  @ApiProperty({ format: 'date-time', example: '2027-03-15T09:30:00.000Z' }) created_at: string;

  static of(e: WebhookEndpoint): WebhookEndpointDto {
    return { id: e.id, url: e.url, events: e.events, secret: e.secret, created_at: e.createdAt.toISOString() };
  }
}
