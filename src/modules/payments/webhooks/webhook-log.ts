import type { EntityManager } from 'typeorm';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook.entities';

/** The delivery log (`webhook_deliveries`): one row per attempt, written by the subscriber, the ping and the manual retry. */
export const WebhookLog = {
  async insert(
    m: EntityManager,
    row: { companyId: string; endpointId: string; eventId: string; eventType: string; attempt: number; status: WebhookDeliveryStatus; statusCode: number | null; durationMs: number; error: string | null },
  ): Promise<WebhookDelivery> {
    const repo = m.getRepository(WebhookDelivery);
    return repo.save(repo.create({ ...row, error: row.error?.slice(0, 500) ?? null }));
  },
};
