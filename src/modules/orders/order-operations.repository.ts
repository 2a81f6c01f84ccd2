import { Injectable } from '@nestjs/common';
import { Scope, SystemReach } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import { jsonValue } from '../../database/json-value';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { Order } from './order.entity';
import { parseOrderNumber } from './orders.dto';

/** The orders with a balance (the partial indexes idx_orders_company_dues / idx_orders_customer_dues). */
const DUE = `o.total_amount > o.paid_amount AND o.status <> 'rejected'`;

/** The notices still to give (the partial index idx_orders_overdue_pending): none yet for this due date, or fewer than 3. */
const NOTICE_PENDING = `(o.overdue_for IS DISTINCT FROM o.due_date OR o.overdue_notices < 3)`;

/** Days overdue from which each notice is given: marked the day after the due date, reminders at 7 and 30 days. */
export const OVERDUE_NOTICE_DAYS = [1, 7, 30] as const;

/** A row of the assignable orders: the order, the names, the unassigned jobs (JSON). */
export interface AssignableRow {
  order: Order;
  customerName: string;
  specificationName: string;
  wasteTypeName: string;
  unassignedJobs: { id: string; type: string; scheduled_date: string }[];
}

/** A row of the dues lists: the order, its customer's name and days past due. */
export interface DueRow {
  order: Order;
  customerName: string;
  daysPastDue: number;
}

/** A row `markOverdue` marked. */
export interface OverdueRow {
  id: string;
  number: number;
  customer_id: string;
  balance: number;
  currency: string;
  due_date: string;
  days: number;
  level: number;
}

const SAMPLE_SCOPE = () => Scope.company(SQL_SAMPLE.companyId);

/**
 * The SQL behind `OrderOperations` (dispatch's and payments' side of orders): the assignable list, the
 * balances and dues lists, the locks of a customer's dues and the overdue job's claims.
 */
