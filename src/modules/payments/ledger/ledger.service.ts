import { Injectable, Logger } from '@nestjs/common';
import { ExcessReason, LedgerText } from './ledger-texts';
import { CompanySettingsService } from '../../companies';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, EntityManager, In, Like } from 'typeorm';
import type { Actor } from '../../../common/access/actor';
import { Scope } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import { ApiError } from '../../../common/http/api-error';
import { Page } from '../../../common/http/envelope';
import { paginate } from '../../../common/http/pagination';
import { inRequestUnit, runUnit, unitManager } from '../../../database/unit-of-work';
import { recordEvents } from '../../../common/outbox/outbox';
import { todayIn } from '../../../common/dates';
import { INT4_MAX } from '../../../common/validation/fields';
import { CustomersService } from '../../customers';
import { OrderOperations, type OrderBalance } from '../../orders';
import { MerchantReadiness } from '../onboarding/merchant-readiness';
import { PlatformFees } from '../onboarding/platform-fees';
import { PaymentProvider, UnknownInstrumentToken, type ChargeInput, type ChargeResult, type PendingChargeResult, type RefundResult } from '../provider/payment-provider';
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

/** A service answer with the HTTP status it is to be sent with: 202 while the provider's outcome is not known. */
export interface Answered<T> {
  status: 201 | 202;
  body: T;
}

/** What the provider said of a charge: `unknown` when it did not answer (timeout, unreachable, answer lost). */
export interface ProviderOutcome {
  status: 'succeeded' | 'failed' | 'pending' | 'unknown';
  reference: string | null;
  failureCode?: string | null;
}

/** What a provider-side refund or lost dispute did: recorded in the ledger, and refused (beyond what was refundable; logged). */
export interface Reversal {
  recorded: number;
  refused: number;
}

/** Why money goes back on an order's lifecycle. */
export type RefundReason = ExcessReason;
/** A pending row is first asked about a minute after it was reserved (its call normally settles it before). */
export const FIRST_CHECK_MS = 60_000;
const firstCheck = () => new Date(Date.now() + FIRST_CHECK_MS);
/** The reconciler's backoff after the n-th check: 1, 2, 4, … minutes, at most an hour. */
export const nextCheck = (now: Date, attempts: number) => new Date(now.getTime() + Math.min(60_000 * 2 ** Math.max(attempts - 1, 0), 3_600_000));

/** A provider failure after which we do not know whether it acted (our 502 PAYMENT_PROVIDER_UNAVAILABLE: unreachable, timeout, its 5xx). */
export const isUnknownOutcome = (e: unknown): boolean => e instanceof ApiError && e.getStatus() === 502;

