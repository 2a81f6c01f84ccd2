import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { OverdueOrders } from '../ledger/overdue-orders';
import { PaymentReconciler } from '../ledger/payment-reconciler';
import { SubscriptionRenewals } from '../subscriptions/subscription-renewals';

/**
 * The payments module's scheduled jobs (README "Scheduled work"). Each only calls a service method with
 * the current time, so tests call those methods with a chosen `now` instead of waiting. They run on every
 * instance (`SCHEDULER_ENABLED`, default true; off in tests): the services claim their rows with
 * `FOR UPDATE SKIP LOCKED`, so instances share the work and nothing is done twice. Each run logs one
 * summary line; a failed run is logged and the next one tries again.
 */
@Injectable()
export class MoneyJobs {
  private readonly logger = new Logger('MoneyJobs');

  constructor(
    private readonly renewals: SubscriptionRenewals,
    private readonly overdue: OverdueOrders,
    private readonly reconciler: PaymentReconciler,
  ) {}

  /** Every minute (second 40): pending card charges and refunds asked about at the provider and settled (issue #22). */
  @Cron('40 * * * * *', { name: 'payment-reconciler', waitForCompletion: true })
  reconcilePayments(): Promise<void> {
    return this.logged('payment reconciler', () => this.reconciler.run(new Date()));
  }

  /** Hourly (minute 5): ends and renews the subscriptions whose period (or retry time) has come. */
  @Cron('0 5 * * * *', { name: 'subscription-renewals', waitForCompletion: true })
  renewSubscriptions(): Promise<void> {
    return this.logged('subscription renewals', () => this.renewals.run(new Date()));
  }

  /** Hourly (minute 20), so every company's midnight is met within the hour: overdue orders and their reminders. */
  @Cron('0 20 * * * *', { name: 'overdue-orders', waitForCompletion: true })
  markOverdueOrders(): Promise<void> {
    return this.logged('overdue orders', () => this.overdue.run(new Date()));
  }

  private async logged(job: string, run: () => Promise<object>): Promise<void> {
    const started = Date.now();
    try {
      const summary = await run();
      this.logger.log({ msg: `scheduled job done: ${job}`, job, duration_ms: Date.now() - started, ...summary });
    } catch (e) {
      this.logger.error({ msg: `scheduled job failed: ${job}`, job, duration_ms: Date.now() - started, error: e instanceof Error ? e.message : String(e) });
    }
  }
}
