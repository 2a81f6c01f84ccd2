import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { composeModule, ModuleGroup } from '../../common/module-group';
import { CompaniesModule, CompanyAdminModule } from '../companies';
import { CustomersModule } from '../customers';
import { OrdersModule } from '../orders';
import { CompanyPaymentsController, CustomerPaymentsController, WalletController } from './ledger/ledger.controllers';
import { LedgerService } from './ledger/ledger.service';
import { LedgerRepository } from './ledger/ledger.repository';
import { PaymentBuyerRepository } from './ledger/payment-buyer.repository';
import { WalletRepository } from './ledger/wallet.repository';
import { CreditOverpaidOrder, RefundCancelledOrder, RefundRepricedOrder } from './ledger/refund-subscribers';
import { PaymentProvider } from './provider/payment-provider';
import { PAYMENT_PROVIDER } from './provider/provider-factory';
import { SandboxPaymentProvider } from './provider/sandbox-provider';
import { MerchantReadiness } from './onboarding/merchant-readiness';
import { OnboardingController } from './onboarding/onboarding.controller';
import { OnboardingService } from './onboarding/onboarding.service';
import { PlatformFees } from './onboarding/platform-fees';
import { MerchantAccountRepository } from './onboarding/merchant-account.repository';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SubscriptionsService } from './subscriptions/subscriptions.service';
import { SubscriptionRenewals } from './subscriptions/subscription-renewals';
import { SubscriptionRepository } from './subscriptions/subscription.repository';
import { OverdueOrders } from './ledger/overdue-orders';
import { MoneyJobs } from './scheduler/money-jobs';
import { PaymentReconciler } from './ledger/payment-reconciler';
import { WebhookDeliverySubscriber } from './webhooks/webhook-delivery.subscriber';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';
import { WebhookSender } from './webhooks/webhook-sender';
import { InboundWebhooksController } from './webhooks/inbound-webhooks.controller';
import { InboundWebhooksService } from './webhooks/inbound-webhooks.service';
import { InboundEventRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhooks/webhook.repository';

/**
 * Payments (layer 6, issue #13): the payment provider behind one interface (sandbox, a real adapter),
 * the ledger of transactions, wallets, dues, merchant onboarding, subscriptions and inbound webhooks.
 * It writes order balances through the orders module (OrderOperations) in the same transaction.
 */
/** The ledger, the provider, payments, wallets and dues. */
const LEDGER: ModuleGroup = {
  imports: [OrdersModule, CustomersModule, CompanyAdminModule],
  controllers: [CustomerPaymentsController, CompanyPaymentsController, WalletController],
  providers: [SandboxPaymentProvider, PAYMENT_PROVIDER, LedgerService, RefundCancelledOrder, CreditOverpaidOrder, RefundRepricedOrder, LedgerRepository, WalletRepository, PaymentBuyerRepository],
  exports: [PaymentProvider, LedgerService],
};
/** Merchant onboarding (the company's state with the provider, fees, terms). */
const ONBOARDING: ModuleGroup = { imports: [CompaniesModule], controllers: [OnboardingController], providers: [MerchantReadiness, OnboardingService, PlatformFees, MerchantAccountRepository], exports: [MerchantReadiness] };
/** Plans, subscriptions (trial, first month charged, cancel at period end) and the plan limits it registers. */
const SUBSCRIPTIONS: ModuleGroup = { imports: [CompaniesModule], controllers: [SubscriptionsController], providers: [SubscriptionsService, SubscriptionRenewals, SubscriptionRepository], exports: [SubscriptionsService] };
/** Scheduled work (README "Scheduled work"): subscription renewals and overdue orders, each a service method taking `now`. */
const SCHEDULE: ModuleGroup = { imports: [], controllers: [], providers: [OverdueOrders, PaymentReconciler, MoneyJobs], exports: [] };

/** Webhooks: outbound (endpoints, signed delivery by the event relay, the delivery log) and the provider's inbound events. */
const WEBHOOKS: ModuleGroup = { imports: [], controllers: [WebhooksController, InboundWebhooksController], providers: [WebhooksService, WebhookSender, WebhookDeliverySubscriber, InboundWebhooksService, WebhookEndpointRepository, WebhookDeliveryRepository, InboundEventRepository], exports: [] };

@Module(composeModule(LEDGER, ONBOARDING, SUBSCRIPTIONS, SCHEDULE, WEBHOOKS))
export class PaymentsModule {}
