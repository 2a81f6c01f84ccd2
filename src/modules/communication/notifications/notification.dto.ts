import { ApiProperty, OmitType } from '@nestjs/swagger';
import { PageQuery } from '../../../common/http/pagination';
import { PageMetaDto } from '../../../common/http/openapi';
import { BoolQuery } from '../../../common/validation/fields';
import type { Notification } from './notification.entity';

/** `GET …/notifications/get`: newest first; `unread=true` for the unread ones only. */
export class NotificationQuery extends OmitType(PageQuery, ['q'] as const) {
  @BoolQuery('`true`: only unread notifications; `false`: only read ones.') unread?: boolean;
}

export class NotificationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'order.approved', description: 'What happened: the name of the domain event it was made from (`docs/notifications.md`, "Notifications and live push", lists them).' }) type: string;
  @ApiProperty({ example: 'Order ORD-000042 approved' }) title: string;
  @ApiProperty({ example: 'Your order ORD-000042 was approved; we will tell you when a driver is on the way.' }) body: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { order_id: '3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e' },
    description: 'Ids of what it is about (`order_id`, `job_id`, `transaction_id`, `policy_violation_id`, `chat_id`, `message_id`, `leave_request_id`, `leave_id`, `customer_id`), for the app to open it.',
  })
  data: Record<string, string>;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When it was read; null while unread.' }) read_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;

  static of(n: Notification): NotificationDto {
    return { id: n.id, type: n.type, title: n.title, body: n.body, data: n.data, read_at: n.readAt ? new Date(n.readAt).toISOString() : null, created_at: new Date(n.createdAt).toISOString() };
  }
}

export class NotificationPageMetaDto extends PageMetaDto {
  @ApiProperty({ example: 3, minimum: 0, description: 'How many of the caller\'s notifications are unread (whatever the filter).' }) unread_count: number;
}

export class MarkedReadDto {
  @ApiProperty({ example: 3, minimum: 0, description: 'How many notifications this marked read (0 when none was unread).' }) updated: number;
  @ApiProperty({ example: 0, minimum: 0, description: 'Unread notifications left (0).' }) unread_count: number;
}
