import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { scopeConditions } from '../../common/access/tenant-policy';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { preparedByText } from '../../database/prepared-query';
import { ModuleRepository } from '../../database/repository';
import { specificationNameSql, wasteTypeNameSql } from '../catalogue';
import { userNameSql } from '../users';
import { Order, OrderStatusCount } from './order.entity';

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
  /** The list's total (`page` with a counted total), when the statement brought it. */
  total?: number;
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

/** The DTO's columns (dates as text, as the entity holds them) and the names, as subqueries of the modules that own them. */
const DTO_COLUMNS = `o.id, o.number, o.status, o.payment_status, o.customer_id, o.address_id, o.address, o.lot_id, o.asset_specification_id, o.waste_type_id,
       o.delivery_date::text AS delivery_date, o.pickup_date::text AS pickup_date, o.time_window, o.notes, o.promotion_code, o.currency,
       o.subtotal_amount, o.discount_amount, o.tax_amount, o.total_amount, o.paid_amount, o.due_date::text AS due_date,
       o.delivered_on::text AS delivered_on, o.rejection_reason, o.cancellation_reason, o.feedback_rating, o.feedback_comment,
       o.created_at, o.updated_at,
       ${userNameSql('o.customer_id')} AS name_customer, ${specificationNameSql('o.asset_specification_id')} AS name_specification,
       ${wasteTypeNameSql('o.waste_type_id')} AS name_waste_type`;

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
    ...(r.total_count !== undefined && r.total_count !== null ? { total: Number(r.total_count) } : {}),
  };
}

/**
 * The orders module's hot reads (issue #24): the order read and the lists, each one statement of
 * hand-written SQL mapped straight to the DTO's columns (no query builder, no entity hydration), as a
 * named prepared statement outside a transaction (planned once per connection), through the
 * transaction's manager inside one (it must see its own writes). Scoped by the tenant policy's rule
 * for `orders` (`scopeConditions`): a caller who reaches no orders gets none, without a query.
 */
@Injectable()
export class OrdersRepository extends ModuleRepository {
  @GenerateSql.skip('private: runs the statements of the methods below')
  private async run(prefix: string, text: string, params: unknown[]): Promise<Raw[]> {
    return this.uow.active ? this.sql<Raw>(text, params) : preparedByText<Raw>(this.uow.ds, prefix, text, params);
  }

  /** `o`'s scope conditions, or null when the scope reaches no orders. */
  @GenerateSql.skip('private: builds a WHERE clause, no statement')
  private scoped(scope: Scope, p: Params, entity: typeof Order | typeof OrderStatusCount = Order, alias = 'o'): string | null {
    const s = scopeConditions(this.m, entity, scope);
    if (!s) return null;
    const parts = s.conditions.map((c) => `${alias}.${c.column} = ${p.add(c.value)}`);
    if (s.softDeleteColumn) parts.push(`${alias}.${s.softDeleteColumn} IS NULL`);
    return parts.join(' AND ');
  }

  /** The order `id` as `scope` reaches it, with its names (and its live lines), or null. */
  @GenerateSql({ name: 'without lines', params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, false] }, { name: 'with lines', params: () => [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), SQL_SAMPLE.id, true] })
  async read(scope: Scope, id: string, withLines: boolean): Promise<OrderReadRow | null> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return null;
    const rows = await this.run('order_read', `SELECT ${DTO_COLUMNS}${withLines ? `, ${LIVE_LINES_SQL} AS live_lines` : ''} FROM orders o WHERE ${where} AND o.id = ${p.add(id)}`, p.values);
    return rows[0] ? rowOf(rows[0]) : null;
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
   * last, in the same direction). `countedStatuses` (undefined: none): the page's rows also carry the
   * total from the counter rows (order_status_counts, kept by a trigger) of the scope, the customer
   * filter and these statuses (null: all), so that a full page needs no second statement.
   */
  @GenerateSql(
    { name: 'first page', params: () => [Scope.company(SQL_SAMPLE.companyId), {}, 'o.created_at', true, 20, 0] },
    { name: 'filtered, with the counted total', params: () => [Scope.company(SQL_SAMPLE.companyId), { customerId: SQL_SAMPLE.id, status: 'pending', from: SQL_SAMPLE.date }, 'o.delivery_date', false, 20, 40, ['pending']] },
  )
  async page(scope: Scope, f: OrderListFilters, sortColumn: string, desc: boolean, limit: number, offset: number, countedStatuses?: readonly string[] | null): Promise<OrderReadRow[]> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return [];
    const filters = this.filters(f, p);
    let total = '';
    if (countedStatuses?.length === 0) total = ', 0 AS total_count';
    else if (countedStatuses !== undefined) {
      const c = this.scoped(scope, p, OrderStatusCount, 'c') ?? 'false';
      const byCustomer = f.customerId ? ` AND c.customer_id = ${p.add(f.customerId)}` : '';
      const byStatus = countedStatuses?.length ? ` AND c.status IN ${p.list(countedStatuses)}` : '';
      total = `, (SELECT coalesce(sum(c.n), 0)::int FROM order_status_counts c WHERE ${c}${byCustomer}${byStatus}) AS total_count`;
    }
    const dir = desc ? 'DESC' : 'ASC';
    const text = `SELECT ${DTO_COLUMNS}${total} FROM orders o WHERE ${where}${filters} ORDER BY ${sortColumn} ${dir}, o.id ${dir} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
    return (await this.run('order_page', text, p.values)).map(rowOf);
  }

  /** The exact number of orders `scope` reaches with these filters (count(*)). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { status: 'pending' }] })
  async count(scope: Scope, f: OrderListFilters): Promise<number> {
    const p = new Params();
    const where = this.scoped(scope, p);
    if (!where) return 0;
    const [row] = await this.run('order_count', `SELECT count(*)::int AS n FROM orders o WHERE ${where}${this.filters(f, p)}`, p.values);
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
    const [row] = await this.run('order_status_count', `SELECT coalesce(sum(c.n), 0)::int AS n FROM order_status_counts c WHERE ${where}${byCustomer}${byStatus}`, p.values);
    return Number(row?.n ?? 0);
  }
}
