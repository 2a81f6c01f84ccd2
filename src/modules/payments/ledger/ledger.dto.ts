import { ApiProperty } from '@nestjs/swagger';
import { ExclusiveFields } from '../../../common/http/openapi-strict';
import { PageQuery } from '../../../common/http/pagination';
import { BoolField, IntField, BoolQuery, EnumField, EnumQuery, TextField, UuidField, UuidQuery } from '../../../common/validation/fields';
import { orderNumber, type OrderBalance, type OrderDue } from '../../orders';
import { OFFLINE_METHODS, PAYMENT_METHODS, REFUND_TARGETS, TRANSACTION_KINDS, TRANSACTION_STATUSES, type OfflineMethod, type PaymentBuyer, type PaymentInstrument, type PaymentTransaction, type RefundTarget } from './ledger.entities';

const iso = (d: Date) => d.toISOString();

// ---------------------------------------------------------------- bodies

export class IdentityDto {
  @EnumField(REFUND_TARGETS, { optional: true, description: 'Where refunds of cancelled paid orders go: the wallet (default) or back to the card that paid.' }) refund_to?: RefundTarget;
}

export class InstrumentTokenDto {
  @TextField({ max: 120, description: 'A token from the provider\'s client-side form. Sandbox: tok_visa (succeeds), tok_declined (card_declined), tok_insufficient_funds (insufficient_funds), tok_3ds (authentication_required, refused).', example: 'tok_visa' })
  token: string;
}

const CARD_ID = '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
/** The alternatives of a payment body (`@BodyExamples`): a card, or the wallet. */
export const PAY_EXAMPLES = {
  card: { summary: 'The whole balance by card', value: { instrument_id: CARD_ID } },
  part: { summary: 'Part of the balance by card', value: { instrument_id: CARD_ID, amount: 15000 } },
  wallet: { summary: 'From the wallet', value: { use_wallet: true } },
};
export const PAY_ALL_EXAMPLES = {
  card: { summary: 'Every due in one card charge', value: { instrument_id: CARD_ID } },
  wallet: { summary: 'Every due from the wallet', value: { use_wallet: true } },
};

@ExclusiveFields(['instrument_id', 'use_wallet'])
export class PayOrderDto {
  @UuidField({ optional: true, description: 'One of the caller\'s payment instruments. Give this or `use_wallet`.' }) instrument_id?: string;
  @BoolField({ optional: true, description: 'Pay from the wallet instead of an instrument.' }) use_wallet?: boolean;
  @IntField({ optional: true, min: 1, description: 'Minor units, at most the balance (default: the whole balance).' }) amount?: number;
}

@ExclusiveFields(['instrument_id', 'use_wallet'])
export class PayAllDuesDto {
  @UuidField({ optional: true, description: 'One of the caller\'s payment instruments: ONE charge for every due. Give this or `use_wallet`.' }) instrument_id?: string;
  @BoolField({ optional: true, description: 'Pay every due from the wallet (it must cover them all).' }) use_wallet?: boolean;
}

export class PaymentReceivedDto {
  @UuidField({ description: 'An order of the company with a balance.' }) order_id: string;
  @EnumField(OFFLINE_METHODS) method: OfflineMethod;
  @TextField({ max: 120, description: 'Receipt, cheque or bank transfer reference.', example: 'CHQ-004211' }) reference: string;
  @IntField({ optional: true, min: 1, description: 'Minor units, at most the balance (default: the whole balance).' }) amount?: number;
  @TextField({ optional: true, max: 500 }) note?: string;
}

export class TransactionQuery extends PageQuery {
  @EnumQuery(TRANSACTION_KINDS) kind?: string;
  @EnumQuery(TRANSACTION_STATUSES) status?: string;
  @EnumQuery(PAYMENT_METHODS) method?: string;
  @UuidQuery() order_id?: string;
  @UuidQuery() customer_id?: string;
}

export class CustomerTransactionQuery extends PageQuery {
  @EnumQuery(TRANSACTION_KINDS) kind?: string;
  @EnumQuery(TRANSACTION_STATUSES) status?: string;
  @UuidQuery() order_id?: string;
}

export class DuesListQuery extends PageQuery {
  @UuidQuery() customer_id?: string;
  @BoolQuery('Only orders past their due date (true) or not yet (false).') overdue?: boolean;
}

export class CustomerDuesQuery extends PageQuery {
  @BoolQuery('Only orders past their due date (true) or not yet (false).') overdue?: boolean;
}

// ---------------------------------------------------------------- answers

export class BuyerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'sandbox' }) provider: string;
  @ApiProperty({ example: 'cus_sbx_1f2e3d4c5b6a7980a1b2c3d4' }) provider_reference: string;
  @ApiProperty({ enum: REFUND_TARGETS }) refund_to: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  static of(b: PaymentBuyer): BuyerDto {
    return { id: b.id, provider: b.provider, provider_reference: b.providerRef, refund_to: b.refundTo, created_at: iso(b.createdAt) };
  }
}