@Injectable()
export class OrderOperationsRepository extends ModuleRepository {
  /**
   * The orders of `scope` with unassigned jobs (dispatch), paginated in SQL: one statement with the names
   * and the unassigned jobs (the jobs module's `jobs_unassigned`), and the count when the page is full.
   */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), { page: 1, per_page: 20 }] }, { name: 'on a date', params: () => [SAMPLE_SCOPE(), { page: 1, per_page: 20, date: SQL_SAMPLE.date }] })
  assignable(scope: Scope, q: PageQuery & { date?: string; asset_specification_id?: string }): Promise<Page<AssignableRow>> {
    const qb = scopedQuery(this.m, Order, scope, 'o')
      .andWhere(`o.status IN ('approved', 'scheduled', 'delivered')`)
      .andWhere(`EXISTS (SELECT 1 FROM jobs_unassigned(o.id) uj${q.date ? ' WHERE uj.scheduled_date = CAST(:unassignedOn AS date)' : ''})`, q.date ? { unassignedOn: q.date } : {})
      .addSelect('users_name(o.customer_id)', 'customer_name')
      .addSelect('catalogue_specification_name(o.asset_specification_id)', 'specification_name')
      .addSelect('catalogue_waste_type_name(o.waste_type_id)', 'waste_type_name')
      .addSelect(
        `(SELECT coalesce(json_agg(json_build_object('id', uj.id, 'type', uj.type, 'scheduled_date', to_char(uj.scheduled_date, 'YYYY-MM-DD'))
                    ORDER BY (uj.type <> 'delivery'), uj.scheduled_date, uj.created_at, uj.id), '[]'::json)
            FROM jobs_unassigned(o.id) uj)`,
        'unassigned_jobs',
      );
    if (q.asset_specification_id) qb.andWhere('o.assetSpecificationId = :spec', { spec: q.asset_specification_id });
    if (q.q) {
      const num = parseOrderNumber(q.q);
      qb.andWhere(`(EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = o.customer_id)${num !== null ? ' OR o.number = :num' : ''})`, { q: likePattern(q.q), num });
    }
    return paginate(qb, q, {
      sortable: { delivery_date: 'o.deliveryDate', created_at: 'o.createdAt', number: 'o.number' },
      defaultSort: 'delivery_date',
      mapRaw: (o, raw) => ({
        order: o,
        customerName: (raw.customer_name as string | null) ?? '',
        specificationName: (raw.specification_name as string | null) ?? '',
        wasteTypeName: (raw.waste_type_name as string | null) ?? '',
        unassignedJobs: jsonValue<AssignableRow['unassignedJobs']>(raw.unassigned_jobs) ?? [],
      }),
      count: () => countRows(qb),
    });
  }

  /** The order `id` of `scope` (no lock), or null. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  async balanceRow(scope: Scope, id: string): Promise<Order | null> {
    const rows = await scopedQuery(this.m, Order, scope, 'o').andWhere('o.id = :id', { id }).getMany();
    return rows[0] ?? null;
  }

  /** Every order of the customer with a balance, oldest due first (then by number), each locked (FOR UPDATE) in that order. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.actorId] })
  lockDues(scope: Scope, customerId: string): Promise<Order[]> {
    return this.locked
      .createQueryBuilder(Order, 'o')
      .where('o.companyId = :companyId AND o.customerId = :customerId', { companyId: scope.companyId, customerId })
      .andWhere(DUE)
      .orderBy('o.dueDate', 'ASC')
      .addOrderBy('o.number', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The company's order `id` (the caller locked it), or null. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id] })
  ofCompany(scope: Scope, id: string): Promise<Order | null> {
    return this.m.findOne(Order, { where: { id, companyId: scope.companyId } });
  }

  /** Writes the paid amount and payment status of the company's order `id`. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.id, { paidAmount: 100, paymentStatus: 'partially_paid' }] })
  async setPaid(scope: Scope, id: string, values: Pick<Order, 'paidAmount' | 'paymentStatus'>): Promise<void> {
    await this.m.update(Order, { id, companyId: scope.companyId }, values);
  }

  /**
   * The orders with a balance that the scope reaches, paginated in SQL with the customer's name and
   * days past due (`today`). Sorts: due_date (default), created_at; filters: customer_id, overdue.
   */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), { page: 1, per_page: 20, overdue: true }, SQL_SAMPLE.date] })
  dues(scope: Scope, q: PageQuery & { customer_id?: string; overdue?: boolean }, today: string): Promise<Page<DueRow>> {
    const qb = scopedQuery(this.m, Order, scope, 'o')
      .andWhere(DUE)
      .addSelect('users_name(o.customer_id)', 'customer_name')
      .addSelect(`greatest(:today::date - o.due_date, 0)`, 'days_past_due')
      .setParameter('today', today);
    if (q.customer_id) qb.andWhere('o.customerId = :customerId', { customerId: q.customer_id });
    if (q.overdue !== undefined) qb.andWhere(q.overdue ? 'o.dueDate < :today' : 'o.dueDate >= :today', { today });
    return paginate(qb, q, {
      sortable: { due_date: 'o.dueDate', created_at: 'o.createdAt' },
      defaultSort: 'due_date',
      mapRaw: (o, raw) => ({ order: o, customerName: (raw.customer_name as string | null) ?? '', daysPastDue: Number(raw.days_past_due ?? 0) }),
      count: () => countRows(qb),
    });
  }

  /** Totals of the dues the scope reaches (optionally one customer's), with ageing buckets of days past due (as text or numbers). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.date, SQL_SAMPLE.actorId] })
  duesTotals(scope: Scope, today: string, customerId?: string): Promise<Record<string, string | number> | undefined> {
    const qb = scopedQuery(this.m, Order, scope, 'o').andWhere(DUE).setParameter('today', today);
    if (customerId) qb.andWhere('o.customerId = :customerId', { customerId });
    const age = `(:today::date - o.due_date)`;
    const bal = `(o.total_amount - o.paid_amount)`;
    return qb
      .select('count(*)::int', 'orders_count')
      .addSelect(`coalesce(sum(${bal}), 0)::bigint::text`, 'total_due_amount')
      .addSelect(`(count(*) FILTER (WHERE ${age} > 0))::int`, 'overdue_count')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} > 0), 0)::bigint::text`, 'overdue_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} <= 0), 0)::bigint::text`, 'not_yet_due_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 1 AND 30), 0)::bigint::text`, 'aged_0_30_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 31 AND 60), 0)::bigint::text`, 'aged_31_60_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} BETWEEN 61 AND 90), 0)::bigint::text`, 'aged_61_90_amount')
      .addSelect(`coalesce(sum(${bal}) FILTER (WHERE ${age} > 90), 0)::bigint::text`, 'aged_90_plus_amount')
      .getRawOne<Record<string, string | number>>();
  }

  /**
   * The companies with orders with a balance due before the latest "today" of any time zone at `now` (UTC's
   * date + 1), with a notice pending: a sweep across companies (the scheduler's overdue run).
   */
  @GenerateSql({ params: () => [SystemReach.of('sample'), SQL_SAMPLE.at] })
  async overdueCandidates(reach: SystemReach, now: Date): Promise<string[]> {
    const rows = await this.sql<{ company_id: string }>(
      `SELECT DISTINCT o.company_id FROM orders o WHERE ${DUE} AND ${NOTICE_PENDING} AND o.due_date < (($1::timestamptz AT TIME ZONE 'UTC')::date + 1)`,
      [now],
    );
    return rows.map((r) => r.company_id);
  }

  /** The date at `now` in `timezone`. */
  @GenerateSql({ params: () => [SQL_SAMPLE.at, 'Europe/Berlin'] })
  async dateAt(now: Date, timezone: string): Promise<string> {
    const [{ today }] = await this.sql<{ today: string }>(`SELECT (($1::timestamptz AT TIME ZONE $2)::date)::text AS today`, [now, timezone]);
    return today;
  }

  /**
   * Claims at most `limit` of the company's orders due before `today` with a notice to give (FOR UPDATE
   * SKIP LOCKED) and records the notice on them; returns those it marked.
   */
  @GenerateSql({ params: () => [SAMPLE_SCOPE(), SQL_SAMPLE.date, 50] })
  markOverdue(scope: Scope, today: string, limit: number): Promise<OverdueRow[]> {
    const days = `($2::date - o.due_date)`;
    const level = `(CASE WHEN ${days} >= ${OVERDUE_NOTICE_DAYS[2]} THEN 3 WHEN ${days} >= ${OVERDUE_NOTICE_DAYS[1]} THEN 2 ELSE 1 END)`;
    const given = `(CASE WHEN o.overdue_for = o.due_date THEN o.overdue_notices ELSE 0 END)`;
    return this.locked.query<OverdueRow[]>(
      `WITH c AS (
         SELECT o.id, ${days} AS days, ${level} AS level FROM orders o
          WHERE o.company_id = $1 AND ${DUE} AND ${NOTICE_PENDING} AND o.due_date < $2::date AND ${level} > ${given}
          ORDER BY o.due_date, o.id LIMIT $3 FOR UPDATE OF o SKIP LOCKED),
       u AS (
         UPDATE orders o SET overdue_for = o.due_date, overdue_notices = c.level FROM c WHERE o.id = c.id
         RETURNING o.id, o.number, o.customer_id, (o.total_amount - o.paid_amount) AS balance, o.currency, o.due_date::text AS due_date, c.days, c.level)
       SELECT * FROM u`,
      [scope.companyId, today, limit],
    );
  }
}
