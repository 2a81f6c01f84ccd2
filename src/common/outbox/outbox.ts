import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { EventCatalogue, EventNamed, EventPayload, EventType, EventVerb, NoPayload } from './event-catalogue';
import { OutboxEvent } from './outbox-event.entity';

/** What an event is about: its aggregate, company and actor. */
export interface EventAbout {
  aggregateType: string;
  aggregateId: string;
  companyId?: string | null;
  actorId?: string | null;
}

/** `payload` is required unless the event's payload is empty. */
type PayloadOf<T extends EventType> = NoPayload extends EventCatalogue[T] ? { payload?: EventCatalogue[T] } : { payload: EventCatalogue[T] };

/** An event to record: a catalogue name (src/common/outbox/event-catalogue.ts) and its payload. */
export type DomainEvent<T extends EventType = EventType> = EventAbout & { type: T } & PayloadOf<T>;

/**
 * Records domain events through the caller's transaction manager, so an event exists exactly when
 * its change committed. Always pass the `EntityManager` of the transaction that makes the change.
 * Only catalogue names are accepted, each with its payload.
 */
export async function recordEvents<T extends EventType>(manager: EntityManager, ...events: DomainEvent<T>[]): Promise<void> {
  await insertEvents(manager, events);
}

/**
 * Records `${prefix}.${verb}`, for code that builds the name from parts (`CompanyRecords`): the pair
 * must form a catalogue name, and the payload must be that event's.
 */
export async function recordEventOf<P extends string, V extends EventVerb<P>>(manager: EntityManager, prefix: P, verb: V, payload: EventPayload<EventNamed<P, V>>, about: EventAbout): Promise<void> {
  await insertEvents(manager, [{ ...about, type: `${prefix}.${verb}`, payload }]);
}

async function insertEvents(manager: EntityManager, events: (EventAbout & { type: string; payload?: object })[]): Promise<void> {
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
