import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { isDateOnly, MAX_DATE } from '../../common/validation/fields';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanySettingsService } from '../companies';
import { JobsService, type JobType } from '../jobs';
import { OpeningCalendar } from '../sites';
import { ChangeRequestBodyDto, ChangeRequestDto, ChangeRequestQuery, ChangeRequestWrapperDto, CompanyChangeRequestQuery, detailsOf, RejectChangeRequestDto } from './change-requests.dto';
import { ChangeRequestRepository } from './change-request.repository';
import { OrderBillRepository } from './order-bill.repository';
import {
  type Order,
  type OrderChangeRequest,
  type OrderLine,
  type AddressSnapshot,
  type ChangeRequestDetails,
  type ChangeRequestType,
  type FrozenTerms,
  type OrderStatus,
} from './order.entity';
import { OrderLifecycle } from './order-lifecycle';
import { OrderTerms, todayIn } from './order-terms';
import { BillDto } from './orders.dto';
import { OrdersRepository } from './orders.repository';
import { addDays, rentalLengthChange, respecification, serviceFee, totalsOf, type Bill, type PricedLine } from './pricing-engine';

const pricedLine = (l: OrderLine): PricedLine => ({ kind: l.kind, description: l.description, quantity: l.quantity, unit_amount: l.unitAmount, amount: l.amount });
import { isUniqueViolation } from '../../database/pg-errors';

/**
 * The order statuses in which each type may be requested (and approved). Anything else is 409
 * `ORDER_STATE`.
 */
export const CHANGE_REQUEST_ORDER_STATUSES: Readonly<Record<ChangeRequestType, readonly OrderStatus[]>> = {
  reschedule_delivery: ['pending', 'approved', 'scheduled'],
  change_specification: ['pending', 'approved', 'scheduled'],
  schedule_pickup: ['approved', 'scheduled', 'delivered'],
  extend_rental: ['approved', 'scheduled', 'delivered'],
  swap: ['delivered'],
  dump_return: ['delivered'],
  relocate: ['delivered'],
  change_waste_type: ['pending', 'approved', 'scheduled', 'delivered'],
};

/** How many pending requests the wrapper routes return. */
export const WRAPPER_LATEST = 5;
const PENDING_INDEX = 'uq_order_change_requests_pending';

/**
 * Who checks a request's details: the customer creating or previewing it (lead time enforced), the
 * company approving it (the company may schedule inside the lead time; everything else re-checked),
 * or nobody (`price`: the difference only, for reads).
 */
type Mode = 'customer' | 'company' | 'price';

/** What a request does to its order: the bill of the difference and the fields/jobs approval writes. */
interface Plan {
  bill: Bill;
  changes: Partial<Pick<Order, 'deliveryDate' | 'pickupDate' | 'assetSpecificationId' | 'wasteTypeId' | 'terms' | 'addressId' | 'address'>>;
  job?: { type: Extract<JobType, 'swap' | 'dump_return' | 'relocate'>; date: string; destinationAddressId: string | null };
  /** The container changes: an asset reserved for the delivery is of the old specification. */
  releaseDeliveryAsset?: boolean;
}

const pendingConflict = () => ApiError.conflict('CHANGE_REQUEST_PENDING', 'This order already has a pending change request; wait for the company to decide on it.');
const fail = (field: string, message: string): never => {
  throw ApiError.validation({ [field]: [message] });
};
const datesOf = (o: Pick<Order, 'deliveryDate' | 'pickupDate'>) => ({ deliveryDate: o.deliveryDate, pickupDate: o.pickupDate });
const emptyBill = (): Bill => ({ lines: [], subtotal_amount: 0, discount_amount: 0, tax_amount: 0, total_amount: 0 });

/**
 * Customers' change requests on their orders (domain.md §4): created by the customer (one pending per
 * order), priced with the pricing engine from the order's frozen terms, approved or rejected by the
 * company. Approval applies the change (dates, jobs, container, address, charges) in one transaction.
 */
