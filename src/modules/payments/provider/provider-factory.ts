import { AppConfig } from '../../../config/app-config';
import { UnitOfWork } from '../../../database/unit-of-work';
import { PaymentProvider } from './payment-provider';
import { SandboxPaymentProvider } from './sandbox-provider';
import { StripePaymentProvider } from './stripe-provider';

/**
 * The Nest provider of `PaymentProvider`: the implementation `PAYMENT_PROVIDER` names. The sandbox is
 * always registered (tests read its charges); the Stripe adapter is built only with `stripe`.
 */
export const PAYMENT_PROVIDER = {
  provide: PaymentProvider,
  inject: [AppConfig, SandboxPaymentProvider, UnitOfWork],
  useFactory: (config: AppConfig, sandbox: SandboxPaymentProvider, uow: UnitOfWork): PaymentProvider =>
    outsideUnits(uow, config.paymentProvider === 'stripe' ? new StripePaymentProvider(config) : sandbox),
};

/**
 * The provider as the services see it: a call made while a unit of work is open (a transaction, or a
 * row lock held) throws before it reaches the provider. A slow or lost answer would otherwise hold the
 * transaction's locks and connection, and a rollback after a successful charge would lose its record:
 * reserve (commit a pending row), call, settle in a new unit (docs/payments-provider-faults.md).
 */
export function outsideUnits(uow: Pick<UnitOfWork, 'active'>, provider: PaymentProvider): PaymentProvider {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      // Methods of the class are wrapped; a function set on the instance itself (a test's spy) is returned as it is.
      if (typeof value !== 'function' || key === 'constructor' || Object.prototype.hasOwnProperty.call(target, key)) return value;
      return (...args: unknown[]) => {
        if (uow.active) throw new Error(`PaymentProvider#${String(key)} called inside a unit of work: reserve, commit, then call the provider (docs/payments-provider-faults.md)`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
