import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import {
  CompanyDisputeMessageDto,
  CustomerDisputeMessageDto,
  DemeritCustomerDto,
  DemeritCustomersQuery,
  DemeritOrderDto,
  DemeritOrdersQuery,
  DemeritPointsDto,
  DemeritStandingDto,
  DisputeDto,
  DisputeMessageDto,
  PolicyViolationDto,
  RecordViolationsDto,
  ReplaceViolationsDto,
  UpdateDisputeMessageDto,
} from './accountability.dto';
import { DemeritService } from './demerit.service';
import { DisputesService } from './disputes.service';
import { ViolationsService } from './violations.service';

const POINTS_RULE =
  "Points: the sum over the customer's violations recorded within the company's window (`demerit_window_days`, default 365), waived ones excluded. " +
  'At or over `demerit_warning_threshold` the customer is warned (event `customer.demerit_threshold_reached`), at or over `demerit_block_threshold` new orders are refused (403 `DEMERIT_BLOCKED`).';
const STATES = 'States: `open` → `disputed` (the customer\'s first message) → `upheld` | `waived` (a company message with `resolution`); `open` → `upheld` (closed without dispute).';
const RECORD_RULES =
  'The order must be delivered or completed (the container was on site), else 409 `ORDER_STATE`. Each policy (active, the company\'s; 422 per index otherwise) becomes a violation with the ' +
  "policy's points and fee copied; the fee and the taxes on fees join the order's bill as final-bill lines, so its balance grows. Evidence: uploads (POST /upload-media).";

@ApiTags('Demerit points')
@Controller('api/v1')
export class CompanyAccountabilityController {
  constructor(
    private readonly demerit: DemeritService,
    private readonly violations: ViolationsService,
    private readonly disputes: DisputesService,
  ) {}

  @Get('demerit/customers')
  @Access('CO')
  @Endpoint({
    summary: 'Customers with demerit points (any violation recorded), most points first',
    description: `${POINTS_RULE} Filters warning_reached, blocked, q (name or e-mail); sorts points (default -points), last_violation_at, created_at.`,
    type: DemeritCustomerDto,
    list: true,
    errors: [422],
  })
  customers(@CurrentScope() scope: Scope, @Query() q: DemeritCustomersQuery) {
    return this.demerit.listCustomers(scope, q);
  }

  @Get('demerit/:customer/customer/details')
  @Access('CO')
  @ApiIdParam('customer', 'A customer of the company.')
  @Endpoint({ summary: "A customer's demerit standing: points, thresholds, violations by state", description: POINTS_RULE, type: DemeritStandingDto, errors: [404] })
  customerDetails(@CurrentScope() scope: Scope, @IdParam('customer') id: string) {
    return this.demerit.standing(scope, id);
  }

  @Get('demerit/:customer/customer/orders')
  @Access('CO')
  @ApiIdParam('customer', 'A customer of the company.')
  @Endpoint({ summary: "A customer's orders with violations, latest violation first (sorts last_violation_at, points)", type: DemeritOrderDto, list: true, errors: [404, 422] })
  customerOrders(@CurrentScope() scope: Scope, @IdParam('customer') id: string, @Query() q: DemeritOrdersQuery) {
    return this.demerit.customerOrders(scope, id, q);
  }

  @Get('demerit/:order/violated-policies')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({ summary: "An order's violations, oldest first", description: STATES, type: PolicyViolationDto, array: true, errors: [404] })
  orderViolations(@CurrentScope() scope: Scope, @IdParam('order') id: string) {
    return this.violations.forOrder(scope, id);
  }

