import { Injectable, Logger } from '@nestjs/common';
import { ExcessReason, LedgerText } from './ledger-texts';
import { CompanySettingsService } from '../../companies';
import { createHash, randomUUID } from 'node:crypto';
import type { Actor } from '../../../common/access/actor';
import { Scope, SystemReach } from '../../../common/access/scope';
import { ApiError } from '../../../common/http/api-error';
import { Page } from '../../../common/http/envelope';
import { inRequestUnit, UnitOfWork } from '../../../database/unit-of-work';
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
import { LedgerRepository, type NewRow, type SucceededCharge } from './ledger.repository';
import { PaymentBuyerRepository } from './payment-buyer.repository';
import { WalletRepository } from './wallet.repository';

/** Which ledger rows a list or read shows. */
export interface TransactionView {
  kinds?: readonly TransactionKind[];
  /** Only rows of an order. */
  orderOnly?: boolean;
}
/** Money in: what the payments lists show. */
export const PAYMENT_KINDS: readonly TransactionKind[] = ['charge', 'offline_payment', 'wallet_debit'];
export const WALLET_KINDS: readonly TransactionKind[] = ['wallet_credit', 'wallet_debit'];

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
    private readonly uow: UnitOfWork,
    private readonly rows: LedgerRepository,
    private readonly wallets: WalletRepository,
    private readonly buyers: PaymentBuyerRepository,
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
  private async buyer(actor: Actor, scope: Scope, refundTo?: IdentityDto['refund_to']): Promise<PaymentBuyer> {
    let buyer = await this.buyers.ofUser(scope, actor.id);
    if (!buyer) {
      const { reference } = await this.provider.createBuyer({ userId: actor.id, email: actor.email, name: actor.name });
      buyer = await this.uow.transaction(() => this.buyers.insertOnce(scope, actor.id, this.provider.name, reference, refundTo ?? 'wallet'));
    }
    if (refundTo && buyer.refundTo !== refundTo) {
      await this.buyers.setRefundTo(scope, buyer.id, refundTo);
      buyer.refundTo = refundTo;
    }
    return buyer;
  }

  async identity(actor: Actor, dto: IdentityDto): Promise<BuyerDto> {
    return BuyerDto.of(await this.buyer(actor, Scope.of(actor), dto.refund_to));
  }

  /** Attaches a card: the provider called with no transaction open, then the instrument row written. */
  async addInstrument(actor: Actor, dto: InstrumentTokenDto): Promise<InstrumentDto> {
    const scope = Scope.of(actor);
    const buyer = await this.buyer(actor, scope);
    const card = await this.provider.attachInstrument(dto.token, buyer.providerRef).catch((e: unknown) => {
      if (e instanceof UnknownInstrumentToken) throw ApiError.unprocessable('INVALID_PAYMENT_TOKEN', 'The payment token is not valid.', { token: ['is not a valid payment token'] });
      throw e;
    });
    return this.uow.transaction(async () => {
      const row = await this.buyers.insertInstrument(scope, { userId: actor.id, buyerId: buyer.id, provider: this.provider.name, providerRef: card.reference, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear });
      return InstrumentDto.of(row);
    });
  }

  /** The caller's own instruments, newest first. */
  async instruments(actor: Actor, q: import('../../../common/http/pagination').PageQuery): Promise<Page<InstrumentDto>> {
    const page = await this.buyers.instruments(Scope.of(actor), actor.id, q);
    return new Page(page.items.map(InstrumentDto.of), page.meta);
  }

  // ------------------------------------------------------------ paying

  /** The caller's instrument with its buyer identity (422 `instrument_id` not found when the caller has no such card). */
  private async instrumentOf(actor: Actor, scope: Scope, id: string): Promise<{ instrument: PaymentInstrument; buyer: PaymentBuyer }> {
    const found = await this.buyers.instrumentOf(scope, actor.id, id);
    if (!found) throw bodyNotFound('instrument_id');
    return found;
  }

  private assertOneMethod(dto: { instrument_id?: string; use_wallet?: boolean }): void {
    if (!!dto.instrument_id === !!dto.use_wallet) {
      throw ApiError.validation({ instrument_id: ['give an instrument_id or use_wallet: true (not both)'] });
    }
  }

  /** A new ledger row of the scope's company, with its `payment_transaction.recorded` event. */
  private async insertRow(scope: Scope, row: NewRow, actorId: string | null): Promise<PaymentTransaction> {
    const saved = await this.rows.insert(scope, row, actorId);
    await this.recordRowEvent(saved, actorId);
    return saved;
  }

  /** `payment_transaction.recorded` for a row as it is now (written, or its status settled). */
  private recordRowEvent(saved: PaymentTransaction, actorId: string | null): Promise<void> {
    return this.rows.recordEvents({
      type: 'payment_transaction.recorded',
      aggregateType: 'payment_transaction',
      aggregateId: saved.id,
      companyId: saved.companyId,
      actorId,
      payload: { kind: saved.kind, status: saved.status, amount: saved.amount, currency: saved.currency, customer_id: saved.customerId, order_id: saved.orderId, method: saved.method, failure_code: saved.failureCode },
    });
  }

  /** The order's paid amount recomputed from its succeeded ledger rows and written with its payment status. */
  private async settle(scope: Scope, orderId: string, refunded = false): Promise<OrderBalance> {
    const paid = await this.rows.paidOf(scope, orderId);
    return this.orders.recordPaid(scope, orderId, paid, refunded);
  }

  /** Takes `amount` from the locked wallet of the scope's company (409 when it does not cover it; the database refuses a negative balance anyway). */
  private async debitWallet(scope: Scope, wallet: Wallet | null, amount: number): Promise<Wallet> {
    if (!wallet || wallet.balance < amount) throw ApiError.conflict('INSUFFICIENT_WALLET_BALANCE', `The wallet holds ${wallet?.balance ?? 0}; ${amount} is needed.`);
    await this.wallets.debit(scope, wallet.id, amount);
    wallet.balance -= amount;
    return wallet;
  }

  /** A customer pays (part of) one order's balance by card or from the wallet. A declined card is answered with the failed row. */
  async pay(actor: Actor, orderId: string, dto: PayOrderDto, requestKey?: string): Promise<Answered<PaymentResultDto>> {
    const scope = Scope.of(actor);
    const reserved = await this.uow.transaction(async (): Promise<{ done: PaymentResultDto; unknown?: boolean } | { row: PaymentTransaction; call: ChargeInput }> => {
      const order = await this.orders.lockForPayment(scope, orderId);
      const company = Scope.company(order.companyId);
      this.assertOneMethod(dto);
      if (dto.instrument_id && requestKey) {
        // The same request again after its first run failed or crashed between its steps: its row, not a second charge.
        const again = await this.rows.byKey(company, chargeKey(actor.id, requestKey, ''));
        if (again) return { done: { transaction: TransactionDto.of(again), order: OrderBalanceDto.of(order) }, unknown: again.status === 'pending' && !again.providerRef };
      }
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be paid.`);
      const base = { customerId: order.customerId, orderId: order.id, amount, currency: order.currency };
      if (dto.use_wallet) {
        await this.assertNotHeld(company, order, amount);
        const wallet = await this.debitWallet(company, await this.wallets.lock(company, order.customerId), amount);
        const row = await this.insertRow(company, { ...base, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, description: LedgerText.walletPayment(order.number) }, actor.id);
        return { done: { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(await this.settle(company, order.id)) } };
      }
      const { instrument, buyer } = await this.instrumentOf(actor, company, dto.instrument_id!);
      const merchantRef = await this.readiness.assertCardReady(Scope.company(order.companyId));
      await this.assertNoPendingCharge(company, [order.id]);
      const id = randomUUID();
      const key = chargeKey(actor.id, requestKey, id);
      const row = await this.insertRow(company, { ...base, id, kind: 'charge', status: 'pending', method: 'instrument', instrumentId: instrument.id, idempotencyKey: key, nextCheckAt: firstCheck() }, actor.id);
      const call = { amount, currency: order.currency, buyerRef: buyer.providerRef, instrumentRef: instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(Scope.company(order.companyId), amount, 'card'), idempotencyKey: key, description: LedgerText.cardCharge(order.number) };
      return { row, call };
    });
    if ('done' in reserved) return { status: reserved.unknown ? 202 : 201, body: reserved.done };
    const outcome = await this.callProvider(() => this.provider.chargeAllowingPending(reserved.call), [reserved.row]);
    const refunds: string[] = [];
    const answer = await this.uow.transaction(async () => {
      await this.settlePending([reserved.row], outcome, refunds);
      const row = await this.rows.find(Scope.company(reserved.row.companyId), reserved.row.id);
      const order = await this.orders.balance(Scope.company(row.companyId), row.orderId!);
      return { status: outcome.status === 'unknown' ? (202 as const) : (201 as const), body: { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(order) } };
    });
    // The order was rejected, cancelled or repriced while the charge was at the provider: the excess goes back now.
    if (refunds.length) await this.executeRefunds(new Date(), refunds);
    return answer;
  }

  /** Every order of the customer with a balance, oldest due first, in ONE charge (or from the wallet): all or nothing. */
  async payAllDues(actor: Actor, dto: PayAllDuesDto, requestKey?: string): Promise<Answered<PayAllDuesResultDto>> {
    const scope = Scope.of(actor);
    const company = Scope.company(scope.companyId);
    const reserved = await this.uow.transaction(async (): Promise<{ done: PayAllDuesResultDto; unknown?: boolean } | { rows: PaymentTransaction[]; call: ChargeInput }> => {
      this.assertOneMethod(dto);
      const card = dto.instrument_id ? await this.instrumentOf(actor, company, dto.instrument_id) : null;
      if (card && requestKey) {
        const again = await this.rows.byKey(company, chargeKey(actor.id, requestKey, ''));
        if (again) return { done: await this.batchResult(company, again.batchId ?? again.id), unknown: again.status === 'pending' && !again.providerRef };
      }
      const dues = await this.orders.lockDues(scope, actor.id);
      if (!dues.length) throw ApiError.conflict('NOTHING_DUE', 'Nothing is due.');
      const total = dues.reduce((s, o) => s + o.balanceAmount, 0);
      if (total > INT4_MAX) throw ApiError.unprocessable('AMOUNT_TOO_LARGE', 'The dues exceed the largest amount one payment can take; pay orders one by one.');
      // A card charge of one of them still waits for the provider: paying all again could pay it twice.
      await this.assertNoPendingCharge(company, dues.map((o) => o.id));
      const currency = dues[0].currency;
      const batchId = randomUUID();
      const rows: PaymentTransaction[] = [];
      if (dto.use_wallet) {
        const wallet = await this.debitWallet(company, await this.wallets.lock(company, actor.id), total);
        for (const [i, o] of dues.entries()) {
          rows.push(await this.insertRow(Scope.company(o.companyId), { ...(i === 0 ? { id: batchId } : {}), customerId: o.customerId, orderId: o.id, amount: o.balanceAmount, currency, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', walletId: wallet.id, batchId, description: LedgerText.allDuesFromWallet(o.number) }, actor.id));
        }
        const after: OrderBalance[] = [];
        for (const o of dues) after.push(await this.settle(Scope.company(o.companyId), o.id));
        return { done: { status: 'succeeded', amount: total, failure_code: null, transactions: rows.map(TransactionDto.of), orders: after.map(OrderBalanceDto.of) } };
      }
      const merchantRef = await this.readiness.assertCardReady(scope);
      const key = chargeKey(actor.id, requestKey, batchId);
      const common = { customerId: actor.id, currency, method: 'instrument' as const, instrumentId: card!.instrument.id, batchId, kind: 'charge' as const, status: 'pending' as const, nextCheckAt: firstCheck() };
      for (const [i, o] of dues.entries()) {
        rows.push(await this.insertRow(company, { ...common, ...(i === 0 ? { id: batchId } : {}), orderId: o.id, amount: o.balanceAmount, idempotencyKey: i === 0 ? key : `${key}:${i}`, description: LedgerText.duesCharge(dues.map((d) => d.number)) }, actor.id));
      }
      const call = { amount: total, currency, buyerRef: card!.buyer.providerRef, instrumentRef: card!.instrument.providerRef, merchantRef, platformFeeAmount: await this.fees.feeFor(scope, total, 'card'), idempotencyKey: key, description: LedgerText.duesCharge(dues.map((d) => d.number)) };
      return { rows, call };
    });
    if ('done' in reserved) return { status: reserved.unknown ? 202 : 201, body: reserved.done };
    const outcome = await this.callProvider(() => this.provider.chargeAllowingPending(reserved.call), reserved.rows);
    const refunds: string[] = [];
    const answer = await this.uow.transaction(async () => {
      await this.settlePending(reserved.rows, outcome, refunds);
      return { status: outcome.status === 'unknown' ? (202 as const) : (201 as const), body: await this.batchResult(company, reserved.rows[0].batchId!) };
    });
    if (refunds.length) await this.executeRefunds(new Date(), refunds);
    return answer;
  }

  /** A pay-all-dues answer from its rows (the scope's company's) as they are now. */
  private async batchResult(scope: Scope, batchId: string): Promise<PayAllDuesResultDto> {
    const rows = await this.rows.batch(scope, batchId);
    const status = rows[0]?.status ?? 'pending';
    const orders: OrderBalance[] = [];
    for (const r of rows) if (r.orderId) orders.push(await this.orders.balance(Scope.company(r.companyId), r.orderId));
    return { status, amount: rows.reduce((s, r) => s + r.amount, 0), failure_code: rows[0]?.failureCode ?? null, transactions: rows.map(TransactionDto.of), orders: orders.map(OrderBalanceDto.of) };
  }

  /**
   * Calls the provider for reserved (committed, pending) rows, with no transaction open. Its failures of
   * its own (unreachable, timeout, 5xx: 502 `PAYMENT_PROVIDER_UNAVAILABLE`) leave the outcome unknown: the
   * rows stay pending for the provider's webhook or the reconciler. Any other error (the provider refused
   * the request itself) fails the rows and is rethrown.
   */
  private async callProvider(call: () => Promise<ChargeResult | PendingChargeResult>, rows: PaymentTransaction[]): Promise<ProviderOutcome> {
    if (inRequestUnit(this.uow.ds)) throw new Error('A payment provider call inside a request transaction: use @Idempotent({ stepped: true }) on the route.');
    try {
      const r = await call();
      return { status: r.status, reference: r.reference, failureCode: r.failureCode ?? null };
    } catch (e) {
      if (isUnknownOutcome(e)) {
        this.logger.warn({ msg: 'payment provider outcome unknown: the charge stays pending', transaction_ids: rows.map((r) => r.id), error: e instanceof Error ? e.message : String(e) });
        return { status: 'unknown', reference: null, failureCode: null };
      }
      await this.uow.transaction(() => this.settlePending(rows, { status: 'failed', reference: null, failureCode: 'provider_error' }));
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
   * are added to `reservedRefunds`: the caller runs `executeRefunds` once its unit of work committed.
   * Runs in the caller's unit of work (`UnitOfWork#transaction`).
   */
  async settlePending(rows: Pick<PaymentTransaction, 'id' | 'companyId' | 'orderId'>[], outcome: ProviderOutcome, reservedRefunds: string[] = []): Promise<number> {
    if (!rows.length || outcome.status === 'unknown') return 0;
    // The rows of one charge: one company's (a pay-all-dues batch is one customer's).
    const company = Scope.company(rows[0].companyId);
    if (outcome.status === 'pending') {
      if (outcome.reference) await this.rows.setPendingReference(company, rows.map((r) => r.id), outcome.reference);
      return 0;
    }
    const orderIds = [...new Set(rows.map((r) => r.orderId).filter((id): id is string => !!id))].sort();
    for (const orderId of orderIds) await this.orders.lockForPayment(company, orderId);
    const locked = await this.rows.lockPending(company, rows.map((r) => r.id));
    for (const row of locked) {
      await this.rows.update(company, row.id, { status: outcome.status, providerRef: outcome.reference ?? row.providerRef, failureCode: outcome.status === 'failed' ? (outcome.failureCode ?? 'provider_declined') : null, nextCheckAt: null });
      await this.recordRowEvent(await this.rows.find(company, row.id), null);
    }
    if (outcome.status === 'succeeded') {
      for (const orderId of [...new Set(locked.map((r) => r.orderId).filter((id): id is string => !!id))].sort()) {
        const b = await this.settle(Scope.company(locked[0].companyId), orderId);
        // Settled late (webhook, reconciler) on an order rejected, cancelled or repriced meanwhile: what it now bills less goes back at once.
        const row = locked.find((r) => r.orderId === orderId)!;
        if (b.status === 'rejected' || b.paidAmount > Math.max(b.totalAmount, 0)) {
          reservedRefunds.push(...(await this.refundExcess(`settled:${row.id}`, Scope.company(b.companyId), orderId, b.status === 'rejected' ? 'rejected' : b.status === 'cancelled' ? 'cancelled' : 'repriced')));
        }
      }
    }
    return locked.length;
  }

  /** 409 PAYMENT_PENDING while a card charge of one of these (locked) orders of the scope's company waits for the provider: paying again could pay twice. */
  private async assertNoPendingCharge(scope: Scope, orderIds: string[]): Promise<void> {
    if (await this.rows.hasPendingCharge(scope, orderIds)) throw pendingCharge();
  }

  /** The amount pending card charges hold against the (locked) order's balance (an order of the scope's company): a wallet or offline payment may take only the rest. */
  private async assertNotHeld(scope: Scope, order: OrderBalance, amount: number): Promise<void> {
    const held = await this.rows.heldBy(scope, order.id);
    if (held > 0 && amount > order.balanceAmount - held) throw pendingCharge();
  }

  /** The company records an offline payment (cash, cheque, bank transfer) against an order. */
  async paymentReceived(actor: Actor, dto: PaymentReceivedDto): Promise<PaymentResultDto> {
    const scope = Scope.of(actor);
    return this.uow.transaction(async () => {
      const order = await this.orders.lockForPayment(Scope.company(scope.companyId), dto.order_id).catch((e: unknown) => {
        throw e instanceof ApiError && e.code === 'NOT_FOUND' ? bodyNotFound('order_id') : e;
      });
      if (order.status === 'rejected' || order.balanceAmount <= 0) throw noneDue();
      const amount = dto.amount ?? order.balanceAmount;
      if (amount > order.balanceAmount) throw ApiError.conflict('AMOUNT_EXCEEDS_BALANCE', `The balance is ${order.balanceAmount}; at most that can be recorded.`);
      const company = Scope.company(order.companyId);
      await this.assertNotHeld(company, order, amount);
      const row = await this.insertRow(company, { customerId: order.customerId, orderId: order.id, amount, currency: order.currency, kind: 'offline_payment', status: 'succeeded', method: dto.method, offlineReference: dto.reference, description: LedgerText.offlinePayment(order.number, dto.method, dto.reference, dto.note) }, actor.id);
      return { transaction: TransactionDto.of(row), order: OrderBalanceDto.of(await this.settle(company, order.id)) };
    });
  }

  // ------------------------------------------------------------ the provider's word (webhooks, reconciler)

  /**
   * The provider's word on a charge (inbound webhook `charge.succeeded` / `charge.failed`: Stripe's
   * `payment_intent.*`): the pending charge rows with this provider reference, or with our key (the
   * charge's `metadata.idempotency_key`: an answer lost before we learnt the reference), with the other
   * rows of the same pay-all-dues batch, are settled once (`settlePending`). Returns the rows changed
   * (0 when none is pending: already settled, or not ours). Runs in the caller's unit of work.
   */
  async applyProviderCharge(providerRef: string, status: 'succeeded' | 'failed', failureCode: string | null, key: string | null = null, reservedRefunds: string[] = []): Promise<number> {
    const reach = SystemReach.of("the provider's word on a charge, found by its reference or our key");
    const found = await this.rows.pendingChargesByReference(reach, providerRef, key);
    const batches = [...new Set(found.map((r) => r.batch_id).filter((b): b is string => !!b))];
    const rows = batches.length ? await this.rows.pendingChargesWithBatches(reach, found.map((r) => r.id), batches) : found;
    let n = 0;
    for (const companyId of new Set(rows.map((r) => r.company_id))) {
      const mine = rows.filter((r) => r.company_id === companyId).map((r) => ({ id: r.id, companyId, orderId: r.order_id }));
      n += await this.settlePending(mine, { status, reference: providerRef, failureCode }, reservedRefunds);
    }
    return n;
  }

  /**
   * The provider's word that a charge was refunded (inbound webhook, Stripe `charge.refunded`): `refundedTotal`
   * is all the provider has refunded of the charge with this reference; what the ledger does not know yet
   * (a refund made at the provider, e.g. in its dashboard) is applied by `applyProviderReversal`.
   */
  async applyProviderRefund(eventId: string, providerRef: string, refundedTotal: number, refundRef: string): Promise<Reversal> {
    const locked = await this.lockChargeOrders(providerRef);
    if (!locked) return { recorded: 0, refused: 0 };
    const { company, numbers } = locked;
    const charges = await this.rows.succeededCharges(company, 'provider_ref', providerRef);
    const known = charges.reduce((sum, c) => sum + Number(c.refunded), 0);
    return this.applyProviderReversal(eventId, charges, refundedTotal - known, refundRef, numbers, LedgerText.providerRefund);
  }

  /**
   * A dispute the provider closed as lost (Stripe `charge.dispute.closed`, status `lost`): the disputed
   * amount left the company through the card network, so it is recorded like a provider refund of the
   * charge (keyed by the dispute, so a second event of the same dispute changes nothing).
   */
  async applyLostDispute(disputeId: string, providerRef: string, amount: number): Promise<Reversal> {
    const locked = await this.lockChargeOrders(providerRef);
    if (!locked) return { recorded: 0, refused: 0 };
    const { company, numbers } = locked;
    if (await this.rows.disputeRecorded(company, disputeId)) return { recorded: 0, refused: 0 };
    return this.applyProviderReversal(disputeId, await this.rows.succeededCharges(company, 'provider_ref', providerRef), amount, disputeId, numbers, LedgerText.disputeLost, 'dispute');
  }

  /**
   * Locks the orders of the succeeded charge rows with this reference (orders first, as everywhere); null when there are none.
   * The charge's company (one provider charge is one company's) and its orders' numbers.
   */
  private async lockChargeOrders(providerRef: string): Promise<{ company: Scope; numbers: Map<string, number> } | null> {
    const found = await this.rows.succeededChargeOrders(SystemReach.of("the provider's word on a succeeded charge, found by its reference"), providerRef);
    if (!found.length) return null;
    const company = Scope.company(found[0].companyId);
    const orderIds = [...new Set(found.map((c) => c.orderId).filter((id): id is string => !!id))].sort();
    const numbers = new Map<string, number>();
    for (const orderId of orderIds) numbers.set(orderId, (await this.orders.lockForPayment(company, orderId)).number);
    return { company, numbers };
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
  private async applyProviderReversal(eventId: string, charges: SucceededCharge[], missing: number, refundRef: string, numbers: Map<string, number>, describe: (n: number | undefined) => string, prefix = 'refund'): Promise<Reversal> {
    let recorded = 0;
    let refused = 0;
    for (const c of charges) {
      if (missing <= 0) break;
      const part = Math.min(missing, c.amount - Number(c.refunded));
      if (part <= 0) continue;
      missing -= part;
      const company = Scope.company(c.company_id);
      let direct = part;
      let fromWallet = 0;
      if (c.order_id) {
        const paid = await this.rows.paidOf(company, c.order_id);
        direct = Math.min(part, Math.max(paid, 0));
        const wallet = part > direct ? await this.wallets.lock(company, c.customer_id) : null;
        fromWallet = Math.min(part - direct, wallet?.balance ?? 0);
        if (fromWallet > 0) {
          await this.debitWallet(company, wallet, fromWallet);
          await this.insertRow(company, { customerId: c.customer_id, orderId: c.order_id, walletId: wallet!.id, amount: fromWallet, currency: c.currency, kind: 'wallet_debit', status: 'succeeded', method: 'wallet', relatedTransactionId: c.id, idempotencyKey: `${prefix}:${eventId}:${c.id}:wallet`, description: LedgerText.walletCreditTakenBack(c.order_id ? numbers.get(c.order_id) : undefined) }, null);
        }
      }
      const amount = direct + fromWallet;
      if (amount > 0) {
        await this.insertRow(company, { customerId: c.customer_id, orderId: c.order_id, amount, currency: c.currency, kind: 'refund', status: 'succeeded', method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, providerRef: refundRef, idempotencyKey: `${prefix}:${eventId}:${c.id}`, description: describe(c.order_id ? numbers.get(c.order_id) : undefined) }, null);
        if (c.order_id) await this.settle(company, c.order_id);
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
  async applyRefundFailure(eventId: string, refundRef: string, failureCode: string | null): Promise<number> {
    const reach = SystemReach.of("the provider's word that a refund failed, found by its reference");
    const found = await this.rows.succeededRefunds(reach, refundRef);
    for (const orderId of [...new Set(found.map((r) => r.orderId).filter((id): id is string => !!id))].sort()) {
      await this.orders.lockForPayment(Scope.company(found[0].companyId), orderId);
    }
    const rows = await this.rows.lockSucceededRefunds(reach, refundRef);
    let credited = 0;
    for (const row of rows) credited += await this.failRefund(row, failureCode ?? 'refund_failed', `refund-failed:${eventId}:${row.id}`);
    return credited;
  }

  /** A refund row the provider refused: failed, its amount credited to the wallet instead (keyed `walletKey`), the order's paid amount derived again. */
  private async failRefund(row: PaymentTransaction, failureCode: string, walletKey: string): Promise<number> {
    const company = Scope.company(row.companyId);
    await this.rows.update(company, row.id, { status: 'failed', failureCode, nextCheckAt: null });
    await this.recordRowEvent(await this.rows.find(company, row.id), null);
    const walletId = await this.wallets.credit(company, row.customerId, row.currency, row.amount);
    // The order is locked by the caller; its number names it in the text.
    const number = row.orderId ? (await this.orders.balance(company, row.orderId)).number : undefined;
    await this.insertRow(company, { customerId: row.customerId, orderId: row.orderId, walletId, amount: row.amount, currency: row.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', relatedTransactionId: row.id, idempotencyKey: walletKey, description: LedgerText.refundFailed(number) }, null);
    if (row.orderId) await this.settleAfterRefund(company, row.orderId);
    return row.amount;
  }

  /** The paid amount derived again after money went back: `refunded` status when the order was cancelled or rejected. */
  private async settleAfterRefund(scope: Scope, orderId: string): Promise<OrderBalance> {
    const order = await this.orders.balance(scope, orderId);
    return this.settle(scope, orderId, order.status === 'cancelled' || order.status === 'rejected');
  }

  // ------------------------------------------------------------ money back on the order's lifecycle (event subscribers)

  /**
   * Gives back what was paid above what the order now bills, at the moment it arises (issue #22):
   * cancellation (the fee is kept), rejection (nothing is billed), repricing below what was paid (order
   * update, approved change request, a fee voided or waived) and the final bill. Runs in the relay's
   * delivery unit of work (the order locked): to the wallet by default, or back to the cards that paid
   * (newest charge first, the rest to the wallet) when the company's `refund_excess_to` setting says
   * `instrument`, or says `customer` (the default) and the customer chose `refund_to: instrument`. A card
   * refund is only RESERVED here (a `pending` refund row counted at once, so a second event cannot give
   * the same money back again); `executeRefunds` calls the provider after the commit. Keys derive from the
   * event id, so a redelivery changes nothing. Returns the pending refund rows to execute. `scope`: the
   * order's company (`Scope.company(id)`: the relay acts for it).
   */
  async refundExcess(eventId: string, scope: Scope, orderId: string, reason: RefundReason): Promise<string[]> {
    const order = await this.orders.lockForPayment(scope, orderId);
    const billed = order.status === 'rejected' ? 0 : Math.max(order.totalAmount, 0);
    const pending = await this.rows.pendingRefundsOf(scope, orderId);
    const excess = order.paidAmount - pending - billed;
    if (excess <= 0) return [];
    if (await this.rows.refundRecorded(scope, eventId)) return [];
    let left = excess;
    const reserved: string[] = [];
    const toCard = LedgerText.excessReturned(reason, order.number, 'card');
    const toWallet = LedgerText.excessReturned(reason, order.number, 'wallet');
    if (await this.excessToCard(scope, order.customerId)) {
      const charges = await this.rows.succeededCharges(scope, 'order_id', orderId);
      for (const c of charges) {
        const part = Math.min(left, c.amount - Number(c.refunded));
        if (part <= 0) continue;
        const key = `refund:${eventId}${charges.length > 1 ? `:${c.id}` : ''}`;
        const row = await this.insertRow(scope, { customerId: order.customerId, orderId, amount: part, currency: order.currency, kind: 'refund', status: 'pending', method: 'instrument', instrumentId: c.instrument_id, relatedTransactionId: c.id, idempotencyKey: key, description: toCard, nextCheckAt: new Date() }, null);
        reserved.push(row.id);
        left -= part;
        if (left <= 0) break;
      }
    }
    if (left > 0) {
      const walletId = await this.wallets.credit(scope, order.customerId, order.currency, left);
      await this.insertRow(scope, { customerId: order.customerId, orderId, walletId, amount: left, currency: order.currency, kind: 'wallet_credit', status: 'succeeded', method: 'wallet', idempotencyKey: `refund:${eventId}:wallet`, description: toWallet }, null);
      await this.settleAfterRefund(scope, orderId);
    }
    return reserved;
  }

  /** The company's `refund_excess_to` setting decides; with `customer` (the default), the customer's own `refund_to`. */
  private async excessToCard(scope: Scope, customerId: string): Promise<boolean> {
    const { refund_excess_to: to } = await this.companySettings.get(scope);
    if (to !== 'customer') return to === 'instrument';
    const buyer = await this.buyers.ofUser(scope, customerId);
    return buyer?.refundTo === 'instrument';
  }

  /**
   * Calls the provider for pending refund rows (these ids, or every one whose check time has come, up
   * to `limit`), each claimed in a short unit of work (`FOR UPDATE SKIP LOCKED`, its next check pushed
   * back as a lease), called with no transaction open (same key: the provider refunds once), then settled
   * in another: succeeded → the order's paid amount goes down; refused → failed, credited to the wallet;
   * the provider unreachable → still pending, retried by the reconciler with backoff.
   */
  async executeRefunds(now: Date, ids?: string[], limit = 50): Promise<{ succeeded: number; failed: number; unknown: number }> {
    const summary = { succeeded: 0, failed: 0, unknown: 0 };
    const reach = SystemReach.of('pending card refunds claimed to be called: the reconciler, or the reserved ones after their unit');
    for (let i = 0; i < limit; i++) {
      const claimed = await this.uow.transaction(async () => {
        const row = await this.rows.claimablePendingRefund(reach, now, ids);
        if (!row) return null;
        // The claimed row's company: the refund and the charge it gives back are its.
        const company = Scope.company(row.company_id);
        await this.rows.pushBack(company, row.id, nextCheck(now, 1));
        const refund = await this.rows.find(company, row.id);
        const charge = await this.rows.find(company, refund.relatedTransactionId!);
        return { refund, chargeRef: charge.providerRef! };
      });
      if (!claimed) break;
      const { refund } = claimed;
      const company = Scope.company(refund.companyId);
      if (ids) ids = ids.filter((id) => id !== refund.id);
      let result: RefundResult | null = null;
      try {
        result = await this.provider.refund({ chargeRef: claimed.chargeRef, amount: refund.amount, idempotencyKey: refund.idempotencyKey! });
      } catch (e) {
        if (!isUnknownOutcome(e)) result = { status: 'failed', reference: `refund_error:${refund.idempotencyKey}`, failureCode: 'provider_error' };
        this.logger.warn({ msg: 'refund call failed', transaction_id: refund.id, error: e instanceof Error ? e.message : String(e) });
      }
      if (!result) {
        await this.rows.deferPendingRefund(company, refund.id, nextCheck(now, refund.checkAttempts + 1));
        summary.unknown++;
        continue;
      }
      const r = result;
      await this.uow.transaction(async () => {
        if (refund.orderId) await this.orders.lockForPayment(company, refund.orderId);
        const row = await this.rows.lockIfPending(company, refund.id);
        if (!row) return;
        await this.rows.update(company, row.id, { providerRef: r.reference });
        if (r.status === 'failed') {
          await this.failRefund({ ...row, providerRef: r.reference }, r.failureCode ?? 'refund_refused', `refund-failed:${row.id}`);
          return;
        }
        await this.rows.update(company, row.id, { status: 'succeeded', nextCheckAt: null });
        await this.recordRowEvent(await this.rows.find(company, row.id), null);
        if (row.orderId) await this.settleAfterRefund(company, row.orderId);
      });
      summary[r.status]++;
    }
    return summary;
  }

  // ------------------------------------------------------------ reading

  /** Ledger rows the scope reaches (a customer: theirs), paginated in SQL; filters kind, status, method, order_id, customer_id; sorts created_at (default newest first), amount. */
  async transactions(scope: Scope, q: TransactionQuery | CustomerTransactionQuery, view: TransactionView = {}): Promise<Page<TransactionDto>> {
    const page = await this.rows.page(scope, q, view);
    return new Page(page.items.map(TransactionDto.of), page.meta);
  }

  async transaction(scope: Scope, id: string, view: TransactionView = {}): Promise<TransactionDto> {
    const row = await this.rows.find(scope, id);
    if ((view.kinds && !view.kinds.includes(row.kind)) || (view.orderOnly && !row.orderId)) throw ApiError.notFound('Transaction');
    return TransactionDto.of(row);
  }

  // ------------------------------------------------------------ dues

  private today(scope: Scope): string {
    return todayIn(scope.timezone ?? 'UTC');
  }

  async dues(scope: Scope, q: DuesListQuery | CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    const page = await this.orders.dues(scope, q, this.today(scope));
    return new Page(page.items.map(OrderDueDto.ofDue), page.meta);
  }

  async customerDues(scope: Scope, customerId: string, q: CustomerDuesQuery): Promise<Page<OrderDueDto>> {
    await this.customers.show(Scope.company(scope.companyId), customerId);
    return this.dues(scope, { ...q, customer_id: customerId });
  }

  duesTotals(scope: Scope): Promise<DuesTotalsDto> {
    return this.orders.duesTotals(scope, this.today(scope));
  }

  // ------------------------------------------------------------ wallets

  /** A customer's own wallet; a company user's: every wallet of the company summed; a driver's: none (0). */
  async wallet(actor: Actor): Promise<WalletDto> {
    const scope = Scope.of(actor);
    if (scope.kind === 'customer') {
      const w = await this.wallets.ofCustomer(scope, actor.id);
      return { id: w?.id ?? null, customer_id: actor.id, balance_amount: w?.balance ?? 0, currency: w?.currency ?? null, wallets_count: w ? 1 : 0 };
    }
    if (scope.kind === 'driver') return { id: null, customer_id: null, balance_amount: 0, currency: null, wallets_count: 0 };
    const row = await this.wallets.companyTotals(scope);
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
