import type { FieldsPayload } from '../../common/outbox/event-catalogue';

/** Customers and drivers (the company's members, kept by MembersService): `<member>.<verb>`. */
export type MemberEventType = 'customer' | 'driver';
type MemberEvents = { [K in `${MemberEventType}.created`]: { name: string } } & { [K in `${MemberEventType}.updated`]: FieldsPayload } & {
  [K in `${MemberEventType}.${'activated' | 'deactivated'}`]: { from: 'active' | 'inactive'; to: 'active' | 'inactive' };
};

/** The customers module's events (src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue extends MemberEvents {
    'customer_address.created': { customer_id: string; is_default: boolean };
    'customer_address.deleted': { customer_id: string; new_default_id: string | null };
    'customer_address.default_changed': { customer_id: string };
  }
}
