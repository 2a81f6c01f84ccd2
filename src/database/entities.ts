import { IdempotencyKey } from '../common/idempotency/idempotency-key.entity';
import { MailMessage } from '../common/mail/mail-message.entity';
import { OutboxDelivery } from '../common/outbox/outbox-delivery.entity';
import { OutboxEvent } from '../common/outbox/outbox-event.entity';
import { Admin } from '../modules/admin/admin.entity';
import { Attendance, AttendanceBreak } from '../modules/attendance/attendance.entity';
import { AuthToken } from '../modules/auth/auth-token.entity';
import { OneTimeCode } from '../modules/auth/one-time-code.entity';
import { Asset, AssetCategory, AssetHistory, AssetSpecification, AssetSpecificationWasteType, AssetStyle, WasteType } from '../modules/catalogue/catalogue.entities';
import { JobEvidence, JobIssue, JobLocation, StationTicket } from '../modules/dispatch/dispatch.entities';
import { Company } from '../modules/companies/company.entity';
import { Customer } from '../modules/customers/customer.entity';
import { CustomerAddress } from '../modules/customers/customer-address.entity';
import { Driver } from '../modules/drivers/driver.entity';
import { Job, JobStatusChange } from '../modules/jobs/job.entity';
import { Media } from '../modules/media/media.entity';
import { Order, OrderChangeRequest, OrderLine, OrderStatusChange, OrderStatusCount } from '../modules/orders/order.entity';
import { Truck, TruckType } from '../modules/fleet/fleet.entity';
import { PaymentTerm, Policy, PricingProfile, PricingProfileItem, Tax } from '../modules/pricing/pricing.entity';
import { Promotion } from '../modules/promotions/promotion.entity';
import { Lot, LotHoliday, Station, StationHoliday } from '../modules/sites/site.entity';
import { CompanyDocument, CompanySettings } from '../modules/companies/company-admin.entity';
import { QrCode } from '../modules/qr-codes/qr-code.entity';
import { User } from '../modules/users/user.entity';
import { Leave, LeaveRequest, LeaveRequestDate } from '../modules/leaves/leave.entities';
import { MerchantAccount, MerchantTermsAcceptance } from '../modules/payments/onboarding/merchant-account.entity';
import { Plan, Subscription, SubscriptionCharge } from '../modules/payments/subscriptions/subscription.entities';

import { PaymentBuyer, PaymentInstrument, PaymentTransaction, Wallet } from '../modules/payments/ledger/ledger.entities';
import { WebhookDelivery, WebhookEndpoint, WebhookInboundEvent } from '../modules/payments/webhooks/webhook.entities';
import { Chat, ChatMessage, ChatRead } from '../modules/communication/chats/chat.entities';
import { Notification } from '../modules/communication/notifications/notification.entity';
import { ContactMessage } from '../modules/communication/contact/contact-message.entity';
import { ReportDailyCounter, ReportMonthlyCounter, ReportOrderFact } from '../modules/reports/report.entities';
import { AuditEntry } from '../modules/platform/audit-entry.entity';
import { CustomerDemerit, DisputeMessage, PolicyViolation } from '../modules/accountability/accountability.entities';
/** Every TypeORM entity. A new module adds its entities here and its tables in a migration. */
export const ENTITIES = [
  IdempotencyKey,
  MailMessage,
  OutboxEvent,
  OutboxDelivery,
  Admin,
  Attendance, AttendanceBreak,
  AuthToken,
  OneTimeCode,
  WasteType, AssetCategory, AssetStyle, AssetSpecification, AssetSpecificationWasteType, Asset, AssetHistory, QrCode,
  Company,
  Customer,
  CustomerAddress,
  Driver,
  Media,
  User,
  Lot, LotHoliday, Station, StationHoliday,
  CompanyDocument, CompanySettings,
  Tax, PaymentTerm, Policy, PricingProfile, PricingProfileItem, Promotion, TruckType, Truck,
  Order, OrderLine, OrderStatusChange, OrderStatusCount, OrderChangeRequest, Job, JobStatusChange,
  JobEvidence, JobIssue, StationTicket, JobLocation,
  LeaveRequest, LeaveRequestDate, Leave,
  PaymentBuyer, PaymentInstrument, Wallet, PaymentTransaction,
  MerchantAccount, MerchantTermsAcceptance,
  WebhookEndpoint, WebhookDelivery, WebhookInboundEvent,
  Plan, Subscription, SubscriptionCharge,
  Chat, ChatMessage, ChatRead,
  Notification, ContactMessage,
  ReportDailyCounter, ReportMonthlyCounter, ReportOrderFact,
  AuditEntry,
  PolicyViolation, DisputeMessage, CustomerDemerit,
];
