import { Injectable } from '@nestjs/common';
import { Scope, SystemReach } from '../../../common/access/scope';
import { OrderOperations } from '../../orders';
import { UnitOfWork } from '../../../database/unit-of-work';
import { LedgerRepository } from './ledger.repository';

export interface OverdueSummary {
  /** Companies with orders to look at. */
  companies: number;
  /** Orders marked overdue for their due date (notice 1). */
  marked: number;
  /** Reminders given (notices 2 and 3: 7 and 30 days overdue). */
  reminders: number;
}

/**
 * The overdue side of the scheduled work (README "Scheduled work"): at `now`, every order with a balance
 * past its due date (the company's date; the dues lists' `overdue` filter says the same) gets
 * `order.overdue` once per due date and notice (marked, 7 and 30 days overdue). The orders module marks
 * its rows (`OrderOperations.markOverdue`, `FOR UPDATE SKIP LOCKED`, batches of `batch`); the events are
 * recorded in the same transaction, so a crash or a second instance never gives a notice twice.
 */
@Injectable()
export class OverdueOrders {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orders: OrderOperations,
    private readonly events: LedgerRepository,
  ) {}

  async run(now: Date = new Date(), batch = 200): Promise<OverdueSummary> {
    const summary: OverdueSummary = { companies: 0, marked: 0, reminders: 0 };
    for (const companyId of await this.orders.overdueCandidates(SystemReach.of('overdue notices: the companies with orders past due'), now)) {
      summary.companies++;
      for (;;) {
        const marked = await this.uow.transaction(async () => {
          const rows = await this.orders.markOverdue(Scope.company(companyId), now, batch);
          if (rows.length) {
            await this.events.recordEvents(
              ...rows.map((o) => ({
                type: 'order.overdue' as const,
                aggregateType: 'order',
                aggregateId: o.id,
                companyId,
                actorId: null,
                payload: { number: o.number, customer_id: o.customerId, balance_amount: o.balanceAmount, currency: o.currency, due_date: o.dueDate, days_overdue: o.daysOverdue, notice: o.notice },
              })),
            );
          }
          return rows;
        });
        for (const o of marked) summary[o.notice === 1 ? 'marked' : 'reminders']++;
        if (marked.length < batch) break;
      }
    }
    return summary;
  }
}
