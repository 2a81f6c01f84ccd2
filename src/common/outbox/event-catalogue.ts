/**
 * The event catalogue: every domain event the code records, by name, with the shape of its payload.
 * `recordEvents` accepts only these names and payloads, and `@EventSubscriber` only these names, so a
 * typo or a payload that changed shape is a compile error at the call site.
 *
 * Common holds the mechanism and its own events only (common imports no module). Each module declares
 * its events in its own `events.ts`, by declaration merging into `EventCatalogue` (and, for the records
 * kept by `CompanyRecords`, into `RecordEventPrefixes`), with its own status types:
 *
 * ```ts
 * // src/modules/things/events.ts, imported by things.module.ts so that it is always compiled
 * declare module '../../common/outbox/event-catalogue' {
 *   interface EventCatalogue { 'thing.happened': { from: ThingStatus; to: ThingStatus } }
 *   interface RecordEventPrefixes { thing: true } // thing.created | thing.updated | thing.deleted
 * }
 * ```
 * then records it with `recordEvents(m, { type: 'thing.happened', … })` inside the transaction that makes
 * the change.
 */

/** Payload of an event with nothing more to say than its aggregate (`payload` may be omitted). */
export type NoPayload = Record<string, never>;
/** Which fields a create or an update set (API field names, snake_case). */
export interface FieldsPayload {
  fields: string[];
}

/**
 * Company-owned records kept by `CompanyRecords` (src/common/records): `<prefix>.created|updated|deleted`.
 * A module adds its prefixes by augmenting this interface (`interface RecordEventPrefixes { lot: true }`).
 */
export interface RecordEventPrefixes {}
/** A record event prefix (`lot`, `asset`, …). */
export type RecordEventPrefix = keyof RecordEventPrefixes & string;
type RecordEvents = { [K in `${RecordEventPrefix}.${'created' | 'updated'}`]: FieldsPayload } & { [K in `${RecordEventPrefix}.deleted`]: NoPayload };

/** Common's own events. */
interface CommonEvents {
  /** A company used 80 % or more of a plan limit (once per resource and limit; src/common/records/plan-limits.ts). */
  'company.plan_limit_near': { resource: 'drivers' | 'assets' | 'monthly_orders'; used: number; limit: number; plan: string };
}

/**
 * Event name → payload: common's events and the record events here, every module's by augmentation
 * (its `events.ts`); tests add their own the same way (`declare module '…/event-catalogue' { interface
 * EventCatalogue { 'test.pinged': {…} } }`).
 */
export interface EventCatalogue extends CommonEvents, RecordEvents {}

/** A recorded event's name (`order.cancelled`). */
export type EventType = keyof EventCatalogue & string;
/** The payload of an event (for a union of names, any of their payloads). */
export type EventPayload<T extends EventType> = EventCatalogue[T];

/** The verbs that follow `prefix.` in the catalogue (`asset` → `created` | `status_changed` | …). */
export type EventVerb<P extends string> = { [K in EventType]: K extends `${P}.${infer V}` ? V : never }[EventType];
/** The catalogue name `prefix.verb` (never when it is not one). */
export type EventNamed<P extends string, V extends string> = Extract<EventType, `${P}.${V}`>;