  @Post('orders/:order/violated-policies')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({
    summary: 'Record violated policies on an order',
    description: `${RECORD_RULES} A policy already recorded on the order is 422 (replace the set instead). Answers the order's violations. ${POINTS_RULE}`,
    type: PolicyViolationDto,
    array: true,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['ORDER_STATE'] },
  })
  record(@CurrentScope() scope: Scope, @IdParam('order') id: string, @Body() dto: RecordViolationsDto) {
    return this.violations.record(scope, id, dto);
  }

  @Put('orders/:order/violated-policies/update')
  @Access('CO')
  @ApiIdParam('order')
  @Endpoint({
    summary: "Replace an order's violated policies",
    description:
      "Only while none of the order's violations is resolved (409 `VIOLATION_RESOLVED`). Policies kept keep their violation (points, fee, dispute; note and evidence updated when given); " +
      `new ones are recorded as by POST; the others are removed and their fee lines voided (the balance goes down). ${RECORD_RULES}`,
    type: PolicyViolationDto,
    array: true,
    errors: [404, 409, 422],
    codes: { 409: ['ORDER_STATE', 'VIOLATION_RESOLVED'] },
  })
  replace(@CurrentScope() scope: Scope, @IdParam('order') id: string, @Body() dto: ReplaceViolationsDto) {
    return this.violations.replace(scope, id, dto);
  }

  @Get('policy-violations/:customerPolicyViolation')
  @Access('CO')
  @ApiIdParam('customerPolicyViolation', 'A violation recorded on one of the company\'s orders.')
  @Endpoint({ summary: 'One violation', description: STATES, type: PolicyViolationDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string) {
    return this.violations.get(scope, id);
  }

  @Post('policy-violations/:customerPolicyViolation/dispute-messages')
  @Access('CO')
  @ApiIdParam('customerPolicyViolation')
  @Endpoint({
    summary: "Post a message on a violation's dispute; with `resolution` it closes the violation",
    description:
      `${STATES} While open or disputed (409 \`INVALID_TRANSITION\` once resolved). \`upheld\`: points and fee stay. \`waived\` (disputed violations only): its points leave the customer's standing and ` +
      "the fee with its taxes is credited on the order's bill (negative `Waived:` lines), so the balance goes down; what was paid beyond the new total goes to the customer's wallet. Answers the dispute.",
    type: DisputeDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  postMessage(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string, @Body() dto: CompanyDisputeMessageDto) {
    return this.disputes.postCompany(scope, id, dto);
  }

  @Get('policy-violation-disputes/:customerPolicyViolation')
  @Access('CO')
  @ApiIdParam('customerPolicyViolation')
  @Endpoint({ summary: "A violation's dispute: the violation and its messages, oldest first", description: STATES, type: DisputeDto, errors: [404] })
  dispute(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string) {
    return this.disputes.dispute(scope, id);
  }

  @Get('policy-violation-disputes/messages/:policyViolationDisputeMessage')
  @Access('CO')
  @ApiIdParam('policyViolationDisputeMessage')
  @Endpoint({ summary: 'One dispute message', type: DisputeMessageDto, errors: [404] })
  message(@CurrentScope() scope: Scope, @IdParam('policyViolationDisputeMessage') id: string) {
    return this.disputes.message(scope, id);
  }
}

@ApiTags('Demerit points (customer)')
@Controller('api/v1/customer')
export class CustomerAccountabilityController {
  constructor(
    private readonly demerit: DemeritService,
    private readonly violations: ViolationsService,
    private readonly disputes: DisputesService,
  ) {}

  @Get('demerit-points')
  @Access('CU')
  @Endpoint({ summary: 'My demerit points against the company\'s thresholds', description: POINTS_RULE, type: DemeritPointsDto })
  points(@CurrentScope() scope: Scope) {
    return this.demerit.points(scope, scope.actorId!);
  }

  @Get('demerit/details')
  @Access('CU')
  @Endpoint({ summary: 'My demerit standing: points, thresholds, violations by state', description: POINTS_RULE, type: DemeritStandingDto })
  details(@CurrentScope() scope: Scope) {
    return this.demerit.standing(scope, scope.actorId!);
  }

  @Get('demerit/orders')
  @Access('CU')
  @Endpoint({ summary: 'My orders with violations, latest violation first (sorts last_violation_at, points)', type: DemeritOrderDto, list: true, errors: [422] })
  orders(@CurrentScope() scope: Scope, @Query() q: DemeritOrdersQuery) {
    return this.demerit.customerOrders(scope, scope.actorId!, q);
  }

  @Get('demerit/:order/orders')
  @Access('CU')
  @ApiIdParam('order', 'One of my orders.')
  @Endpoint({ summary: 'The violations recorded on one of my orders, oldest first', description: STATES, type: PolicyViolationDto, array: true, errors: [404] })
  orderViolations(@CurrentScope() scope: Scope, @IdParam('order') id: string) {
    return this.violations.forOrder(scope, id);
  }

  @Get('policy-violations/:customerPolicyViolation')
  @Access('CU')
  @ApiIdParam('customerPolicyViolation', 'A violation recorded on one of my orders.')
  @Endpoint({ summary: 'One of my violations', description: STATES, type: PolicyViolationDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string) {
    return this.violations.get(scope, id);
  }

  @Post('policy-violations/:customerPolicyViolation/dispute-messages')
  @Access('CU')
  @ApiIdParam('customerPolicyViolation', 'A violation recorded on one of my orders.')
  @Endpoint({
    summary: 'Dispute a violation, or write in its dispute',
    description: `${STATES} The first message of an open violation opens the dispute; once resolved, 409 \`INVALID_TRANSITION\`. Answers the dispute.`,
    type: DisputeDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['INVALID_TRANSITION'] },
  })
  postMessage(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string, @Body() dto: CustomerDisputeMessageDto) {
    return this.disputes.postCustomer(scope, id, dto);
  }

  @Get('policy-violation-disputes/:customerPolicyViolation')
  @Access('CU')
  @ApiIdParam('customerPolicyViolation', 'A violation recorded on one of my orders.')
  @Endpoint({ summary: "One of my violations' dispute: the violation and its messages, oldest first", description: STATES, type: DisputeDto, errors: [404] })
  dispute(@CurrentScope() scope: Scope, @IdParam('customerPolicyViolation') id: string) {
    return this.disputes.dispute(scope, id);
  }

  @Get('policy-violation-disputes/messages/:policyViolationDisputeMessage')
  @Access('CU')
  @ApiIdParam('policyViolationDisputeMessage', 'A message of one of my disputes.')
  @Endpoint({ summary: 'One message of my disputes', type: DisputeMessageDto, errors: [404] })
  message(@CurrentScope() scope: Scope, @IdParam('policyViolationDisputeMessage') id: string) {
    return this.disputes.message(scope, id);
  }

  @Patch('policy-violation-disputes/messages/:policyViolationDisputeMessage')
  @Access('CU')
  @ApiIdParam('policyViolationDisputeMessage', 'One of my dispute messages.')
  @Endpoint({
    summary: 'Change one of my dispute messages (the fields given)',
    description: 'My own messages only (403 `NOT_AUTHOR` for the company\'s), while the dispute is open (409 `INVALID_TRANSITION` otherwise). `edited_at` records the change.',
    type: DisputeMessageDto,
    errors: [403, 404, 409, 422],
    codes: { 403: ['NOT_AUTHOR'], 409: ['INVALID_TRANSITION'] },
  })
  edit(@CurrentScope() scope: Scope, @IdParam('policyViolationDisputeMessage') id: string, @Body() dto: UpdateDisputeMessageDto) {
    return this.disputes.editCustomer(scope, id, dto);
  }

  @Delete('policy-violation-disputes/messages/:policyViolationDisputeMessage')
  @Access('CU')
  @ApiIdParam('policyViolationDisputeMessage', 'One of my dispute messages.')
  @Endpoint({
    summary: 'Delete one of my dispute messages',
    description: 'My own messages only (403 `NOT_AUTHOR`), while the dispute is open (409 `INVALID_TRANSITION`). The dispute stays open.',
    errors: [403, 404, 409],
    codes: { 403: ['NOT_AUTHOR'], 409: ['INVALID_TRANSITION'] },
  })
  async remove(@CurrentScope() scope: Scope, @IdParam('policyViolationDisputeMessage') id: string) {
    await this.disputes.deleteCustomer(scope, id);
  }
}
