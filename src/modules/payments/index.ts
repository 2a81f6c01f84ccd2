/** What other modules may use of payments (never its entities). */
export { PaymentsModule } from './payments.module';
/** The ledger: other modules of its layer credit overpaid orders through it (accountability: a waived policy fee). */
export { LedgerService } from './ledger/ledger.service';
export { SubscriptionsService } from './subscriptions/subscriptions.service';
/** The dues totals with their ageing buckets (the company dashboard shows them too). */
export { DuesTotalsDto } from './ledger/ledger.dto';