const pendingCharge = () => ApiError.conflict('PAYMENT_PENDING', 'A card payment of this order is still being processed by the provider; wait for its outcome.');
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
  private readonly logger = new Logger('Ledger');

  constructor(
    private readonly ds: DataSource,
    private readonly provider: PaymentProvider,
    private readonly orders: OrderOperations,
    private readonly readiness: MerchantReadiness,
    private readonly customers: CustomersService,
    private readonly fees: PlatformFees,
    private readonly companySettings: CompanySettingsService,
  ) {}

  // ------------------------------------------------------------ identities and instruments

  /**
   * The caller's buyer identity, created with the provider when there is none: the provider is called
   * with no transaction open (issue #22), then the row inserted (`ON CONFLICT DO NOTHING`: of two
   * concurrent first calls one row wins; the other's provider customer stays unused there).
   */
  private async buyer(actor: Actor, companyId: string, refundTo?: IdentityDto['refund_to']): Promise<PaymentBuyer> {
    let buyer = await this.ds.manager.findOne(PaymentBuyer, { where: { userId: actor.id } });
    if (!buyer) {
      const { reference } = await this.provider.createBuyer({ userId: actor.id, email: actor.email, name: actor.name });
      buyer = await runUnit(this.ds, async (m) => {
        await m.query(
          `INSERT INTO payment_buyers (company_id, user_id, provider, provider_ref, refund_to) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`,
          [companyId, actor.id, this.provider.name, reference, refundTo ?? 'wallet'],
        );
        return m.findOneOrFail(PaymentBuyer, { where: { userId: actor.id } });
      });
    }
    if (refundTo && buyer.refundTo !== refundTo) {
      await this.ds.manager.update(PaymentBuyer, { id: buyer.id }, { refundTo });
      buyer.refundTo = refundTo;
    }
    return buyer;
  }

  async identity(actor: Actor, dto: IdentityDto): Promise<BuyerDto> {
    const { companyId } = Scope.of(actor);
    return BuyerDto.of(await this.buyer(actor, companyId, dto.refund_to));
  }

  /** Attaches a card: the provider called with no transaction open, then the instrument row written. */
  async addInstrument(actor: Actor, dto: InstrumentTokenDto): Promise<InstrumentDto> {
    const { companyId } = Scope.of(actor);
    const buyer = await this.buyer(actor, companyId);
    const card = await this.provider.attachInstrument(dto.token, buyer.providerRef).catch((e: unknown) => {
      if (e instanceof UnknownInstrumentToken) throw ApiError.unprocessable('INVALID_PAYMENT_TOKEN', 'The payment token is not valid.', { token: ['is not a valid payment token'] });
      throw e;
    });
    return runUnit(this.ds, async (m) => {
      const row = m.create(PaymentInstrument, { companyId, userId: actor.id, buyerId: buyer.id, provider: this.provider.name, providerRef: card.reference, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear });
      await m.save(row);
      return InstrumentDto.of(row);
    });
  }

  /** The caller's own instruments, newest first. */
  instruments(actor: Actor, q: import('../../../common/http/pagination').PageQuery): Promise<Page<InstrumentDto>> {
    const { companyId } = Scope.of(actor);
    const qb = unitManager(this.ds).createQueryBuilder(PaymentInstrument, 'i').where('i.userId = :userId AND i.companyId = :companyId', { userId: actor.id, companyId });
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
    const entity = m.create(PaymentTransaction, { orderId: null, walletId: null, instrumentId: null, relatedTransactionId: null, batchId: null, method: null, providerRef: null, failureCode: null, offlineReference: null, idempotencyKey: null, description: null, createdBy: actorId, nextCheckAt: null, checkAttempts: 0, ...row });
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
  async pay(actor: Actor, orderId: string, dto: PayOrderDto, requestKey?: string): Promise<Answered<PaymentResultDto>> {
    const scope = Scope.of(actor);
    const reserved = await runUnit(this.ds, async (m): Promise<{ done: PaymentResultDto; unknown?: boolean } | { row: PaymentTransaction; call: ChargeInput }> => {
      const order = await this.orders.lockForPayment(m, scope, orderId);
      this.assertOneMethod(dto);
      if (dto.instrument_id && requestKey) {
        // The same request again after its first run failed or crashed between its steps: its row, not a second charge.
        const again = await m.findOne(PaymentTransaction, { where: { companyId: order.companyId, idempotencyKey: chargeKey(actor.id, requestKey, '') } });
        if (again) return { done: { transaction: TransactionDto.of(again), order: OrderBalanceDto.of(order) }, unknown: again.status === 'pending' && !again.providerRef };
      }
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be paid.`);
      const base = { companyId: order.companyId, customerId: order.customerId, orderId: order.id, amount, currency: order.currency };
      if (dto.use_wallet) {
        await this.assertNotHeld(m, order, amount);
        const wallet = await this.debitWallet(m, await this.lockWallet(m, order.companyId, order.customerId), amount);
        const row = await this.insertRow(m, { ...base, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, description: LedgerText.walletPayment(order.number) }, actor.id);
        return { done: { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(await this.settle(m, order.companyId, order.id)) } };
      }
      const { instrument, buyer } = await this.instrumentOf(m, actor, order.companyId, dto.instrument_id!);
      const merchantRef = await this.readiness.assertCardReady(m, order.companyId);
      await this.assertNoPendingCharge(m, [order.id]);
      const id = randomUUID();
      const key = chargeKey(actor.id, requestKey, id);
      const row = await this.insertRow(m, { ...base, id, kind: 'charge', status: 'pending', method: 'instrument', instrumentId: instrument.id, idempotencyKey: key, nextCheckAt: firstCheck() }, actor.id);
      const call = { amount, currency: order.currency, buyerRef: buyer.providerRef, instrumentRef: instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(m, order.companyId, amount, 'card'), idempotencyKey: key, description: LedgerText.cardCharge(order.number) };
      return { row, call };
    });
    if ('done' in reserved) return { status: reserved.unknown ? 202 : 201, body: reserved.done };
    const outcome = await this.callProvider(() => this.provider.chargeAllowingPending(reserved.call), [reserved.row]);
    const refunds: string[] = [];
    const answer = await runUnit(this.ds, async (m) => {
      await this.settlePending(m, [reserved.row], outcome, refunds);
      const row = await m.findOneOrFail(PaymentTransaction, { where: { id: reserved.row.id } });
      const order = await this.orders.balance(m, Scope.company(row.companyId), row.orderId!);
      return { status: outcome.status === 'unknown' ? (202 as const) : (201 as const), body: { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(order) } };
    });
    // The order was rejected, cancelled or repriced while the charge was at the provider: the excess goes back now.
    if (refunds.length) await this.executeRefunds(new Date(), refunds);
    return answer;
  }

  /** Every order of the customer with a balance, oldest due first, in ONE charge (or from the wallet): all or nothing. */
  async payAllDues(actor: Actor, dto: PayAllDuesDto, requestKey?: string): Promise<Answered<PayAllDuesResultDto>> {
    const scope = Scope.of(actor);
    const reserved = await runUnit(this.ds, async (m): Promise<{ done: PayAllDuesResultDto; unknown?: boolean } | { rows: PaymentTransaction[]; call: ChargeInput }> => {
      this.assertOneMethod(dto);
      const card = dto.instrument_id ? await this.instrumentOf(m, actor, scope.companyId, dto.instrument_id) : null;
      if (card && requestKey) {
        const again = await m.findOne(PaymentTransaction, { where: { companyId: scope.companyId, idempotencyKey: chargeKey(actor.id, requestKey, '') } });
        if (again) return { done: await this.batchResult(m, again.batchId ?? again.id), unknown: again.status === 'pending' && !again.providerRef };
      }
      const dues = await this.orders.lockDues(m, scope.companyId, actor.id);
      if (!dues.length) throw ApiError.conflict('NOTHING_DUE', 'Nothing is due.');
      const total = dues.reduce((s, o) => s + o.balanceAmount, 0);
      if (total > INT4_MAX) throw ApiError.unprocessable('AMOUNT_TOO_LARGE', 'The dues exceed the largest amount one payment can take; pay orders one by one.');
      // A card charge of one of them still waits for the provider: paying all again could pay it twice.
      await this.assertNoPendingCharge(m, dues.map((o) => o.id));
      const currency = dues[0].currency;
      const batchId = randomUUID();
      const rows: PaymentTransaction[] = [];
      if (dto.use_wallet) {
        const wallet = await this.debitWallet(m, await this.lockWallet(m, scope.companyId, actor.id), total);
        for (const [i, o] of dues.entries()) {
          rows.push(await this.insertRow(m, { ...(i === 0 ? { id: batchId } : {}), companyId: o.companyId, customerId: o.customerId, orderId: o.id, amount: o.balanceAmount, currency, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, batchId, description: LedgerText.allDuesFromWallet(o.number) }, actor.id));
        }
        const after: OrderBalance[] = [];
        for (const o of dues) after.push(await this.settle(m, o.companyId, o.id));
        return { done: { status: 'succeeded', amount: total, failure_code: null, transactions: rows.map(TransactionDto.of), orders: after.map(OrderBalanceDto.of) } };
      }
      const merchantRef = await this.readiness.assertCardReady(m, scope.companyId);
      const key = chargeKey(actor.id, requestKey, batchId);
      const common = { customerId: actor.id, companyId: scope.companyId, currency, method: 'instrument' as const, instrumentId: card!.instrument.id, batchId, kind: 'charge' as const, status: 'pending' as const, nextCheckAt: firstCheck() };
      for (const [i, o] of dues.entries()) {
        rows.push(await this.insertRow(m, { ...common, ...(i === 0 ? { id: batchId } : {}), orderId: o.id, amount: o.balanceAmount, idempotencyKey: i === 0 ? key : `${key}:${i}`, description: LedgerText.duesCharge(dues.map((d) => d.number)) }, actor.id));
      }
      const call = { amount: total, currency, buyerRef: card!.buyer.providerRef, instrumentRef: card!.instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(m, scope.companyId, total, 'card'), idempotencyKey: key, description: LedgerText.duesCharge(dues.map((d) => d.number)) };
      return { rows, call };
    });
    if ('done' in reserved) return { status: reserved.unknown ? 202 : 201, body: reserved.done };
    const outcome = await this.callProvider(() => this.provider.chargeAllowingPending(reserved.call), reserved.rows);
    const refunds: string[] = [];
    const answer = await runUnit(this.ds, async (m) => {
      await this.settlePending(m, reserved.rows, outcome, refunds);
      return { status: outcome.status === 'unknown' ? (202 as const) : (201 as const), body: await this.batchResult(m, reserved.rows[0].batchId!) };
    });
    if (refunds.length) await this.executeRefunds(new Date(), refunds);
    return answer;
  }

  /** A pay-all-dues answer from its rows as they are now. */
  private async batchResult(m: EntityManager, batchId: string): Promise<PayAllDuesResultDto> {
    const rows = await m.find(PaymentTransaction, { where: { batchId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const status = rows[0]?.status ?? 'pending';
    const orders: OrderBalance[] = [];
    for (const r of rows) if (r.orderId) orders.push(await this.orders.balance(m, Scope.company(r.companyId), r.orderId));
    return { status, amount: rows.reduce((s, r) => s + r.amount, 0), failure_code: rows[0]?.failureCode ?? null, transactions: rows.map(TransactionDto.of), orders: orders.map(OrderBalanceDto.of) };
  }

  /**
   * Calls the provider for reserved (committed, pending) rows, with no transaction open. Its failures of
   * its own (unreachable, timeout, 5xx: 502 `PAYMENT_PROVIDER_UNAVAILABLE`) leave the outcome unknown: the
   * rows stay pending for the provider's webhook or the reconciler. Any other error (the provider refused
   * the request itself) fails the rows and is rethrown.
   */
  private async callProvider(call: () => Promise<ChargeResult | PendingChargeResult>, rows: PaymentTransaction[]): Promise<ProviderOutcome> {
    if (inRequestUnit(this.ds)) throw new Error('A payment provider call inside a request transaction: use @Idempotent({ stepped: true }) on the route.');
    try {
      const r = await call();
      return { status: r.status, reference: r.reference, failureCode: r.failureCode ?? null };
    } catch (e) {
      if (isUnknownOutcome(e)) {
        this.logger.warn({ msg: 'payment provider outcome unknown: the charge stays pending', transaction_ids: rows.map((r) => r.id), error: e instanceof Error ? e.message : String(e) });
        return { status: 'unknown', reference: null, failureCode: null };
      }
      await runUnit(this.ds, (m) => this.settlePending(m, rows, { status: 'failed', reference: null, failureCode: 'provider_error' }));
      throw e;
    }
  }

  /**
   * Settles pending charge rows with the provider's word, exactly once: their orders locked first (the
   * order every ledger path locks in), then the rows still pending (`FOR UPDATE`); each takes the status,
   * the provider's reference and failure code, its event is recorded, and the orders' paid amounts are
   * derived again. `pending` (the provider settles later) only keeps the reference; `unknown` changes
   * nothing. Returns the rows settled (0: already settled by the other path — webhook, reconciler, pay).
   * Card refunds it reserves (a charge settled late on an order rejected, cancelled or repriced meanwhile)
   * are added to `reservedRefunds`: the caller runs `executeRefunds` once its transaction committed.
   */
  async settlePending(m: EntityManager, rows: Pick<PaymentTransaction, 'id' | 'companyId' | 'orderId'>[], outcome: ProviderOutcome, reservedRefunds: string[] = []): Promise<number> {
    if (!rows.length || outcome.status === 'unknown') return 0;
    if (outcome.status === 'pending') {
      if (outcome.reference) await m.query(`UPDATE payment_transactions SET provider_ref = coalesce(provider_ref, $2), updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'pending'`, [rows.map((r) => r.id), outcome.reference]);
      return 0;
    }
    const orderIds = [...new Set(rows.map((r) => r.orderId).filter((id): id is string => !!id))].sort();
    for (const orderId of orderIds) await this.orders.lockForPayment(m, Scope.company(rows[0].companyId), orderId);
    const locked = await m
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.id IN (:...ids) AND t.status = 'pending'`, { ids: rows.map((r) => r.id) })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
    for (const row of locked) {
      await m.update(PaymentTransaction, { id: row.id }, { status: outcome.status, providerRef: outcome.reference ?? row.providerRef, failureCode: outcome.status === 'failed' ? (outcome.failureCode ?? 'provider_declined') : null, nextCheckAt: null });
      await this.recordRowEvent(m, await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } }), null);
    }
    if (outcome.status === 'succeeded') {
      for (const orderId of [...new Set(locked.map((r) => r.orderId).filter((id): id is string => !!id))].sort()) {
        const b = await this.settle(m, locked[0].companyId, orderId);
        // Settled late (webhook, reconciler) on an order rejected, cancelled or repriced meanwhile: what it now bills less goes back at once.
        const row = locked.find((r) => r.orderId === orderId)!;
        if (b.status === 'rejected' || b.paidAmount > Math.max(b.totalAmount, 0)) {
          reservedRefunds.push(...(await this.refundExcess(m, `settled:${row.id}`, b.companyId, orderId, b.status === 'rejected' ? 'rejected' : b.status === 'cancelled' ? 'cancelled' : 'repriced')));
        }
      }
    }
    return locked.length;
  }

  /** 409 PAYMENT_PENDING while a card charge of one of these (locked) orders waits for the provider: paying again could pay twice. */
  private async assertNoPendingCharge(m: EntityManager, orderIds: string[]): Promise<void> {
    const pending = await m.exists(PaymentTransaction, { where: { orderId: In(orderIds), kind: 'charge', status: 'pending' } });
    if (pending) throw pendingCharge();
  }

  /** The amount pending card charges hold against the (locked) order's balance: a wallet or offline payment may take only the rest. */
  private async assertNotHeld(m: EntityManager, order: OrderBalance, amount: number): Promise<void> {
    const [{ held }] = await m.query<{ held: string }[]>(`SELECT coalesce(sum(amount), 0)::text AS held FROM payment_transactions WHERE order_id = $1 AND kind = 'charge' AND status = 'pending'`, [order.id]);
    if (Number(held) > 0 && amount > order.balanceAmount - Number(held)) throw pendingCharge();
  }

  /** The company records an offline payment (cash, cheque, bank transfer) against an order. */
  async paymentReceived(actor: Actor, dto: PaymentReceivedDto): Promise<PaymentResultDto> {
    const scope = Scope.of(actor);
    return runUnit(this.ds, async (m) => {
      const order = await this.orders.lockForPayment(m, Scope.company(scope.companyId), dto.order_id).catch((e: unknown) => {
        throw e instanceof ApiError && e.code === 'NOT_FOUND' ? bodyNotFound('order_id') : e;
      });
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be recorded.`);
      await this.assertNotHeld(m, order, amount);
      const row = await this.insertRow(m, { companyId: order.companyId, customerId: order.customerId, orderId: order.id, amount, currency: order.currency, kind: 'offline_payment', status: 'succeeded', method: dto.method, offlineReference: dto.reference, description: LedgerText.offlinePayment(order.number, dto.method, dto.reference, dto.note) }, actor.id);
      return { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(await this.settle(m, order.companyId, order.id)) };
    });
  }

  // ------------------------------------------------------------ the provider's word (webhooks, reconciler)

  /**
   * The provider's word on a charge (inbound webhook `charge.succeeded` / `charge.failed`: Stripe's
   * `payment_intent.*`): the pending charge rows with this provider reference, or with our key (the
   * charge's `metadata.idempotency_key`: an answer lost before we learnt the reference), with the other
   * rows of the same pay-all-dues batch, are settled once (`settlePending`). Returns the rows changed
   * (0 when none is pending: already settled, or not ours).
   */
  async applyProviderCharge(m: EntityManager, providerRef: string, status: 'succeeded' | 'failed', failureCode: string | null, key: string | null = null, reservedRefunds: string[] = []): Promise<number> {
    const found = await m.query<{ id: string; company_id: string; order_id: string | null; batch_id: string | null }[]>(
      `SELECT id, company_id, order_id, batch_id FROM payment_transactions
        WHERE kind = 'charge' AND status = 'pending' AND (provider_ref = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2))`,
      [providerRef, key],
    );
    const batches = [...new Set(found.map((r) => r.batch_id).filter((b): b is string => !!b))];
    const rows = batches.length
      ? await m.query<typeof found>(`SELECT id, company_id, order_id, batch_id FROM payment_transactions WHERE kind = 'charge' AND status = 'pending' AND (id = ANY($1::uuid[]) OR batch_id = ANY($2::uuid[]))`, [found.map((r) => r.id), batches])
      : found;
    let n = 0;
    for (const companyId of new Set(rows.map((r) => r.company_id))) {
      const mine = rows.filter((r) => r.company_id === companyId).map((r) => ({ id: r.id, companyId, orderId: r.order_id }));
      n += await this.settlePending(m, mine, { status, reference: providerRef, failureCode }, reservedRefunds);
    }
    return n;
  }

  /** The succeeded charges of an order (or with a provider reference), newest first, with what was refunded of each (pending refunds included: that money is on its way back). */
  private succeededCharges(m: EntityManager, by: 'order_id' | 'provider_ref', value: string) {
    return m.query<{ id: string; company_id: string; customer_id: string; order_id: string | null; amount: number; currency: string; provider_ref: string; instrument_id: string | null; refunded: string }[]>(
      `SELECT c.id, c.company_id, c.customer_id, c.order_id, c.amount, c.currency, c.provider_ref, c.instrument_id,
              (SELECT coalesce(sum(r.amount), 0) FROM payment_transactions r WHERE r.related_transaction_id = c.id AND r.kind = 'refund' AND r.status IN ('succeeded', 'pending'))::text AS refunded
         FROM payment_transactions c WHERE c.${by} = $1 AND c.kind = 'charge' AND c.status = 'succeeded' ORDER BY c.created_at DESC, c.id DESC`,
      [value],
    );
  }

  /**
   * The provider's word that a charge was refunded (inbound webhook, Stripe `charge.refunded`): `refundedTotal`
   * is all the provider has refunded of the charge with this reference; what the ledger does not know yet
   * (a refund made at the provider, e.g. in its dashboard) is applied by `applyProviderReversal`.
   */
  async applyProviderRefund(m: EntityManager, eventId: string, providerRef: string, refundedTotal: number, refundRef: string): Promise<Reversal> {
    const numbers = await this.lockChargeOrders(m, providerRef);
    if (!numbers) return { recorded: 0, refused: 0 };
    const charges = await this.succeededCharges(m, 'provider_ref', providerRef);
    const known = charges.reduce((sum, c) => sum + Number(c.refunded), 0);
    return this.applyProviderReversal(m, eventId, charges, refundedTotal - known, refundRef, numbers, LedgerText.providerRefund);
  }

  /**
   * A dispute the provider closed as lost (Stripe `charge.dispute.closed`, status `lost`): the disputed
   * amount left the company through the card network, so it is recorded like a provider refund of the
   * charge (keyed by the dispute, so a second event of the same dispute changes nothing).
   */
  async applyLostDispute(m: EntityManager, disputeId: string, providerRef: string, amount: number): Promise<Reversal> {
    const numbers = await this.lockChargeOrders(m, providerRef);
    if (!numbers) return { recorded: 0, refused: 0 };
    const done = await m.exists(PaymentTransaction, { where: { idempotencyKey: Like(`dispute:${disputeId}:%`) } });
    if (done) return { recorded: 0, refused: 0 };
    return this.applyProviderReversal(m, disputeId, await this.succeededCharges(m, 'provider_ref', providerRef), amount, disputeId, numbers, LedgerText.disputeLost, 'dispute');
  }

  /** Locks the orders of the succeeded charge rows with this reference (orders first, as everywhere); false when there are none. */
  private async lockChargeOrders(m: EntityManager, providerRef: string): Promise<Map<string, number> | null> {
    const found = await m.find(PaymentTransaction, { where: { providerRef, kind: 'charge', status: 'succeeded' }, select: { id: true, companyId: true, orderId: true } });
    const orderIds = [...new Set(found.map((c) => c.orderId).filter((id): id is string => !!id))].sort();
    const numbers = new Map<string, number>();
    for (const orderId of orderIds) numbers.set(orderId, (await this.orders.lockForPayment(m, Scope.company(found[0].companyId), orderId)).number);
    return found.length > 0 ? numbers : null;
  }

  /**
   * Money the provider gave back on a charge without us (a refund in its dashboard, a lost dispute),
   * `missing` of it not yet in the ledger. For each of the charge's rows (newest first), at most what is
   * left of it: what the order still counts as paid is recorded as a `refund`. Beyond that, the order's
   * money was already returned through the wallet (a cancellation's automatic credit): the customer
   * now has it twice, so the wallet credit is taken back (`wallet_debit` on the order, as far as the
   * wallet holds it) and the refund recorded with it — the order's paid amount does not move. What is
   * left after that is refused: not recorded (it would make the order's paid amount negative or be
   * recorded twice) and logged at error level for a person to settle. Keys derive from the event.
   */
  private async applyProviderReversal(m: EntityManager, eventId: string, charges: Awaited<ReturnType<LedgerService['succeededCharges']>>, missing: number, refundRef: string, numbers: Map<string, number>, describe: (n: number | undefined) => string, prefix = 'refund'): Promise<Reversal> {
    let recorded = 0;
    let refused = 0;
    for (const c of charges) {
      if (missing <= 0) break;
      const part = Math.min(missing, c.amount - Number(c.refunded));
      if (part <= 0) continue;
      missing -= part;
      let direct = part;
      let fromWallet = 0;
      if (c.order_id) {
        const [{ paid }] = await m.query<{ paid: string }[]>(PAID_SQL, [c.order_id]);
        direct = Math.min(part, Math.max(Number(paid), 0));
        const wallet = part > direct ? await this.lockWallet(m, c.company_id, c.customer_id) : null;
        fromWallet = Math.min(part - direct, wallet?.balance ?? 0);
        if (fromWallet > 0) {
          await this.debitWallet(m, wallet, fromWallet);
          await this.insertRow(m, { companyId: c.company_id, customerId: c.customer_id, orderId: c.order_id, walletId: wallet!.id, amount: fromWallet, currency: c.currency, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', relatedTransactionId: c.id, idempotencyKey: `${prefix}:${eventId}:${c.id}:wallet`, description: LedgerText.walletCreditTakenBack(c.order_id ? numbers.get(c.order_id) : undefined) }, null);
        }
      }
      const amount = direct + fromWallet;
      if (amount > 0) {
        await this.insertRow(m, { companyId: c.company_id, customerId: c.customer_id, orderId: c.order_id, amount, currency: c.currency, kind: 'refund', status: 'succeeded', method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, providerRef: refundRef, idempotencyKey: `${prefix}:${eventId}:${c.id}`, description: describe(c.order_id ? numbers.get(c.order_id) : undefined) }, null);
        if (c.order_id) await this.settle(m, c.company_id, c.order_id);
        recorded += amount;
      }
      if (part > amount) {
        refused += part - amount;
        this.logger.error({ msg: 'provider refund beyond what is refundable: not recorded', event_id: eventId, charge_id: c.id, order_id: c.order_id, refused_amount: part - amount });
      }
    }
    if (missing > 0) {
      refused += missing;
      this.logger.error({ msg: 'provider refund beyond the charge: not recorded', event_id: eventId, refused_amount: missing });
    }
    return { recorded, refused };
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
    for (const orderId of [...new Set(found.map((r) => r.orderId).filter((id): id is string => !!id))].sort()) {
      await this.orders.lockForPayment(m, Scope.company(found[0].companyId), orderId);
    }
    const rows = await m
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.providerRef = :refundRef AND t.kind = 'refund' AND t.status = 'succeeded'`, { refundRef })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
    let credited = 0;
    for (const row of rows) credited += await this.failRefund(m, row, failureCode ?? 'refund_failed', `refund-failed:${eventId}:${row.id}`);
    return credited;
  }

  /** A refund row the provider refused: failed, its amount credited to the wallet instead (keyed `walletKey`), the order's paid amount derived again. */
  private async failRefund(m: EntityManager, row: PaymentTransaction, failureCode: string, walletKey: string): Promise<number> {
    await m.update(PaymentTransaction, { id: row.id }, { status: 'failed', failureCode, nextCheckAt: null });
    await this.recordRowEvent(m, await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } }), null);
    const walletId = await this.creditWallet(m, row.companyId, row.customerId, row.currency, row.amount);
    // The order is locked by the caller; its number names it in the text.
    const number = row.orderId ? (await this.orders.balance(m, Scope.company(row.companyId), row.orderId)).number : undefined;
    await this.insertRow(m, { companyId: row.companyId, customerId: row.customerId, orderId: row.orderId, walletId, amount: row.amount, currency: row.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', relatedTransactionId: row.id, idempotencyKey: walletKey, description: LedgerText.refundFailed(number) }, null);
    if (row.orderId) await this.settleAfterRefund(m, row.companyId, row.orderId);
    return row.amount;
  }

  /** The paid amount derived again after money went back: `refunded` status when the order was cancelled or rejected. */
  private async settleAfterRefund(m: EntityManager, companyId: string, orderId: string): Promise<OrderBalance> {
    const order = await this.orders.balance(m, Scope.company(companyId), orderId);
    return this.settle(m, companyId, orderId, order.status === 'cancelled' || order.status === 'rejected');
  }

  // ------------------------------------------------------------ money back on the order's lifecycle (event subscribers)

  /**
   * Gives back what was paid above what the order now bills, at the moment it arises (issue #22):
   * cancellation (the fee is kept), rejection (nothing is billed), repricing below what was paid (order
   * update, approved change request, a fee voided or waived) and the final bill. Runs in the relay's
   * delivery transaction (the order locked): to the wallet by default, or back to the cards that paid
   * (newest charge first, the rest to the wallet) when the company's `refund_excess_to` setting says
   * `instrument`, or says `customer` (the default) and the customer chose `refund_to: instrument`. A card
   * refund is only RESERVED here (a `pending` refund row counted at once, so a second event cannot give
   * the same money back again); `executeRefunds` calls the provider after the commit. Keys derive from the
   * event id, so a redelivery changes nothing. Returns the pending refund rows to execute.
   */
  async refundExcess(m: EntityManager, eventId: string, companyId: string, orderId: string, reason: RefundReason): Promise<string[]> {
    const order = await this.orders.lockForPayment(m, Scope.company(companyId), orderId);
    const billed = order.status === 'rejected' ? 0 : Math.max(order.totalAmount, 0);
    const [{ pending }] = await m.query<{ pending: string }[]>(`SELECT coalesce(sum(amount), 0)::text AS pending FROM payment_transactions WHERE order_id = $1 AND kind = 'refund' AND status = 'pending'`, [orderId]);
    const excess = order.paidAmount - Number(pending) - billed;
    if (excess <= 0) return [];
    const done = await m.exists(PaymentTransaction, { where: { companyId, idempotencyKey: Like(`refund:${eventId}%`) } });
    if (done) return [];
    let left = excess;
    const reserved: string[] = [];
    const toCard = LedgerText.excessReturned(reason, order.number, 'card');
    const toWallet = LedgerText.excessReturned(reason, order.number, 'wallet');
    if (await this.excessToCard(m, companyId, order.customerId)) {
      const charges = await this.succeededCharges(m, 'order_id', orderId);
      for (const c of charges) {
        const part = Math.min(left, c.amount - Number(c.refunded));
        if (part <= 0) continue;
        const key = `refund:${eventId}${charges.length > 1 ? `:${c.id}` : ''}`;
        const row = await this.insertRow(m, { companyId, customerId: order.customerId, orderId, amount: part, currency: order.currency, kind: 'refund', status: 'pending', method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, idempotencyKey: key, description: toCard, nextCheckAt: new Date() }, null);
        reserved.push(row.id);
        left -= part;
        if (left <= 0) break;
      }
    }
    if (left > 0) {
      const walletId = await this.creditWallet(m, companyId, order.customerId, order.currency, left);
      await this.insertRow(m, { companyId, customerId: order.customerId, orderId, walletId, amount: left, currency: order.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', idempotencyKey: `refund:${eventId}:wallet`, description: toWallet }, null);
      await this.settleAfterRefund(m, companyId, orderId);
    }
    return reserved;
  }

  /** The company's `refund_excess_to` setting decides; with `customer` (the default), the customer's own `refund_to`. */
  private async excessToCard(m: EntityManager, companyId: string, customerId: string): Promise<boolean> {
    const { refund_excess_to: to } = await this.companySettings.get(companyId, m);
    if (to !== 'customer') return to === 'instrument';
    const buyer = await m.findOne(PaymentBuyer, { where: { userId: customerId } });
    return buyer?.refundTo === 'instrument';
  }

  /**
   * Calls the provider for pending refund rows (these ids, or every one whose check time has come, up
   * to `limit`), each claimed in a short transaction (`FOR UPDATE SKIP LOCKED`, its next check pushed
   * back as a lease), called with no transaction open (same key: the provider refunds once), then settled
   * in another: succeeded → the order's paid amount goes down; refused → failed, credited to the wallet;
   * the provider unreachable → still pending, retried by the reconciler with backoff.
   */
  async executeRefunds(now: Date, ids?: string[], limit = 50): Promise<{ succeeded: number; failed: number; unknown: number }> {
    const summary = { succeeded: 0, failed: 0, unknown: 0 };
    for (let i = 0; i < limit; i++) {
      const claimed = await runUnit(this.ds, async (m) => {
        const [row] = await m.query<{ id: string }[]>(
          `SELECT id FROM payment_transactions WHERE kind = 'refund' AND status = 'pending' AND ${ids ? 'id = ANY($1::uuid[])' : 'next_check_at <= $1'}
            ORDER BY next_check_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [ids ?? now],
        );
        if (!row) return null;
        await m.query(`UPDATE payment_transactions SET check_attempts = check_attempts + 1, next_check_at = $2 WHERE id = $1`, [row.id, nextCheck(now, 1)]);
        const refund = await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } });
        const charge = await m.findOneOrFail(PaymentTransaction, { where: { id: refund.relatedTransactionId! } });
        return { refund, chargeRef: charge.providerRef! };
      });
      if (!claimed) break;
      const { refund } = claimed;
      if (ids) ids = ids.filter((id) => id !== refund.id);
      let result: RefundResult | null = null;
      try {
        result = await this.provider.refund({ chargeRef: claimed.chargeRef, amount: refund.amount, idempotencyKey: refund.idempotencyKey! });
      } catch (e) {
        if (!isUnknownOutcome(e)) result = { status: 'failed', reference: `refund_error:${refund.idempotencyKey}`, failureCode: 'provider_error' };
        this.logger.warn({ msg: 'refund call failed', transaction_id: refund.id, error: e instanceof Error ? e.message : String(e) });
      }
      if (!result) {
        await this.ds.query(`UPDATE payment_transactions SET next_check_at = $2 WHERE id = $1 AND status = 'pending'`, [refund.id, nextCheck(now, refund.checkAttempts + 1)]);
        summary.unknown++;
        continue;
      }
      const r = result;
      await runUnit(this.ds, async (m) => {
        if (refund.orderId) await this.orders.lockForPayment(m, Scope.company(refund.companyId), refund.orderId);
        const row = await m.createQueryBuilder(PaymentTransaction, 't').where(`t.id = :id AND t.status = 'pending'`, { id: refund.id }).setLock('pessimistic_write').getOne();
        if (!row) return;
        await m.update(PaymentTransaction, { id: row.id }, { providerRef: r.reference });
        if (r.status === 'failed') {
          await this.failRefund(m, { ...row, providerRef: r.reference }, r.failureCode ?? 'refund_refused', `refund-failed:${row.id}`);
          return;
        }
        await m.update(PaymentTransaction, { id: row.id }, { status: 'succeeded', nextCheckAt: null });
        await this.recordRowEvent(m, await m.findOneOrFail(PaymentTransaction, { where: { id: row.id } }), null);
        if (row.orderId) await this.settleAfterRefund(m, row.companyId, row.orderId);
      });
      summary[r.status]++;
    }
    return summary;
  }

  // ------------------------------------------------------------ reading

  /** Ledger rows the scope reaches (a customer: theirs), paginated in SQL; filters kind, status, method, order_id, customer_id; sorts created_at (default newest first), amount. */
  transactions(scope: Scope, q: TransactionQuery | CustomerTransactionQuery, view: TransactionView = {}, m = unitManager(this.ds)): Promise<Page<TransactionDto>> {
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
    const row = await findScoped(unitManager(this.ds), PaymentTransaction, scope, id, { what: 'Transaction' });
    if ((view.kinds && !view.kinds.includes(row.kind)) || (view.orderOnly && !row.orderId)) throw ApiError.notFound('Transaction');
    return TransactionDto.of(row);
  }

  // ------------------------------------------------------------ dues

  private today(scope: Scope): string {
    return todayIn(scope.timezone ?? 'UTC');
  }

  async dues(scope: Scope, q: DuesListQuery | CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    const page = await this.orders.dues(scope, q, this.today(scope), unitManager(this.ds));
    return new Page(page.items.map(OrderDueDto.ofDue), page.meta);
  }

  async customerDues(scope: Scope, customerId: string, q: CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    await this.customers.show(scope.companyId, customerId);
    return this.dues(scope, { ...q, customer_id: customerId });
  }

  duesTotals(scope: Scope): Promise<DuesTotalsDto> {
    return this.orders.duesTotals(scope, this.today(scope), unitManager(this.ds));
  }

  // ------------------------------------------------------------ wallets

  /** A customer's own wallet; a company user's: every wallet of the company summed; a driver's: none (0). */
  async wallet(actor: Actor): Promise<WalletDto> {
    const scope = Scope.of(actor);
    const m = unitManager(this.ds);
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