@Injectable()
export class ChangeRequestsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly requests: ChangeRequestRepository,
    private readonly orders: OrdersRepository,
    private readonly bill: OrderBillRepository,
    private readonly terms: OrderTerms,
    private readonly lifecycle: OrderLifecycle,
    private readonly settings: CompanySettingsService,
    private readonly calendar: OpeningCalendar,
    private readonly jobs: JobsService,
  ) {}

  // ------------------------------------------------------------ customer

  /** Creates a pending request: status rule, one pending per order (under the order's row lock), details checked. */
  async create(actor: Actor, orderId: string, dto: ChangeRequestBodyDto): Promise<ChangeRequestDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    let id: string;
    try {
      id = await this.uow.transaction(async () => {
        const order = await this.lifecycle.lock(scope, orderId);
        assertOrderState(order, dto.type);
        if (await this.requests.pendingOf(scope, order.id)) throw pendingConflict();
        const details = detailsOf(dto);
        const plan = await this.plan(order, dto.type, details, 'customer');
        await this.assertContainerFree(order, plan);
        const request = await this.requests.insert(scope, {
          orderId: order.id,
          customerId: order.customerId,
          type: dto.type,
          status: 'pending',
          details,
          note: dto.note ?? null,
          rejectionReason: null,
          decidedBy: null,
          decidedAt: null,
        });
        await this.bill.recordEvents({
          type: 'order_change_request.created',
          aggregateType: 'order_change_request',
          aggregateId: request.id,
          companyId,
          actorId: actor.id,
          payload: { order_id: order.id, number: order.number, type: dto.type, details, total_amount: plan.bill.total_amount },
        });
        return request.id;
      });
    } catch (e) {
      if (isUniqueViolation(e, PENDING_INDEX)) throw pendingConflict();
      throw e;
    }
    return this.get(scope, id);
  }

  /** The difference the same body would bill, with the same checks as creation except the one-pending rule; nothing saved. */
  async preview(actor: Actor, orderId: string, dto: ChangeRequestBodyDto): Promise<BillDto> {
    return this.uow.transaction(async () => {
      const order = await this.orders.find(Scope.of(actor), orderId);
      assertOrderState(order, dto.type);
      const plan = await this.plan(order, dto.type, detailsOf(dto), 'customer');
      await this.assertContainerFree(order, plan);
      return BillDto.of(plan.bill, order.currency);
    });
  }

  // ------------------------------------------------------------ company decisions

  /**
   * Applies a pending request in one transaction: the order row, then the request row, are locked
   * (always in that order), the order's status rule and the details are checked again as of now, and
   * the change is written with its bill lines, jobs and event.
   */
  async approve(actor: Actor, scope: Scope, id: string): Promise<ChangeRequestDto> {
    const companyId = scope.companyId;
    await this.uow.transaction(async () => {
      const found = await this.requests.find(scope, id);
      const order = await this.lifecycle.lock(scope, found.orderId);
      const request = await this.requests.lockOfCompany(scope, id);
      if (!request) throw ApiError.notFound('Change request');
      if (request.status !== 'pending') throw ApiError.invalidTransition(request.status, 'approved', 'Change request');
      assertOrderState(order, request.type);
      const plan = await this.plan(order, request.type, request.details, 'company');

      if (Object.keys(plan.changes).length) {
        Object.assign(order, plan.changes);
        await this.orders.save(order);
      }
      if (plan.changes.deliveryDate !== undefined || plan.changes.pickupDate !== undefined) await this.lifecycle.syncDateJobs(order, `change request ${request.type}`);
      if (plan.job) await this.lifecycle.createJob(order, plan.job.type, plan.job.date, { changeRequestId: request.id, destinationAddressId: plan.job.destinationAddressId });
      if (plan.releaseDeliveryAsset) await this.releaseDeliveryAsset(order);
      // The container calendar: new dates or a new container are held (or refused: 409 NO_CONTAINER_AVAILABLE).
      if (plan.changes.deliveryDate !== undefined || plan.changes.pickupDate !== undefined || plan.changes.assetSpecificationId !== undefined) await this.lifecycle.holdContainer(order);

      await this.lifecycle.addLines(order, plan.bill, 'change_request', request.id);
      await this.lifecycle.refreshTotals(order);
      if (plan.bill.total_amount > 0) {
        // A new charge is due on the payment term from today; the due date never moves earlier.
        const settings = await this.settings.get(Scope.company(companyId));
        const due = this.lifecycle.dueDate(order, todayIn(settings.timezone));
        if (due > order.dueDate) await this.orders.update(scope, order.id, { dueDate: due });
      }

      await this.requests.update(scope, id, { status: 'approved', decidedBy: actor.id, decidedAt: new Date() });
      await this.bill.recordEvents({
        type: 'order_change_request.approved',
        aggregateType: 'order_change_request',
        aggregateId: id,
        companyId,
        actorId: actor.id,
        payload: { order_id: order.id, number: order.number, customer_id: order.customerId, type: request.type, details: request.details, total_amount: plan.bill.total_amount },
      });
    });
    return this.get(scope, id);
  }

  async reject(actor: Actor, scope: Scope, id: string, dto: RejectChangeRequestDto): Promise<ChangeRequestDto> {
    const companyId = scope.companyId;
    await this.uow.transaction(async () => {
      const request = await this.requests.find(scope, id, true);
      if (request.status !== 'pending') throw ApiError.invalidTransition(request.status, 'rejected', 'Change request');
      await this.requests.update(scope, id, { status: 'rejected', rejectionReason: dto.reason, decidedBy: actor.id, decidedAt: new Date() });
      await this.bill.recordEvents({
        type: 'order_change_request.rejected',
        aggregateType: 'order_change_request',
        aggregateId: id,
        companyId,
        actorId: actor.id,
        payload: { order_id: request.orderId, customer_id: request.customerId, type: request.type, reason: dto.reason },
      });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  async list(scope: Scope, q: CompanyChangeRequestQuery): Promise<Page<ChangeRequestDto>> {
    const page = await this.requests.page(scope, q);
    return new Page(await this.render(scope, page.items), page.meta);
  }

  async wrapper(scope: Scope): Promise<ChangeRequestWrapperDto> {
    const rows = await this.requests.countsByStatus(scope);
    const counts = { pending: 0, approved: 0, rejected: 0, total: 0 };
    for (const r of rows) {
      counts[r.status as 'pending' | 'approved' | 'rejected'] = r.n;
      counts.total += r.n;
    }
    const latest = await this.list(scope, { status: 'pending', per_page: WRAPPER_LATEST, sort: '-created_at' } as ChangeRequestQuery);
    return { counts, latest_pending: latest.items };
  }

  async get(scope: Scope, id: string): Promise<ChangeRequestDto> {
    const [dto] = await this.render(scope, [await this.find(scope, id)]);
    return dto;
  }

  /** The company's billing route: pending priced as of now (a request that can no longer be priced is its 409/422); decided as recorded. */
  async billing(scope: Scope, id: string): Promise<BillDto> {
    const request = await this.find(scope, id);
    const order = await this.orders.find(scope, request.orderId);
    if (request.status === 'pending') return BillDto.of((await this.plan(order, request.type, request.details, 'price')).bill, order.currency);
    const lines = request.status === 'approved' ? await this.recordedLines(scope, [request.id]) : [];
    return BillDto.of(totalsOf(lines.map(pricedLine)), order.currency);
  }

  private find(scope: Scope, id: string): Promise<OrderChangeRequest> {
    return this.requests.find(scope, id);
  }

  private recordedLines(scope: Scope, requestIds: string[]): Promise<OrderLine[]> {
    if (!requestIds.length) return Promise.resolve([]);
    return this.bill.ofChangeRequests(scope, requestIds);
  }

  /** Response objects with their billing (requests `scope` reached): orders and recorded lines in one query each. */
  private async render(scope: Scope, requests: OrderChangeRequest[]): Promise<ChangeRequestDto[]> {
    if (!requests.length) return [];
    const orders = new Map((await this.orders.byIds(scope, [...new Set(requests.map((r) => r.orderId))])).map((o) => [o.id, o]));
    const lines = await this.recordedLines(scope, requests.filter((r) => r.status === 'approved').map((r) => r.id));
    const out: ChangeRequestDto[] = [];
    for (const r of requests) {
      const order = orders.get(r.orderId)!;
      let bill: Bill | null;
      if (r.status === 'pending') bill = await this.estimate(order, r);
      else bill = totalsOf(r.status === 'approved' ? lines.filter((l) => l.changeRequestId === r.id).map(pricedLine) : []);
      out.push(ChangeRequestDto.of(r, order.number, bill && BillDto.of(bill, order.currency)));
    }
    return out;
  }

  /** A pending request's difference as of now, or null when it cannot be priced any more. */
  private async estimate(order: Order, r: OrderChangeRequest): Promise<Bill | null> {
    try {
      return (await this.plan(order, r.type, r.details, 'price')).bill;
    } catch (e) {
      if (e instanceof ApiError) return null;
      throw e;
    }
  }

  // ------------------------------------------------------------ rules and pricing

  /**
   * New dates or a new container are checked on the container calendar when the customer asks (409
   * `NO_CONTAINER_AVAILABLE` at once, nothing saved); approval holds them and so checks again.
   */
  private async assertContainerFree(order: Order, plan: Plan): Promise<void> {
    const { deliveryDate, pickupDate, assetSpecificationId } = plan.changes;
    if (deliveryDate === undefined && pickupDate === undefined && assetSpecificationId === undefined) return;
    await this.lifecycle.assertContainerFree({ ...order, deliveryDate: deliveryDate ?? order.deliveryDate, pickupDate: pickupDate === undefined ? order.pickupDate : pickupDate, assetSpecificationId: assetSpecificationId ?? order.assetSpecificationId });
  }

  /**
   * Checks a request's details against the order (unless `mode` is `price`) and prices its difference
   * with the pricing engine from the order's frozen terms.
   */
  private async plan(order: Order, type: ChangeRequestType, d: ChangeRequestDetails, mode: Mode): Promise<Plan> {
    const check = mode !== 'price';
    let today = '';
    let leadDays = 0;
    if (check) {
      const settings = await this.settings.get(Scope.company(order.companyId));
      today = todayIn(settings.timezone);
      leadDays = settings.order_lead_time_days;
    }
    const assertLotOpen = (date: string, field: string) => this.calendar.assertOpen('lot', order.lotId, Scope.company(order.companyId), date, field);
    const deliveredOrPlanned = order.deliveredOn ?? order.deliveryDate;

    switch (type) {
      case 'reschedule_delivery': {
        const date = d.delivery_date!;
        if (check) {
          if (date === order.deliveryDate) fail('delivery_date', 'is already the delivery date');
          const earliest = mode === 'customer' ? addDays(today, leadDays) : today;
          if (date < earliest) fail('delivery_date', mode === 'customer' ? `must be on or after ${earliest} (lead time ${leadDays} days)` : `must not be in the past (today is ${today})`);
          if (order.pickupDate && date > order.pickupDate) fail('delivery_date', `must not be after the pickup date ${order.pickupDate}`);
          await assertLotOpen(date, 'delivery_date');
        }
        return { bill: rentalLengthChange(order.terms, datesOf(order), { deliveryDate: date, pickupDate: order.pickupDate }), changes: { deliveryDate: date } };
      }

      case 'schedule_pickup': {
        const date = d.pickup_date!;
        if (check) {
          if (date === order.pickupDate) fail('pickup_date', 'is already the pickup date');
          if (date < deliveredOrPlanned) fail('pickup_date', `must not be before the delivery date ${deliveredOrPlanned}`);
          if (date < today) fail('pickup_date', `must not be in the past (today is ${today})`);
          await assertLotOpen(date, 'pickup_date');
        }
        return { bill: rentalLengthChange(order.terms, datesOf(order), { deliveryDate: order.deliveryDate, pickupDate: date }), changes: { pickupDate: date } };
      }

      case 'extend_rental': {
        if (!order.pickupDate) {
          throw ApiError.unprocessable('PICKUP_NOT_SCHEDULED', 'The order has no pickup date to extend: request schedule_pickup first.', { days: ['needs a scheduled pickup date: request schedule_pickup first'] });
        }
        const date = addDays(order.pickupDate, d.days!);
        if (!isDateOnly(date)) fail('days', `the new pickup date would be after ${MAX_DATE}`);
        if (check) {
          if (date < today) fail('days', `the new pickup date ${date} would be in the past (today is ${today}); request schedule_pickup instead`);
          await assertLotOpen(date, 'days');
        }
        return { bill: rentalLengthChange(order.terms, datesOf(order), { deliveryDate: order.deliveryDate, pickupDate: date }), changes: { pickupDate: date } };
      }

      case 'swap':
      case 'dump_return':
      case 'relocate': {
        const date = d.date!;
        let address: AddressSnapshot | null = null;
        if (check) {
          if (date < today) fail('date', `must not be in the past (today is ${today})`);
          if (date < deliveredOrPlanned) fail('date', `must not be before the delivery date ${deliveredOrPlanned}`);
          if (order.pickupDate && date > order.pickupDate) fail('date', `must not be after the pickup date ${order.pickupDate}`);
          if (type === 'relocate') {
            if (d.address_id === order.addressId) fail('address_id', 'is already the order\'s address');
            address = await this.terms.address(Scope.customer(order.companyId, order.customerId), d.address_id!);
            if (!address) fail('address_id', 'is not one of your addresses');
          }
          await assertLotOpen(date, 'date');
        }
        const fee = type === 'swap' ? 'swap_fee' : type === 'dump_return' ? 'dump_return_fee' : 'relocation_fee';
        return {
          bill: serviceFee(order.terms, fee),
          changes: address ? { addressId: d.address_id!, address } : {},
          job: { type, date, destinationAddressId: type === 'relocate' ? d.address_id! : null },
        };
      }

      case 'change_waste_type':
      case 'change_specification': {
        const specId = type === 'change_specification' ? d.asset_specification_id! : order.assetSpecificationId;
        const wasteId = d.waste_type_id ?? order.wasteTypeId;
        if (check && type === 'change_specification' && specId === order.assetSpecificationId) fail('asset_specification_id', 'is already the order\'s container');
        if (check && type === 'change_waste_type' && wasteId === order.wasteTypeId) fail('waste_type_id', 'is already the order\'s waste type');
        // Checks the specification (active, the company's) and the waste type (active, the company's, allowed in it): 422 naming the field.
        const resolved = await this.terms.resolve({ companyId: order.companyId, customerId: order.customerId, addressId: order.addressId, assetSpecificationId: specId, wasteTypeId: wasteId });
        const after = respecifiedTerms(order.terms, resolved.terms);
        const name = type === 'change_specification' ? resolved.specificationName : `${resolved.specificationName} with ${resolved.wasteTypeName}`;
        return {
          bill: respecification(order.terms, after, { deliveryDate: order.deliveryDate, pickupDate: order.pickupDate, specificationName: name }),
          changes: { assetSpecificationId: specId, wasteTypeId: wasteId, terms: after },
          releaseDeliveryAsset: specId !== order.assetSpecificationId,
        };
      }
    }
  }

  /** A new container: the asset dispatch reserved for the unfinished delivery is of the old specification; unassign and release it. */
  private async releaseDeliveryAsset(order: Order): Promise<void> {
    const delivery = await this.jobs.unfinished(Scope.company(order.companyId), order.id, 'delivery');
    if (delivery) await this.jobs.unreserveAsset(delivery);
  }
}

function assertOrderState(order: Order, type: ChangeRequestType): void {
  const allowed = CHANGE_REQUEST_ORDER_STATUSES[type];
  if (!allowed.includes(order.status)) {
    throw ApiError.conflict('ORDER_STATE', `A ${type} request is possible only while the order is ${allowed.join(', ')}; this order is ${order.status}.`);
  }
}

/**
 * The terms after a change of container or waste type: the price book item of the current catalogue
 * (base, included days and weight, extra day, overage and service fees), while what does not depend on
 * the container stays frozen (delivery distance and prices, taxes, tax exemption, payment term, promotion).
 */
function respecifiedTerms(before: FrozenTerms, catalogue: FrozenTerms): FrozenTerms {
  return {
    ...catalogue,
    distance_m: before.distance_m,
    delivery_free_radius_m: before.delivery_free_radius_m,
    delivery_price_per_km_amount: before.delivery_price_per_km_amount,
    taxes: before.taxes,
    tax_exempt: before.tax_exempt,
    due_days: before.due_days,
    payment_term_id: before.payment_term_id,
    promotion: before.promotion,
  };
}
