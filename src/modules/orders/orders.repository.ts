import { Injectable } from '@nestjs/common';
import { In, type SelectQueryBuilder } from 'typeorm';
import { Scope, SystemReach } from '../../common/access/scope';
import { findScoped, platformQuery, PlatformReach, reachQuery, scopeConditions, scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, MAX_PER_PAGE, paginate, type PageQuery } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { asJsonRow, jsonRowOf } from '../../database/prepared-query';
import { ModuleRepository } from '../../database/repository';
import { ONGOING_STATUSES, Order, OrderStatusCount, type OrderStatus } from './order.entity';
import { orderNumberSql, parseOrderNumber } from './orders.dto';
import type { PricedLine } from './pricing-engine';

/** The columns of an order `OrderDto` shows, as the entity names them (the row is mapped to an `Order`). */
export type OrderDtoRow = Pick<
  Order,
  | 'id' | 'number' | 'status' | 'paymentStatus' | 'customerId' | 'addressId' | 'address' | 'lotId' | 'assetSpecificationId' | 'wasteTypeId'
  | 'deliveryDate' | 'pickupDate' | 'timeWindow' | 'notes' | 'promotionCode' | 'currency' | 'subtotalAmount' | 'discountAmount' | 'taxAmount'
  | 'totalAmount' | 'paidAmount' | 'dueDate' | 'deliveredOn' | 'rejectionReason' | 'cancellationReason' | 'feedbackRating' | 'feedbackComment'
  | 'createdAt' | 'updatedAt'
>;

/** A row of an order read: the DTO's columns, the names other modules own, the live lines (reads with lines). */
export interface OrderReadRow {
  order: OrderDtoRow;
  names: { customer: string; specification: string; wasteType: string };
  liveLines?: unknown;
  /** The order's next arrival (the read only; null when no assigned job has one). */
  arrival?: OrderArrivalRow | null;
}

/** An order's next arrival, as the jobs module's `jobs_next_arrival` gives it (issue #26). */
export interface OrderArrivalRow {
  jobId: string;
  kind: string;
  expectedAt: Date;
  windowStart: Date;
  windowEnd: Date;
  lateMinutes: number | null;
  arrivedAt: Date | null;
}

/**
 * The read's next arrival: the jobs module's SQL API, inlined into the read's one statement (a join, not a
 * query per order), so the order read keeps its statement count (test/database/statements-per-request.e2e.spec.ts).
 */
const ARRIVAL_FROM = `LEFT JOIN LATERAL jobs_next_arrival(o.id) na ON true`;
const ARRIVAL_COLUMNS = `na.job_id AS arrival_job_id, na.kind AS arrival_kind, na.expected_at AS arrival_expected_at, na.window_start AS arrival_window_start,
       na.window_end AS arrival_window_end, na.late_minutes AS arrival_late_minutes, na.arrived_at AS arrival_arrived_at`;

const arrivalOf = (r: Raw): OrderArrivalRow | null =>
  r.arrival_job_id
    ? {
        jobId: r.arrival_job_id as string,
        kind: r.arrival_kind as string,
        expectedAt: date(r.arrival_expected_at),
        windowStart: date(r.arrival_window_start),
        windowEnd: date(r.arrival_window_end),
        lateMinutes: int(r.arrival_late_minutes),
        arrivedAt: r.arrival_arrived_at ? date(r.arrival_arrived_at) : null,
      }
    : null;

/** `billedOn` in SQL, of the `orders` row `o`, with the company's time zone `tz` (SQL). Used by the facts and by the rollups' backfill. */
const billedOnSql = (tz: string) =>
  `CASE WHEN o.status = 'completed' AND o.completed_at IS NOT NULL THEN (o.completed_at AT TIME ZONE ${tz})::date WHEN o.status = 'cancelled' AND o.cancelled_at IS NOT NULL THEN (o.cancelled_at AT TIME ZONE ${tz})::date ELSE o.delivery_date END`;

/** A row of the reports' facts of an order. */
export interface OrderFactsRow {
  customer_id: string;
  day: string;
  status: OrderStatus;
  total_amount: number;
  paid_amount: number;
  due_date: string;
  spec: string;
  delivered_on: string | null;
  ended_on: string | null;
  billed_on: string;
}

/** The list's filters (all optional), as `OrdersService.list` takes them from the query. */
export interface OrderListFilters {
  customerId?: string;
  /** Statuses the list is limited to (the `ongoing` lists). */
  statusIn?: readonly string[];
  status?: string;
  paymentStatus?: string;
  assetSpecificationId?: string;
  date?: string;
  from?: string;
  to?: string;
}

/** The sortable columns of the lists (API name → column of `orders o`). */
export const ORDER_SORT_COLUMNS: Record<string, string> = { created_at: 'o.created_at', delivery_date: 'o.delivery_date', number: 'o.number', total_amount: 'o.total_amount', status: 'o.status' };

