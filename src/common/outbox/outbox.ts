import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OutboxEvent } from './outbox-event.entity';

export interface DomainEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  companyId?: string | null;
  actorId?: string | null;
  payload?: Record<string, unknown>;
}

/**
 * Records domain events through the caller's transaction manager, so an event exists exactly when
 * its change committed. Always pass the `EntityManager` of the transaction that makes the change.
 */
export async function recordEvents(manager: EntityManager, ...events: DomainEvent[]): Promise<void> {
  if (!manager.queryRunner?.isTransactionActive) {
    throw new Error('recordEvents must run inside the transaction that makes the change');
  }
  await manager.insert(
    OutboxEvent,
    events.map((e) => ({
      type: e.type,
      aggregateType: e.aggregateType,
      aggregateId: e.aggregateId,
      companyId: e.companyId ?? null,
      actorId: e.actorId ?? null,
      payload: e.payload ?? {},
    })) as QueryDeepPartialEntity<OutboxEvent>[],
  );
}
