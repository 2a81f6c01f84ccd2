import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import type { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { Page } from '../../../common/http/envelope';
import { paginate } from '../../../common/http/pagination';
import { currentManager, inTransaction } from '../../../common/idempotency/request-transaction';
import { recordEvents } from '../../../common/outbox/outbox';
import { todayIn } from '../../../common/dates';
import { INT4_MAX } from '../../../common/validation/fields';
import { CustomersService } from '../../customers';
import { OrderOperations, type OrderBalance } from '../../orders';
import { MerchantReadiness } from '../onboarding/merchant-readiness';
import { PlatformFees } from '../onboarding/platform-fees';
import { PaymentProvider, UnknownInstrumentToken } from '../provider/payment-provider';
import {
  BuyerDto,
  CustomerDuesQuery,
  CustomerTransactionQuery,
  DuesListQuery,
  DuesTotalsDto,
  IdentityDto,
  InstrumentDto,
  InstrumentTokenDto,
  OrderBalanceDto,
  OrderDueDto,
  PayAllDuesDto,
  PayAllDuesResultDto,
  PaymentReceivedDto,
  PaymentResultDto,
  PayOrderDto,
  TransactionDto,
  TransactionQuery,
  WalletDto,
} from './ledger.dto';
import { PaymentBuyer, PaymentInstrument, PaymentTransaction, Wallet, type TransactionKind } from './ledger.entities';
import { LedgerText } from './ledger-texts';

/** Which ledger rows a list or read shows. */
export interface TransactionView {
  kinds?: readonly TransactionKind[];
  /** Only rows of an order. */
  orderOnly?: boolean;
}
/** Money in: what the payments lists show. */
export const PAYMENT_KINDS: readonly TransactionKind[] = ['charge', 'offline_payment', 'wallet_debit'];
export const WALLET_KINDS: readonly TransactionKind[] = ['wallet_credit', 'wallet_debit'];

/** An order's paid amount from its succeeded ledger rows: money in minus money given back. */
const PAID_SQL = `SELECT coalesce(sum(CASE WHEN kind IN ('charge', 'offline_payment', 'wallet_debit') THEN amount WHEN kind IN ('refund', 'wallet_credit') THEN -amount ELSE 0 END), 0)::bigint::text AS paid
  FROM payment_transactions WHERE order_id = $1 AND status = 'succeeded'`;

type NewRow = Partial<PaymentTransaction> & Pick<PaymentTransaction, 'companyId' | 'customerId' | 'kind' | 'status' | 'amount' | 'currency'>;

const noneDue = () => ApiError.conflict('NOTHING_DUE', 'Nothing is due on this order.');
const bodyNotFound = (field: string) => ApiError.validation({ [field]: ['not found'] });

/**
 * The ledger (issue #13): every money movement is a `payment_transactions` row written in the same
 * transaction as the order's paid amount (OrderOperations.recordPaid, the order locked first) and the
 * wallet's balance. Card charges go through the `PaymentProvider` inside that transaction, after the
 * lock, with an idempotency key derived from the row's id.
 */
/**
 * The provider's idempotency key of a card charge. With the request's `Idempotency-Key`, it is derived
 * from that key (and the caller): a request that failed after the provider charged (Stripe unreachable
 * once it had accepted the PaymentIntent: 502, nothing recorded) and is retried with the same key finds
 * that same charge at the provider instead of making a second one. Without one, from our transaction id.
 */
export function chargeKey(actorId: string, requestKey: string | undefined, transactionId: string): string {
  return requestKey ? `charge:req:${createHash('sha256').update(`${actorId}\n${requestKey}`).digest('hex').slice(0, 40)}` : `charge:${transactionId}`;
}

@Injectable()
export class LedgerService {
  constructor(
    private readonly ds: DataSource,
    private readonly provider: PaymentProvider,
    private readonly orders: OrderOperations,
    private readonly readiness: MerchantReadiness,
    private readonly customers: CustomersService,
    private readonly fees: PlatformFees,
  ) {}

  // ------------------------------------------------------------ identities and instruments

  private async buyer(m: EntityManager, actor: Actor, companyId: string, refundTo?: IdentityDto['refund_to']): Promise<PaymentBuyer> {
    let buyer = await m.findOne(PaymentBuyer, { where: { userId: actor.id } });
    if (!buyer) {
      const { reference } = await this.provider.createBuyer({ userId: actor.id, email: actor.email, name: actor.name });
      await m.query(
        `INSERT INTO payment_buyers (company_id, user_id, provider, provider_ref, refund_to) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`,
        [companyId, actor.id, this.provider.name, reference, refundTo ?? 'wallet'],
      );
      buyer = await m.findOneOrFail(PaymentBuyer, { where: { userId: actor.id } });
    } else if (refundTo && buyer.refundTo !== refundTo) {
      await m.update(PaymentBuyer, { id: buyer.id }, { refundTo });
      buyer.refundTo = refundTo;
    }
    return buyer;
  }

  async identity(actor: Actor, dto: IdentityDto): Promise<BuyerDto> {
    const { companyId } = Scope.of(actor);
    return BuyerDto.of(await inTransaction(this.ds, (m) => this.buyer(m, actor, companyId, dto.refund_to)));
  }

  async addInstrument(actor: Actor, dto: InstrumentTokenDto): Promise<InstrumentDto> {
    const { companyId } = Scope.of(actor);
    return inTransaction(this.ds, async (m) => {
      const buyer = await this.buyer(m, actor, companyId);
      const card = await this.provider.attachInstrument(dto.token, buyer.providerRef).catch((e: unknown) => {
        if (e instanceof UnknownInstrumentToken) throw ApiError.unprocessable('INVALID_PAYMENT_TOKEN', 'The payment token is not valid.', { token: ['is not a valid payment token'] });
        throw e;
      });
      const row = m.create(PaymentInstrument, { companyId, userId: actor.id, buyerId: buyer.id, provider: this.provider.name, providerRef: card.reference, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear });
      await m.save(row);
      return InstrumentDto.of(row);
    });
  }

  /** The caller's own instruments, newest first. */
  instruments(actor: Actor, q: import('../../../common/http/pagination').PageQuery): Promise<Page<InstrumentDto>> {
    const { companyId } = Scope.of(actor);
    const qb = currentManager(this.ds).createQueryBuilder(PaymentInstrument, 'i').where('i.userId = :userId AND i.companyId = :companyId', { userId: actor.id, companyId });
    return paginate(qb, q, { sortable: { created_at: 'i.createdAt' }, map: InstrumentDto.of });
  }

  // ------------------------------------------------------------ paying

  private async instrumentOf(m: EntityManager, actor: Actor, companyId: string, id: string): Promise<{ instrument: PaymentInstrument; buyer: PaymentBuyer }> {
    const instrument = await m.findOne(PaymentInstrument, { where: { id, userId: actor.id, companyId } });
    if (!instrument) throw bodyNotFound('instrument_id');
    const buyer = await m.findOneOrFail(PaymentBuyer, { where: { id: instrument.buyerId } });
    return { instrument, buyer };
  }

  private assertOneMethod(dto: { instrument_id?: string; use_wallet?: boolean }): void {
    if (!!dto.instrument_id === !!dto.use_wallet) {
      throw ApiError.validation({ instrument_id: ['give an instrument_id or use_wallet: true (not both)'] });
    }
  }

  private async insertRow(m: EntityManager, row: NewRow, actorId: string | null): Promise<PaymentTransaction> {
    const entity = m.create(PaymentTransaction, { orderId: null, walletId: null, instrumentId: null, relatedTransactionId: null, batchId: null, method: null, providerRef: null, failureCode: null, offlineReference: null, idempotencyKey: null, description: null, createdBy: actorId, ...row });
    await m.insert(PaymentTransaction, entity);
    const saved = await m.findOneOrFail(PaymentTransaction, { where: { id: entity.id } });
    await this.recordRowEvent(m, saved, actorId);
    return saved;
  }

  /** `payment_transaction.recorded` for a row as it is now (written, or its status settled). */
  private recordRowEvent(m: EntityManager, saved: PaymentTransaction, actorId: string | null): Promise<void> {
    return recordEvents(m, {
      type: 'payment_transaction.recorded',
      aggregateType: 'payment_transaction',
      aggregateId: saved.id,
      companyId: saved.companyId,
      actorId,
      payload: { kind: saved.kind, status: saved.status, amount: saved.amount, currency: saved.currency, customer_id: saved.customerId, order_id: saved.orderId, method: saved.method, failure_code: saved.failureCode },
    });
  }

  /** The order's paid amount recomputed from its succeeded ledger rows and written with its payment status. */
  private async settle(m: EntityManager, companyId: string, orderId: string, refunded = false): Promise<OrderBalance> {
    const [{ paid }] = await m.query<{ paid: string }[]>(PAID_SQL, [orderId]);
    return this.orders.recordPaid(m, companyId, orderId, Number(paid), refunded);
  }

  /** The customer's wallet, locked (null when it has none). */
  private lockWallet(m: EntityManager, companyId: string, customerId: string): Promise<Wallet | null> {
    return m.createQueryBuilder(Wallet, 'w').where('w.companyId = :companyId AND w.customerId = :customerId', { companyId, customerId }).setLock('pessimistic_write').getOne();
  }

  /** Takes `amount` from the locked wallet (409 when it does not cover it; the database refuses a negative balance anyway). */
  private async debitWallet(m: EntityManager, wallet: Wallet | null, amount: number): Promise<Wallet> {
    if (!wallet || wallet.balance < amount) throw ApiError.conflict('INSUFFICIENT_WALLET_BALANCE', `The wallet holds ${wallet?.balance ?? 0}; ${amount} is needed.`);
    await m.query(`UPDATE wallets SET balance = balance - $2, updated_at = now() WHERE id = $1`, [wallet.id, amount]);
    wallet.balance -= amount;
    return wallet;
  }

  /** Adds `amount` to the customer's wallet (created at the first credit); returns its id. */
  async creditWallet(m: EntityManager, companyId: string, customerId: string, currency: string, amount: number): Promise<string> {
    const rows = await m.query<{ id: string }[]>(
      `INSERT INTO wallets (company_id, customer_id, currency, balance) VALUES ($1, $2, $3, $4)
       ON CONFLICT (company_id, customer_id) DO UPDATE SET balance = wallets.balance + EXCLUDED.balance, updated_at = now() RETURNING id`,
      [companyId, customerId, currency, amount],
    );
    return rows[0].id;
  }

  /** A customer pays (part of) one order's balance by card or from the wallet. A declined card is answered with the failed row. */
  async pay(actor: Actor, orderId: string, dto: PayOrderDto, requestKey?: string): Promise<PaymentResultDto> {
    const scope = Scope.of(actor);
    return inTransaction(this.ds, async (m) => {
      const order = await this.orders.lockForPayment(m, scope, orderId);
      this.assertOneMethod(dto);
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be paid.`);
      const base = { companyId: order.companyId, customerId: order.customerId, orderId: order.id, amount, currency: order.currency };
      let row: PaymentTransaction;
      if (dto.use_wallet) {
        const wallet = await this.debitWallet(m, await this.lockWallet(m, order.companyId, order.customerId), amount);
        row = await this.insertRow(m, { ...base, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, description: LedgerText.walletPayment(order.number) }, actor.id);
      } else {
        const { instrument, buyer } = await this.instrumentOf(m, actor, order.companyId, dto.instrument_id!);
        const merchantRef = await this.readiness.assertCardReady(m, order.companyId);
        await this.assertNoPendingCharge(m, [order.id]);
        const id = randomUUID();
        const key = chargeKey(actor.id, requestKey, id);
        const result = await this.provider.chargeAllowingPending({ amount, currency: order.currency, buyerRef: buyer.providerRef, instrumentRef: instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(m, order.companyId, amount, 'card'), idempotencyKey: key, description: LedgerText.cardCharge(order.number) });
        row = await this.insertRow(m, { ...base, id, kind: 'charge', status: result.status, method: 'instrument', instrumentId: instrument.id, providerRef: result.reference, failureCode: result.failureCode ?? null, idempotencyKey: key }, actor.id);
      }
      const balance = row.status === 'succeeded' ? await this.settle(m, order.companyId, order.id) : order;
      return { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(balance) };
    });
  }

  /** Every order of the customer with a balance, oldest due first, in ONE charge (or from the wallet): all or nothing. */
  async payAllDues(actor: Actor, dto: PayAllDuesDto, requestKey?: string): Promise<PayAllDuesResultDto> {
    const scope = Scope.of(actor);
    return inTransaction(this.ds, async (m) => {
      this.assertOneMethod(dto);
      const card = dto.instrument_id ? await this.instrumentOf(m, actor, scope.companyId, dto.instrument_id) : null;
      const dues = await this.orders.lockDues(m, scope.companyId, actor.id);
      if (!dues.length) throw ApiError.conflict('NOTHING_DUE', 'Nothing is due.');
      const total = dues.reduce((s, o) => s + o.balanceAmount, 0);
      if (total > INT4_MAX) throw ApiError.unprocessable('AMOUNT_TOO_LARGE', 'The dues exceed the largest amount one payment can take; pay orders one by one.');
      const currency = dues[0].currency;
      const batchId = randomUUID();
      const rows: PaymentTransaction[] = [];
      if (dto.use_wallet) {
        const wallet = await this.debitWallet(m, await this.lockWallet(m, scope.companyId, actor.id), total);
        for (const [i, o] of dues.entries()) {
          rows.push(await this.insertRow(m, { ...(i === 0 ? { id: batchId } : {}), companyId: o.companyId, customerId: o.customerId, orderId: o.id, amount: o.balanceAmount, currency, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, batchId, description: LedgerText.allDuesFromWallet(o.number) }, actor.id));
        }
      } else {
        const merchantRef = await this.readiness.assertCardReady(m, scope.companyId);
        await this.assertNoPendingCharge(m, dues.map((o) => o.id));
        const key = chargeKey(actor.id, requestKey, batchId);
        const result = await this.provider.chargeAllowingPending({ amount: total, currency, buyerRef: card!.buyer.providerRef, instrumentRef: card!.instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(m, scope.companyId, total, 'card'), idempotencyKey: key, description: LedgerText.duesCharge(dues.map((o) => o.number)) });
        const common = { customerId: actor.id, companyId: scope.companyId, currency, method: 'instrument' as const, instrumentId: card!.instrument.id, providerRef: result.reference, batchId, kind: 'charge' as const };
        if (result.status === 'failed') {
          rows.push(await this.insertRow(m, { ...common, id: batchId, amount: total, status: 'failed', failureCode: result.failureCode ?? null, idempotencyKey: key, description: LedgerText.duesCharge(dues.map((o) => o.number)) }, actor.id));
          return { status: 'failed', amount: total, failure_code: result.failureCode ?? null, transactions: rows.map(TransactionDto.of), orders: dues.map(OrderBalanceDto.of) };
        }
        for (const [i, o] of dues.entries()) {
          rows.push(await this.insertRow(m, { ...common, ...(i === 0 ? { id: batchId } : {}), orderId: o.id, amount: o.balanceAmount, status: result.status, idempotencyKey: i === 0 ? key : `${key}:${i}` }, actor.id));
        }
        // A charge the provider settles later (Stripe `processing`): the rows stay pending until its webhook.
        if (result.status === 'pending') return { status: 'pending', amount: total, failure_code: null, transactions: rows.map(TransactionDto.of), orders: dues.map(OrderBalanceDto.of) };
      }
      const after: OrderBalance[] = [];
      for (const o of dues) after.push(await this.settle(m, o.companyId, o.id));
      return { status: 'succeeded', amount: total, failure_code: null, transactions: rows.map(TransactionDto.of), orders: after.map(OrderBalanceDto.of) };
    });
  }

  /** 409 PAYMENT_PENDING while a card charge of one of these (locked) orders waits for the provider: paying again could pay twice. */
  private async assertNoPendingCharge(m: EntityManager, orderIds: string[]): Promise<void> {
    const pending = await m.exists(PaymentTransaction, { where: { orderId: In(orderIds), kind: 'charge', status: 'pending' } });
    if (pending) throw ApiError.conflict('PAYMENT_PENDING', 'A card payment of this order is still being processed by the provider; wait for its outcome.');
  }

  /** The company records an offline payment (cash, cheque, bank transfer) against an order. */
  async paymentReceived(actor: Actor, dto: PaymentReceivedDto): Promise<PaymentResultDto> {
    const scope = Scope.of(actor);
    return inTransaction(this.ds, async (m) => {
      const order = await this.orders.lockForPayment(m, Scope.company(scope.companyId), dto.order_id).catch((e: unknown) => {
        throw e instanceof ApiError && e.code === 'NOT_FOUND' ? bodyNotFound('order_id') : e;
      });
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be recorded.`);
      const row = await this.insertRow(m, { companyId: order.companyId, customerId: order.customerId, orderId: order.id, amount, currency: order.currency, kind: 'offline_payment', status: 'succeeded', method: dto.method, offlineReference: dto.reference, description: LedgerText.offlinePayment(order.number, dto.method, dto.reference, dto.note) }, actor.id);
      return { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(await this.settle(m, order.companyId, order.id)) };
    });
  }

  // ------------------------------------------------------------ refunds (event subscribers)

  /**
   * Gives back what was paid above the order's total: a cancelled order (refunded to the wallet, or to
   * the cards that paid when the customer chose so; the cancellation fee is kept) or a final bill below
   * what was paid (to the wallet). Keys derive from the event id, so a redelivery changes nothing.
   */
  /**
   * The provider's word on a charge it reported as pending (inbound webhook `charge.succeeded` /
   * `charge.failed`): the pending charge row with this provider reference, locked, takes the status, and
   * its order's paid amount is derived again in the same transaction. Returns the rows changed (0 when
   * no pending charge has this reference: already settled, or unknown).
   */
  async applyProviderCharge(m: EntityManager, providerRef: string, status: 'succeeded' | 'failed', failureCode: string | null): Promise<number> {
    const rows = await m
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.providerRef = :providerRef AND t.status = 'pending' AND t.kind = 'charge'`, { providerRef })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
    for (const row of rows) {
      await m.update(PaymentTransaction, { id: row.id }, { status, failureCode: status === 'failed' ? (failureCode ?? 'provider_declined') : null });
      const saved = await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } });
      await this.recordRowEvent(m, saved, null);
      if (saved.orderId && status === 'succeeded') await this.settle(m, saved.companyId, saved.orderId);
    }
    return rows.length;
  }

  /** The succeeded charges of an order (or with a provider reference), newest first, with what was refunded of each. */
  private succeededCharges(m: EntityManager, by: 'order_id' | 'provider_ref', value: string) {
    return m.query<{ id: string; company_id: string; customer_id: string; order_id: string | null; amount: number; currency: string; provider_ref: string; instrument_id: string | null; refunded: string }[]>(
      `SELECT c.id, c.company_id, c.customer_id, c.order_id, c.amount, c.currency, c.provider_ref, c.instrument_id,
              (SELECT coalesce(sum(r.amount), 0) FROM payment_transactions r WHERE r.related_transaction_id = c.id AND r.kind = 'refund' AND r.status = 'succeeded')::text AS refunded
         FROM payment_transactions c WHERE c.${by} = $1 AND c.kind = 'charge' AND c.status = 'succeeded' ORDER BY c.created_at DESC, c.id DESC`,
      [value],
    );
  }

  /**
   * The provider's word that a charge was refunded (inbound webhook, Stripe `charge.refunded`): `refundedTotal`
   * is all the provider has refunded of the charge with this reference. What the ledger does not know yet
   * (a refund made at the provider, e.g. in its dashboard) is recorded as succeeded refund rows against the
   * charge's rows (newest first), keyed by the event, and their orders' paid amounts derived again. The
   * orders are locked first, so a refund this service is making (refundExcess holds the order lock while it
   * calls the provider) is counted once. Returns the amount recorded (0: the ledger already knew).
   */
  async applyProviderRefund(m: EntityManager, eventId: string, providerRef: string, refundedTotal: number, refundRef: string): Promise<number> {
    const found = await m.find(PaymentTransaction, { where: { providerRef, kind: 'charge', status: 'succeeded' }, select: { id: true, companyId: true, orderId: true } });
    const orderIds = [...new Set(found.map((c) => c.orderId).filter((id): id is string => !!id))].sort();
    const numbers = new Map<string, number>();
    for (const orderId of orderIds) numbers.set(orderId, (await this.orders.lockForPayment(m, Scope.company(found[0].companyId), orderId)).number);
    const charges = await this.succeededCharges(m, 'provider_ref', providerRef);
    const known = charges.reduce((sum, c) => sum + Number(c.refunded), 0);
    let missing = refundedTotal - known;
    if (missing <= 0) return 0;
    let recorded = 0;
    for (const c of charges) {
      const part = Math.min(missing, c.amount - Number(c.refunded));
      if (part <= 0) continue;
      await this.insertRow(m, { companyId: c.company_id, customerId: c.customer_id, orderId: c.order_id, amount: part, currency: c.currency, kind: 'refund', status: 'succeeded', method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, providerRef: refundRef, idempotencyKey: `refund:${eventId}:${c.id}`, description: LedgerText.providerRefund(c.order_id ? numbers.get(c.order_id) : undefined) }, null);
      if (c.order_id) await this.settle(m, c.company_id, c.order_id);
      missing -= part;
      recorded += part;
      if (missing <= 0) break;
    }
    return recorded;
  }

  /**
   * The provider's word that a refund it had accepted failed later (Stripe `refund.failed`: a refund is
   * `pending` at Stripe for days, and the ledger records it succeeded when accepted). The refund rows with
   * this reference become failed, and the money goes to the customer's wallet instead, as for a refund the
   * provider refuses at once (a `wallet_credit` row linked to the refund, keyed by the event). Orders are
   * locked first, as everywhere in the ledger. Returns the amount credited (0: no succeeded refund has this reference).
   */
  async applyRefundFailure(m: EntityManager, eventId: string, refundRef: string, failureCode: string | null): Promise<number> {
    const found = await m.find(PaymentTransaction, { where: { providerRef: refundRef, kind: 'refund', status: 'succeeded' }, order: { id: 'ASC' } });
    const numbers = new Map<string, number>();
    for (const orderId of [...new Set(found.map((r) => r.orderId).filter((id): id is string => !!id))].sort()) {
      numbers.set(orderId, (await this.orders.lockForPayment(m, Scope.company(found[0].companyId), orderId)).number);
    }
    const rows = await m
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.providerRef = :refundRef AND t.kind = 'refund' AND t.status = 'succeeded'`, { refundRef })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
    let credited = 0;
    for (const row of rows) {
      await m.update(PaymentTransaction, { id: row.id }, { status: 'failed', failureCode: failureCode ?? 'refund_failed' });
      await this.recordRowEvent(m, await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } }), null);
      const walletId = await this.creditWallet(m, row.companyId, row.customerId, row.currency, row.amount);
      await this.insertRow(m, { companyId: row.companyId, customerId: row.customerId, orderId: row.orderId, walletId, amount: row.amount, currency: row.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', relatedTransactionId: row.id, idempotencyKey: `refund-failed:${eventId}:${row.id}`, description: LedgerText.refundFailed(row.orderId ? numbers.get(row.orderId) : undefined) }, null);
      if (row.orderId) await this.settle(m, row.companyId, row.orderId, true);
      credited += row.amount;
    }
    return credited;
  }

  async refundExcess(m: EntityManager, eventId: string, companyId: string, orderId: string, reason: 'cancelled' | 'completed' | 'waived'): Promise<void> {
    const order = await this.orders.lockForPayment(m, Scope.company(companyId), orderId);
    const excess = order.paidAmount - Math.max(order.totalAmount, 0);
    if (excess <= 0) return;
    const done = await m.count(PaymentTransaction, { where: { companyId, idempotencyKey: In([`refund:${eventId}`, `refund:${eventId}:wallet`]) } });
    if (done) return;
    let left = excess;
    const buyer = await m.findOne(PaymentBuyer, { where: { userId: order.customerId } });
    if (reason === 'cancelled' && buyer?.refundTo === 'instrument') {
      const charges = await this.succeededCharges(m, 'order_id', orderId);
      for (const c of charges) {
        const part = Math.min(left, c.amount - Number(c.refunded));
        if (part <= 0) continue;
        const id = randomUUID();
        const key = `refund:${eventId}${charges.length > 1 ? `:${c.id}` : ''}`;
        const result = await this.provider.refund({ chargeRef: c.provider_ref, amount: part, idempotencyKey: key });
        await this.insertRow(m, { id, companyId, customerId: order.customerId, orderId, amount: part, currency: order.currency, kind: 'refund', status: result.status, method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, providerRef: result.reference, failureCode: result.failureCode ?? null, idempotencyKey: key, description: LedgerText.cancelledRefundToCard(order.number) }, null);
        if (result.status === 'succeeded') left -= part;
        if (left <= 0) break;
      }
    }
    if (left > 0) {
      const walletId = await this.creditWallet(m, companyId, order.customerId, order.currency, left);
      await this.insertRow(m, { companyId, customerId: order.customerId, orderId, walletId, amount: left, currency: order.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', idempotencyKey: `refund:${eventId}:wallet`, description: reason === 'cancelled' ? LedgerText.cancelledRefundToWallet(order.number) : reason === 'waived' ? LedgerText.waivedFee(order.number) : LedgerText.overpayment(order.number) }, null);
    }
    await this.settle(m, companyId, orderId, reason === 'cancelled');
  }

  // ------------------------------------------------------------ reading

  /** Ledger rows the scope reaches (a customer: theirs), paginated in SQL; filters kind, status, method, order_id, customer_id; sorts created_at (default newest first), amount. */
  transactions(scope: Scope, q: TransactionQuery | CustomerTransactionQuery, view: TransactionView = {}, m = currentManager(this.ds)): Promise<Page<TransactionDto>> {
    const qb = scopedQuery(m, PaymentTransaction, scope, 't');
    if (view.kinds) qb.andWhere('t.kind IN (:...kinds)', { kinds: [...view.kinds] });
    if (view.orderOnly) qb.andWhere('t.orderId IS NOT NULL');
    if (q.kind) qb.andWhere('t.kind = :kind', { kind: q.kind });
    if (q.status) qb.andWhere('t.status = :status', { status: q.status });
    if (q.order_id) qb.andWhere('t.orderId = :orderId', { orderId: q.order_id });
    if ('method' in q && q.method) qb.andWhere('t.method = :method', { method: q.method });
    if ('customer_id' in q && q.customer_id) qb.andWhere('t.customerId = :customerId', { customerId: q.customer_id });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', amount: 't.amount' }, defaultSort: '-created_at', map: TransactionDto.of });
  }

  async transaction(scope: Scope, id: string, view: TransactionView = {}): Promise<TransactionDto> {
    const row = await findScoped(currentManager(this.ds), PaymentTransaction, scope, id, { what: 'Transaction' });
    if ((view.kinds && !view.kinds.includes(row.kind)) || (view.orderOnly && !row.orderId)) throw ApiError.notFound('Transaction');
    return TransactionDto.of(row);
  }

  // ------------------------------------------------------------ dues

  private today(scope: Scope): string {
    return todayIn(scope.timezone ?? 'UTC');
  }

  async dues(scope: Scope, q: DuesListQuery | CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    const page = await this.orders.dues(scope, q, this.today(scope), currentManager(this.ds));
    return new Page(page.items.map(OrderDueDto.ofDue), page.meta);
  }

  async customerDues(scope: Scope, customerId: string, q: CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    await this.customers.show(scope.companyId, customerId);
    return this.dues(scope, { ...q, customer_id: customerId });
  }

  duesTotals(scope: Scope): Promise<DuesTotalsDto> {
    return this.orders.duesTotals(scope, this.today(scope), currentManager(this.ds));
  }

  // ------------------------------------------------------------ wallets

  /** A customer's own wallet; a company user's: every wallet of the company summed; a driver's: none (0). */
  async wallet(actor: Actor): Promise<WalletDto> {
    const scope = Scope.of(actor);
    const m = currentManager(this.ds);
    if (scope.kind === 'customer') {
      const w = await m.findOne(Wallet, { where: { companyId: scope.companyId, customerId: actor.id } });
      return { id: w?.id ?? null, customer_id: actor.id, balance_amount: w?.balance ?? 0, currency: w?.currency ?? null, wallets_count: w ? 1 : 0 };
    }
    if (scope.kind === 'driver') return { id: null, customer_id: null, balance_amount: 0, currency: null, wallets_count: 0 };
    const [row] = await m.query<{ n: number; total: string; currency: string | null }[]>(
      `SELECT count(*)::int AS n, coalesce(sum(balance), 0)::bigint::text AS total, min(currency) AS currency FROM wallets WHERE company_id = $1`,
      [scope.companyId],
    );
    return { id: null, customer_id: null, balance_amount: Number(row.total), currency: row.currency, wallets_count: row.n };
  }

  /** Wallet movements the caller reaches (a customer: theirs; a company user: the company's; a driver: none). */
  walletTransactions(actor: Actor, q: CustomerTransactionQuery): Promise<Page<TransactionDto>> {
    const scope = Scope.of(actor);
    return this.transactions(scope, q, { kinds: WALLET_KINDS });
  }

  walletTransaction(actor: Actor, id: string): Promise<TransactionDto> {
    return this.transaction(Scope.of(actor), id, { kinds: WALLET_KINDS });
  }
}