/** The DTO's columns (dates as text, as the entity holds them) and the names (of DTO_FROM's joins). */
const DTO_COLUMNS = `o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id,
       o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency,
       o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date,
       o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment,
       o.created_at, o.updated_at,
       nc.name AS name_customer, ns.name AS name_specification, nw.name AS name_waste_type`;

/**
 * `orders o` with what DTO_COLUMNS names of other modules: the names, through the owners' SQL API in its
 * inlined form (a join per name, not a function planned and called per row; 1764600004000-NamesInlined).
 */
const DTO_FROM = `orders o
       LEFT JOIN LATERAL users_named(o.customer_id) nc ON true
       LEFT JOIN LATERAL catalogue_specification_named(o.asset_specification_id) ns ON true
       LEFT JOIN LATERAL catalogue_waste_type_named(o.waste_type_id) nw ON true`;

/** Text as JSON (escaped; `null` for NULL). Ids, enums (checked), currency codes, numbers and dates need no escaping: they go in as they are. */
const j = (sql: string) => `coalesce(to_json(${sql})::text, 'null')`;
/** A nullable date as JSON (`"YYYY-MM-DD"`, the session's ISO DateStyle, as DTO_COLUMNS' `::text`). */
const dateJ = (sql: string) => `CASE WHEN ${sql} IS NULL THEN 'null' ELSE '"' || ${sql} || '"' END`;
/** A timestamp (NOT NULL) as `Date#toISOString` writes it (UTC, milliseconds, `Z`): three arguments of `concat`. */
const isoJ = (sql: string) => `'"', to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"'`;

/**
 * `OrderDto.of` of the row of DTO_FROM as JSON text, rendered by the statement (issue #24: a page of the
 * list is then neither parsed by pg nor serialised by Node). Keys in `OrderDto.of`'s order; `today` (SQL)
 * is the company's date, for `overdue`. `test/orders/order-json.e2e.spec.ts` compares it with `OrderDto.of`
 * on orders with every nullable field set and unset, and text that needs escaping.
 */
const dtoJson = (today: string) => `concat('{"id":"', o.id, '","number":"', ${orderNumberSql('o.number')},
  '","status":"', o.status, '","payment_status":"', o.payment_status,
  '","customer":{"id":"', o.customer_id, '","name":', ${j(`coalesce(nc.name, '')`)},
  '},"address_id":"', o.address_id, '","address":', o.address::text, ',"lot_id":"', o.lot_id,
  '","asset_specification":{"id":"', o.asset_specification_id, '","name":', ${j(`coalesce(ns.name, '')`)},
  '},"waste_type":{"id":"', o.waste_type_id, '","name":', ${j(`coalesce(nw.name, '')`)},
  '},"delivery_date":"', o.delivery_date, '","pickup_date":', ${dateJ('o.pickup_date')}, ',"time_window":"', o.time_window,
  '","notes":', ${j('o.notes')}, ',"promotion_code":', ${j('o.promotion_code')}, ',"currency":"', o.currency,
  '","subtotal_amount":', o.subtotal_amount, ',"discount_amount":', o.discount_amount, ',"tax_amount":', o.tax_amount,
  ',"total_amount":', o.total_amount, ',"paid_amount":', o.paid_amount, ',"balance_amount":', o.total_amount - o.paid_amount,
  ',"due_date":"', o.due_date, '","overdue":', (o.total_amount > o.paid_amount AND o.due_date < ${today}::date)::text,
  ',"delivered_on":', ${dateJ('o.delivered_on')}, ',"rejection_reason":', ${j('o.rejection_reason')},
  ',"cancellation_reason":', ${j('o.cancellation_reason')}, ',"feedback_rating":', coalesce(o.feedback_rating::text, 'null'),
  ',"feedback_comment":', ${j('o.feedback_comment')}, ',"created_at":', ${isoJ('o.created_at')}, ',"updated_at":', ${isoJ('o.updated_at')}, '}')`;

/** The order's live bill lines, in order, as the DTO shows them (a JSON array). */
const LIVE_LINES_SQL = `(SELECT coalesce(json_agg(json_build_object('kind', l.kind, 'description', l.description, 'quantity', l.quantity, 'unit_amount', l.unit_amount, 'amount', l.amount) ORDER BY l.position), '[]'::json)
  FROM order_lines l WHERE l.order_id = o.id AND l.voided_at IS NULL)`;

/** Positional parameters for a statement being built. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
  /** `(…)` of one parameter per value (a non-empty list). */
  list(vs: readonly unknown[]): string {
    return `(${vs.map((v) => this.add(v)).join(', ')})`;
  }
}

type Raw = Record<string, unknown>;

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const int = (v: unknown) => (v === null || v === undefined ? (v as null) : Number(v));
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string));

