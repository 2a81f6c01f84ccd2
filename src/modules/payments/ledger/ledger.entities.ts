import { Check, Column, Entity, ForeignKey, Index } from 'typeorm';
import { Tenant } from '../../../common/access/tenant-policy';
import { BaseEntity } from '../../../database/base.entity';

export const TRANSACTION_KINDS = ['charge', 'refund', 'offline_payment', 'fee', 'adjustment', 'wallet_credit', 'wallet_debit'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];
export const TRANSACTION_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const PAYMENT_METHODS = ['instrument', 'wallet', 'cash', 'cheque', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const OFFLINE_METHODS = ['cash', 'cheque', 'bank_transfer'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
export const REFUND_TARGETS = ['wallet', 'instrument'] as const;
export type RefundTarget = (typeof REFUND_TARGETS)[number];

/** A user's buyer identity with the payment provider (one per user). */
@Tenant({ customer: 'userId', driver: 'userId' })
@Entity('payment_buyers')
@Index('uq_payment_buyers_user', ['userId'], { unique: true })
@Check('payment_buyers_refund_to_check', `refund_to IN ('wallet', 'instrument')`)
export class PaymentBuyer extends BaseEntity {
  @Index('idx_payment_buyers_company') @ForeignKey('companies', { name: 'payment_buyers_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('users', { name: 'payment_buyers_user_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) userId: string;
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) providerRef: string;
  /** Where a cancelled paid order's refund goes: the wallet (default) or back to the card. */
  @Column({ type: 'text', default: 'wallet' }) refundTo: RefundTarget;
}

/** A card attached to a buyer with the provider: the provider's reference and what may be shown (never the number). */
@Tenant({ customer: 'userId', driver: 'userId' })
@Entity('payment_instruments')
@Index('idx_payment_instruments_user_created', ['userId', 'createdAt', 'id'])
@Check('payment_instruments_exp_month_check', `exp_month BETWEEN 1 AND 12`)
export class PaymentInstrument extends BaseEntity {
  @Index('idx_payment_instruments_company') @ForeignKey('companies', { name: 'payment_instruments_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('users', { name: 'payment_instruments_user_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) userId: string;
  @Index('idx_payment_instruments_buyer') @ForeignKey('payment_buyers', { name: 'payment_instruments_buyer_id_fkey', onDelete: 'CASCADE' }) @Column({ type: 'uuid' }) buyerId: string;
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) providerRef: string;
  @Column({ type: 'text' }) brand: string;
  @Column({ type: 'char', length: 4 }) last4: string;
  @Column({ type: 'smallint' }) expMonth: number;
  @Column({ type: 'smallint' }) expYear: number;
}

/** A customer's wallet with one company: the balance is the sum of its ledger rows, kept in the same transaction, never negative (checked by the database). */
@Tenant({ customer: 'customerId', driver: false })
@Entity('wallets')
@Index('uq_wallets_company_customer', ['companyId', 'customerId'], { unique: true })
@Check('wallets_balance_check', `balance >= 0`)
export class Wallet extends BaseEntity {
  @ForeignKey('companies', { name: 'wallets_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Index('idx_wallets_customer') @ForeignKey('customers', { name: 'wallets_customer_id_fkey' }) @Column({ type: 'uuid' }) customerId: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'int', default: 0 }) balance: number;
}

/** One money movement (the ledger). Amounts are positive minor units; the kind says the direction. */
@Tenant({ customer: 'customerId', driver: false })
@Entity('payment_transactions')
@Index('uq_payment_transactions_company_key', ['companyId', 'idempotencyKey'], { unique: true, where: 'idempotency_key IS NOT NULL' })
@Index('idx_payment_transactions_company_created', ['companyId', 'createdAt', 'id'])
@Index('idx_payment_transactions_company_amount', ['companyId', 'amount', 'id'])
@Index('idx_payment_transactions_company_kind_created', ['companyId', 'kind', 'createdAt', 'id'])
@Index('idx_payment_transactions_company_status_created', ['companyId', 'status', 'createdAt', 'id'])
@Index('idx_payment_transactions_company_method_created', ['companyId', 'method', 'createdAt', 'id'])
@Index('idx_payment_transactions_customer_created', ['customerId', 'createdAt', 'id'])
@Index('idx_payment_transactions_order_created', ['orderId', 'createdAt', 'id'], { where: 'order_id IS NOT NULL' })
@Index('idx_payment_transactions_wallet_created', ['walletId', 'createdAt', 'id'], { where: 'wallet_id IS NOT NULL' })
@Index('idx_payment_transactions_provider_ref', ['providerRef'], { where: 'provider_ref IS NOT NULL' })
@Index('idx_payment_transactions_pending_check', ['nextCheckAt', 'id'], { where: "status = 'pending'" })
@Check('payment_transactions_kind_check', `kind IN ('charge', 'refund', 'offline_payment', 'fee', 'adjustment', 'wallet_credit', 'wallet_debit')`)
@Check('payment_transactions_status_check', `status IN ('pending', 'succeeded', 'failed')`)
@Check('payment_transactions_method_check', `method IN ('instrument', 'wallet', 'cash', 'cheque', 'bank_transfer')`)
@Check('payment_transactions_amount_check', `amount > 0`)
export class PaymentTransaction extends BaseEntity {
  @ForeignKey('companies', { name: 'payment_transactions_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @ForeignKey('customers', { name: 'payment_transactions_customer_id_fkey' }) @Column({ type: 'uuid' }) customerId: string;
  @ForeignKey('orders', { name: 'payment_transactions_order_id_fkey' }) @Column({ type: 'uuid', nullable: true }) orderId: string | null;
  @ForeignKey('wallets', { name: 'payment_transactions_wallet_id_fkey' }) @Column({ type: 'uuid', nullable: true }) walletId: string | null;
  @Index('idx_payment_transactions_instrument', { where: 'instrument_id IS NOT NULL' })
  @ForeignKey('payment_instruments', { name: 'payment_transactions_instrument_id_fkey', onDelete: 'SET NULL' })
  @Column({ type: 'uuid', nullable: true })
  instrumentId: string | null;
  /** A refund's charge. */
  @Index('idx_payment_transactions_related', { where: 'related_transaction_id IS NOT NULL' })
  @ForeignKey('payment_transactions', { name: 'payment_transactions_related_transaction_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  relatedTransactionId: string | null;
  /** Rows of one provider charge covering several orders (pay-all-dues). */
  @Index('idx_payment_transactions_batch', { where: 'batch_id IS NOT NULL' }) @Column({ type: 'uuid', nullable: true }) batchId: string | null;
  @Column({ type: 'text' }) kind: TransactionKind;
  @Column({ type: 'text' }) status: TransactionStatus;
  @Column({ type: 'text', nullable: true }) method: PaymentMethod | null;
  @Column({ type: 'int' }) amount: number;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'text', nullable: true }) providerRef: string | null;
  @Column({ type: 'text', nullable: true }) failureCode: string | null;
  @Column({ type: 'text', nullable: true }) offlineReference: string | null;
  /** The key of the provider call that moved the money (derived from our transaction id), unique per company. */
  @Column({ type: 'text', nullable: true }) idempotencyKey: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'uuid', nullable: true }) createdBy: string | null;
  /** A pending row: when the reconciler asks the provider about it next (issue #22). */
  @Column({ type: 'timestamptz', nullable: true }) nextCheckAt: Date | null;
  /** A pending row: how often the reconciler has asked. */
  @Column({ type: 'int', default: 0 }) checkAttempts: number;
}
