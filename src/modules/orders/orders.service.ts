import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { PlatformReach } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page, RenderedPage } from '../../common/http/envelope';
import { DEFAULT_PER_PAGE, pageMeta } from '../../common/http/pagination';
import { PlanLimits } from '../../common/records/plan-limits';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanySettingsService, type CompanySettingsDto } from '../companies';
import { JobsService, type JobView } from '../jobs';
import { OpeningCalendar } from '../sites';
import { CustomerCatalogueService } from '../catalogue';
import { CompaniesService } from '../companies';
import { CustomersService } from '../customers';
import { UsersService } from '../users';
import { ChangeRequestRepository } from './change-request.repository';
import { OrderBillRepository } from './order-bill.repository';
import { ONGOING_STATUSES, Order, OrderLine, type FrozenTerms } from './order.entity';
import { OrderLifecycle } from './order-lifecycle';
import { OrderTerms, todayIn, type ResolvedTerms } from './order-terms';
import {
  ApprovedOrderDto,
  CompanyOrderQuery,
  FeedbackDto,
  JobSummaryDto,
  OrderArrivalDto,
  OrderDto,
  OrderFullDto,
  OrderLineDto,
  OrderQuery,
  OrderWithLinesDto,
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
    private readonly uow: UnitOfWork,
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
    private readonly bill: OrderBillRepository,
    private readonly changeRequests: ChangeRequestRepository,
  ) {}

  // ------------------------------------------------------------ placement

  /** The billing preview: the same checks and lines as placement, nothing saved. */
  async preview(actor: Actor, dto: PlaceOrderDto): Promise<QuoteDto> {
    return this.uow.transaction(async () => {
      const p = await this.price(Scope.of(actor), dto);
      return quoteDto(p);
    });
  }

  /**
   * Places an order: validates (domain.md §4), freezes its price lines and takes the next number of
   * the company. The counter row is updated last, so concurrent placements wait on it only briefly,
   * and a placement that fails gives its number back (no gaps). With an Idempotency-Key this runs
   * inside the request's unit of work, which also stores the answer.
   */
  place(actor: Actor, dto: PlaceOrderDto): Promise<OrderWithLinesDto> {
    return this.placeFor(actor, null, dto);
  }

  /**
   * The billing preview of a company user for the company's customer `customerId` (a phone order): the
   * customer's own preview (`preview`), run with the customer's scope.
   */
  async previewFor(actor: Actor, customerId: string, dto: PlaceOrderDto): Promise<QuoteDto> {
    return this.uow.transaction(async () => quoteDto(await this.price((await this.customers.actingFor(Scope.of(actor), customerId)).scope, dto)));
  }

  /**
   * Placement by the customer (`customerId` null: the caller is the customer), or by a company user for the
   * company's customer `customerId` (a phone order, issue #25): the same checks, pricing and writes, run with
   * the customer's scope (its addresses, its price book, its demerit block); the order is the customer's,
   * its first history row and `order.placed` name the acting user (`placed_by`).
   */
  async placeFor(actor: Actor, customerId: string | null, dto: PlaceOrderDto): Promise<OrderWithLinesDto> {
    const acting = Scope.of(actor);
    const companyId = acting.companyId;
    const placed = await this.uow.transaction(async () => {
      const customer = await this.orderer(actor, acting, customerId);
      // Demerit points (accountability keeps them on the customer): at or over the block threshold, no new orders.
      if (customer.orderingBlocked) {
        throw ApiError.forbidden(
          'DEMERIT_BLOCKED',
          customerId
            ? "The customer's demerit points have reached the company's block threshold: new orders are refused until points leave the window or a violation is waived."
            : "Your demerit points have reached the company's block threshold: new orders are refused until points leave the window or a violation is waived.",
        );
      }
      const scope = customer.scope;
      const p = await this.price(scope, dto);
      const order = Object.assign(new Order(), {
        companyId,
        customerId: scope.customerId,
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
      // The plan's monthly orders (payments registers the limits): the limit read before any lock; then the
      // order, its history, lines and number in one statement, the month's count taken under the company's
      // counter row lock (held to the commit: the event's INSERT, then COMMIT), so placements of one company
      // count one another.
      const limit = await this.limits.limitOf(scope, 'monthly_orders');
      const { monthPlaced } = await this.lifecycle.insertPlacement(order, p.bill, actor, p.settings.timezone);
      await this.limits.admit(scope, 'monthly_orders', limit, monthPlaced - 1, { actorId: actor.id });
      await this.lifecycle.recordStatusEvent(order, null, 'pending', actor, null, { total_amount: order.totalAmount, placed_by: customerId ? 'company' : 'customer' });
      if (p.settings.auto_approve_orders) {
        await this.approveLocked(order, 'system');
        return { id: order.id };
      }
      // The answer from what was just written: no read-back.
      const names = { customer: customer.name, specification: p.resolved.specificationName, wasteType: p.resolved.wasteTypeName };
      return { id: order.id, dto: { ...OrderDto.of(order, names, todayIn(p.settings.timezone)), lines: p.bill.lines.map(OrderLineDto.of), arrival: null } };
    });
    return placed.dto ?? this.withLines(acting, placed.id);
  }

  /** Whom a placement is for: the calling customer (their flags came with the caller), or the company's customer a company user names. */
  private async orderer(actor: Actor, acting: Scope, customerId: string | null): Promise<{ scope: Scope; name: string; orderingBlocked: boolean }> {
    if (customerId !== null) return this.customers.actingFor(acting, customerId);
    return { scope: acting, name: actor.name, orderingBlocked: await this.customers.orderingBlocked(Scope.company(acting.companyId), actor) };
  }

  /** Validation and pricing shared by placement and preview (for the customer of `scope`). */
  private async price(scope: Scope, dto: PlaceOrderDto): Promise<Priced> {
    const { companyId, actorId: customerId } = scope;
    if (scope.kind !== 'customer' || !customerId) throw ApiError.forbidden('WRONG_ACTOR', 'Orders are placed by customers.');
    const settings = await this.settings.get(Scope.company(companyId));
    const today = todayIn(settings.timezone);
    const earliest = addDays(today, settings.order_lead_time_days);
    const dateErrors: Record<string, string[]> = {};
    if (dto.delivery_date < earliest) dateErrors.delivery_date = [`must be on or after ${earliest} (lead time ${settings.order_lead_time_days} days)`];
    if (dto.pickup_date && dto.pickup_date < dto.delivery_date) dateErrors.pickup_date = ['must not be before delivery_date'];
    if (Object.keys(dateErrors).length) throw ApiError.validation(dateErrors);
    const resolved = await this.terms.resolve({ companyId, customerId, addressId: dto.address_id, assetSpecificationId: dto.asset_specification_id, wasteTypeId: dto.waste_type_id, deliveryDate: dto.delivery_date });

    let promotion = null;
    if (dto.promotion_code) {
      promotion = await this.terms.promotion(scope, dto.promotion_code);
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

  /** Approves the order; the answer carries the jobs approval created, as inserted (no read-back). */
  async approve(actor: Actor, id: string): Promise<ApprovedOrderDto> {
    const scope = Scope.of(actor);
    const jobs = await this.uow.transaction(async () => {
      const order = await this.lifecycle.lock(scope, id);
      return this.approveLocked(order, actor);
    });
    return { ...(await this.get(scope, id)), jobs: jobs.map(JobSummaryDto.of) };
  }

  /** pending → approved, and the order's jobs (delivery; pickup when dated), returned as inserted. */
  private async approveLocked(order: Order, actor: Actor | 'system'): Promise<JobView[]> {
    await this.lifecycle.holdContainer(order);
    await this.lifecycle.move(order, 'approved', actor, actor === 'system' ? 'auto-approved (company setting)' : null, {}, { approvedAt: new Date() });
    return this.lifecycle.createApprovalJobs(order);
  }

  async reject(actor: Actor, id: string, dto: ReasonDto): Promise<OrderDto> {
    const scope = Scope.of(actor);
    await this.uow.transaction(async () => {
      const order = await this.lifecycle.lock(scope, id);
      await this.lifecycle.move(order, 'rejected', actor, dto.reason ?? null, {}, { rejectionReason: dto.reason ?? null });
    });
    return this.get(scope, id);
  }

  /**
   * The company edits an order. Dates, time window and notes until delivery (pickup date until
   * completion); address, container and waste type only before it is scheduled. Any change of what is
   * priced reprices the placement lines with the engine (new catalogue terms when the container, waste
   * type or address change; the frozen ones otherwise), keeping the placement's promotion.
   */
  async update(actor: Actor, scope: Scope, id: string, dto: UpdateOrderDto): Promise<OrderWithLinesDto> {
    const companyId = scope.companyId;
    await this.uow.transaction(async () => {
      const order = await this.lifecycle.lock(scope, id);
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
      let specificationName = (await this.catalogue.names(scope, [order.assetSpecificationId], [])).specs.get(order.assetSpecificationId) ?? 'Container';
      if (respec) {
        const resolved = await this.terms.resolve({
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
      if (dto.delivery_date && dto.delivery_date !== order.deliveryDate) await this.calendar.assertOpen('lot', order.lotId, scope, dto.delivery_date, 'delivery_date');
      const datesChanged = deliveryDate !== order.deliveryDate || pickupDate !== order.pickupDate;
      Object.assign(order, { deliveryDate, pickupDate, terms, timeWindow: dto.time_window ?? order.timeWindow, notes: dto.notes !== undefined ? dto.notes : order.notes });
      await this.repository.save(order);
      if (respec || datesChanged) {
        const bill = quoteRental(terms, { specificationName, deliveryDate, pickupDate });
        await this.lifecycle.voidLines(order, ['placement']);
        await this.lifecycle.addLines(order, bill, 'placement');
        await this.lifecycle.refreshTotals(order);
        await this.lifecycle.syncDateJobs(order, 'pickup date removed by the company');
        await this.lifecycle.holdContainer(order);
      }
      await this.bill.recordEvents({ type: 'order.updated', aggregateType: 'order', aggregateId: order.id, companyId, actorId: actor.id, payload: { fields: Object.keys(dto), total_amount: order.totalAmount } });
    });
    return this.withLines(scope, id);
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
    await this.uow.transaction(async () => {
      const order = await this.lifecycle.lock(scope, id);
      const settings = await this.settings.get(Scope.company(companyId));
      const hours = await this.repository.hoursUntil(order.deliveryDate, settings.timezone);
      const late = hours < settings.free_cancellation_hours;
      await this.lifecycle.move(order, 'cancelled', actor, dto.reason ?? null, { late, fee_amount: late ? settings.cancellation_fee_amount : 0 }, { cancelledAt: new Date(), cancellationReason: dto.reason ?? null });
      await this.lifecycle.voidLines(order);
      if (late && settings.cancellation_fee_amount > 0) {
        await this.lifecycle.addLines(order, flatFee(order.terms, 'cancellation_fee', `Late cancellation (within ${settings.free_cancellation_hours} h of delivery)`, settings.cancellation_fee_amount), 'cancellation');
        await this.repository.update(scope, order.id, { dueDate: this.lifecycle.dueDate(order, todayIn(settings.timezone)) });
      }
      await this.lifecycle.refreshTotals(order);
      await this.lifecycle.abortOrderJobs(order, 'order cancelled by the customer');
    });
    return this.withLines(scope, id);
  }

  async feedback(actor: Actor, id: string, dto: FeedbackDto): Promise<OrderDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    await this.uow.transaction(async () => {
      const order = await this.lifecycle.lock(scope, id);
      if (order.status !== 'completed') throw ApiError.conflict('ORDER_NOT_COMPLETED', 'Feedback is possible once the order is completed.');
      if (order.feedbackAt) throw ApiError.conflict('FEEDBACK_EXISTS', 'Feedback was already given for this order.');
      await this.repository.update(scope, id, { feedbackRating: dto.rating, feedbackComment: dto.comment ?? null, feedbackAt: new Date() });
      await this.bill.recordEvents({ type: 'order.feedback_given', aggregateType: 'order', aggregateId: id, companyId, actorId: actor.id, payload: { rating: dto.rating } });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  async list(scope: Scope, q: CompanyOrderQuery, ongoing = false): Promise<Page<OrderDto> | RenderedPage> {
    // Filtered by nothing but status (or ongoing) and customer, the total is a sum of counter rows; else an exact count(*).
    const counted = !q.payment_status && !q.asset_specification_id && !q.date && !q.from && !q.to && !q.q;
    const statuses = q.status ? (ongoing && !(ONGOING_STATUSES as readonly string[]).includes(q.status) ? [] : [q.status]) : ongoing ? ONGOING_STATUSES : null;
    const today = await this.today(scope);
    if (q.q) {
      // A text search: the query builder's list (names matched through the users module's SQL).
      const found = await this.repository.searchPage(scope, { ...filtersOf(q), statusIn: ongoing ? ONGOING_STATUSES : undefined, q: q.q }, q);
      return new Page(found.items.map((r) => OrderDto.of(r.order as Order, r.names, today)), found.meta);
    }
    // One statement (#24): the page with its names and, counted, its total (a short page is the last: its total is known).
    const sort = q.sort ?? '-created_at';
    const desc = sort.startsWith('-');
    const key = desc ? sort.slice(1) : sort;
    const column = Object.hasOwn(ORDER_SORT_COLUMNS, key) ? ORDER_SORT_COLUMNS[key] : undefined;
    if (!column) {
      throw ApiError.validation({ sort: [`must be one of ${Object.keys(ORDER_SORT_COLUMNS).flatMap((k) => [k, '-' + k]).join(', ')}`] });
    }
    const perPage = q.per_page ?? DEFAULT_PER_PAGE;
    const page = q.page ?? 1;
    const filters: OrderListFilters = { ...filtersOf(q), statusIn: ongoing ? ONGOING_STATUSES : undefined };
    // Its rows come as JSON text rendered by the statement (`OrderDto.of`'s shape), joined into the reply as they are.
    const { docs, total: countedTotal } = await this.repository.pageJson(scope, filters, column, desc, perPage, (page - 1) * perPage, today, counted ? statuses : undefined);
    const last = docs.length > 0 && docs.length < perPage;
    const total = last
      ? (page - 1) * perPage + docs.length
      : countedTotal !== undefined
        ? countedTotal
        : counted
          ? await this.repository.countByStatus(scope, q.customer_id ?? null, statuses)
          : await this.repository.count(scope, filters);
    return new RenderedPage(docs, pageMeta(total, q));
  }

  /**
   * The orders of the companies an administrator's `reach` covers (read only), each with its company;
   * `overdue` in each company's time zone. The same filters as the company's list.
   */
  async listAcross(reach: PlatformReach, q: CompanyOrderQuery): Promise<Page<OrderDto & { company_id: string }>> {
    // As the company's list: filtered by nothing but status and customer (and company), the total is a sum of counter rows.
    const counted = !reach.from && !reach.to && !q.payment_status && !q.asset_specification_id && !q.date && !q.from && !q.to && !q.q;
    const found = await this.repository.acrossPage(reach, { ...filtersOf(q), q: q.q }, q, counted);
    return new Page(
      found.items.map((r) => ({ ...OrderDto.of(r.order as Order, r.names, todayIn(r.timezone)), company_id: r.companyId })),
      found.meta,
    );
  }

  /** The company of an order among those `reach` covers, or null: an administrator names an order by id alone. */
  companyOf(reach: PlatformReach, id: string): Promise<string | null> {
    return this.repository.companyOf(reach, id);
  }

  async get(scope: Scope, id: string): Promise<OrderDto> {
    const row = await this.repository.read(scope, id, false);
    if (!row) throw ApiError.notFound('Order');
    return OrderDto.of(row.order as Order, row.names, await this.today(scope));
  }

  /**
   * The order with its names and live lines in one statement (the caller's query brought the time
   * zone). Reads through the unit of work when one is open (it must see its own placement), else the pool.
   */
  async withLines(scope: Scope, id: string): Promise<OrderWithLinesDto> {
    const row = await this.repository.read(scope, id, true);
    if (!row) throw ApiError.notFound('Order');
    return { ...OrderDto.of(row.order as Order, row.names, await this.today(scope)), lines: row.liveLines as OrderLineDto[], arrival: OrderArrivalDto.of(row.arrival) };
  }

  /** The order with every line, its history, jobs and change request counts (a company user, or an administrator acting on the company). */
  async full(scope: Scope, id: string): Promise<OrderFullDto> {
    const base = await this.withLines(scope, id);
    const [all, history, jobs, requests] = await Promise.all([
      this.bill.all(scope, id),
      this.bill.history(scope, id),
      this.jobs.listForOrder(scope, id),
      this.changeRequests.countsOfOrder(scope, id),
    ]);
    const counts: Record<string, number> = { pending: 0, approved: 0, rejected: 0 };
    for (const r of requests) counts[r.status] = r.n;
    return { ...base, all_lines: all.map(StoredLineDto.ofStored), status_history: history.map(StatusChangeDto.of), jobs: jobs.map(JobSummaryDto.of), change_requests: counts };
  }

  async history(scope: Scope, id: string): Promise<StatusChangeDto[]> {
    await this.repository.find(scope, id);
    const rows = await this.bill.history(scope, id);
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
    const jobs = await this.jobs.listForOrder(scope, id);
    return { ...base, jobs: jobs.map(JobSummaryDto.of) };
  }

  /** The order's live lines (of the scope's company), in order. */
  liveLines(scope: Scope, orderId: string): Promise<OrderLine[]> {
    return this.bill.live(scope, orderId);
  }

  /** Names for a page of the scope's company's orders in three queries (customers, specifications, waste types); one at a time inside a unit of work (one connection). */
  async names(scope: Scope, orders: Order[]): Promise<(o: Order) => OrderNames> {
    const ids = (f: (o: Order) => string) => [...new Set(orders.map(f))];
    const customerNames = () => this.users.names(scope, ids((o) => o.customerId));
    const catalogueNames = () => this.catalogue.names(scope, ids((o) => o.assetSpecificationId), ids((o) => o.wasteTypeId));
    const [customers, { specs, wasteTypes }] = this.uow.active ? [await customerNames(), await catalogueNames()] : await Promise.all([customerNames(), catalogueNames()]);
    return (o) => ({ customer: customers.get(o.customerId) ?? '', specification: specs.get(o.assetSpecificationId) ?? '', wasteType: wasteTypes.get(o.wasteTypeId) ?? '' });
  }

  /** The company's date today: from the time zone the caller's query brought, else read. */
  async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
  }
}

/** The list filters of a company's query (the `ongoing` limit is the caller's). */
function filtersOf(q: CompanyOrderQuery): OrderListFilters {
  return {
    customerId: q.customer_id,
    status: q.status,
    paymentStatus: q.payment_status,
    assetSpecificationId: q.asset_specification_id,
    date: q.date,
    from: q.from,
    to: q.to,
  };
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


