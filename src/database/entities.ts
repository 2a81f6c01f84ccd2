import { IdempotencyKey } from '../common/idempotency/idempotency-key.entity';
import { MailMessage } from '../common/mail/mail-message.entity';
import { OutboxDelivery } from '../common/outbox/outbox-delivery.entity';
import { OutboxEvent } from '../common/outbox/outbox-event.entity';

/**
 * Common's own entities, in every data source. The modules' entities are not listed here (src/database
 * imports no module): each module lists its own in `src/modules/<module>/entities.ts`, and the composition
 * root src/app.entities.ts adds them to these.
 */
export const COMMON_ENTITIES = [IdempotencyKey, MailMessage, OutboxEvent, OutboxDelivery];