function rowOf(r: Raw): OrderReadRow {
  return {
    order: {
      id: r.id as string,
      number: int(r.number) as number,
      status: r.status as Order['status'],
      paymentStatus: r.payment_status as Order['paymentStatus'],
      customerId: r.customer_id as string,
      addressId: r.address_id as string,
      address: json<Order['address']>(r.address),
      lotId: r.lot_id as string,
      assetSpecificationId: r.asset_specification_id as string,
      wasteTypeId: r.waste_type_id as string,
      deliveryDate: r.delivery_date as string,
      pickupDate: r.pickup_date as string | null,
      timeWindow: r.time_window as Order['timeWindow'],
      notes: r.notes as string | null,
      promotionCode: r.promotion_code as string | null,
      currency: r.currency as string,
      subtotalAmount: int(r.subtotal_amount) as number,
      discountAmount: int(r.discount_amount) as number,
      taxAmount: int(r.tax_amount) as number,
      totalAmount: int(r.total_amount) as number,
      paidAmount: int(r.paid_amount) as number,
      dueDate: r.due_date as string,
      deliveredOn: r.delivered_on as string | null,
      rejectionReason: r.rejection_reason as string | null,
      cancellationReason: r.cancellation_reason as string | null,
      feedbackRating: int(r.feedback_rating),
      feedbackComment: r.feedback_comment as string | null,
      createdAt: date(r.created_at),
      updatedAt: date(r.updated_at),
    },
    names: { customer: (r.name_customer as string | null) ?? '', specification: (r.name_specification as string | null) ?? '', wasteType: (r.name_waste_type as string | null) ?? '' },
    ...(r.live_lines !== undefined ? { liveLines: json(r.live_lines) } : {}),
    ...('arrival_job_id' in r ? { arrival: arrivalOf(r) } : {}),
  };
}

/**
 * The orders module's hot reads (issue #24): the order read and the lists, each one statement of
 * hand-written SQL mapped straight to the DTO's columns (no query builder, no entity hydration), as a
 * named prepared statement outside a transaction (planned once per connection), through the
 * transaction's manager inside one (it must see its own writes). Scoped by the tenant policy's rule
 * for `orders` (`scopeConditions`): a caller who reaches no orders gets none, without a query.
 */
/** What a placement writes of a new order (`insertPlacement`); the rest are the table's defaults. */
export type NewOrder = Pick<
  Order,
  | 'customerId' | 'status' | 'paymentStatus' | 'addressId' | 'address' | 'lotId' | 'assetSpecificationId' | 'wasteTypeId' | 'deliveryDate' | 'pickupDate'
  | 'timeWindow' | 'notes' | 'promotionId' | 'promotionCode' | 'terms' | 'currency' | 'subtotalAmount' | 'discountAmount' | 'taxAmount' | 'totalAmount'
  | 'paidAmount' | 'dueDate'
>;

const PLACEMENT_SAMPLE = (): NewOrder => ({
  customerId: SQL_SAMPLE.actorId,
  status: 'pending',
  paymentStatus: 'unpaid',
  addressId: SQL_SAMPLE.otherId,
  address: { line1: '1 Main St', city: 'Springfield' } as Order['address'],
  lotId: SQL_SAMPLE.otherId,
  assetSpecificationId: SQL_SAMPLE.otherId,
  wasteTypeId: SQL_SAMPLE.otherId,
  deliveryDate: SQL_SAMPLE.date,
  pickupDate: null,
  timeWindow: 'anytime',
  notes: null,
  promotionId: null,
  promotionCode: null,
  terms: {} as Order['terms'],
  currency: 'USD',
  subtotalAmount: 100,
  discountAmount: 0,
  taxAmount: 0,
  totalAmount: 100,
  paidAmount: 0,
  dueDate: SQL_SAMPLE.date,
});

@Injectable()
export class OrdersRepository extends ModuleRepository {
  /** `o`'s scope conditions, or null when the scope reaches no orders. */
  @GenerateSql.skip('private: builds a WHERE clause, no statement')
  private scoped(scope: Scope, p: Params, entity: typeof Order | typeof OrderStatusCount = Order, alias = 'o'): string | null {
    const s = scopeConditions(this.m, entity, scope);
    if (!s) return null;
    const parts = s.conditions.map((c) => `${alias}.${c.column} = ${p.add(c.value)}`);
    if (s.softDeleteColumn) parts.push(`${alias}.${s.softDeleteColumn} IS NULL`);
    return parts.join(' AND ');
  }

