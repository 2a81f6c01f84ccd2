import type { DisputeAuthorType } from './accountability.types';

/** Accountability (issue #14; src/common/outbox/event-catalogue.ts: declaration merging): the aggregate is the violation (`policy_violation`), the actor the company user or the customer. */
declare module '../../common/outbox/event-catalogue' {
  interface EventCatalogue {
    /** One event per violation recorded on an order (also for each violation of a replaced set). */
    'policy_violation.recorded': { order_id: string; number: number; customer_id: string; policy_id: string; points: number; fee_amount: number; currency: string };
    /** A violation removed by replacing the set (its fee line goes with it). */
    'policy_violation.removed': { order_id: string; customer_id: string; policy_id: string };
    /** A dispute message; the customer's first one opens the dispute (`opened: true`). */
    'policy_violation.dispute_message_posted': { order_id: string; customer_id: string; message_id: string; author_type: DisputeAuthorType; opened: boolean };
    /** The customer edited or deleted one of its dispute messages (while the dispute is open). */
    'policy_violation.dispute_message_changed': { order_id: string; customer_id: string; message_id: string; change: 'edited' | 'deleted' };
    /** `fee_amount`: upheld, what the order was charged (fee and taxes); waived, what was credited. */
    'policy_violation.resolved': { order_id: string; customer_id: string; resolution: 'upheld' | 'waived'; points: number; fee_amount: number };
    /** The customer's live points reached a company threshold (the aggregate is the customer). */
    'customer.demerit_threshold_reached': { points: number; threshold: number; level: 'warning' | 'block' };
  }
}
