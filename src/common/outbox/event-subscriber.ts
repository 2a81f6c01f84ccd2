import type { Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventPayload, EventType } from './event-catalogue';

/** An event as a subscriber receives it (for a union of names, a union narrowed by `type`). */
export type RelayedEvent<T extends EventType = EventType> = T extends EventType
  ? {
      id: string;
      type: T;
      aggregateType: string;
      aggregateId: string;
      companyId: string | null;
      actorId: string | null;
      payload: EventPayload<T>;
      createdAt: Date;
      /** 1 on the first try, then 2, 3, … after failures. */
      attempt: number;
    }
  : never;

/**
 * What an `@EventSubscriber` class implements. `handle` runs inside a transaction (a savepoint of it):
 * do the work through `manager`, and it commits together with the record that this subscriber processed
 * the event, so it happens exactly once. Throwing rolls the work back and the event is retried later.
 * Work outside `manager` (an HTTP call, a push) happens at least once: make it idempotent by `event.id`.
 * With the embedded database, use only `manager` in here (it holds the one connection).
 *
 * `after(work)`: work that must wait for something outside the database (a payment provider) and so
 * may not run while the delivery's transaction is open. The relay runs it once that transaction has
 * committed, with no transaction open, before it moves on (errors are logged, never retried by the
 * relay: the work must leave committed state that something else picks up again, e.g. a pending
 * ledger row the money reconciler retries).
 */
export interface EventHandler<T extends EventType = EventType> {
  handle(event: RelayedEvent<T>, manager: EntityManager, after: (work: () => Promise<unknown>) => void): Promise<void> | void;
}

export interface EventSubscriberOptions<T extends EventType> {
  /** The events; or a function answering them when the relay starts (a list other modules register into at import). */
  events: readonly T[] | (() => readonly T[]);
  /** Stable name kept with each delivery (default: the class name); renaming it redelivers unpublished events. */
  name?: string;
  /**
   * `outside: true`: a subscriber whose work is a call outside the database (an HTTP delivery). The relay
   * runs its `handle` with NO transaction open and no row locked: it claims the delivery in one short
   * transaction (due again only after the lease, so no other relay runs it meanwhile), calls `handle`
   * with the data source's manager (each write commits on its own), and records the outcome in another.
   * Throwing retries with backoff as usual. A crash between the call and the record runs it again after
   * the lease: at least once, so the work must be idempotent by `event.id`.
   */
  outside?: boolean;
}

export interface EventSubscriberMeta {
  events: readonly EventType[] | (() => readonly EventType[]);
  name?: string;
  outside?: boolean;
}

export const EVENT_SUBSCRIBER_META = Symbol('outbox:event-subscriber');

/**
 * Marks a provider as a subscriber of catalogue events, found at start by the outbox relay:
 *
 *     @Injectable()
 *     @EventSubscriber('order.cancelled', 'order.rejected')
 *     export class RefundOnCancel implements EventHandler<'order.cancelled' | 'order.rejected'> {
 *       async handle(event: RelayedEvent<'order.cancelled' | 'order.rejected'>, m: EntityManager) { … }
 *     }
 *
 * The class must be a provider of some module, and its `handle` must accept those events.
 */
export function EventSubscriber<T extends EventType>(...args: [T, ...T[]] | [EventSubscriberOptions<T>]) {
  const first = args[0];
  const meta: EventSubscriberMeta = typeof first === 'string' ? { events: args.filter((a): a is T => typeof a === 'string') } : first;
  if (typeof meta.events !== 'function' && !meta.events.length) throw new Error('@EventSubscriber needs at least one event name');
  return (target: Type<EventHandler<T>>): void => {
    Reflect.defineMetadata(EVENT_SUBSCRIBER_META, meta, target);
  };
}

/** The `@EventSubscriber` metadata of a class, if any, with its events as they are now. */
export function eventSubscriberMeta(target: unknown): (EventSubscriberMeta & { events: readonly EventType[] }) | undefined {
  const meta = typeof target === 'function' ? (Reflect.getMetadata(EVENT_SUBSCRIBER_META, target) as EventSubscriberMeta | undefined) : undefined;
  return meta && { ...meta, events: typeof meta.events === 'function' ? meta.events() : meta.events };
}
