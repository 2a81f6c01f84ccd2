/**
 * Every domain event the code records, by name, with the shape of its payload. `recordEvents` accepts
 * only these names and payloads, and `@EventSubscriber` only these names, so a typo or a payload that
 * changed shape is a compile error at the call site.
 *
 * Layer 0: modules' enums are not imported here (common imports no module); payload fields that hold
 * one of a module's enum values are named with the values they take, or `string` where a module's list
 * is long and the subscribers only pass it on.
 *
 * To add an event: add its name and payload below (or a verb to one of the families), then record it
 * with `recordEvents(m, { type: 'thing.happened', … })` inside the transaction that makes the change.
 */

/** Payload of an event with nothing more to say than its aggregate (`payload` may be omitted). */
export type NoPayload = Record<string, never>;
/** Which fields a create or an update set (API field names, snake_case). */
export interface FieldsPayload {
  fields: string[];
}

/** Company-owned records kept by `CompanyRecords` (src/common/records): `<prefix>.created|updated|deleted`. */
export type RecordEventPrefix =
  | 'lot'
  | 'station'
  | 'asset_category'
  | 'asset_style'
  | 'asset_specification'
  | 'waste_type'
  | 'asset'
  | 'truck_type'
  | 'truck'
  | 'tax'
  | 'payment_term'
  | 'policy'
  | 'pricing_profile'
  | 'promotion';
type RecordEvents = { [K in `${RecordEventPrefix}.${'created' | 'updated'}`]: FieldsPayload } & { [K in `${RecordEventPrefix}.deleted`]: NoPayload };

/** Lots' and stations' holidays (src/modules/sites): `<kind>.<verb>` (their created/updated/deleted are record events). */
export type SiteEventKind = 'lot' | 'station';
export interface SiteEventPayloads {
  holiday_created: { holiday_id: string; date: string; name: string };
  holiday_updated: { holiday_id: string; date: string; name: string };
  holiday_deleted: { holiday_id: string; date: string };
  holidays_replaced: { count: number };
}
type SiteEvents = { [K in `${SiteEventKind}.${keyof SiteEventPayloads}`]: K extends `${SiteEventKind}.${infer V extends keyof SiteEventPayloads}` ? SiteEventPayloads[V] : never };

/** Customers and drivers (the company's members): `<member>.<verb>`. */
export type MemberEventType = 'customer' | 'driver';
type MemberEvents = { [K in `${MemberEventType}.created`]: { name: string } } & { [K in `${MemberEventType}.updated`]: FieldsPayload } & {
  [K in `${MemberEventType}.${'activated' | 'deactivated'}`]: { from: 'active' | 'inactive'; to: 'active' | 'inactive' };
};

/** Order statuses (orders.status); `order.<status>` on every transition, `order.placed` for the first one. */
export type OrderStatusName = 'pending' | 'approved' | 'rejected' | 'scheduled' | 'delivered' | 'completed' | 'cancelled';
export interface OrderStatusPayload {
  number: number;
  customer_id: string;
  from: OrderStatusName | null;
  to: OrderStatusName;
  reason: string | null;
  /** `order.placed`: the order's total. */
  total_amount?: number;
  /** `order.cancelled`: inside the free-cancellation window or not, and the fee charged. */
  late?: boolean;
  fee_amount?: number;
}
type OrderStatusEvents = { [K in 'order.placed' | `order.${OrderStatusName}`]: OrderStatusPayload };
/** What a status change adds to the order status payload. */
export type OrderStatusExtras = Pick<OrderStatusPayload, 'total_amount' | 'late' | 'fee_amount'>;

/** A change request's body (`order_change_requests.details`). */
export interface ChangeRequestDetailsPayload {
  delivery_date?: string;
  pickup_date?: string;
  days?: number;
  date?: string;
  address_id?: string;
  waste_type_id?: string;
  asset_specification_id?: string;
}

