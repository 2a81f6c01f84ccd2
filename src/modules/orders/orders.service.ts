import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { companyOfRow, findScoped, platformQuery, PlatformReach, reachQuery, scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { countRows, DEFAULT_PER_PAGE, likePattern, pageMeta, paginate } from '../../common/http/pagination';
import { runUnit, unitManager } from '../../database/unit-of-work';
import { recordEvents } from '../../common/outbox/outbox';
import { PlanLimits } from '../../common/records/plan-limits';
import { CompanySettingsService, type CompanySettingsDto } from '../companies';
import { JobsService } from '../jobs';
import { OpeningCalendar } from '../sites';
import { CustomerCatalogueService, specificationNameSql, wasteTypeNameSql } from '../catalogue';
import { CompaniesService, companyTimezoneSql } from '../companies';
import { CustomersService } from '../customers';
import { userNameOrEmailMatches, userNameSql } from '../users';
import { UsersService } from '../users';
import { ONGOING_STATUSES, Order, OrderLine, OrderStatusChange, OrderStatusCount, type FrozenTerms } from './order.entity';
import { OrderLifecycle } from './order-lifecycle';
import { OrderTerms, todayIn, type ResolvedTerms } from './order-terms';
import {
  CompanyOrderQuery,
  FeedbackDto,
  JobSummaryDto,
  OrderDto,
  OrderFullDto,
  OrderLineDto,
  OrderQuery,
  OrderWithLinesDto,
  parseOrderNumber,
  PlaceOrderDto,
  QuoteDto,
  ReasonDto,
  StatusChangeDto,
  StoredLineDto,
  UpdateOrderDto,
  type OrderNames,
} from './orders.dto';
import { ORDER_SORT_COLUMNS, OrdersRepository, type OrderListFilters } from './orders.repository';
import { addDays, flatFee, PROMOTION_REFUSALS, quoteRental, type Bill } from './pricing-engine';

/** Orders placed in the company's current calendar month (its time zone), every status: the plan's `monthly_orders` (index idx_orders_company_created). */
async function placedThisMonth(m: EntityManager, companyId: string, timezone: string, except: string): Promise<number> {
  const [{ n }] = await m.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM orders WHERE company_id = $1 AND created_at >= (date_trunc('month', now() AT TIME ZONE $2) AT TIME ZONE $2) AND id <> $3`,
    [companyId, timezone, except],
  );
  return n;
}

interface Priced {
  resolved: ResolvedTerms;
  bill: Bill;
  dueDate: string;
  settings: CompanySettingsDto;
  promotionId: string | null;
}

@Injectable()
export class OrdersService {
  constructor(
    private readonly ds: DataSource,
    private readonly terms: OrderTerms,
    private readonly lifecycle: OrderLifecycle,
    private readonly settings: CompanySettingsService,
    private readonly calendar: OpeningCalendar,
    private readonly jobs: JobsService,
    private readonly users: UsersService,
    private readonly catalogue: CustomerCatalogueService,
    private readonly companies: CompaniesService,
    private readonly customers: CustomersService,
    private readonly limits: PlanLimits,
    private readonly repository: OrdersRepository,
  ) {}

  // ------------------------------------------------------------ placement

  /** The billing preview: the same checks and lines as placement, nothing saved. */
  async preview(actor: Actor, dto: PlaceOrderDto): Promise<QuoteDto> {
    return runUnit(this.ds, async (m) => {
      const p = await this.price(m, Scope.of(actor), dto);
      return quoteDto(p);
    });
  }

  /**
   * Places an order: validates (domain.md §4), freezes its price lines and takes the next number of
   * the company. The counter row is updated last, so concurrent placements wait on it only briefly,
   * and a placement that fails gives its number back (no gaps). With an Idempotency-Key this runs
   * inside the request's transaction (runUnit/unitManager), which also stores the answer.
   */
  async place(actor: Actor, dto: PlaceOrderDto): Promise<OrderWithLinesDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    const placed = await runUnit(this.ds, async (m) => {
      // Demerit points (accountability keeps them on the customer): at or over the block threshold, no new orders.
      if ((await this.customers.demerit(m, companyId, actor.id)).blocked) {
        throw ApiError.forbidden('DEMERIT_BLOCKED', "Your demerit points have reached the company's block threshold: new orders are refused until points leave the window or a violation is waived.");
      }
      const p = await this.price(m, scope, dto);
      const order = m.create(Order, {
        companyId,
        customerId: actor.id,
        status: 'pending',
        paymentStatus: 'unpaid',
        addressId: dto.address_id,
        address: p.resolved.address,
        lotId: p.resolved.lotId,
        assetSpecificationId: dto.asset_specification_id,
        wasteTypeId: dto.waste_type_id,
        deliveryDate: dto.delivery_date,
        pickupDate: dto.pickup_date ?? null,
        timeWindow: dto.time_window ?? 'anytime',
        notes: dto.notes ?? null,
        promotionId: p.promotionId,
        promotionCode: p.resolved.terms.promotion?.code ?? null,
        terms: p.resolved.terms,
        currency: p.settings.currency,
        ...this.lifecycle.totalsOf(p.bill.lines),
        paidAmount: 0,
        dueDate: p.dueDate,
        deliveredOn: null,
        rejectionReason: null,
        cancellationReason: null,
        feedbackRating: null,
        feedbackComment: null,
      });
      // A placeholder number until the end: the company's counter row is locked only from
      // takeNumber to the commit (the event's INSERT, then COMMIT), not for the whole placement.
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(Order)
        .values({ ...order, number: () => "-nextval('order_number_placeholders')" })
        .returning(['id', 'created_at', 'updated_at'])
        .execute();
      const row = inserted.raw[0] as { id: string; created_at: Date; updated_at: Date };
      Object.assign(order, { id: row.id, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) });
      // The lines and history, and the plan limit's per-company lock (held to the commit) in the same statement.
      await this.lifecycle.recordPlacement(m, order, p.bill, actor, PlanLimits.lockKey('monthly_orders', companyId));
      // The plan's monthly orders (payments registers the limits), counted without this one under that lock:
      // taken here, next to the counter row's lock, so placements wait no longer.
      await this.limits.assertBelow(m, companyId, 'monthly_orders', () => placedThisMonth(m, companyId, p.settings.timezone, order.id), { actorId: actor.id, locked: true });
      await this.lifecycle.takeNumber(m, order);
      await this.lifecycle.recordStatusEvent(m, order, null, 'pending', actor, null, { total_amount: order.totalAmount });
      if (p.settings.auto_approve_orders) {
        await this.approveLocked(m, order, 'system');
        return { id: order.id };
      }
      // The answer from what was just written: no read-back.
      const names = { customer: actor.name, specification: p.resolved.specificationName, wasteType: p.resolved.wasteTypeName };
      return { id: order.id, dto: { ...OrderDto.of(order, names, todayIn(p.settings.timezone)), lines: p.bill.lines.map(OrderLineDto.of) } };
    });
    return placed.dto ?? this.withLines(scope, placed.id);
  }

  /** Validation and pricing shared by placement and preview (for the customer of `scope`). */
  private async price(m: EntityManager, scope: Scope, dto: PlaceOrderDto): Promise<Priced> {
    const { companyId, actorId: customerId } = scope;
    if (scope.kind !== 'customer' || !customerId) throw ApiError.forbidden('WRONG_ACTOR', 'Orders are placed by customers.');
    const settings = await this.settings.get(companyId, m);
    const today = todayIn(settings.timezone);
    const earliest = addDays(today, settings.order_lead_time_days);
    const dateErrors: Record<string, string[]> = {};
    if (dto.delivery_date < earliest) dateErrors.delivery_date = [`must be on or after ${earliest} (lead time ${settings.order_lead_time_days} days)`];
    if (dto.pickup_date && dto.pickup_date < dto.delivery_date) dateErrors.pickup_date = ['must not be before delivery_date'];
    if (Object.keys(dateErrors).length) throw ApiError.validation(dateErrors);
    const resolved = await this.terms.resolve(m, { companyId, customerId, addressId: dto.address_id, assetSpecificationId: dto.asset_specification_id, wasteTypeId: dto.waste_type_id, deliveryDate: dto.delivery_date });

    let promotion = null;
    if (dto.promotion_code) {
      promotion = await this.terms.promotion(m, companyId, customerId, dto.promotion_code);
      if (!promotion) throw ApiError.unprocessable('PROMOTION_INVALID', 'No promotion has this code.', { promotion_code: ['is not a valid promotion code'] });
    }
    const bill = quoteRental(resolved.terms, {
      specificationName: resolved.specificationName,
      deliveryDate: dto.delivery_date,
      pickupDate: dto.pickup_date ?? null,
      promotion,
      today,
      assetSpecificationId: dto.asset_specification_id,
    });
    if (bill.promotion_refusal) {
      const message = PROMOTION_REFUSALS[bill.promotion_refusal];
      throw ApiError.unprocessable('PROMOTION_INVALID', message, { promotion_code: [message] });
    }
    if (promotion) resolved.terms.promotion = { id: promotion.id, code: promotion.code, discount_type: promotion.discount_type, discount_value: promotion.discount_value };
    return { resolved, bill, dueDate: this.lifecycle.dueDate(resolved, today), settings, promotionId: promotion?.id ?? null };
  }

  // ------------------------------------------------------------ company decisions

  async approve(actor: Actor, id: string): Promise<OrderDto> {
    const scope = Scope.of(actor);
    await runUnit(this.ds, async (m) => {
      const order = await this.lifecycle.lock(m, scope, id);
      await this.approveLocked(m, order, actor);
    });
    return this.get(scope, id);
  }

  /** pending → approved, and the order's jobs (delivery; pickup when dated). */
  private async approveLocked(m: EntityManager, order: Order, actor: Actor | 'system'): Promise<void> {
    await this.lifecycle.move(m, order, 'approved', actor, actor === 'system' ? 'auto-approved (company setting)' : null, {}, { approvedAt: new Date() });
    await this.lifecycle.createApprovalJobs(m, order);
  }

  async reject(actor: Actor, id: string, dto: ReasonDto): Promise<OrderDto> {
    const scope = Scope.of(actor);
    await runUnit(this.ds, async (m) => {
      const order = await this.lifecycle.lock(m, scope, id);
      await this.lifecycle.move(m, order, 'rejected', actor, dto.reason ?? null, {}, { rejectionReason: dto.reason ?? null });
    });
    return this.get(scope, id);
  }

  /**
   * The company edits an order. Dates, time window and notes until delivery (pickup date until
   * completion); address, container and waste type only before it is scheduled. Any change of what is
   * priced reprices the placement lines with the engine (new catalogue terms when the container, waste
   * type or address change; the frozen ones otherwise), keeping the placement's promotion.
   */
  async update(actor: Actor, companyId: string, id: string, dto: UpdateOrderDto): Promise<OrderWithLinesDto> {
    await runUnit(this.ds, async (m) => {
      const order = await this.lifecycle.lock(m, Scope.company(companyId), id);
      const editable = ['pending', 'approved', 'scheduled', 'delivered'];
      if (!editable.includes(order.status)) throw ApiError.conflict('ORDER_CLOSED', `A ${order.status} order cannot be edited.`);
      const respec = (dto.address_id && dto.address_id !== order.addressId) || (dto.asset_specification_id && dto.asset_specification_id !== order.assetSpecificationId) || (dto.waste_type_id && dto.waste_type_id !== order.wasteTypeId);
      const errors: Record<string, string[]> = {};
      if (respec && !['pending', 'approved'].includes(order.status)) errors.asset_specification_id = ['address, container and waste type can change only before the order is scheduled'];
      if (dto.delivery_date && dto.delivery_date !== order.deliveryDate && order.status === 'delivered') errors.delivery_date = ['the container is already delivered'];
      const deliveryDate = dto.delivery_date ?? order.deliveryDate;
      const pickupDate = dto.pickup_date !== undefined ? dto.pickup_date : order.pickupDate;
      if (pickupDate && pickupDate < deliveryDate) errors.pickup_date = ['must not be before delivery_date'];
      if (Object.keys(errors).length) throw ApiError.validation(errors);

      let terms: FrozenTerms = order.terms;
      let specificationName = (await this.catalogue.names([order.assetSpecificationId], [], m)).specs.get(order.assetSpecificationId) ?? 'Container';
      if (respec) {
        const resolved = await this.terms.resolve(m, {
          companyId,
          customerId: order.customerId,
          addressId: dto.address_id ?? order.addressId,
          assetSpecificationId: dto.asset_specification_id ?? order.assetSpecificationId,
          wasteTypeId: dto.waste_type_id ?? order.wasteTypeId,
        });
        terms = { ...resolved.terms, promotion: order.terms.promotion };
        specificationName = resolved.specificationName;
        Object.assign(order, { addressId: dto.address_id ?? order.addressId, address: resolved.address, lotId: resolved.lotId, assetSpecificationId: dto.asset_specification_id ?? order.assetSpecificationId, wasteTypeId: dto.waste_type_id ?? order.wasteTypeId });
      }
      if (dto.delivery_date && dto.delivery_date !== order.deliveryDate) await this.calendar.assertOpen('lot', order.lotId, companyId, dto.delivery_date, m, 'delivery_date');
      const datesChanged = deliveryDate !== order.deliveryDate || pickupDate !== order.pickupDate;
      Object.assign(order, { deliveryDate, pickupDate, terms, timeWindow: dto.time_window ?? order.timeWindow, notes: dto.notes !== undefined ? dto.notes : order.notes });
      await m.save(order);
      if (respec || datesChanged) {
        const bill = quoteRental(terms, { specificationName, deliveryDate, pickupDate });
        await this.lifecycle.voidLines(m, order, ['placement']);
        await this.lifecycle.addLines(m, order, bill, 'placement');
        await this.lifecycle.refreshTotals(m, order);
        await this.lifecycle.syncDateJobs(m, order, 'pickup date removed by the company');
      }
      await recordEvents(m, { type: 'order.updated', aggregateType: 'order', aggregateId: order.id, companyId, actorId: actor.id, payload: { fields: Object.keys(dto), total_amount: order.totalAmount } });
    });
    return this.withLines(Scope.company(companyId), id);
  }

  // ------------------------------------------------------------ customer actions

  /**
   * The customer cancels a pending, approved or scheduled order. Inside the company's free-cancellation
   * window before the delivery date (company time zone) the cancellation fee applies: the rental lines
   * are voided and the fee (with its taxes) becomes the bill. Unfinished jobs are aborted and their
   * reserved assets released; the promotion redemption is given back.
   */
  async cancel(actor: Actor, id: string, dto: ReasonDto): Promise<OrderWithLinesDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    await runUnit(this.ds, async (m) => {
      const order = await this.lifecycle.lock(m, scope, id);
      const settings = await this.settings.get(companyId, m);
      const [{ hours }] = await m.query<{ hours: string }[]>(`SELECT extract(epoch FROM (($1::date)::timestamp AT TIME ZONE $2) - now()) / 3600 AS hours`, [order.deliveryDate, settings.timezone]);
      const late = Number(hours) < settings.free_cancellation_hours;
      await this.lifecycle.move(m, order, 'cancelled', actor, dto.reason ?? null, { late, fee_amount: late ? settings.cancellation_fee_amount : 0 }, { cancelledAt: new Date(), cancellationReason: dto.reason ?? null });
      await this.lifecycle.voidLines(m, order);
      if (late && settings.cancellation_fee_amount > 0) {
        await this.lifecycle.addLines(m, order, flatFee(order.terms, 'cancellation_fee', `Late cancellation (within ${settings.free_cancellation_hours} h of delivery)`, settings.cancellation_fee_amount), 'cancellation');
        await m.update(Order, { id: order.id }, { dueDate: this.lifecycle.dueDate(order, todayIn(settings.timezone)) });
      }
      await this.lifecycle.refreshTotals(m, order);
      await this.lifecycle.abortOrderJobs(m, order, 'order cancelled by the customer');
    });
    return this.withLines(scope, id);
  }

  async feedback(actor: Actor, id: string, dto: FeedbackDto): Promise<OrderDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    await runUnit(this.ds, async (m) => {
      const order = await this.lifecycle.lock(m, scope, id);
      if (order.status !== 'completed') throw ApiError.conflict('ORDER_NOT_COMPLETED', 'Feedback is possible once the order is completed.');
      if (order.feedbackAt) throw ApiError.conflict('FEEDBACK_EXISTS', 'Feedback was already given for this order.');
      await m.update(Order, { id }, { feedbackRating: dto.rating, feedbackComment: dto.comment ?? null, feedbackAt: new Date() });
      await recordEvents(m, { type: 'order.feedback_given', aggregateType: 'order', aggregateId: id, companyId, actorId: actor.id, payload: { rating: dto.rating } });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  async list(scope: Scope, q: CompanyOrderQuery, ongoing = false): Promise<Page<OrderDto>> {
    // Filtered by nothing but status (or ongoing) and customer, the total is a sum of counter rows; else an exact count(*).
    const counted = !q.payment_status && !q.asset_specification_id && !q.date && !q.from && !q.to && !q.q;
    const statuses = q.status ? (ongoing && !(ONGOING_STATUSES as readonly string[]).includes(q.status) ? [] : [q.status]) : ongoing ? ONGOING_STATUSES : null;
    const today = await this.today(scope);
    if (q.q) {
      // A text search: the query builder's list (names matched through the users module's SQL).
      const qb = this.filtered(withNames(scopedQuery(this.ds.manager, Order, scope, 'o')), q, ongoing);
      return paginate(qb, q, { sortable: ORDER_SORTS, mapRaw: (o, raw) => OrderDto.of(o, namesOf(raw), today), count: () => countRows(qb) });
    }
    // One statement (#24): the page with its names and, counted, its total (a short page is the last: its total is known).
    const sort = q.sort ?? '-created_at';
    const desc = sort.startsWith('-');
    const key = desc ? sort.slice(1) : sort;
    const column = Object.hasOwn(ORDER_SORT_COLUMNS, key) ? ORDER_SORT_COLUMNS[key] : undefined;
    if (!column) {
      throw ApiError.validation({ sort: [`must be one of ${Object.keys(ORDER_SORTS).flatMap((k) => [k, '-' + k]).join(', ')}`] });
    }
    const perPage = q.per_page ?? DEFAULT_PER_PAGE;
    const page = q.page ?? 1;
    const filters: OrderListFilters = {
      customerId: q.customer_id,
      statusIn: ongoing ? ONGOING_STATUSES : undefined,
      status: q.status,
      paymentStatus: q.payment_status,
      assetSpecificationId: q.asset_specification_id,
      date: q.date,
      from: q.from,
      to: q.to,
    };
    const rows = await this.repository.page(scope, filters, column, desc, perPage, (page - 1) * perPage, counted ? statuses : undefined);
    const items = rows.map((r) => OrderDto.of(r.order as Order, r.names, today));
    const last = rows.length > 0 && rows.length < perPage;
    const total = last
      ? (page - 1) * perPage + rows.length
      : rows[0]?.total !== undefined
        ? rows[0].total
        : counted
          ? await this.repository.countByStatus(scope, q.customer_id ?? null, statuses)
          : await this.repository.count(scope, filters);
    return new Page(items, pageMeta(total, q));
  }

  /**
   * The orders of the companies an administrator's `reach` covers (read only), each with its company;
   * `overdue` in each company's time zone. The same filters as the company's list.
   */
  async listAcross(reach: PlatformReach, q: CompanyOrderQuery): Promise<Page<OrderDto & { company_id: string }>> {
    const qb = this.filtered(withNames(platformQuery(this.ds.manager, Order, reach, 'o')), q, false)
      .addSelect('o.company_id', 'order_company_id')
      .addSelect(companyTimezoneSql('o.company_id'), 'order_company_tz');
    // As the company's list: filtered by nothing but status and customer (and company), the total is a sum of counter rows.
    const counted = !reach.from && !reach.to && !q.payment_status && !q.asset_specification_id && !q.date && !q.from && !q.to && !q.q;
    return paginate(qb, q, {
      sortable: ORDER_SORTS,
      mapRaw: (o, raw) => ({ ...OrderDto.of(o, namesOf(raw), todayIn(raw.order_company_tz as string)), company_id: raw.order_company_id as string }),
      count: counted ? () => this.countByStatus(new PlatformReach(reach.companyId), q.customer_id ?? null, q.status ? [q.status] : null) : () => countRows(qb),
    });
  }

  /** The company of an order, or null: an administrator names an order by id alone. */
  companyOf(id: string): Promise<string | null> {
    return companyOfRow(this.ds.manager, Order, id);
  }

  private filtered(qb: SelectQueryBuilder<Order>, q: CompanyOrderQuery, ongoing: boolean): SelectQueryBuilder<Order> {
    if (q.customer_id) qb.andWhere('o.customerId = :cid', { cid: q.customer_id });
    if (ongoing) qb.andWhere('o.status IN (:...ongoing)', { ongoing: ONGOING_STATUSES });
    if (q.status) qb.andWhere('o.status = :status', { status: q.status });
    if (q.payment_status) qb.andWhere('o.paymentStatus = :ps', { ps: q.payment_status });
    if (q.asset_specification_id) qb.andWhere('o.assetSpecificationId = :spec', { spec: q.asset_specification_id });
    if (q.date) qb.andWhere('o.deliveryDate = :date', { date: q.date });
    if (q.from) qb.andWhere('o.deliveryDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('o.deliveryDate <= :to', { to: q.to });
    if (q.q) {
      const num = parseOrderNumber(q.q);
      qb.andWhere(
        `(o.address->>'line1' ILIKE :q OR o.address->>'city' ILIKE :q OR o.notes ILIKE :q
          OR ${userNameOrEmailMatches('o.customer_id')}
          ${num !== null ? 'OR o.number = :num' : ''})`,
        { q: likePattern(q.q), num },
      );
    }
    return qb;
  }

  /** The number of orders `scope` (or an administrator's reach, by company only) reaches (of one customer, in some statuses) from the counter rows. */
  private async countByStatus(scope: Scope | PlatformReach, customerId: string | null, statuses: readonly string[] | null): Promise<number> {
    if (statuses && statuses.length === 0) return 0;
    const qb = reachQuery(this.ds.manager, OrderStatusCount, scope, 'c').select('coalesce(sum(c.n), 0)::int', 'n');
    if (customerId) qb.andWhere('c.customerId = :cid', { cid: customerId });
    if (statuses) qb.andWhere('c.status IN (:...statuses)', { statuses });
    return (await qb.getRawOne<{ n: number }>())?.n ?? 0;
  }

  async get(scope: Scope, id: string, m: EntityManager = unitManager(this.ds)): Promise<OrderDto> {
    const row = await this.repository.read(scope, id, false);
    if (!row) throw ApiError.notFound('Order');
    return OrderDto.of(row.order as Order, row.names, await this.today(scope, m));
  }

  /**
   * The order with its names and live lines in one statement (the caller's query brought the time
   * zone). Reads through `m`, by default the current guarded request's transaction (it must see its
   * own placement) or the DataSource.
   */
  async withLines(scope: Scope, id: string, m: EntityManager = unitManager(this.ds)): Promise<OrderWithLinesDto> {
    const row = await this.repository.read(scope, id, true);
    if (!row) throw ApiError.notFound('Order');
    return { ...OrderDto.of(row.order as Order, row.names, await this.today(scope, m)), lines: row.liveLines as OrderLineDto[] };
  }

  async full(companyId: string, id: string): Promise<OrderFullDto> {
    const base = await this.withLines(Scope.company(companyId), id);
    const [all, history, jobs, requests] = await Promise.all([
      this.ds.getRepository(OrderLine).find({ where: { orderId: id }, order: { position: 'ASC' } }),
      this.ds.getRepository(OrderStatusChange).find({ where: { orderId: id }, order: { createdAt: 'ASC', id: 'ASC' } }),
      this.jobs.listForOrder(id),
      this.ds.query<{ status: 'pending' | 'approved' | 'rejected'; n: number }[]>(`SELECT status, count(*)::int AS n FROM order_change_requests WHERE order_id = $1 GROUP BY status`, [id]),
    ]);
    const counts: Record<string, number> = { pending: 0, approved: 0, rejected: 0 };
    for (const r of requests) counts[r.status] = r.n;
    return { ...base, all_lines: all.map(StoredLineDto.ofStored), status_history: history.map(StatusChangeDto.of), jobs: jobs.map(JobSummaryDto.of), change_requests: counts };
  }

  async history(companyId: string, id: string): Promise<StatusChangeDto[]> {
    await this.find(Scope.company(companyId), id);
    const rows = await this.ds.getRepository(OrderStatusChange).find({ where: { orderId: id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(StatusChangeDto.of);
  }

  /**
   * An order for any signed-in caller who has a part in it: a user of its company, its customer, or a
   * driver with a job on it. Everyone else gets 404.
   */
  async details(actor: Actor, id: string): Promise<OrderWithLinesDto & { jobs: JobSummaryDto[] }> {
    let scope = Scope.of(actor);
    // The Order rule gives drivers no rows; a driver reaches an order through a job of theirs on it.
    if (scope.kind === 'driver' && (await this.jobs.reachesOrder(scope, id))) {
      scope = scope.widened();
    }
    const base = await this.withLines(scope, id);
    const jobs = await this.jobs.listForOrder(id);
    return { ...base, jobs: jobs.map(JobSummaryDto.of) };
  }

  private find(scope: Scope, id: string, m: EntityManager = this.ds.manager): Promise<Order> {
    return findScoped(m, Order, scope, id, { what: 'Order' });
  }

  liveLines(orderId: string, m: EntityManager = this.ds.manager): Promise<OrderLine[]> {
    return m.getRepository(OrderLine).find({ where: { orderId, voidedAt: IsNull() }, order: { position: 'ASC' } });
  }

  /** Names for a page of orders in three queries (customers, specifications, waste types). */
  async names(orders: Order[], m: EntityManager = this.ds.manager): Promise<(o: Order) => OrderNames> {
    const ids = (f: (o: Order) => string) => [...new Set(orders.map(f))];
    const customerNames = () => this.users.names(ids((o) => o.customerId), m);
    const catalogueNames = () => this.catalogue.names(ids((o) => o.assetSpecificationId), ids((o) => o.wasteTypeId), m);
    const [customers, { specs, wasteTypes }] = m.queryRunner ? [await customerNames(), await catalogueNames()] : await Promise.all([customerNames(), catalogueNames()]);
    return (o) => ({ customer: customers.get(o.customerId) ?? '', specification: specs.get(o.assetSpecificationId) ?? '', wasteType: wasteTypes.get(o.wasteTypeId) ?? '' });
  }

  /** The company's date today: from the time zone the caller's query brought, else read. */
  async today(scope: Scope, m: EntityManager = this.ds.manager): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope.companyId, m)));
  }
}

/**
 * The columns `OrderDto` shows: reads and lists select these only. The frozen `terms` (a JSON document
 * of prices and taxes, the largest column) are never shown, and parsing them for every row of a page
 * cost PostgreSQL and Node more than the rest of the row (#10).
 */
const ORDER_SORTS = { created_at: 'o.createdAt', delivery_date: 'o.deliveryDate', number: 'o.number', total_amount: 'o.totalAmount', status: 'o.status' };

const ORDER_DTO_COLUMNS = [
  'id', 'number', 'status', 'paymentStatus', 'customerId', 'addressId', 'address', 'lotId', 'assetSpecificationId', 'wasteTypeId',
  'deliveryDate', 'pickupDate', 'timeWindow', 'notes', 'promotionCode', 'currency', 'subtotalAmount', 'discountAmount', 'taxAmount',
  'totalAmount', 'paidAmount', 'dueDate', 'deliveredOn', 'rejectionReason', 'cancellationReason', 'feedbackRating', 'feedbackComment',
  'createdAt', 'updatedAt',
] as const satisfies readonly (keyof Order)[];

/** The DTO's columns and the names an order shows, as subqueries of the modules that own them (the read stays one statement). */
function withNames(qb: SelectQueryBuilder<Order>): SelectQueryBuilder<Order> {
  return qb
    .select(ORDER_DTO_COLUMNS.map((c) => `o.${c}`))
    .addSelect(userNameSql('o.customer_id'), 'name_customer')
    .addSelect(specificationNameSql('o.asset_specification_id'), 'name_specification')
    .addSelect(wasteTypeNameSql('o.waste_type_id'), 'name_waste_type');
}

function namesOf(raw: Record<string, unknown>): OrderNames {
  return { customer: (raw.name_customer as string | null) ?? '', specification: (raw.name_specification as string | null) ?? '', wasteType: (raw.name_waste_type as string | null) ?? '' };
}

function quoteDto(p: Priced): QuoteDto {
  return {
    currency: p.settings.currency,
    lines: p.bill.lines.map(OrderLineDto.of),
    subtotal_amount: p.bill.subtotal_amount,
    discount_amount: p.bill.discount_amount,
    tax_amount: p.bill.tax_amount,
    total_amount: p.bill.total_amount,
    due_date: p.dueDate,
    lot_id: p.resolved.lotId,
    distance_km: Math.round(p.resolved.terms.distance_m / 100) / 10,
    promotion_code: p.resolved.terms.promotion?.code ?? null,
  };
}


