/** What other modules may use of payments (never its entities). */
export { PaymentsModule } from './payments.module';