  /** The order `id` as `scope` reaches it, with its names and next arrival (and its live lines), or null. */
  @GenerateSql({ name: 'without lines', params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, false] }, { name: 'with lines', params: () => [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, true] })
  async read(scope: Scope, id: string, withLines: boolean): Promise<OrderReadRow | null> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return null;
    // Its 39 columns as one JSON value (`asJsonRow`); `rowOf` reads the timestamps from their ISO 8601 text.
    const select = `SELECT ${DTO_COLUMNS}, ${ARRIVAL_COLUMNS}${withLines ? `, ${LIVE_LINES_SQL} AS live_lines` : ''} FROM ${DTO_FROM} ${ARRIVAL_FROM} WHERE ${where} AND o.id = ${p.add(id)}`;
    const row = jsonRowOf<Raw>(await this.prepared<{ json_row: unknown }>('order_read', asJsonRow(select), p.values));
    return row ? rowOf(row) : null;
  }

  @GenerateSql.skip('private: builds the filters, no statement')
  private filters(f: OrderListFilters, p: Params): string {
    const parts: string[] = [];
    if (f.customerId) parts.push(`o.customer_id = ${p.add(f.customerId)}`);
    if (f.statusIn) parts.push(f.statusIn.length ? `o.status IN ${p.list(f.statusIn)}` : 'false');
    if (f.status) parts.push(`o.status = ${p.add(f.status)}`);
    if (f.paymentStatus) parts.push(`o.payment_status = ${p.add(f.paymentStatus)}`);
    if (f.assetSpecificationId) parts.push(`o.asset_specification_id = ${p.add(f.assetSpecificationId)}`);
    if (f.date) parts.push(`o.delivery_date = ${p.add(f.date)}`);
    if (f.from) parts.push(`o.delivery_date >= ${p.add(f.from)}`);
    if (f.to) parts.push(`o.delivery_date <= ${p.add(f.to)}`);
    return parts.map((x) => ` AND ${x}`).join('');
  }

  /**
   * A page of the orders `scope` reaches (filtered), sorted by `sortColumn` (of ORDER_SORT_COLUMNS; `id`
   * last, in the same direction), each row's `OrderDto` rendered by the statement as JSON text (`dtoJson`;
   * `today`: the company's date, for `overdue`). `countedStatuses` (undefined: none): the rows also carry
   * the total from the counter rows (order_status_counts, kept by a trigger) of the scope, the customer
   * filter and these statuses (null: all), so that a full page needs no second statement.
   */
  @GenerateSql(
    { name: 'first page', params: () => [Scope.company(SQL_SAMPLE.companyId), {}, 'o.created_at', true, 20, 0, SQL_SAMPLE.date] },
    { name: 'filtered, with the counted total', params: () => [Scope.company(SQL_SAMPLE.companyId), { customerId: SQL_SAMPLE.id, status: 'pending', from: SQL_SAMPLE.date }, 'o.delivery_date', false, 20, 40, SQL_SAMPLE.date, ['pending']] },
  )
  async pageJson(scope: Scope, f: OrderListFilters, sortColumn: string, desc: boolean, limit: number, offset: number, today: string, countedStatuses?: readonly string[] | null): Promise<{ docs: string[]; total?: number }> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return { docs: [] };
    const filters = this.filters(f, p);
    const total = this.totalColumn(scope, f, p, countedStatuses);
    const dir = desc ? 'DESC' : 'ASC';
    // A first page's LIMIT is written into the text (a validated integer, per_page ≤ MAX_PER_PAGE: one statement per
    // page size): with LIMIT or OFFSET a parameter, PostgreSQL's generic plan assumes a tenth of the rows is wanted,
    // prices itself far above a plan for 20 rows and is never chosen, so every execution was planned anew (0.8 ms of
    // the statement's 1.0 ms at 60k orders). Later pages keep both as parameters (and their planning).
    const paging = offset === 0 && Number.isSafeInteger(limit) && limit > 0 && limit <= MAX_PER_PAGE ? `LIMIT ${limit}` : `LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
    const text = `SELECT ${dtoJson(p.add(today))} AS doc${total} FROM ${DTO_FROM} WHERE ${where}${filters} ORDER BY ${sortColumn} ${dir}, o.id ${dir} ${paging}`;
    const rows = await this.prepared<Raw>('order_page_json', text, p.values);
    const t = rows[0]?.total_count;
    return { docs: rows.map((r) => r.doc as string), ...(t !== undefined && t !== null ? { total: Number(t) } : {}) };
  }

  /** `, … AS total_count` of `pageJson`'s statement, or ''. */
  @GenerateSql.skip('private: builds a column, no statement')
  private totalColumn(scope: Scope, f: OrderListFilters, p: Params, countedStatuses?: readonly string[] | null): string {
    if (countedStatuses === undefined) return '';
    if (countedStatuses?.length === 0) return ', 0 AS total_count';
    const c = this.scoped(scope, p, OrderStatusCount, 'c') ?? 'false';
    const byCustomer = f.customerId ? ` AND c.customer_id = ${p.add(f.customerId)}` : '';
    const byStatus = countedStatuses?.length ? ` AND c.status IN ${p.list(countedStatuses)}` : '';
    return `, (SELECT coalesce(sum(c.n), 0)::int FROM order_status_counts c WHERE ${c}${byCustomer}${byStatus}) AS total_count`;
  }

  /** The exact number of orders `scope` reaches with these filters (count(*)). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { status: 'pending' }] })
  async count(scope: Scope, f: OrderListFilters): Promise<number> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return 0;
    const [row] = await this.prepared<Raw>('order_count', `SELECT count(*)::int AS n FROM orders o WHERE ${where}${this.filters(f, p)}`, p.values);
    return Number(row?.n ?? 0);
  }

  /** The number of orders `scope` reaches (of one customer, in some statuses: null = all) from the counter rows. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, ['pending', 'approved']] })
  async countByStatus(scope: Scope, customerId: string | null, statuses: readonly string[] | null): Promise<number> {
    if (statuses && statuses.length === 0) return 0;
    const p = new Params();
    const where = this.scoped(scope, p, OrderStatusCount, 'c');
    if (!where) return 0;
    const byCustomer = customerId ? ` AND c.customer_id = ${p.add(customerId)}` : '';
    const byStatus = statuses ? ` AND c.status IN ${p.list(statuses)}` : '';
    const [row] = await this.prepared<Raw>('order_status_count', `SELECT coalesce(sum(c.n), 0)::int AS n FROM order_status_counts c WHERE ${where}${byCustomer}${byStatus}`, p.values);
    return Number(row?.n ?? 0);
  }

  // ------------------------------------------------------------ one order (reads, locks, writes)

  /**
   * Whether a running order (pending to delivered) points at the record in `column` (the in-use checks:
   * the registry names the record by its id alone, of whichever company).
   */
  @GenerateSql({ params: () => [SystemReach.of('sample'), 'addressId', SQL_SAMPLE.id] })
  runningUses(reach: SystemReach, column: 'addressId' | 'assetSpecificationId', id: string): Promise<boolean> {
    return this.m.existsBy(Order, { [column]: id, status: In(ONGOING_STATUSES) });
  }

  /** The order `scope` reaches, locked (FOR UPDATE) for the rest of the unit; 404 otherwise. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id] })
  lock(scope: Scope, id: string): Promise<Order> {
    return findScoped(this.locked, Order, scope, id, { what: 'Order', lock: true });
  }

  /** The orders among `ids` (distinct, at least one) that `scope` reaches, locked (FOR UPDATE) in id order for the rest of the unit, in one statement; ids it does not reach are left out. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [SQL_SAMPLE.id, SQL_SAMPLE.otherId]] })
  lockMany(scope: Scope, ids: readonly string[]): Promise<Order[]> {
    return scopedQuery(this.locked, Order, scope, 'o').andWhere('o.id IN (:...ids)', { ids: [...ids] }).orderBy('o.id', 'ASC').setLock('pessimistic_write').getMany();
  }

  /** The order `scope` reaches (no lock); 404 otherwise. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id] })
  find(scope: Scope, id: string): Promise<Order> {
    return findScoped(this.m, Order, scope, id, { what: 'Order' });
  }

  /** The order by its id alone, before any tenant is known, or null (the public document route names an order by its UUID). */
  @GenerateSql({ params: () => [SystemReach.of('sample'), SQL_SAMPLE.id] })
  byId(reach: SystemReach, id: string): Promise<Order | null> {
    return this.m.findOneBy(Order, { id });
  }

  /** The scope's company's orders among `ids` (a page of change requests: their orders in one statement). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [SQL_SAMPLE.id, SQL_SAMPLE.otherId]] })
  byIds(scope: Scope, ids: readonly string[]): Promise<Order[]> {
    return this.m.findBy(Order, { id: In([...ids]), companyId: scope.companyId });
  }

  /** The orders of `scope` among `ids` (no lock); ids it does not reach are left out. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [SQL_SAMPLE.id, SQL_SAMPLE.otherId]] })
  many(scope: Scope, ids: readonly string[]): Promise<Order[]> {
    return scopedQuery(this.m, Order, scope, 'o').andWhere('o.id IN (:...ids)', { ids: [...ids] }).getMany();
  }

  /** The company of an order among those an administrator's `reach` covers, or null (an administrator names an order by id alone). */
  @GenerateSql({ params: () => [new PlatformReach(), SQL_SAMPLE.id] })
  async companyOf(reach: PlatformReach, id: string): Promise<string | null> {
    const row = await platformQuery(this.m, Order, reach, 'o').select('o.companyId', 'company_id').andWhere('o.id = :id', { id }).getRawOne<{ company_id: string }>();
    return row?.company_id ?? null;
  }

  /**
   * Writes a new order of the scope's company in one statement: the company's next number, counted in the
   * company's placements of the calendar month (in `timezone`), the order row with it, its first history
   * row and its placement lines (`lines`, as priced; positions from 0). The counter row stays locked to the
   * commit, so the count is also the plan limit's (`monthly_orders`): placements of one company take their
   * number and their place in the month one after the other, and only the event's INSERT and the COMMIT
   * follow under that lock. Numbers are gap-free: a transaction that fails gives its number back. Returns
   * the order's id, number and timestamps and the month's placements with this one, and `busy`: the
   * container calendar's hold of the order (catalogue's `catalogue_hold_container`, under the
   * specification's row lock), the days no container is free when the specification refuses (catalogue_container_busy: `check_availability`, or automatic)
   * (then nothing is held: the caller refuses and rolls back), else empty.
   */
  @GenerateSql({
    params: () => [
      Scope.company(SQL_SAMPLE.companyId),
      PLACEMENT_SAMPLE(),
      [{ kind: 'rental', description: '20 yd', quantity: 1, unit_amount: 100, amount: 100 }],
      { id: SQL_SAMPLE.actorId, type: 'customer' },
      'Europe/Berlin',
    ],
  })
  async insertPlacement(scope: Scope, order: NewOrder, lines: readonly PricedLine[], actor: { id: string; type: string }, timezone: string): Promise<{ id: string; number: number; createdAt: Date; updatedAt: Date; monthPlaced: number; busy: string[] }> {
    const [row] = await this.preparedLocked<{ id: string; number: number; created_at: Date; updated_at: Date; month_placed: number; busy: string[] }>(
      'orders_insert_placement',
      `WITH next_number AS (
         INSERT INTO order_counters (company_id, last_number, month, month_placed) VALUES ($1, 1, date_trunc('month', now() AT TIME ZONE $2)::date, 1)
         ON CONFLICT (company_id) DO UPDATE SET last_number = order_counters.last_number + 1,
                month_placed = CASE WHEN order_counters.month = EXCLUDED.month THEN order_counters.month_placed + 1 ELSE 1 END,
                month = EXCLUDED.month
         RETURNING last_number, month_placed),
       placed AS (
         INSERT INTO orders (company_id, number, customer_id, status, payment_status, address_id, address, lot_id, asset_specification_id, waste_type_id,
                             delivery_date, pickup_date, time_window, notes, promotion_id, promotion_code, terms, currency,
                             subtotal_amount, discount_amount, tax_amount, total_amount, paid_amount, due_date)
         SELECT $1, n.last_number, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $19, $20, $21, $22, $23, $24
           FROM next_number n
         RETURNING id, number, created_at, updated_at),
       history AS (
         INSERT INTO order_status_history (company_id, order_id, from_status, to_status, actor_id, actor_type, reason)
         SELECT $1, placed.id, NULL, $4, $25, $26, NULL FROM placed),
       placement_lines AS (
         INSERT INTO order_lines (company_id, order_id, kind, source, change_request_id, description, quantity, unit_amount, amount, position)
         SELECT $1, placed.id, l.kind, 'placement', NULL, l.description, l.quantity, l.unit_amount, l.amount, e.ord - 1
           FROM placed, jsonb_array_elements($27::jsonb) WITH ORDINALITY AS e(line, ord),
                jsonb_to_record(e.line) AS l(kind text, description text, quantity int, unit_amount int, amount int)),
       hold AS (
         SELECT catalogue_hold_container($1, placed.id, $9, $8, $11, $12)::text[] AS busy FROM placed)
       SELECT placed.id, placed.number, placed.created_at, placed.updated_at, n.month_placed, hold.busy FROM placed, next_number n, hold`,
      [
        scope.companyId,
        timezone,
        order.customerId,
        order.status,
        order.paymentStatus,
        order.addressId,
        JSON.stringify(order.address),
        order.lotId,
        order.assetSpecificationId,
        order.wasteTypeId,
        order.deliveryDate,
        order.pickupDate,
        order.timeWindow,
        order.notes,
        order.promotionId,
        order.promotionCode,
        JSON.stringify(order.terms),
        order.currency,
        order.subtotalAmount,
        order.discountAmount,
        order.taxAmount,
        order.totalAmount,
        order.paidAmount,
        order.dueDate,
        actor.id,
        actor.type,
        JSON.stringify(lines),
      ],
    );
    return { id: row.id, number: Number(row.number), createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at), monthPlaced: Number(row.month_placed), busy: row.busy };
  }

  /** Hours from now to the start of `date` in `timezone` (negative once it began). */
  @GenerateSql({ params: [SQL_SAMPLE.date, 'Europe/Berlin'] })
  async hoursUntil(date: string, timezone: string): Promise<number> {
    const [{ hours }] = await this.sql<{ hours: string }>(`SELECT extract(epoch FROM (($1::date)::timestamp AT TIME ZONE $2) - now()) / 3600 AS hours`, [date, timezone]);
    return Number(hours);
  }

  /** Writes the order row as it is (an edit). */
  @GenerateSql.skip('saves a loaded entity (an UPDATE of its changed columns); no sample row')
  async save(order: Order): Promise<void> {
    await this.m.save(order);
  }

  /**
   * A status move in one statement: the order's columns (`values`: the status and what goes with it)
   * and its status history row.
   */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, { status: 'approved', approvedAt: SQL_SAMPLE.at }, { fromStatus: 'pending', toStatus: 'approved', actorId: SQL_SAMPLE.actorId, actorType: 'company', reason: null }] })
  async moveStatus(
    scope: Scope,
    id: string,
    values: Partial<Order>,
    history: { fromStatus: string | null; toStatus: string; actorId: string | null; actorType: string; reason: string | null },
  ): Promise<void> {
    const meta = this.m.connection.getMetadata(Order);
    const p = new Params();
    const company = p.add(scope.companyId);
    const order = p.add(id);
    const sets = Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${meta.findColumnWithPropertyName(k)!.databaseName} = ${p.add(v)}`);
    await this.sql(
      `WITH moved AS (UPDATE orders SET ${sets.join(', ')}, updated_at = CURRENT_TIMESTAMP WHERE company_id = ${company} AND id = ${order} RETURNING id)
       INSERT INTO order_status_history (company_id, order_id, from_status, to_status, actor_id, actor_type, reason)
       SELECT ${company}::uuid, moved.id, ${p.add(history.fromStatus)}::text, ${p.add(history.toStatus)}::text, ${p.add(history.actorId)}::uuid, ${p.add(history.actorType)}::text, ${p.add(history.reason)}::text FROM moved`,
      p.values,
    );
  }

  /** Sets columns of the scope's company's order `id`. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, { dueDate: SQL_SAMPLE.date }] })
  async update(scope: Scope, id: string, values: Partial<Order>): Promise<void> {
    await this.m.update(Order, { id, companyId: scope.companyId }, values);
  }

  /** Redemptions of a promotion by the scope's company's orders not given back (rejected, cancelled), and the customer's, other than `excludedId`. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, SQL_SAMPLE.actorId, undefined] })
  async redemptions(scope: Scope, promotionId: string, customerId: string, excludedId?: string): Promise<{ redemptions: number; customer_redemptions: number }> {
    const counts = await this.m
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('count(*)::int', 'redemptions')
      .addSelect('(count(*) FILTER (WHERE o.customer_id = :customerId))::int', 'customer_redemptions')
      .where('o.companyId = :companyId AND o.promotionId = :promotionId AND o.status NOT IN (:...given)', { companyId: scope.companyId, promotionId, customerId, given: ['rejected', 'cancelled'] })
      .andWhere('o.id <> :excluded', { excluded: excludedId ?? '00000000-0000-0000-0000-000000000000' })
      .getRawOne<{ redemptions: number; customer_redemptions: number }>();
    return { redemptions: counts?.redemptions ?? 0, customer_redemptions: counts?.customer_redemptions ?? 0 };
  }

  /** The facts the reports count of the order (null when it is not the scope's company's); `timezone`: the company's. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, 'Europe/Berlin'] })
  async facts(scope: Scope, orderId: string, timezone: string): Promise<OrderFactsRow | null> {
    const [row] = await this.sql<OrderFactsRow>(
      `SELECT o.customer_id, o.delivery_date::text AS day, o.status, o.total_amount, o.paid_amount, o.due_date::text AS due_date, o.asset_specification_id AS spec,
              o.delivered_on::text AS delivered_on, (o.completed_at AT TIME ZONE $3)::date::text AS ended_on, (${billedOnSql('$3')})::text AS billed_on
         FROM orders o WHERE o.id = $1 AND o.company_id = $2`,
      [orderId, scope.companyId, timezone],
    );
    return row ?? null;
  }

  // ------------------------------------------------------------ lists with a text search, across companies

  /** The DTO's columns and the names an order shows, as subqueries of the modules that own them (the read stays one statement). */
  @GenerateSql.skip('private: builds a query, no statement')
  private withNames(qb: SelectQueryBuilder<Order>): SelectQueryBuilder<Order> {
    return qb
      .select(ORDER_DTO_PROPERTIES.map((c) => `o.${c}`))
      .addSelect('users_name(o.customer_id)', 'name_customer')
      .addSelect('catalogue_specification_name(o.asset_specification_id)', 'name_specification')
      .addSelect('catalogue_waste_type_name(o.waste_type_id)', 'name_waste_type');
  }

  @GenerateSql.skip('private: builds the filters, no statement')
  private filtered(qb: SelectQueryBuilder<Order>, f: OrderListFilters & { q?: string }): SelectQueryBuilder<Order> {
    if (f.customerId) qb.andWhere('o.customerId = :cid', { cid: f.customerId });
    if (f.statusIn) qb.andWhere(f.statusIn.length ? 'o.status IN (:...ongoing)' : '1 = 0', { ongoing: f.statusIn });
    if (f.status) qb.andWhere('o.status = :status', { status: f.status });
    if (f.paymentStatus) qb.andWhere('o.paymentStatus = :ps', { ps: f.paymentStatus });
    if (f.assetSpecificationId) qb.andWhere('o.assetSpecificationId = :spec', { spec: f.assetSpecificationId });
    if (f.date) qb.andWhere('o.deliveryDate = :date', { date: f.date });
    if (f.from) qb.andWhere('o.deliveryDate >= :from', { from: f.from });
    if (f.to) qb.andWhere('o.deliveryDate <= :to', { to: f.to });
    if (f.q) {
      const num = parseOrderNumber(f.q);
      qb.andWhere(
        `(o.address->>'line1' ILIKE :q OR o.address->>'city' ILIKE :q OR o.notes ILIKE :q
          OR EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = o.customer_id)
          ${num !== null ? 'OR o.number = :num' : ''})`,
        { q: likePattern(f.q), num },
      );
    }
    return qb;
  }

  /** A page of the orders `scope` reaches matching a text search (names matched through the users module's SQL), with the names, and the count. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { q: 'smith' }, { page: 1, per_page: 20 }] })
  searchPage(scope: Scope, f: OrderListFilters & { q?: string }, q: PageQuery): Promise<Page<OrderReadRow>> {
    const qb = this.filtered(this.withNames(scopedQuery(this.m, Order, scope, 'o')), f);
    return paginate(qb, q, { sortable: ORDER_QB_SORTS, mapRaw: (o, raw) => ({ order: o, names: namesOf(raw) }), count: () => countRows(qb) });
  }

  /**
   * A page of the orders of the companies an administrator's `reach` covers, with names, each with its
   * company and time zone. `counted`: the total from the counter rows (filtered by nothing but status and
   * customer), else count(*).
   */
  @GenerateSql({ params: () => [new PlatformReach(SQL_SAMPLE.companyId), {}, { page: 1, per_page: 20 }, true] })
  acrossPage(reach: PlatformReach, f: OrderListFilters & { q?: string }, q: PageQuery, counted: boolean): Promise<Page<OrderReadRow & { companyId: string; timezone: string }>> {
    const qb = this.filtered(this.withNames(platformQuery(this.m, Order, reach, 'o')), f)
      .addSelect('o.company_id', 'order_company_id')
      .addSelect('companies_timezone(o.company_id)', 'order_company_tz');
    return paginate(qb, q, {
      sortable: ORDER_QB_SORTS,
      mapRaw: (o, raw) => ({ order: o, names: namesOf(raw), companyId: raw.order_company_id as string, timezone: raw.order_company_tz as string }),
      count: counted ? () => this.countReached(new PlatformReach(reach.companyId), f.customerId ?? null, f.status ? [f.status] : null) : () => countRows(qb),
    });
  }

  /** The number of orders `scope` (or an administrator's reach, by company only) reaches (of one customer, in some statuses) from the counter rows. */
  @GenerateSql({ params: () => [new PlatformReach(SQL_SAMPLE.companyId), SQL_SAMPLE.id, ['pending']] })
  async countReached(who: Scope | PlatformReach, customerId: string | null, statuses: readonly string[] | null): Promise<number> {
    if (statuses && statuses.length === 0) return 0;
    const qb = reachQuery(this.m, OrderStatusCount, who, 'c').select('coalesce(sum(c.n), 0)::int', 'n');
    if (customerId) qb.andWhere('c.customerId = :cid', { cid: customerId });
    if (statuses) qb.andWhere('c.status IN (:...statuses)', { statuses });
    return (await qb.getRawOne<{ n: number }>())?.n ?? 0;
  }
}


