import { escapeLiteral } from 'pg';
import { sendWithCommit } from '../../database/unit-of-work';
import { EntityManager } from 'typeorm';
import type { EventCatalogue, EventNamed, EventPayload, EventType, EventVerb, NoPayload } from './event-catalogue';

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
  if (!events.length) return;
  // One INSERT of SQL text (the query builder's INSERT cost more CPU than the statement, on every write path),
  // sent with the transaction's COMMIT in the same round trip where the unit of work can (src/database/unit-of-work.ts).
  const rows = events.map((e) => `(${literal(e.companyId ?? null)}, ${literal(e.type)}, ${literal(e.aggregateType)}, ${literal(e.aggregateId)}, ${literal(e.actorId ?? null)}, ${literal(JSON.stringify(e.payload ?? {}))}::jsonb)`);
  const sql = `INSERT INTO outbox_events (company_id, type, aggregate_type, aggregate_id, actor_id, payload) VALUES ${rows.join(', ')}`;
  if (!sendWithCommit(manager, sql)) await manager.query(sql);
}

/** A value as an SQL literal (pg's quoting: standard strings, backslashes escaped). */
function literal(value: string | null): string {
  return value === null ? 'NULL' : escapeLiteral(value);
}
