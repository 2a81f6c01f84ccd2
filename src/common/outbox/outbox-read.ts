import type { EntityManager } from 'typeorm';
import type { RelayedEvent } from './event-subscriber';
import { EventRow, relayedEvent } from './outbox-relay';

/**
 * One recorded event as its subscribers receive it, for a subscriber that re-sends it on request (an
 * outbound webhook's manual retry), with the attempt number the caller counts; null when absent or
 * of another company.
 */
export async function findRelayedEvent(m: EntityManager, id: string, companyId: string, attempt: number): Promise<RelayedEvent | null> {
  const [row] = await m.query<EventRow[]>(
    `SELECT id, type, aggregate_type, aggregate_id, company_id, actor_id, payload, created_at FROM outbox_events WHERE id = $1 AND company_id = $2`,
    [id, companyId],
  );
  return row ? relayedEvent(row, attempt) : null;
}