/** The sorts of the query-builder lists (API name → property of `o`). */
const ORDER_QB_SORTS = { created_at: 'o.createdAt', delivery_date: 'o.deliveryDate', number: 'o.number', total_amount: 'o.totalAmount', status: 'o.status' };

/** The entity properties `OrderDto` shows (the query-builder lists select these only; never the frozen `terms`, #10). */
const ORDER_DTO_PROPERTIES = [
  'id', 'number', 'status', 'paymentStatus', 'customerId', 'addressId', 'address', 'lotId', 'assetSpecificationId', 'wasteTypeId',
  'deliveryDate', 'pickupDate', 'timeWindow', 'notes', 'promotionCode', 'currency', 'subtotalAmount', 'discountAmount', 'taxAmount',
  'totalAmount', 'paidAmount', 'dueDate', 'deliveredOn', 'rejectionReason', 'cancellationReason', 'feedbackRating', 'feedbackComment',
  'createdAt', 'updatedAt',
] as const satisfies readonly (keyof Order)[];

function namesOf(raw: Record<string, unknown>): OrderReadRow['names'] {
  return { customer: (raw.name_customer as string | null) ?? '', specification: (raw.name_specification as string | null) ?? '', wasteType: (raw.name_waste_type as string | null) ?? '' };
}
