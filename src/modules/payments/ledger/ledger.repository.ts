import { Injectable } from '@nestjs/common';
import { In, Like } from 'typeorm';
import { Scope, SystemReach } from '../../../common/access/scope';
import { findScoped, scopedQuery } from '../../../common/access/tenant-policy';
import type { Page } from '../../../common/http/envelope';
import { paginate } from '../../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../../database/generate-sql';
import { ModuleRepository } from '../../../database/repository';
import type { CustomerTransactionQuery, TransactionQuery } from './ledger.dto';
import { PaymentTransaction, type TransactionKind } from './ledger.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_REACH = SystemReach.of('statement snapshot');

/** An order's paid amount from its succeeded ledger rows: money in minus money given back. */
const PAID_SQL = `SELECT coalesce(sum(CASE WHEN kind IN ('charge', 'offline_payment', 'wallet_debit') THEN amount WHEN kind IN ('refund', 'wallet_credit') THEN -amount ELSE 0 END), 0)::bigint::text AS paid
  FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND status = 'succeeded'`;

/** The check of a pending row pushed back (its lease): one more attempt, the next check at `$2`. */
const PUSH_BACK_SQL = `UPDATE payment_transactions SET check_attempts = check_attempts + 1, next_check_at = $2 WHERE id = $1 AND company_id = $3`;

/** A new ledger row: what the ledger always says, the rest defaulted to null (its company is the scope's). */
export type NewRow = Omit<Partial<PaymentTransaction>, 'companyId'> & Pick<PaymentTransaction, 'customerId' | 'kind' | 'status' | 'amount' | 'currency'>;

/** Which ledger rows a list shows. */
export interface RowFilter {
  kinds?: readonly TransactionKind[];
  /** Only rows of an order. */
  orderOnly?: boolean;
}

/** A pending charge row as the provider's word finds it (webhook). */
export interface PendingChargeRow {
  id: string;
  company_id: string;
  order_id: string | null;
  batch_id: string | null;
}

/** A succeeded charge with what was refunded of it (pending refunds included). */
export interface SucceededCharge {
  id: string;
  company_id: string;
  customer_id: string;
  order_id: string | null;
  amount: number;
  currency: string;
  provider_ref: string;
  instrument_id: string | null;
  refunded: string;
}

/** A pending charge claimed by the reconciler (one per pay-all-dues batch: its first row), with its buyer's provider reference. */
export interface ClaimedCharge {
  id: string;
  company_id: string;
  order_id: string | null;
  batch_id: string | null;
  idempotency_key: string;
  provider_ref: string | null;
  created_at: Date;
  check_attempts: number;
  buyer_ref: string | null;
}

const SAMPLE_ROW: NewRow = { customerId: SQL_SAMPLE.actorId, orderId: SQL_SAMPLE.id, kind: 'offline_payment', status: 'succeeded', method: 'cash', amount: 100, currency: 'USD' };

/**
 * The ledger's rows (`payment_transactions`): the writes of every money movement, the order's paid amount
 * derived from them, the locks of pending rows (orders are locked first, by the orders module, as
 * everywhere in the ledger), the claims of the reconciler (`FOR UPDATE SKIP LOCKED`) and the lists.
 * Statements run in the open unit of work; locks require one (`this.locked`).
 */
@Injectable()
export class LedgerRepository extends ModuleRepository {
  // ------------------------------------------------------------ writes

  /** Inserts a row of the scope's company (the columns it does not name null, no attempts) and reads it back as written. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SAMPLE_ROW, SQL_SAMPLE.actorId] })
  async insert(scope: Scope, row: NewRow, createdBy: string | null): Promise<PaymentTransaction> {
    const m = this.m;
    const entity = m.create(PaymentTransaction, { orderId: null, walletId: null, instrumentId: null, relatedTransactionId: null, batchId: null, method: null, providerRef: null, failureCode: null, offlineReference: null, idempotencyKey: null, description: null, createdBy, nextCheckAt: null, checkAttempts: 0, ...row, companyId: scope.companyId });
    await m.insert(PaymentTransaction, entity);
    return m.findOneOrFail(PaymentTransaction, { where: { id: entity.id, companyId: scope.companyId } });
  }

  /** A row of the scope's company, changed. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'failed', failureCode: 'provider_declined', nextCheckAt: null }] })
  async update(scope: Scope, id: string, values: Partial<Pick<PaymentTransaction, 'status' | 'providerRef' | 'failureCode' | 'nextCheckAt'>>): Promise<void> {
    await this.m.update(PaymentTransaction, { id, companyId: scope.companyId }, values);
  }

  /** The provider's reference of the scope's company's pending rows, when they have none yet (the provider settles later). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [SQL_SAMPLE.id, SQL_SAMPLE.otherId], 'ch_sample'] })
  async setPendingReference(scope: Scope, ids: string[], reference: string): Promise<void> {
    await this.sql(`UPDATE payment_transactions SET provider_ref = coalesce(provider_ref, $2), updated_at = now() WHERE id = ANY($1::uuid[]) AND company_id = $3 AND status = 'pending'`, [ids, reference, scope.companyId]);
  }

  /** Pushes a pending row's next check back (the claim's lease): one more attempt. */
  async pushBack(scope: Scope, id: string, nextAt: Date): Promise<void> {
    await this.sql(PUSH_BACK_SQL, [id, nextAt, scope.companyId]);
  }

