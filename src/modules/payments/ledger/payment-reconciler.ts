import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { Scope, SystemReach } from '../../../common/access/scope';
import { Metrics } from '../../../common/metrics/metrics';
import { PaymentProvider, type ChargeResult, type PendingChargeResult } from '../provider/payment-provider';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { isUnknownOutcome, LedgerService, nextCheck, type ProviderOutcome } from './ledger.service';
import { LedgerRepository, type ClaimedCharge } from './ledger.repository';
import { UnitOfWork } from '../../../database/unit-of-work';

/** A charge the provider still does not know this long after we reserved it never reached it (every call and SDK retry is over by then): failed `not_charged`, the hold released. */
export const NOT_FOUND_FAIL_AFTER_MS = 15 * 60_000;
/** Pending rows older than this are an alert (`payments_pending_overdue_transactions`). */
export const PENDING_ALERT_AFTER_MS = 60 * 60_000;

export interface ReconcileSummary {
  /** Pending charges asked about. */
  checked: number;
  succeeded: number;
  failed: number;
  /** The provider did not answer, or does not know the charge yet: asked again later (backoff). */
  unknown: number;
  /** Pending first subscription charges (a subscribe whose answer was lost) asked about: activated, dropped, still unknown. */
  subscriptions: { checked: number; succeeded: number; failed: number; unknown: number };
  /** Pending refunds called again: succeeded, refused (credited to the wallet), no answer. */
  refunds: { succeeded: number; failed: number; unknown: number };
  /** Rows (charges, refunds, first subscription charges) pending for more than an hour after the run. */
  overdue: number;
}

/** The reconciler's reach: every company's pending charges and refunds. */
const RECONCILIATION = SystemReach.of('the reconciler: pending charges of every company asked about at the provider');

/** What the provider lookup needs of a pending charge (a ledger row, or a first subscription charge). */
type Lookup = Pick<ClaimedCharge, 'id' | 'idempotency_key' | 'provider_ref' | 'created_at' | 'buyer_ref'>;

/**
 * Every charge reconciled (issue #22). A pending card charge is normally settled by its own request (the
 * provider's answer) or by the provider's webhook; when both are lost (a timeout, a crash, a webhook
 * never delivered) the reconciler asks the provider about it. At `now` (a scheduled job, every minute;
 * tests pass `now`), each pending charge whose `next_check_at` has come (a minute after it was
 * reserved, then 1, 2, 4, … minutes, at most an hour apart: `check_attempts`) is claimed in a short
 * transaction (`FOR UPDATE SKIP LOCKED`, its next check pushed back first, so instances share the work
 * and a crash only delays it), looked up at the provider with no transaction open
 * (`PaymentProvider.lookupCharge`: by its reference, else by our key in its metadata), and settled in
 * another short transaction through the same `LedgerService.settlePending` as the request and the
 * webhook (exactly once: only a row still pending changes). A pay-all-dues charge is looked up once for
 * its batch. The provider without such a charge 15 minutes after the reservation: the call never reached
 * it, the row fails `not_charged` and the hold is released. Pending card refunds are called again with
 * their key (`LedgerService.executeRefunds`). Pending first subscription charges (a subscribe answered 202)
 * are claimed, looked up and settled the same way (`SubscriptionsService.claimPendingFirstCharge`,
 * `settleFirstCharge`: succeeded → active, failed or not found after 15 minutes → dropped). Metrics: `payments_pending_overdue_transactions` (rows pending
 * for more than an hour: alert on > 0) and `payments_reconciled_total{outcome}`.
 */
