import type { EventType } from './event-catalogue';
import type { RelayedEvent } from './event-subscriber';

/** Who is told: the company (its active company users) or named users (a customer's or driver's user id is their customer/driver id). */
export type Recipient = 'company' | string;

/** A notification to make for some recipients. */
export interface Draft {
  to: readonly (Recipient | null | undefined)[];
  title: string;
  body: string;
  data: Record<string, string | null | undefined>;
}

/** What a rule may need besides the event: the driver a job is with now (null when none or gone). */
export interface RuleContext {
  jobDriver(jobId: string): Promise<string | null>;
}

/** Event → the notifications to make (none: `[]`). */
export type NotificationRule<T extends EventType = EventType> = (e: RelayedEvent<T>, ctx: RuleContext) => Draft[] | Promise<Draft[]>;
export type NotificationRules = { [K in EventType]?: NotificationRule<K> };

const registered = new Map<EventType, NotificationRule[]>();

/**
 * Registers notification rules (event → who is told, with what title, body and ids). A module registers
 * its own from its folder, in its `notifications.ts` (imported by its module file, like `events.ts`), so
 * no central table names it; the communication module (its `MakeNotifications` subscriber) makes the
 * notifications of every rule registered for an event, the drafts of several rules adding up. Rules are
 * registered when their file is imported and read when the relay starts.
 */
export function notificationRules(rules: NotificationRules): void {
  for (const [type, rule] of Object.entries(rules) as [EventType, NotificationRule][]) registered.set(type, [...(registered.get(type) ?? []), rule]);
}

/** The rules registered for an event, in registration order. */
export function notificationRulesOf(type: EventType): readonly NotificationRule[] {
  return registered.get(type) ?? [];
}

/** Every event some rule is registered for. */
export function notifiedEvents(): EventType[] {
  return [...registered.keys()];
}

/** The drafts of every rule registered for an event, in registration order (the notifications subscriber's and the mail subscriber's). */
export async function draftsOf(event: RelayedEvent, ctx: RuleContext): Promise<Draft[]> {
  return (await Promise.all(notificationRulesOf(event.type).map((rule) => rule(event, ctx)))).flat();
}

const mailed = new Set<EventType>();

/**
 * Events whose notifications are also mailed to their recipients who are people (a customer, a driver;
 * not `company`), at least once, by communication's `MailNotifications` (an `outside` relay subscriber:
 * no transaction is open while it sends). A module names them beside its rules (issue #26: the arrival times).
 */
export function mailNotifications(...types: EventType[]): void {
  for (const t of types) mailed.add(t);
}

/** Every event whose notifications are mailed. */
export function mailedEvents(): EventType[] {
  return [...mailed];
}