/** A card, masked: brand, last 4 digits, expiry (the number is never stored). */
export class InstrumentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'sandbox' }) provider: string;
  @ApiProperty({ example: 'visa' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
  @ApiProperty({ example: 12, minimum: 1, maximum: 12 }) exp_month: number;
  @ApiProperty({ example: 2029 }) exp_year: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  static of(i: PaymentInstrument): InstrumentDto {
    return { id: i.id, provider: i.provider, brand: i.brand, last4: i.last4, exp_month: i.expMonth, exp_year: i.expYear, created_at: iso(i.createdAt) };
  }
}

/** One ledger row. Amounts are positive minor units; `kind` says the direction. */
export class TransactionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: TRANSACTION_KINDS }) kind: string;
  @ApiProperty({ enum: TRANSACTION_STATUSES }) status: string;
  @ApiProperty({ enum: PAYMENT_METHODS, nullable: true, type: String }) method: string | null;
  @ApiProperty({ example: 25000, minimum: 1 }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) wallet_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) instrument_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'A refund\'s charge.' }) related_transaction_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Rows of one provider charge covering several orders (pay-all-dues).' }) batch_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'ch_sbx_0a1b2c3d4e5f60718293a4b5' }) provider_reference: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'card_declined' }) failure_code: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'CHQ-004211' }) offline_reference: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The user who recorded it (null: the system).' }) created_by: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  static of(t: PaymentTransaction): TransactionDto {
    return {
      id: t.id,
      kind: t.kind,
      status: t.status,
      method: t.method,
      amount: t.amount,
      currency: t.currency,
      customer_id: t.customerId,
      order_id: t.orderId,
      wallet_id: t.walletId,
      instrument_id: t.instrumentId,
      related_transaction_id: t.relatedTransactionId,
      batch_id: t.batchId,
      provider_reference: t.providerRef,
      failure_code: t.failureCode,
      offline_reference: t.offlineReference,
      description: t.description,
      created_by: t.createdBy,
      created_at: iso(t.createdAt),
    };
  }
}

/** An order's money side. `balance_amount` = total − paid. */
export class OrderBalanceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ORD-000042' }) number: string;
  @ApiProperty({ example: 'approved' }) status: string;
  @ApiProperty({ enum: ['unpaid', 'partially_paid', 'paid', 'refunded'] }) payment_status: string;
  @ApiProperty({ example: 50339 }) total_amount: number;
  @ApiProperty({ example: 25000 }) paid_amount: number;
  @ApiProperty({ example: 25339 }) balance_amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ format: 'date' }) due_date: string;
  static of(o: OrderBalance): OrderBalanceDto {
    return { id: o.id, number: orderNumber(o.number), status: o.status, payment_status: o.paymentStatus, total_amount: o.totalAmount, paid_amount: o.paidAmount, balance_amount: o.balanceAmount, currency: o.currency, due_date: o.dueDate };
  }
}

export class OrderDueDto extends OrderBalanceDto {
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiProperty() customer_name: string;
  @ApiProperty({ minimum: 0, description: 'Days past the due date (0: not yet due).' }) days_past_due: number;
  static ofDue(o: OrderDue): OrderDueDto {
    return { ...OrderBalanceDto.of(o), customer_id: o.customerId, customer_name: o.customerName, days_past_due: o.daysPastDue };
  }
}

/** Totals of the dues, minor units; the overdue part by days past due. */
export class DuesTotalsDto {
  @ApiProperty({ minimum: 0 }) orders_count: number;
  @ApiProperty({ minimum: 0 }) total_due_amount: number;
  @ApiProperty({ minimum: 0 }) overdue_count: number;
  @ApiProperty({ minimum: 0 }) overdue_amount: number;
  @ApiProperty({ minimum: 0, description: 'Due today or later.' }) not_yet_due_amount: number;
  @ApiProperty({ minimum: 0, description: '1–30 days past due.' }) aged_0_30_amount: number;
  @ApiProperty({ minimum: 0, description: '31–60 days past due.' }) aged_31_60_amount: number;
  @ApiProperty({ minimum: 0, description: '61–90 days past due.' }) aged_61_90_amount: number;
  @ApiProperty({ minimum: 0, description: 'More than 90 days past due.' }) aged_90_plus_amount: number;
}

export class PaymentResultDto {
  @ApiProperty({ type: TransactionDto, description: 'The ledger row of this payment (`status: failed` with `failure_code` when the card was declined: the balance is unchanged).' }) transaction: TransactionDto;
  @ApiProperty({ type: OrderBalanceDto }) order: OrderBalanceDto;
}

export class PayAllDuesResultDto {
  @ApiProperty({ enum: ['succeeded', 'failed', 'pending'], description: '`pending`: the provider settles the charge later (its webhook).' }) status: string;
  @ApiProperty({ description: 'The whole amount charged (or refused), minor units.' }) amount: number;
  @ApiProperty({ nullable: true, type: String, example: 'card_declined' }) failure_code: string | null;
  @ApiProperty({ type: [TransactionDto], description: 'One row per order paid (one failed row when the charge failed).' }) transactions: TransactionDto[];
  @ApiProperty({ type: [OrderBalanceDto], description: 'The orders, oldest due first, after the payment.' }) orders: OrderBalanceDto[];
}

/**
 * A customer's wallet with the company (balance 0 before its first credit). For a company user: the
 * company's wallets summed; for a driver: nothing (0).
 */
export class WalletDto {
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The customer\'s wallet (null: none yet, or a company user\'s summary).' }) id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) customer_id: string | null;
  @ApiProperty({ minimum: 0, example: 5000 }) balance_amount: number;
  @ApiProperty({ nullable: true, type: String, example: 'USD' }) currency: string | null;
  @ApiProperty({ minimum: 0, description: 'Wallets summed (1 or 0 for a customer).' }) wallets_count: number;
}
