import { MerchantAccount, MerchantTermsAcceptance } from './onboarding/merchant-account.entity';
import { Plan, Subscription, SubscriptionCharge } from './subscriptions/subscription.entities';
import { PaymentBuyer, PaymentInstrument, PaymentTransaction, Wallet } from './ledger/ledger.entities';
import { WebhookDelivery, WebhookEndpoint, WebhookInboundEvent } from './webhooks/webhook.entities';

/**
 * This module's entities (its tables). Every data source gets them from here (src/app.entities.ts loads
 * the `ENTITIES` of each module's entities.ts); a new entity of the module is added to this list.
 */
export const ENTITIES = [MerchantAccount, MerchantTermsAcceptance, Plan, Subscription, SubscriptionCharge, PaymentBuyer, PaymentInstrument, PaymentTransaction, Wallet, WebhookDelivery, WebhookEndpoint, WebhookInboundEvent];
