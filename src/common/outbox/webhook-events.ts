import type { EventType } from './event-catalogue';

const offered: EventType[] = [];

/**
 * Offers events to companies' outbound webhooks (docs/outbound-webhooks.md): a module names, in its own
 * `events.ts` (imported by its module file), which of its events an endpoint may subscribe to, so no
 * central list names them (issue #27):
 *
 *     webhookEvents('order.placed', 'order.approved'); // src/modules/orders/events.ts
 *
 * The payments module's webhooks read the list lazily, once every module is loaded: request validation
 * (`RegistryList`, src/common/validation/fields.ts), the relay's event filter (`@EventSubscriber({ events:
 * webhookEventTypes })`) and the OpenAPI enum (`registryEnum`, filled when the document is built). Offering
 * an event twice keeps its first place.
 */
export function webhookEvents(...types: EventType[]): void {
  for (const t of types) if (!offered.includes(t)) offered.push(t);
}

/** The events an endpoint may subscribe to: each module's in its declared order, modules in the order they were loaded. */
export function webhookEventTypes(): readonly EventType[] {
  return [...offered];
}
