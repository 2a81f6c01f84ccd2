import { Body, Controller, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { Idempotent } from '../../common/idempotency/idempotent';
import { ApprovedOrderDto, CompanyOrderQuery, FeedbackDto, OrderDetailsDto, OrderDto, OrderFullDto, OrderQuery, OrderWithLinesDto, PlaceOrderDto, QuoteDto, ReasonDto, StatusChangeDto, UpdateOrderDto } from './orders.dto';
import { OrdersService } from './orders.service';

/** The 422 codes of pricing an order (quote and placement). */
const PLACEMENT_CODES = { 422: ['VALIDATION_FAILED', 'NOT_PRICED', 'NO_SERVING_LOT', 'HOLIDAY', 'CLOSED_DAY', 'INACTIVE', 'PROMOTION_INVALID'] };
/** The container calendar's refusal (docs/orders-and-pricing.md "Container calendar"). */
const CALENDAR_RULE =
  ' The order holds one container of its specification from the delivery date to the pickup date (open-ended without one); when the specification refuses ' +
  '(`check_availability` true, or null and the company records a live container of it) and none is free on some of those days, 409 `NO_CONTAINER_AVAILABLE` with the days in `details.dates`.';

const PLACEMENT_RULES =
  'Checks (422 naming the field): the address is the customer\'s, the specification active, the waste type allowed in it, ' +
  'delivery on or after today + the company lead time and the serving lot open that day (`HOLIDAY`, `CLOSED_DAY`), ' +
  'the promotion valid (`PROMOTION_INVALID`), a price in the customer\'s price book (`NOT_PRICED`), an active lot with a position to serve it (`NO_SERVING_LOT`). ' +
  'The serving lot is the nearest active lot; delivery is free within the price book\'s radius, then priced per km.';

@ApiTags('Orders (customer)')
@Controller('api/v1')
export class CustomerOrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get('customer/orders')
  @Access('CU')
  @Endpoint({ summary: 'My orders (filters: status, payment_status, from/to on the delivery date, asset_specification_id, q)', type: OrderDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: OrderQuery) {
    return this.orders.list(scope, q);
  }

  @Post('customer/orders')
  @Access('CU')
  @Idempotent()
  @Endpoint({
    summary: 'Place an order',
    description: PLACEMENT_RULES + CALENDAR_RULE + ' Prices are frozen on the order. With the company\'s auto-approve setting the order is approved at once. A customer whose demerit points reached the company\'s block threshold is refused (403 `DEMERIT_BLOCKED`). Past the company\'s plan limit on orders placed this calendar month (its time zone): 403 `PLAN_LIMIT` (`errors.limit`, `errors.plan`).',
    type: OrderWithLinesDto,
    status: 201,
    errors: [403, 409, 422],
    codes: { ...PLACEMENT_CODES, 403: ['DEMERIT_BLOCKED', 'PLAN_LIMIT'], 409: ['NO_CONTAINER_AVAILABLE'] },
  })
  place(@CurrentActor() actor: Actor, @Body() dto: PlaceOrderDto) {
    return this.orders.place(actor, dto);
  }

  @Get('customer/orders/ongoing')
  @Access('CU')
  @Endpoint({ summary: 'My orders still running (pending, approved, scheduled, delivered)', type: OrderDto, list: true, errors: [422] })
  ongoing(@CurrentScope() scope: Scope, @Query() q: OrderQuery) {
    return this.orders.list(scope, q, true);
  }

  @Post('customer/order/billing')
  @Access('CU')
  @Endpoint({ summary: 'Billing preview: the lines placement would freeze, nothing saved', description: PLACEMENT_RULES, type: QuoteDto, status: 200, errors: [422], codes: PLACEMENT_CODES })
  billing(@CurrentActor() actor: Actor, @Body() dto: PlaceOrderDto) {
    return this.orders.preview(actor, dto);
  }

  @Get('customer/order/:order')
  @Access('CU')
  @ApiIdParam('order')
  @Endpoint({ summary: 'One of my orders, with its bill lines', type: OrderWithLinesDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('order') id: string) {
    return this.orders.withLines(scope, id);
  }

  @Post('customer/order/:order/cancel')
  @Access('CU')
  @ApiIdParam('order')
  @Endpoint({
    summary: 'Cancel my order (pending, approved or scheduled)',
    description: 'Inside the company\'s free-cancellation window before the delivery date the cancellation fee (with taxes) replaces the bill; otherwise the bill is voided. Jobs are aborted. Another status is 409 `INVALID_TRANSITION`.',
    type: OrderWithLinesDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  cancel(@CurrentActor() actor: Actor, @IdParam('order') id: string, @Body() dto: ReasonDto) {
    return this.orders.cancel(actor, id, dto);
  }

  @Post('customer/feedback/:order')
  @Access('CU')
  @ApiIdParam('order')
  @Endpoint({ summary: 'Rate a completed order (1–5, once)', description: '409 `ORDER_NOT_COMPLETED` before completion, `FEEDBACK_EXISTS` the second time.', type: OrderDto, status: 201, errors: [404, 409, 422], codes: { 409: ['ORDER_NOT_COMPLETED', 'FEEDBACK_EXISTS'] } })
  feedback(@CurrentActor() actor: Actor, @IdParam('order') id: string, @Body() dto: FeedbackDto) {
    return this.orders.feedback(actor, id, dto);
  }
}

@ApiTags('Orders')
@Controller('api/v1')
export class CompanyOrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get('orders')
  @Access('CO')
  @Endpoint({ summary: 'Orders (filters: status, payment_status, customer_id, asset_specification_id, date, from/to on the delivery date; q on number, customer, address)', type: OrderDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: CompanyOrderQuery) {
    return this.orders.list(scope, q);
  }

  @Post('customer/:customerId/orders')
  @Access('CO')
  @ApiIdParam('customerId')
  @Idempotent()
  @Endpoint({
    summary: 'Place an order for a customer (a phone order; extension)',
    description:
      "The customer's placement (`POST /customer/orders`: the same body, checks, pricing with the customer's price book and taxes, promotion, plan limit, auto-approval and " +
      '`Idempotency-Key` behaviour), done by a company user for the company\'s customer (issue #25). ' +
      PLACEMENT_RULES +
      CALENDAR_RULE +
      " The address is one of the customer's (add one with `POST /customer/{customerId}/addresses`). The order is the customer's; its first status-history row and " +
      "`order.placed` (`placed_by: company`) name the user. Another company's customer is 404, a deactivated one 409 `CUSTOMER_INACTIVE`, one whose demerit points reached the block threshold 403 `DEMERIT_BLOCKED`.",
    type: OrderWithLinesDto,
    status: 201,
    errors: [403, 404, 409, 422],
    codes: { ...PLACEMENT_CODES, 403: ['DEMERIT_BLOCKED', 'PLAN_LIMIT'], 409: ['CUSTOMER_INACTIVE', 'NO_CONTAINER_AVAILABLE'] },
  })
  placeFor(@CurrentActor() actor: Actor, @IdParam('customerId') customerId: string, @Body() dto: PlaceOrderDto) {
    return this.orders.placeFor(actor, customerId, dto);
  }

  @Post('customer/:customerId/order/billing')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({
    summary: "Billing preview for a customer: the lines placement would freeze, nothing saved (extension)",
    description: "The customer's preview (`POST /customer/order/billing`) for a company user quoting by phone (issue #25). " + PLACEMENT_RULES + " Another company's customer is 404, a deactivated one 409 `CUSTOMER_INACTIVE`.",
    type: QuoteDto,
    status: 200,
    errors: [404, 409, 422],
    codes: { ...PLACEMENT_CODES, 409: ['CUSTOMER_INACTIVE'] },
  })
  billingFor(@CurrentActor() actor: Actor, @IdParam('customerId') customerId: string, @Body() dto: PlaceOrderDto) {
    return this.orders.previewFor(actor, customerId, dto);
  }

  @Get('order/:order')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({ summary: 'An order with its bill lines', type: OrderWithLinesDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('order') id: string) {
    return this.orders.withLines(scope, id);
  }

  @Get('order/:order/full')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({ summary: 'An order with every line (voided too), status history, jobs and change-request counts', type: OrderFullDto, errors: [404] })
  full(@CompanyId() companyId: string, @IdParam('order') id: string) {
    return this.orders.full(Scope.company(companyId), id);
  }

  @Get('order/:order/status-history')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({ summary: 'Status moves of an order, oldest first (from, to, actor, reason, time)', type: StatusChangeDto, array: true, errors: [404] })
  history(@CompanyId() companyId: string, @IdParam('order') id: string) {
    return this.orders.history(Scope.company(companyId), id);
  }

  @Put('update/order/:order')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({
    summary: 'Edit an order',
    description: 'Dates, time window and notes until delivery; address, container and waste type while pending or approved. The bill is repriced with the pricing engine (placement lines replaced); jobs follow the dates. A closed order is 409 `ORDER_CLOSED`.' + CALENDAR_RULE,
    type: OrderWithLinesDto,
    errors: [404, 409, 422],
    codes: { 409: ['ORDER_CLOSED', 'NO_CONTAINER_AVAILABLE'], ...PLACEMENT_CODES },
  })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('order') id: string, @Body() dto: UpdateOrderDto) {
    return this.orders.update(actor, Scope.company(companyId), id, dto);
  }

  @Patch('approve/order/:orderId')
  @Access('CO')
  @ApiIdParam('orderId')
  @Endpoint({
    summary: 'Approve a pending order: creates its delivery job (and pickup job when a pickup date is set), unassigned',
    description: 'Approval checks the order\'s hold on the container calendar again. The answer is the order with `jobs`: the jobs approval created (id, type, status `unassigned`, scheduled date, lot), ready to assign with `POST /order/jobs/{driverJob}/assign`.' + CALENDAR_RULE,
    type: ApprovedOrderDto,
    errors: [404, 409],
    codes: { 409: ['INVALID_TRANSITION', 'NO_CONTAINER_AVAILABLE'] },
  })
  approve(@CurrentActor() actor: Actor, @IdParam('orderId') id: string) {
    return this.orders.approve(actor, id);
  }

  @Patch('reject/order/:orderId')
  @Access('CO')
  @ApiIdParam('orderId')
  @Endpoint({ summary: 'Reject a pending order, with an optional reason', type: OrderDto, errors: [404, 409, 422], codes: { 409: ['INVALID_TRANSITION'] } })
  reject(@CurrentActor() actor: Actor, @IdParam('orderId') id: string, @Body() dto: ReasonDto) {
    return this.orders.reject(actor, id, dto);
  }
}

@ApiTags('Orders')
@Controller('api/v1')
export class OrderDetailsController {
  constructor(private readonly orders: OrdersService) {}

  @Get('orders/:order/details')
  @Access('TOK')
  @ApiIdParam('order')
  @Endpoint({ summary: 'An order for whoever has a part in it: its company, its customer, or a driver with a job on it (anyone else 404)', type: OrderDetailsDto, errors: [404], codes: { 403: ['NO_COMPANY'] } })
  details(@CurrentActor() actor: Actor, @IdParam('order') id: string) {
    return this.orders.details(actor, id);
  }
}