/** A company's merchant account state with the payment provider (payments module, merchant onboarding). */
export type MerchantStateName = 'not_started' | 'pending' | 'approved' | 'rejected' | 'cancelled';
/**
 * Why it moved: `started` (the merchant was created with the provider), `provider_check` (the provider's
 * answer, on its return URL or a re-check), `cancelled` (abandoned), `resumed` (a cancellation undone),
 * `restarted` (onboarding reset to not_started).
 */
export type MerchantStateReason = 'started' | 'provider_check' | 'cancelled' | 'resumed' | 'restarted';

/** The events with a fixed name. */
interface NamedEvents {
  'user.registered': { type: 'company' | 'customer' | 'driver' };
  'user.updated': FieldsPayload;

  'company.created': { name: string };
  'company.updated': FieldsPayload;
  'company.settings_updated': FieldsPayload;
  'company.settings_reset': NoPayload;
  'company.documents_replaced': { count: number };
  'company.document_deleted': { document_id: string; name: string };
  /** Platform administration (README "Platform administration"): an administrator's changes of a company. */
  'company.activated': { from: 'active' | 'inactive'; to: 'active' | 'inactive' };
  'company.deactivated': { from: 'active' | 'inactive'; to: 'active' | 'inactive' };
  'company.platform_updated': FieldsPayload;

  'customer_address.created': { customer_id: string; is_default: boolean };
  'customer_address.deleted': { customer_id: string; new_default_id: string | null };
  'customer_address.default_changed': { customer_id: string };

  'asset.status_changed': { from: string; to: string };
  'asset.location_updated': { lat: number; lng: number; location_type: 'lot' | 'customer_address' | 'station' | 'truck'; location_id: string };
  'asset_specification.waste_type_added': { waste_type_id: string; price_override_amount: number | null };
  'asset_specification.waste_type_updated': { waste_type_id: string; price_override_amount: number | null };
  'asset_specification.waste_type_removed': { waste_type_id: string };
  'truck.location_updated': { lat: number; lng: number };
  'qr_code.created': { qr_code_id: string };

  'order.updated': { fields: string[]; total_amount: number };
  'order.feedback_given': { rating: number };
  'order_change_request.created': { order_id: string; number: number; type: string; details: ChangeRequestDetailsPayload; total_amount: number };
  'order_change_request.approved': { order_id: string; number: number; customer_id: string; type: string; details: ChangeRequestDetailsPayload; total_amount: number };
  'order_change_request.rejected': { order_id: string; customer_id: string; type: string; reason: string };

  // The payments ledger (#13): one event per ledger row; the aggregate is the transaction.
  'payment_transaction.recorded': { kind: 'charge' | 'refund' | 'offline_payment' | 'fee' | 'adjustment' | 'wallet_credit' | 'wallet_debit'; status: 'pending' | 'succeeded' | 'failed'; amount: number; currency: string; customer_id: string; order_id: string | null; method: string | null; failure_code: string | null };

  // A driver's day (attendance module); the aggregate is the day, the actor the driver.
  'attendance.checked_in': { driver_id: string; work_date: string; truck_id: string | null; lat: number; lng: number };
  'attendance.break_started': { driver_id: string; work_date: string; break_id: string };
  'attendance.break_ended': { driver_id: string; work_date: string; break_id: string; minutes: number };
  /** `auto`: closed at the end of its date because the driver checked in on a later day without checking out. */
  'attendance.checked_out': { driver_id: string; work_date: string; worked_minutes: number; auto: boolean };
  'attendance.resumed': { driver_id: string; work_date: string };

  'job.created': { order_id: string; type: string; scheduled_date: string };
  'job.updated': { order_id: string; fields: string[] };
  'job.reassigned': { order_id: string; from_driver_id: string | null; to_driver_id: string | null };
  'job.deleted': { order_id: string; type: string };
  // The driver's work on a job (dispatch, driver side); the aggregate is the job, the actor the driver (the company for a resolution).
  'job.evidence_added': { order_id: string; evidence_id: string; kind: 'photo' | 'signature' | 'qr_scan' | 'ticket'; station_ticket_id: string | null };
  'job.issue_reported': { order_id: string; issue_id: string; type: string; blocking: boolean };
  'job.issue_resolved': { order_id: string; issue_id: string; blocking: boolean };
  'asset.moved_by_job': { job_id: string; from: string; to: string; location_type: 'lot' | 'customer_address' | 'station' | 'truck' | null; location_id: string | null };