  /** A pending refund whose call had no answer: asked again at `nextAt` (no attempt counted: the claim counted it). */
  async deferPendingRefund(scope: Scope, id: string, nextAt: Date): Promise<void> {
    await this.sql(`UPDATE payment_transactions SET next_check_at = $2 WHERE id = $1 AND company_id = $3 AND status = 'pending'`, [id, nextAt, scope.companyId]);
  }

  // ------------------------------------------------------------ reads and locks

  /** The row of the scope's company with this idempotency key (a request's charge run again), or null. */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'charge:req:sample'] })
  byKey(scope: Scope, key: string): Promise<PaymentTransaction | null> {
    return this.m.findOne(PaymentTransaction, { where: { companyId: scope.companyId, idempotencyKey: key } });
  }

  /** The rows of a pay-all-dues batch of the scope's company, in the order they were written. */
  batch(scope: Scope, batchId: string): Promise<PaymentTransaction[]> {
    return this.m.find(PaymentTransaction, { where: { batchId, companyId: scope.companyId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** An order's paid amount from its succeeded rows (the scope's company's): money in minus money given back. */
  async paidOf(scope: Scope, orderId: string): Promise<number> {
    const [{ paid }] = await this.sql<{ paid: string }>(PAID_SQL, [orderId, scope.companyId]);
    return Number(paid);
  }

  /** Whether a card charge of one of these orders (the scope's company's) waits for the provider. */
  hasPendingCharge(scope: Scope, orderIds: string[]): Promise<boolean> {
    return this.m.exists(PaymentTransaction, { where: { orderId: In(orderIds), companyId: scope.companyId, kind: 'charge', status: 'pending' } });
  }

  /** The amount pending card charges hold against the order's balance (the scope's company's order). */
  async heldBy(scope: Scope, orderId: string): Promise<number> {
    const [{ held }] = await this.sql<{ held: string }>(`SELECT coalesce(sum(amount), 0)::text AS held FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND kind = 'charge' AND status = 'pending'`, [orderId, scope.companyId]);
    return Number(held);
  }

  /** The amount of the order's refunds still pending at the provider (already counted as going back; the scope's company's order). */
  async pendingRefundsOf(scope: Scope, orderId: string): Promise<number> {
    const [{ pending }] = await this.sql<{ pending: string }>(`SELECT coalesce(sum(amount), 0)::text AS pending FROM payment_transactions WHERE order_id = $1 AND company_id = $2 AND kind = 'refund' AND status = 'pending'`, [orderId, scope.companyId]);
    return Number(pending);
  }

  /** These rows of the scope's company still pending, locked in id order (`FOR UPDATE`; their orders locked before). */
  lockPending(scope: Scope, ids: string[]): Promise<PaymentTransaction[]> {
    return this.locked
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.id IN (:...ids) AND t.companyId = :companyId AND t.status = 'pending'`, { ids, companyId: scope.companyId })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The row of the scope's company if it is still pending, locked (`FOR UPDATE`); null once settled. */
  lockIfPending(scope: Scope, id: string): Promise<PaymentTransaction | null> {
    return this.locked.createQueryBuilder(PaymentTransaction, 't').where(`t.id = :id AND t.companyId = :companyId AND t.status = 'pending'`, { id, companyId: scope.companyId }).setLock('pessimistic_write').getOne();
  }

  /** The pending charges with this provider reference, or with our key (an answer lost before we learnt the reference): the provider's word, any company's. */
  @GenerateSql({ name: 'reference', params: [SAMPLE_REACH, 'ch_sample', null] }, { name: 'reference or key', params: [SAMPLE_REACH, 'ch_sample', 'charge:sample'] })
  pendingChargesByReference(reach: SystemReach, providerRef: string, key: string | null): Promise<PendingChargeRow[]> {
    return this.sql<PendingChargeRow>(
      `SELECT id, company_id, order_id, batch_id FROM payment_transactions
        WHERE kind = 'charge' AND status = 'pending' AND (provider_ref = $1 OR ($2::text IS NOT NULL AND idempotency_key = $2))`,
      [providerRef, key],
    );
  }

  /** These pending charges with the other pending rows of their pay-all-dues batches (the provider's word, any company's). */
  @GenerateSql({ params: [SAMPLE_REACH, [SQL_SAMPLE.id], [SQL_SAMPLE.otherId]] })
  pendingChargesWithBatches(reach: SystemReach, ids: string[], batchIds: string[]): Promise<PendingChargeRow[]> {
    return this.sql<PendingChargeRow>(`SELECT id, company_id, order_id, batch_id FROM payment_transactions WHERE kind = 'charge' AND status = 'pending' AND (id = ANY($1::uuid[]) OR batch_id = ANY($2::uuid[]))`, [ids, batchIds]);
  }

  /** The scope's company's pending charge `id` with the other pending rows of its batch (`batchId`, when it has one). */
  @GenerateSql({ name: 'single', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, null] }, { name: 'batch', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId] })
  pendingChargesOfBatch(scope: Scope, id: string, batchId: string | null): Promise<Omit<PendingChargeRow, 'batch_id'>[]> {
    return this.sql(`SELECT id, company_id, order_id FROM payment_transactions WHERE company_id = $3 AND status = 'pending' AND kind = 'charge' AND (id = $1 OR ($2::uuid IS NOT NULL AND batch_id = $2))`, [id, batchId, scope.companyId]);
  }

  /** The scope's company's succeeded charges of an order (or with a provider reference), newest first, with what was refunded of each (pending refunds included: that money is on its way back). */
  @GenerateSql({ name: 'by order', params: [SAMPLE_SCOPE, 'order_id', SQL_SAMPLE.id] }, { name: 'by provider reference', params: [SAMPLE_SCOPE, 'provider_ref', 'ch_sample'] })
  succeededCharges(scope: Scope, by: 'order_id' | 'provider_ref', value: string): Promise<SucceededCharge[]> {
    return this.sql<SucceededCharge>(
      `SELECT c.id, c.company_id, c.customer_id, c.order_id, c.amount, c.currency, c.provider_ref, c.instrument_id,
              (SELECT coalesce(sum(r.amount), 0) FROM payment_transactions r WHERE r.related_transaction_id = c.id AND r.kind = 'refund' AND r.status IN ('succeeded', 'pending'))::text AS refunded
         FROM payment_transactions c WHERE c.${by} = $1 AND c.company_id = $2 AND c.kind = 'charge' AND c.status = 'succeeded' ORDER BY c.created_at DESC, c.id DESC`,
      [value, scope.companyId],
    );
  }

  /** The succeeded charge rows with this provider reference (their ids, companies and orders): the provider's word, any company's. */
  @GenerateSql({ params: [SAMPLE_REACH, 'ch_sample'] })
  succeededChargeOrders(reach: SystemReach, providerRef: string): Promise<Pick<PaymentTransaction, 'id' | 'companyId' | 'orderId'>[]> {
    return this.m.find(PaymentTransaction, { where: { providerRef, kind: 'charge', status: 'succeeded' }, select: { id: true, companyId: true, orderId: true } });
  }

  /** Whether the scope's company already recorded a lost dispute (its rows are keyed `dispute:<id>:…`). */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'dp_sample'] })
  disputeRecorded(scope: Scope, disputeId: string): Promise<boolean> {
    return this.m.exists(PaymentTransaction, { where: { companyId: scope.companyId, idempotencyKey: Like(`dispute:${disputeId}:%`) } });
  }

  /** Whether the scope's company already gave money back for this event (its rows are keyed `refund:<event id>…`). */
  refundRecorded(scope: Scope, eventId: string): Promise<boolean> {
    return this.m.exists(PaymentTransaction, { where: { companyId: scope.companyId, idempotencyKey: Like(`refund:${eventId}%`) } });
  }

  /** The succeeded refunds with this provider reference, in id order: the provider's word, any company's. */
  @GenerateSql({ params: [SAMPLE_REACH, 're_sample'] })
  succeededRefunds(reach: SystemReach, refundRef: string): Promise<PaymentTransaction[]> {
    return this.m.find(PaymentTransaction, { where: { providerRef: refundRef, kind: 'refund', status: 'succeeded' }, order: { id: 'ASC' } });
  }

  /** The same, locked in id order (`FOR UPDATE`; their orders locked before). */
  @GenerateSql({ params: [SAMPLE_REACH, 're_sample'] })
  lockSucceededRefunds(reach: SystemReach, refundRef: string): Promise<PaymentTransaction[]> {
    return this.locked
      .createQueryBuilder(PaymentTransaction, 't')
      .where(`t.providerRef = :refundRef AND t.kind = 'refund' AND t.status = 'succeeded'`, { refundRef })
      .orderBy('t.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The next pending refund to call, any company's (these ids, or one whose check time has come), locked and skipped by other claimers (`FOR UPDATE SKIP LOCKED`). */
  @GenerateSql({ name: 'due', params: [SAMPLE_REACH, SQL_SAMPLE.at] }, { name: 'these ids', params: [SAMPLE_REACH, SQL_SAMPLE.at, [SQL_SAMPLE.id]] })
  async claimablePendingRefund(reach: SystemReach, now: Date, ids?: string[]): Promise<{ id: string; company_id: string } | null> {
    const [row] = await this.locked.query<{ id: string; company_id: string }[]>(
      `SELECT id, company_id FROM payment_transactions WHERE kind = 'refund' AND status = 'pending' AND ${ids ? 'id = ANY($1::uuid[])' : 'next_check_at <= $1'}
            ORDER BY next_check_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [ids ?? now],
    );
    return row ?? null;
  }

  /** The next pending charge due for a check, any company's (one per pay-all-dues batch: its first row), locked and skipped by other claimers (`FOR UPDATE SKIP LOCKED`). */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.at] })
  async claimablePendingCharge(reach: SystemReach, now: Date): Promise<ClaimedCharge | null> {
    const [row] = await this.locked.query<ClaimedCharge[]>(
      `SELECT t.id, t.company_id, t.order_id, t.batch_id, t.idempotency_key, t.provider_ref, t.created_at, t.check_attempts, b.provider_ref AS buyer_ref
           FROM payment_transactions t
           LEFT JOIN payment_instruments i ON i.id = t.instrument_id
           LEFT JOIN payment_buyers b ON b.id = i.buyer_id
          WHERE t.status = 'pending' AND t.kind = 'charge' AND t.next_check_at <= $1 AND (t.batch_id IS NULL OR t.batch_id = t.id)
          ORDER BY t.next_check_at, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED`,
      [now],
    );
    return row ?? null;
  }

  /** Charges and refunds pending at the provider since before `at`, every company's (the alert). */
  @GenerateSql({ params: [SAMPLE_REACH, SQL_SAMPLE.at] })
  async pendingSince(reach: SystemReach, at: Date): Promise<number> {
    const [{ n }] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM payment_transactions WHERE status = 'pending' AND kind IN ('charge', 'refund') AND created_at < $1`, [at]);
    return Number(n);
  }

  // ------------------------------------------------------------ lists

  /** Ledger rows the scope reaches (a customer: theirs), paginated in SQL; filters kind, status, method, order_id, customer_id; sorts created_at (default newest first), amount. */
  @GenerateSql(
    { name: 'no filter', params: [SAMPLE_SCOPE, {}, {}] },
    { name: 'with filters', params: [SAMPLE_SCOPE, { kind: 'charge', status: 'succeeded', order_id: SQL_SAMPLE.id, method: 'instrument', customer_id: SQL_SAMPLE.otherId, sort: 'amount' }, { kinds: ['charge', 'offline_payment', 'wallet_debit'], orderOnly: true }] },
  )
  page(scope: Scope, q: TransactionQuery | CustomerTransactionQuery, view: RowFilter): Promise<Page<PaymentTransaction>> {
    const qb = scopedQuery(this.m, PaymentTransaction, scope, 't');
    if (view.kinds) qb.andWhere('t.kind IN (:...kinds)', { kinds: [...view.kinds] });
    if (view.orderOnly) qb.andWhere('t.orderId IS NOT NULL');
    if (q.kind) qb.andWhere('t.kind = :kind', { kind: q.kind });
    if (q.status) qb.andWhere('t.status = :status', { status: q.status });
    if (q.order_id) qb.andWhere('t.orderId = :orderId', { orderId: q.order_id });
    if ('method' in q && q.method) qb.andWhere('t.method = :method', { method: q.method });
    if ('customer_id' in q && q.customer_id) qb.andWhere('t.customerId = :customerId', { customerId: q.customer_id });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', amount: 't.amount' }, defaultSort: '-created_at' });
  }

  /** A row the scope reaches; 404 otherwise. */
  find(scope: Scope, id: string): Promise<PaymentTransaction> {
    return findScoped(this.m, PaymentTransaction, scope, id, { what: 'Transaction' });
  }
}
