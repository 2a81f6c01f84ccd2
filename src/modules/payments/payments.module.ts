import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers';
import { OrdersModule } from '../orders';
import { CompanyPaymentsController, CustomerPaymentsController, WalletController } from './ledger/ledger.controllers';
import { LedgerService } from './ledger/ledger.service';
import { CreditOverpaidOrder, RefundCancelledOrder } from './ledger/refund-subscribers';
import { PaymentProvider } from './provider/payment-provider';
import { PAYMENT_PROVIDER, SandboxPaymentProvider } from './provider/sandbox-provider';
import { MerchantReadiness } from './onboarding/merchant-readiness';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsService } from './subscriptions/subscriptions.service';
import { WebhookDeliverySubscriber } from './webhooks/webhook-delivery.subscriber';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';
import { InboundWebhooksController } from './webhooks/inbound-webhooks.controller';
import { InboundWebhooksService } from './webhooks/inbound-webhooks.service';

/**
 * Payments (layer 6, issue #13): the payment provider behind one interface (sandbox, a real adapter),
 * the ledger of transactions, wallets, dues, merchant onboarding, subscriptions and inbound webhooks.
 * It writes order balances through the orders module (OrderOperations) in the same transaction.
 */
/** The ledger, the provider, payments, wallets and dues. */
const LEDGER = {
  imports: [OrdersModule, CustomersModule],
  controllers: [CustomerPaymentsController, CompanyPaymentsController, WalletController],
  providers: [SandboxPaymentProvider, PAYMENT_PROVIDER, LedgerService, RefundCancelledOrder, CreditOverpaidOrder],
  exports: [PaymentProvider, LedgerService],
};
/** Merchant onboarding (the company's state with the provider, fees, terms). */
const ONBOARDING = { imports: [] as never[], controllers: [OnboardingController], providers: [MerchantReadiness, OnboardingService], exports: [MerchantReadiness] };
/** Plans, subscriptions (trial, first month charged, cancel at period end) and the plan limits it registers. */
const SUBSCRIPTIONS = { imports: [] as never[], controllers: [SubscriptionsController], providers: [SubscriptionsService], exports: [] as never[] };

/** Webhooks: outbound (endpoints, signed delivery by the event relay, the delivery log) and the provider's inbound events. */
const WEBHOOKS = { imports: [] as never[], controllers: [WebhooksController, InboundWebhooksController], providers: [WebhooksService, WebhookDeliverySubscriber, InboundWebhooksService], exports: [] as never[] };

@Module({
  imports: [...LEDGER.imports, ...ONBOARDING.imports, ...SUBSCRIPTIONS.imports, ...WEBHOOKS.imports],
  controllers: [...LEDGER.controllers, ...ONBOARDING.controllers, ...SUBSCRIPTIONS.controllers, ...WEBHOOKS.controllers],
  providers: [...LEDGER.providers, ...ONBOARDING.providers, ...SUBSCRIPTIONS.providers, ...WEBHOOKS.providers],
  exports: [...LEDGER.exports, ...ONBOARDING.exports, ...SUBSCRIPTIONS.exports, ...WEBHOOKS.exports],
})
export class PaymentsModule {}