@Injectable()
export class PaymentReconciler {
  private readonly logger = new Logger('PaymentReconciler');
  private readonly overdueGauge: Gauge;
  private readonly reconciled: Counter<'outcome'>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly rows: LedgerRepository,
    private readonly provider: PaymentProvider,
    private readonly ledger: LedgerService,
    private readonly subscriptions: SubscriptionsService,
    metrics: Metrics,
  ) {
    this.overdueGauge = new Gauge({ name: 'payments_pending_overdue_transactions', help: 'Ledger rows (card charges and refunds) and first subscription charges pending at the provider for more than an hour, as of the last reconciler run: alert when above 0', registers: [metrics.registry] });
    this.reconciled = new Counter({ name: 'payments_reconciled_total', help: 'Pending charges the reconciler asked the provider about, by outcome (succeeded, failed, unknown)', labelNames: ['outcome'] as const, registers: [metrics.registry] });
  }

  async run(now: Date = new Date(), limit = 100): Promise<ReconcileSummary> {
    const summary: ReconcileSummary = { checked: 0, succeeded: 0, failed: 0, unknown: 0, subscriptions: { checked: 0, succeeded: 0, failed: 0, unknown: 0 }, refunds: { succeeded: 0, failed: 0, unknown: 0 }, overdue: 0 };
    for (let i = 0; i < limit; i++) {
      const row = await this.claim(now);
      if (!row) break;
      summary.checked++;
      const outcome = await this.ask(row, now);
      this.reconciled.inc({ outcome: outcome.status === 'pending' ? 'unknown' : outcome.status });
      if (outcome.status === 'succeeded' || outcome.status === 'failed') {
        await this.uow.transaction(async () => {
          const rows = await this.rows.pendingChargesOfBatch(Scope.company(row.company_id), row.id, row.batch_id);
          await this.ledger.settlePending(rows.map((r) => ({ id: r.id, companyId: r.company_id, orderId: r.order_id })), outcome);
        });
        summary[outcome.status]++;
      } else {
        if (outcome.status === 'pending' && outcome.reference) {
          await this.uow.transaction(() => this.ledger.settlePending([{ id: row.id, companyId: row.company_id, orderId: row.order_id }], outcome));
        }
        summary.unknown++;
      }
    }
    // First subscription charges whose answer was lost (a subscribe answered 202): same lookup, settled by the subscriptions' one path.
    for (let i = 0; i < limit; i++) {
      const row = await this.subscriptions.claimPendingFirstCharge(now);
      if (!row) break;
      summary.subscriptions.checked++;
      const outcome = await this.ask(row, now);
      this.reconciled.inc({ outcome: outcome.status === 'pending' ? 'unknown' : outcome.status });
      await this.subscriptions.settleFirstCharge(row.subscription_id, outcome, null);
      summary.subscriptions[outcome.status === 'succeeded' || outcome.status === 'failed' ? outcome.status : 'unknown']++;
    }
    summary.refunds = await this.ledger.executeRefunds(now);
    const before = new Date(now.getTime() - PENDING_ALERT_AFTER_MS);
    const n = (await this.rows.pendingSince(RECONCILIATION, before)) + (await this.subscriptions.pendingFirstChargesBefore(before));
    summary.overdue = n;
    this.overdueGauge.set(n);
    if (n) this.logger.error({ msg: 'payments pending at the provider for more than an hour', count: n });
    return summary;
  }

  /** The next pending charge due for a check (one per pay-all-dues batch: its first row), its next check pushed back. */
  private claim(now: Date): Promise<ClaimedCharge | null> {
    return this.uow.transaction(async () => {
      const row = await this.rows.claimablePendingCharge(RECONCILIATION, now);
      if (!row) return null;
      await this.rows.pushBack(Scope.company(row.company_id), row.id, nextCheck(now, Number(row.check_attempts) + 1));
      return row;
    });
  }

  /** The provider's word on the charge, with no transaction open. */
  private async ask(row: Lookup, now: Date): Promise<ProviderOutcome> {
    let found: ChargeResult | PendingChargeResult | null;
    try {
      found = row.buyer_ref || row.provider_ref ? await this.provider.lookupCharge({ idempotencyKey: row.idempotency_key, reference: row.provider_ref, buyerRef: row.buyer_ref ?? '', createdAfter: new Date(row.created_at) }) : null;
    } catch (e) {
      if (!isUnknownOutcome(e)) this.logger.error({ msg: 'charge lookup failed', transaction_id: row.id, error: e instanceof Error ? e.message : String(e) });
      return { status: 'unknown', reference: null };
    }
    if (found) return { status: found.status, reference: found.reference, failureCode: found.failureCode ?? null };
    if (now.getTime() - new Date(row.created_at).getTime() >= NOT_FOUND_FAIL_AFTER_MS) return { status: 'failed', reference: null, failureCode: 'not_charged' };
    return { status: 'unknown', reference: null };
  }
}
