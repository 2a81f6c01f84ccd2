import { AppConfig } from '../../../config/app-config';
import { PaymentProvider } from './payment-provider';
import { SandboxPaymentProvider } from './sandbox-provider';
import { StripePaymentProvider } from './stripe-provider';

/**
 * The Nest provider of `PaymentProvider`: the implementation `PAYMENT_PROVIDER` names. The sandbox is
 * always registered (tests read its charges); the Stripe adapter is built only with `stripe`.
 */
export const PAYMENT_PROVIDER = {
  provide: PaymentProvider,
  inject: [AppConfig, SandboxPaymentProvider],
  useFactory: (config: AppConfig, sandbox: SandboxPaymentProvider): PaymentProvider => (config.paymentProvider === 'stripe' ? new StripePaymentProvider(config) : sandbox),
};
