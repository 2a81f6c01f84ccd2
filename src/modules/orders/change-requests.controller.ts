import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { BodyExamples, Endpoint } from '../../common/http/openapi';
import { CHANGE_REQUEST_EXAMPLES, ChangeRequestBodyDto, ChangeRequestDto, ChangeRequestQuery, ChangeRequestWrapperDto, CompanyChangeRequestQuery, RejectChangeRequestDto } from './change-requests.dto';
import { ChangeRequestsService, WRAPPER_LATEST } from './change-requests.service';
import { BillDto } from './orders.dto';

/** 422 codes of a change request's checks besides VALIDATION_FAILED: pickup to extend, the serving lot open, catalogue prices. */
const CHANGE_CHECK_CODES = ['PICKUP_NOT_SCHEDULED', 'HOLIDAY', 'CLOSED_DAY', 'INACTIVE', 'NOT_PRICED', 'NO_SERVING_LOT'];

const TYPES =
  'Types and their fields: `reschedule_delivery` {delivery_date}, `schedule_pickup` {pickup_date}, `extend_rental` {days 1–365}, `swap` {date}, ' +
  '`dump_return` {date}, `relocate` {date, address_id}, `change_waste_type` {waste_type_id}, `change_specification` {asset_specification_id, waste_type_id?}; ' +
  'only the fields of the type are accepted (others 422 "is not allowed for type …"), plus an optional `note`. ';

const STATES =
  'Order statuses per type (else 409 `ORDER_STATE`): reschedule_delivery and change_specification while pending, approved or scheduled; ' +
  'schedule_pickup and extend_rental while approved, scheduled or delivered; swap, dump_return and relocate once delivered; ' +
  'change_waste_type until completion (pending, approved, scheduled, delivered). ';

const CHECKS =
  'Checks (422 naming the field; dates are service dates in the company time zone): a new delivery date on or after today + the company lead time, ' +
  'not after the pickup date, the serving lot open (`HOLIDAY`, `CLOSED_DAY`); a pickup date not before the delivery date (the real one once delivered) nor today; ' +
  'extend_rental needs a pickup date (422 `PICKUP_NOT_SCHEDULED`: schedule a pickup first) and moves it by `days`, the new date not in the past and the lot open; ' +
  'a swap, dump-and-return or relocation date not in the past, not before delivery nor after the pickup date, the lot open; ' +
  'relocate\'s address one of the customer\'s own addresses other than the current one; a new waste type active and allowed in the (new) specification; ' +
  'a new specification active and priced in the customer\'s price book (`NOT_PRICED`). The same value as now is refused. References to another tenant\'s records are 422. ';

const PRICING =
  'Pricing (the order\'s frozen terms): reschedule_delivery, schedule_pickup and extend_rental bill the difference in extra days beyond the included days ' +
  '(zero, or negative: a credit, when the rental gets shorter); swap, dump_return and relocate bill the price book\'s swap, dump-and-return and relocation fee ' +
  '(a relocation does not re-price the delivery distance nor change the serving lot); change_waste_type and change_specification bill the difference of rental base ' +
  'and planned extra days between the frozen terms and the current price book item for the new container/waste type (delivery, taxes, payment term and promotion stay frozen). ' +
  'Taxes are the order\'s, per line, half up. ';

const APPROVAL =
  'Approval (one transaction; the order row then the request row locked) re-checks the order status (409 `ORDER_STATE`) and the details as of now, except that ' +
  'the company may approve a delivery date inside the lead time (not in the past). It then applies the change: delivery/pickup dates on the order with the ' +
  'delivery and pickup jobs moved or created; a new unassigned swap, dump_return or relocate job on the date (relocate: the order\'s address and its snapshot become the new address, ' +
  'the job\'s destination); the new specification/waste type and its terms (an asset reserved for the delivery is released when the container changes); ' +
  'the bill lines are added to the order (source `change_request`) and the totals refreshed; a positive charge moves the due date to today + the payment term ' +
  'when that is later. New dates or a new specification are held on the container calendar: when the specification refuses (`check_availability` true, or null and a live ' +
  'container of it recorded) and no container is free on some of the days, 409 `NO_CONTAINER_AVAILABLE` with the days in `details.dates` (nothing changes): checked when the request is made, and again here. Event `order_change_request.approved`. ';
/** The container calendar's check of a request when it is made (docs/orders-and-pricing.md "Container calendar"). */
const CALENDAR_CHECK =
  'New dates or a new specification are checked on the container calendar at once: when the specification refuses (`check_availability` true, or null and a live container of it recorded) ' +
  'and no container is free on some of the days, 409 `NO_CONTAINER_AVAILABLE` with the days in `details.dates` (nothing saved; approval checks again). ';

const BILLING_FIELD =
  'Each request carries `billing`: for a pending one the difference as it would apply now (null when it can no longer be priced), for an approved one the lines ' +
  'recorded on the order for it, for a rejected one an empty bill. ';

@ApiTags('Order change requests (customer)')
@Controller('api/v1')
export class CustomerChangeRequestsController {
  constructor(private readonly requests: ChangeRequestsService) {}