  // Drivers' leave (leaves module): the aggregate is the request (`leave_request`) or the leave (`leave`); the actor the driver or the company user.
  'leave_request.submitted': { driver_id: string; type: 'annual' | 'sick' | 'unpaid' | 'other'; dates: string[] };
  /** `dates`: the request's dates after the edit. */
  'leave_request.updated': { driver_id: string; fields: string[]; dates: string[] };
  'leave_request.cancelled': { driver_id: string; dates: string[] };
  /** `status`: the request's status after the decision; `leave_ids`: the leaves the approved dates are in. */
  'leave_request.dates_decided': { driver_id: string; decision: 'approved' | 'rejected' | 'in_review'; dates: string[]; note: string | null; status: string; leave_ids: string[] };
  'leave.cancelled': { driver_id: string; leave_request_id: string; start_date: string; end_date: string; note: string | null };
  /** The dates given back (`revoked_from`..`revoked_to`); the leave now ends on `end_date`. */
  'leave.revoked': { driver_id: string; leave_request_id: string; end_date: string; revoked_from: string; revoked_to: string; note: string | null };

  // Merchant onboarding (payments module, issue #13); the aggregate is the company's merchant account (terms: the acceptance), the actor the company user.
  'merchant_account.state_changed': { from: MerchantStateName; to: MerchantStateName; reason: MerchantStateReason; provider: string | null; provider_reference: string | null };
  'merchant_account.payout_schedule_changed': { from: 'daily' | 'weekly' | 'monthly'; to: 'daily' | 'weekly' | 'monthly' };
  'merchant_terms.accepted': { version: string; ip: string };
  'merchant_terms.withdrawn': { version: string };

  // Subscriptions (payments module, issue #13); the aggregate is the subscription, the actor the company user.
  'subscription.trial_started': { plan: string; period_end: string };
  'subscription.activated': { plan: string; amount: number; currency: string; charge_reference: string; period_end: string; replaced_trial_id: string | null };
  'subscription.cancel_scheduled': { plan: string; period_end: string };
  /** The renewal job (no actor): the next period was charged to the company's card (`period`: its number, from 1). */
  'subscription.renewed': { plan: string; amount: number; currency: string; charge_reference: string; period: number; period_end: string; attempt: number };
  /** The renewal job: the first renewal charge of a period failed; retried daily until `grace_ends_at`, then the free plan. */
  'subscription.past_due': { plan: string; amount: number; currency: string; failure_code: string; grace_ends_at: string; next_attempt_at: string };
  /** The subscription ended: its cancelled period ended, its trial ended unpaid, or its grace period ran out unpaid (the free plan's limits apply). */
  'subscription.cancelled': { plan: string; reason: 'cancel_at_period_end' | 'trial_ended' | 'grace_expired' | 'cancelled_past_due'; period_end: string };

  // Money over time (payments module, scheduled work, issue #13): the aggregate is the order (overdue) or the company (plan limit).
  /** An order past its due date with a balance, marked by the overdue job once per order, due date and `notice` (1: marked, 2: 7 days overdue, 3: 30 days). */
  'order.overdue': { number: number; customer_id: string; balance_amount: number; currency: string; due_date: string; days_overdue: number; notice?: 1 | 2 | 3 };
  /** A company used 80 % or more of a plan limit (once per resource and limit). */
  'company.plan_limit_near': { resource: 'drivers' | 'assets' | 'monthly_orders'; used: number; limit: number; plan: string };

