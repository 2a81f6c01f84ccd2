import { EntityManager } from 'typeorm';
import type { EventPayload, EventType, RecordEventPrefix } from '../../../src/common/outbox/event-catalogue';
import { EventSubscriber, type RelayedEvent } from '../../../src/common/outbox/event-subscriber';
import { recordEventOf, recordEvents } from '../../../src/common/outbox/outbox';
import type { CompanyRecords } from '../../../src/common/records/company-records';
import type { Asset } from '../../../src/modules/catalogue/catalogue.entities';

/**
 * The modules declare their events in their own `events.ts` (declaration merging into common's
 * catalogue): the names and payloads stay as strict as when common listed them. These checks are
 * compile-time (`npm test` type-checks this file; an unused `@ts-expect-error` fails it); the test
 * below only keeps jest from reporting an empty file.
 */
export function moduleEventsAreEnforced(m: EntityManager) {
  // A module's event with its payload (orders, sites, catalogue, jobs, payments).
  void recordEvents(m, { type: 'order.placed', aggregateType: 'order', aggregateId: 'x', payload: { number: 1, customer_id: 'c', from: null, to: 'pending', reason: null, total_amount: 100 } });
  // @ts-expect-error an order status the orders module does not have
  void recordEvents(m, { type: 'order.placed', aggregateType: 'order', aggregateId: 'x', payload: { number: 1, customer_id: 'c', from: null, to: 'placed', reason: null } });
  // @ts-expect-error an event name no module declares
  void recordEvents(m, { type: 'order.shipped', aggregateType: 'order', aggregateId: 'x', payload: {} });
  // @ts-expect-error a site event without its payload's `name`
  void recordEvents(m, { type: 'lot.holiday_created', aggregateType: 'lot', aggregateId: 'x', payload: { holiday_id: 'h', date: '2026-01-01' } });
  // @ts-expect-error a job status payload with a job type the jobs module does not have
  void recordEvents(m, { type: 'job.completed', aggregateType: 'job', aggregateId: 'x', payload: { order_id: 'o', type: 'towing', from: 'in_progress', to: 'completed', driver_id: null, reason: null } });
  // @ts-expect-error a merchant state the payments module does not have
  void recordEvents(m, { type: 'merchant_account.state_changed', aggregateType: 'merchant_account', aggregateId: 'x', payload: { from: 'pending', to: 'live', reason: 'provider_check', provider: null, provider_reference: null } });

  // Record events: `<prefix>.created|updated|deleted` for the prefixes the modules declare.
  void recordEventOf(m, 'asset', 'status_changed', { from: 'available', to: 'maintenance' }, { aggregateType: 'asset', aggregateId: 'x' });
  void recordEventOf(m, 'truck_type', 'created', { fields: ['name'] }, { aggregateType: 'truck_type', aggregateId: 'x' });
  // @ts-expect-error a verb the prefix does not have
  void recordEventOf(m, 'truck_type', 'status_changed', { from: 'a', to: 'b' }, { aggregateType: 'truck_type', aggregateId: 'x' });
  // @ts-expect-error a record event with another event's payload
  void recordEvents(m, { type: 'promotion.updated', aggregateType: 'promotion', aggregateId: 'x', payload: { name: 'x' } });

  // Subscribers name declared events only.
  EventSubscriber('order.placed', 'customer.deactivated', 'payment_transaction.recorded');
  // @ts-expect-error a misspelt event name
  EventSubscriber('order.placd');
  // @ts-expect-error a misspelt event name in the options form
  EventSubscriber({ name: 'x', events: ['leave.revokd'] });
}

/** `CompanyRecords<…, prefix>` takes a declared prefix only. */
export type AssetRecords = CompanyRecords<Asset, 'asset'>;
// @ts-expect-error not a record event prefix
export type TypoRecords = CompanyRecords<Asset, 'assett'>;

/** Payloads resolve to the module's types; the prefixes are the modules' (asset: catalogue, lot: sites, tax: pricing, promotion: promotions, truck: fleet). */
export const prefixes: RecordEventPrefix[] = ['asset', 'lot', 'tax', 'promotion', 'truck'];
// @ts-expect-error not a prefix any module declares
export const notAPrefix: RecordEventPrefix = 'order';
export const handled = (e: RelayedEvent<'order.cancelled'>): EventPayload<'order.cancelled'>['to'] => e.payload.to;
export const names: EventType[] = ['company.plan_limit_near', 'user.registered', 'chat.message_posted', 'job.evidence_added'];

describe('event catalogue', () => {
  it('is checked at compile time (npm test type-checks this file)', () => {
    expect(typeof moduleEventsAreEnforced).toBe('function');
  });
});
