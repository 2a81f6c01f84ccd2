import type { FieldsPayload, NoPayload } from '../../common/outbox/event-catalogue';
import { webhookEvents } from '../../common/outbox/webhook-events';
import type { TransactionKind, TransactionStatus } from './ledger/ledger.entities';
import type { MerchantState, PayoutSchedule } from './onboarding/merchant-account.entity';

/**
 * Why a merchant account moved: `started` (the merchant was created with the provider), `provider_check`
 * (the provider's answer, on its return URL or a re-check), `cancelled` (abandoned), `resumed` (a
 * cancellation undone), `restarted` (onboarding reset to not_started).
 */
export type MerchantStateReason = 'started' | 'provider_check' | 'cancelled' | 'resumed' | 'restarted';

/** The payments module's events (issue #13; src/common/outbox/event-catalogue.ts: declaration merging). */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    // The ledger: one event per ledger row; the aggregate is the transaction.
    'payment_transaction.recorded': { kind: TransactionKind; status: TransactionStatus; amount: number; currency: string; customer_id: string; order_id: string | null; method: string | null; failure_code: string | null };

    // Merchant onboarding: the aggregate is the company's merchant account (terms: the acceptance), the actor the company user.
    'merchant_account.state_changed': { from: MerchantState; to: MerchantState; reason: MerchantStateReason; provider: string | null; provider_reference: string | null };
    'merchant_account.payout_schedule_changed': { from: PayoutSchedule; to: PayoutSchedule };
    'merchant_terms.accepted': { version: string; ip: string };
    'merchant_terms.withdrawn': { version: string };

    // Subscriptions: the aggregate is the subscription, the actor the company user.
    'subscription.trial_started': { plan: string; period_end: string };
    'subscription.activated': { plan: string; amount: number; currency: string; charge_reference: string; period_end: string; replaced_trial_id: string | null };
    'subscription.cancel_scheduled': { plan: string; period_end: string };
    /** The renewal job (no actor): the next period was charged to the company's card (`period`: its number, from 1). */
    'subscription.renewed': { plan: string; amount: number; currency: string; charge_reference: string; period: number; period_end: string; attempt: number };
    /** The renewal job: the first renewal charge of a period failed; retried daily until `grace_ends_at`, then the free plan. */
    'subscription.past_due': { plan: string; amount: number; currency: string; failure_code: string; grace_ends_at: string; next_attempt_at: string };
    /** The subscription ended: its cancelled period ended, its trial ended unpaid, or its grace period ran out unpaid (the free plan's limits apply). */
    'subscription.cancelled': { plan: string; reason: 'cancel_at_period_end' | 'trial_ended' | 'grace_expired' | 'cancelled_past_due'; period_end: string };

    // Money over time (scheduled work): the aggregate is the order.
    /** An order past its due date with a balance, marked by the overdue job once per order, due date and `notice` (1: marked, 2: 7 days overdue, 3: 30 days). */
    'order.overdue': { number: number; customer_id: string; balance_amount: number; currency: string; due_date: string; days_overdue: number; notice?: 1 | 2 | 3 };

    // Outbound webhook endpoints (issue #28): the aggregate is the endpoint, the actor the company user.
    'webhook_endpoint.created': { events: string[] };
    'webhook_endpoint.updated': FieldsPayload;
    'webhook_endpoint.disabled': NoPayload;
    'webhook_endpoint.enabled': NoPayload;
    'webhook_endpoint.deleted': NoPayload;
    /** A new signing secret; the previous one signs beside it until `previous_secret_expires_at` (null: it stopped at once). */
    'webhook_endpoint.secret_rotated': { previous_secret_expires_at: string | null };
  }
}

/** The ledger rows (payments, refunds: `kind`) companies may subscribe their outbound webhooks to (src/common/outbox/webhook-events.ts). */
webhookEvents('payment_transaction.recorded');