  // Accountability (issue #14): the aggregate is the violation (`policy_violation`), the actor the company user or the customer.
  /** One event per violation recorded on an order (also for each violation of a replaced set). */
  'policy_violation.recorded': { order_id: string; number: number; customer_id: string; policy_id: string; points: number; fee_amount: number; currency: string };
  /** A violation removed by replacing the set (its fee line goes with it). */
  'policy_violation.removed': { order_id: string; customer_id: string; policy_id: string };
  /** A dispute message; the customer's first one opens the dispute (`opened: true`). */
  'policy_violation.dispute_message_posted': { order_id: string; customer_id: string; message_id: string; author_type: 'company' | 'customer'; opened: boolean };
  /** The customer edited or deleted one of its dispute messages (while the dispute is open). */
  'policy_violation.dispute_message_changed': { order_id: string; customer_id: string; message_id: string; change: 'edited' | 'deleted' };
  /** `fee_amount`: upheld, what the order was charged (fee and taxes); waived, what was credited. */
  'policy_violation.resolved': { order_id: string; customer_id: string; resolution: 'upheld' | 'waived'; points: number; fee_amount: number };
  /** The customer's live points reached a company threshold (the aggregate is the customer). */
  'customer.demerit_threshold_reached': { points: number; threshold: number; level: 'warning' | 'block' };

  // Chats (communication module, issue #14): the aggregate is the chat; recipients are the members other than the author (user ids).
  'chat.created': { order_id: string };
  'chat.message_posted': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[]; preview: string };
  'chat.message_edited': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[] };
  'chat.message_deleted': { chat_id: string; order_id: string; message_id: string; author_user_id: string; recipient_user_ids: string[] };

  // Tokens (auth module): a user's token revoked (logout, refresh, password change or reset); the aggregate is the token (`auth_token`, its jti). Live push disconnects its sockets.
  'auth.token_revoked': { jti: string; user_id: string };
  // Notifications (communication module): the aggregate is the user; live push keeps the user's other devices in step.
  /** `notification_ids`: the notifications marked read (empty with `all`: every unread one was). */
  'notification.read': { notification_ids: string[]; all: boolean };
  'notification.deleted': { notification_id: string };
  /** A message sent through the contact form (the aggregate is the message, the actor the user). */
  'contact_message.sent': { subject: string };

  // Outbound webhook endpoints (payments module, issue #28): the aggregate is the endpoint, the actor the company user.
  'webhook_endpoint.created': { events: string[] };
  'webhook_endpoint.updated': FieldsPayload;
  'webhook_endpoint.disabled': NoPayload;
  'webhook_endpoint.enabled': NoPayload;
  'webhook_endpoint.deleted': NoPayload;
  /** A new signing secret; the previous one signs beside it until `previous_secret_expires_at` (null: it stopped at once). */
  'webhook_endpoint.secret_rotated': { previous_secret_expires_at: string | null };
}

/** A job's status move (jobs module): `job.assigned`, `job.in_progress`, `job.completed`, `job.aborted`. */
export interface JobStatusPayload {
  order_id: string;
  type: 'delivery' | 'pickup' | 'swap' | 'dump_return' | 'relocate';
  from: 'unassigned' | 'assigned' | 'in_progress' | 'completed' | 'aborted';
  to: 'unassigned' | 'assigned' | 'in_progress' | 'completed' | 'aborted';
  driver_id: string | null;
  reason: string | null;
}
type JobStatusEvents = { [K in 'job.assigned' | 'job.in_progress' | 'job.completed' | 'job.aborted']: JobStatusPayload };

/**
 * Event name → payload. An interface, so that tests can add their own events by module augmentation
 * (`declare module '…/event-catalogue' { interface EventCatalogue { 'test.pinged': {…} } }`).
 */
export interface EventCatalogue extends NamedEvents, RecordEvents, SiteEvents, MemberEvents, OrderStatusEvents, JobStatusEvents {}

/** A recorded event's name (`order.cancelled`). */
export type EventType = keyof EventCatalogue & string;
/** The payload of an event (for a union of names, any of their payloads). */
export type EventPayload<T extends EventType> = EventCatalogue[T];

/** The verbs that follow `prefix.` in the catalogue (`asset` → `created` | `status_changed` | …). */
export type EventVerb<P extends string> = { [K in EventType]: K extends `${P}.${infer V}` ? V : never }[EventType];
/** The catalogue name `prefix.verb` (never when it is not one). */
export type EventNamed<P extends string, V extends string> = Extract<EventType, `${P}.${V}`>;