  @Get('customer/order-change-requests')
  @Access('CU')
  @Endpoint({ summary: 'My change requests (filters: status, type, order_id; q on the order number, note and rejection reason; sort created_at, updated_at, decided_at, status, type)', description: BILLING_FIELD, type: ChangeRequestDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: ChangeRequestQuery) {
    return this.requests.list(scope, q);
  }

  @Get('customer/order-change-requests/wrapper')
  @Access('CU')
  @Endpoint({ summary: `My change requests: counts by status and the ${WRAPPER_LATEST} latest pending ones`, type: ChangeRequestWrapperDto })
  wrapper(@CurrentScope() scope: Scope) {
    return this.requests.wrapper(scope);
  }

  @Get('customer/order-change-requests/:orderChangeRequest')
  @Access('CU')
  @ApiIdParam('orderChangeRequest')
  @Endpoint({ summary: 'One of my change requests', description: BILLING_FIELD, type: ChangeRequestDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('orderChangeRequest') id: string) {
    return this.requests.get(scope, id);
  }

  @Post('customer/orders/:order/order-change-requests')
  @Access('CU')
  @ApiIdParam('order', 'One of my orders (another customer\'s: 404).')
  @Endpoint({
    summary: 'Ask the company to change my order',
    description: TYPES + STATES + 'One pending request per order: another is 409 `CHANGE_REQUEST_PENDING`. ' + CHECKS + CALENDAR_CHECK + PRICING + 'Event `order_change_request.created`.',
    type: ChangeRequestDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['CHANGE_REQUEST_PENDING', 'ORDER_STATE', 'NO_CONTAINER_AVAILABLE'], 422: CHANGE_CHECK_CODES },
  })
  @BodyExamples(ChangeRequestBodyDto, CHANGE_REQUEST_EXAMPLES)
  create(@CurrentActor() actor: Actor, @IdParam('order') orderId: string, @Body() dto: ChangeRequestBodyDto) {
    return this.requests.create(actor, orderId, dto);
  }

  @Post('customer/orders/:order/order-change-requests/billing')
  @Access('CU')
  @ApiIdParam('order', 'One of my orders (another customer\'s: 404).')
  @Endpoint({
    summary: 'Price a change request before asking: the difference it would bill, nothing saved',
    description: 'The same body and checks as creating one, except the one-pending rule. ' + TYPES + STATES + CHECKS + CALENDAR_CHECK + PRICING,
    type: BillDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: ['ORDER_STATE', 'NO_CONTAINER_AVAILABLE'], 422: CHANGE_CHECK_CODES },
  })
  @BodyExamples(ChangeRequestBodyDto, CHANGE_REQUEST_EXAMPLES)
  billing(@CurrentActor() actor: Actor, @IdParam('order') orderId: string, @Body() dto: ChangeRequestBodyDto) {
    return this.requests.preview(actor, orderId, dto);
  }
}

@ApiTags('Order change requests')
@Controller('api/v1')
export class CompanyChangeRequestsController {
  constructor(private readonly requests: ChangeRequestsService) {}

  @Get('order-change-requests')
  @Access('CO')
  @Endpoint({
    summary: 'Change requests (filters: status, type, order_id, customer_id; q on the order number, customer name/e-mail, note, rejection reason; sort created_at, updated_at, decided_at, status, type)',
    description: BILLING_FIELD,
    type: ChangeRequestDto,
    list: true,
    errors: [422],
  })
  list(@CurrentScope() scope: Scope, @Query() q: CompanyChangeRequestQuery) {
    return this.requests.list(scope, q);
  }

  @Get('order-change-requests/wrapper')
  @Access('CO')
  @Endpoint({ summary: `Change requests: counts by status and the ${WRAPPER_LATEST} latest pending ones`, type: ChangeRequestWrapperDto })
  wrapper(@CurrentScope() scope: Scope) {
    return this.requests.wrapper(scope);
  }

  @Get('order-change-requests/:orderChangeRequest')
  @Access('CO')
  @ApiIdParam('orderChangeRequest')
  @Endpoint({ summary: 'A change request', description: BILLING_FIELD, type: ChangeRequestDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('orderChangeRequest') id: string) {
    return this.requests.get(scope, id);
  }

  @Patch('order-change-requests/:orderChangeRequest/approve')
  @Access('CO')
  @ApiIdParam('orderChangeRequest')
  @Endpoint({
    summary: 'Approve a pending change request and apply it to the order',
    description: APPROVAL + PRICING + 'A request that is not pending is 409 `INVALID_TRANSITION`.',
    type: ChangeRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION', 'ORDER_STATE', 'NO_CONTAINER_AVAILABLE'], 422: CHANGE_CHECK_CODES },
  })
  approve(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('orderChangeRequest') id: string) {
    return this.requests.approve(actor, Scope.company(companyId), id);
  }

  @Patch('order-change-requests/:orderChangeRequest/reject')
  @Access('CO')
  @ApiIdParam('orderChangeRequest')
  @Endpoint({
    summary: 'Reject a pending change request, with a reason (required, shown to the customer)',
    description: 'Nothing changes on the order. A request that is not pending is 409 `INVALID_TRANSITION`. Event `order_change_request.rejected`.',
    type: ChangeRequestDto,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  reject(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('orderChangeRequest') id: string, @Body() dto: RejectChangeRequestDto) {
    return this.requests.reject(actor, Scope.company(companyId), id, dto);
  }

  @Get('order-change-requests/:orderChangeRequest/billing')
  @Access('CO')
  @ApiIdParam('orderChangeRequest')
  @Endpoint({
    summary: 'The priced difference of a change request',
    description:
      'Pending: the bill approval would add now (the order\'s current dates and frozen terms; a request that can no longer be priced answers with the reason, e.g. 422 ' +
      '`PICKUP_NOT_SCHEDULED` or a catalogue 422). Approved: the lines recorded on the order for it. Rejected: an empty bill. ' +
      PRICING,
    type: BillDto,
    errors: [404, 422],
    codes: { 422: CHANGE_CHECK_CODES },
  })
  billing(@CurrentScope() scope: Scope, @IdParam('orderChangeRequest') id: string) {
    return this.requests.billing(scope, id);
  }
}
