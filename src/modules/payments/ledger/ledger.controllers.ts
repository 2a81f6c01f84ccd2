import { Body, Controller, Get, Headers, HttpStatus, Post, Query, Res } from '@nestjs/common';
import { ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Access } from '../../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../../common/access/actor';
import { CurrentScope, Scope } from '../../../common/access/scope';
import { ApiIdParam, IdParam } from '../../../common/http/id-param';
import { BodyExamples, Endpoint } from '../../../common/http/openapi';
import { PageQuery } from '../../../common/http/pagination';
import { Idempotent } from '../../../common/idempotency/idempotent';
import {
  BuyerDto,
  CustomerDuesQuery,
  CustomerTransactionQuery,
  DuesListQuery,
  DuesTotalsDto,
  IdentityDto,
  InstrumentDto,
  InstrumentTokenDto,
  OrderDueDto,
  PayAllDuesDto,
  PayAllDuesResultDto,
  PaymentReceivedDto,
  PaymentResultDto,
  PayOrderDto,
  TransactionDto,
  TransactionQuery,
  WalletDto,
  PAY_ALL_EXAMPLES,
  PAY_EXAMPLES,
} from './ledger.dto';
import { LedgerService, PAYMENT_KINDS, type Answered } from './ledger.service';

/** The response object a handler may set the status of (`@Res({ passthrough: true })`). */
interface StatusResponse {
  status(code: number): unknown;
}

/** 202: the provider did not answer (timeout, unreachable, answer lost); the charge is `pending` and holds the balance until its webhook or the reconciler settles it. */
function AcceptedPending(type: new () => unknown) {
  return ApiResponse({
    status: HttpStatus.ACCEPTED,
    description: 'The payment provider did not answer in time: the charge is `pending` (it may or may not have been made); it holds the balance, paying again is 409 `PAYMENT_PENDING` until the provider\'s webhook or the reconciler settles it (within minutes). Look at the transaction later.',
    schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true], example: true }, data: { $ref: getSchemaPath(type) } } } as never,
  });
}

const answer = <T>(res: StatusResponse, a: Answered<T>): T => {
  res.status(a.status);
  return a.body;
};

/** The provider could not be reached (the Stripe adapter; nothing recorded, retry). */
const PROVIDER_CODES = { 502: ['PAYMENT_PROVIDER_UNAVAILABLE'] };
const TOKEN_CODES = { 422: ['VALIDATION_FAILED', 'INVALID_PAYMENT_TOKEN'], ...PROVIDER_CODES };
const PAY_CODES = { 409: ['NOTHING_DUE', 'AMOUNT_EXCEEDS_BALANCE', 'INSUFFICIENT_WALLET_BALANCE', 'MERCHANT_NOT_READY', 'PAYMENT_PENDING'], 422: ['VALIDATION_FAILED', 'AMOUNT_TOO_LARGE'], ...PROVIDER_CODES };
const NO_COMPANY = { 403: ['NO_COMPANY'] };

@ApiTags('Payments (customer)')
@Controller('api/v1')
export class CustomerPaymentsController {
  constructor(private readonly ledger: LedgerService) {}

  @Post('customer/psp/identity')
  @Access('CU')
  @Endpoint({ summary: 'Register (or update) my buyer identity with the payment provider', description: 'Idempotent: the same identity again; `refund_to` changes where refunds of cancelled paid orders go.', type: BuyerDto, status: 201, errors: [422], codes: PROVIDER_CODES })
  identity(@CurrentActor() actor: Actor, @Body() dto: IdentityDto) {
    return this.ledger.identity(actor, dto);
  }

  @Post('customer/psp/payment-instrument')
  @Access('CU')
  @Endpoint({ summary: 'Attach a card from a provider token (masked answer: brand, last 4, expiry)', description: 'Creates the buyer identity when there is none. An unknown token is 422 `INVALID_PAYMENT_TOKEN`.', type: InstrumentDto, status: 201, errors: [422], codes: TOKEN_CODES })
  instrument(@CurrentActor() actor: Actor, @Body() dto: InstrumentTokenDto) {
    return this.ledger.addInstrument(actor, dto);
  }

  @Post('customer/orders/:order/pay')
  @Access('CU')
  @Idempotent({ stepped: true })
  @AcceptedPending(PaymentResultDto)
  @ApiIdParam('order')
  @Endpoint({
    summary: 'Pay (part of) one of my orders by card or from my wallet',
    description:
      'Give `instrument_id` or `use_wallet: true`. `amount` defaults to the balance and may not exceed it (409 `AMOUNT_EXCEEDS_BALANCE`; nothing due: 409 `NOTHING_DUE`). ' +
      'The order is locked, then charged once (the provider\'s idempotency key derived from this request\'s `Idempotency-Key`, so that retrying a request that failed with the same key cannot charge twice; without one, from the ledger row). A declined card answers 201 with the `failed` row and `failure_code`; the balance is unchanged. ' +
      'Card payments need the company\'s merchant onboarding (409 `MERCHANT_NOT_READY`) unless the sandbox is configured. ' +
      'A charge the provider settles later (Stripe `processing`) answers the `pending` row; its webhook settles it, and until then paying the order again is 409 `PAYMENT_PENDING`. ' +
      'No transaction or lock is held while the provider is called: the order is locked and a `pending` row reserved, the provider called, then the row settled. When the provider does not answer (timeout, unreachable) the answer is **202** with the `pending` row: it holds the balance (409 `PAYMENT_PENDING` for any other payment of it, with or without a key) until the webhook or the reconciler learns the outcome.',
    type: PaymentResultDto,
    status: 201,
    errors: [404, 409, 422],
    codes: PAY_CODES,
  })
  @BodyExamples(PayOrderDto, PAY_EXAMPLES)
  async pay(@CurrentActor() actor: Actor, @IdParam('order') id: string, @Body() dto: PayOrderDto, @Res({ passthrough: true }) res: StatusResponse, @Headers('idempotency-key') key?: string) {
    return answer(res, await this.ledger.pay(actor, id, dto, key));
  }

  @Post('customer/payments/pay-all-dues')
  @Access('CU')
  @Idempotent({ stepped: true })
  @AcceptedPending(PayAllDuesResultDto)
  @Endpoint({
    summary: 'Pay every order with a balance, oldest due first, in one charge (all or nothing)',
    description: 'One provider charge (or one wallet debit) for the sum of the balances; one ledger row per order. A declined card answers 201 with `status: failed` and nothing paid; a charge the provider settles later with `status: pending` (rows pending until its webhook; 409 `PAYMENT_PENDING` meanwhile). The provider not answering: 202 with `status: pending` (as for pay). Nothing due: 409 `NOTHING_DUE`.',
    type: PayAllDuesResultDto,
    status: 201,
    errors: [409, 422],
    codes: PAY_CODES,
  })
  @BodyExamples(PayAllDuesDto, PAY_ALL_EXAMPLES)
  async payAll(@CurrentActor() actor: Actor, @Body() dto: PayAllDuesDto, @Res({ passthrough: true }) res: StatusResponse, @Headers('idempotency-key') key?: string) {
    return answer(res, await this.ledger.payAllDues(actor, dto, key));
  }

  @Get('customer/orders/pending-dues')
  @Access('CU')
  @Endpoint({ summary: 'My orders with a balance (sorts due_date, created_at; filter overdue)', type: OrderDueDto, list: true, errors: [422] })
  dues(@CurrentScope() scope: Scope, @Query() q: CustomerDuesQuery) {
    return this.ledger.dues(scope, q);
  }

  @Get('customer/total/pending-dues')
  @Access('CU')
  @Endpoint({ summary: 'The total of my dues, with the overdue part by days past due', type: DuesTotalsDto })
  total(@CurrentScope() scope: Scope) {
    return this.ledger.duesTotals(scope);
  }

  @Get('customer/transactions')
  @Access('CU')
  @Endpoint({ summary: 'My ledger rows (filters kind, status, order_id; sorts created_at, amount)', type: TransactionDto, list: true, errors: [422] })
  transactions(@CurrentScope() scope: Scope, @Query() q: CustomerTransactionQuery) {
    return this.ledger.transactions(scope, q);
  }

  @Get('customer/transactions/:transaction')
  @Access('CU')
  @ApiIdParam('transaction')
  @Endpoint({ summary: 'One of my ledger rows', type: TransactionDto, errors: [404] })
  transaction(@CurrentScope() scope: Scope, @IdParam('transaction') id: string) {
    return this.ledger.transaction(scope, id);
  }
}

@ApiTags('Payments (company)')
@Controller('api/v1')
export class CompanyPaymentsController {
  constructor(private readonly ledger: LedgerService) {}

  @Post('customers/orders/payment-received')
  @Access('CO')
  @Idempotent()
  @Endpoint({
    summary: 'Record an offline payment (cash, cheque, bank transfer) against an order',
    description: '`amount` defaults to the balance and may not exceed it (409 `AMOUNT_EXCEEDS_BALANCE`; nothing due: 409 `NOTHING_DUE`); nor the part a card charge still pending at the provider holds (409 `PAYMENT_PENDING`). An order the company does not have is 422 on `order_id`.',
    type: PaymentResultDto,
    status: 201,
    errors: [409, 422],
    codes: { 409: ['NOTHING_DUE', 'AMOUNT_EXCEEDS_BALANCE', 'PAYMENT_PENDING'] },
  })
  received(@CurrentActor() actor: Actor, @Body() dto: PaymentReceivedDto) {
    return this.ledger.paymentReceived(actor, dto);
  }

  @Get('customers/pending-dues/orders/get')
  @Access('CO')
  @Endpoint({ summary: 'Orders with a balance (filters customer_id, overdue; sorts due_date, created_at)', type: OrderDueDto, list: true, errors: [422] })
  dues(@CurrentScope() scope: Scope, @Query() q: DuesListQuery) {
    return this.ledger.dues(scope, q);
  }

  @Get('customers/:customerId/pending-dues/orders')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'One customer\'s orders with a balance', type: OrderDueDto, list: true, errors: [404, 422] })
  customerDues(@CurrentScope() scope: Scope, @IdParam('customerId') customerId: string, @Query() q: CustomerDuesQuery) {
    return this.ledger.customerDues(scope, customerId, q);
  }

  @Get('total-pending-dues')
  @Access('CO')
  @Endpoint({ summary: 'Totals of the dues: overdue, and ageing buckets 1–30, 31–60, 61–90, 90+ days past due', type: DuesTotalsDto })
  total(@CurrentScope() scope: Scope) {
    return this.ledger.duesTotals(scope);
  }

  @Get('order/transactions/get')
  @Access('CO')
  @Endpoint({ summary: 'Ledger rows of orders (filters kind, status, method, order_id, customer_id; sorts created_at, amount)', type: TransactionDto, list: true, errors: [422] })
  orderTransactions(@CurrentScope() scope: Scope, @Query() q: TransactionQuery) {
    return this.ledger.transactions(scope, q, { orderOnly: true });
  }

  @Get('order/transactions/:transaction')
  @Access('CO')
  @ApiIdParam('transaction')
  @Endpoint({ summary: 'One ledger row of an order', type: TransactionDto, errors: [404] })
  orderTransaction(@CurrentScope() scope: Scope, @IdParam('transaction') id: string) {
    return this.ledger.transaction(scope, id, { orderOnly: true });
  }

  @Get('payments')
  @Access('CO')
  @Endpoint({ summary: 'Payments received: card charges, offline payments, wallet payments (filters as the transactions)', type: TransactionDto, list: true, errors: [422] })
  payments(@CurrentScope() scope: Scope, @Query() q: TransactionQuery) {
    return this.ledger.transactions(scope, q, { kinds: PAYMENT_KINDS });
  }

  @Get('payments/:transactionId')
  @Access('CO')
  @ApiIdParam('transactionId')
  @Endpoint({ summary: 'One payment received', type: TransactionDto, errors: [404] })
  payment(@CurrentScope() scope: Scope, @IdParam('transactionId') id: string) {
    return this.ledger.transaction(scope, id, { kinds: PAYMENT_KINDS });
  }

  @Get('transactions')
  @Access('CO')
  @Endpoint({ summary: 'The whole ledger of the company (filters kind, status, method, order_id, customer_id; sorts created_at, amount)', type: TransactionDto, list: true, errors: [422] })
  transactions(@CurrentScope() scope: Scope, @Query() q: TransactionQuery) {
    return this.ledger.transactions(scope, q);
  }

  @Get('transactions/:transaction')
  @Access('CO')
  @ApiIdParam('transaction')
  @Endpoint({ summary: 'One ledger row', type: TransactionDto, errors: [404] })
  transaction(@CurrentScope() scope: Scope, @IdParam('transaction') id: string) {
    return this.ledger.transaction(scope, id);
  }
}

@ApiTags('Payments (wallet and instruments)')
@Controller('api/v1')
export class WalletController {
  constructor(private readonly ledger: LedgerService) {}

  @Get('wallet')
  @Access('TOK')
  @Endpoint({ summary: 'My wallet (a customer); a company user: the company\'s wallets summed; a driver: none (0)', type: WalletDto, codes: NO_COMPANY })
  wallet(@CurrentActor() actor: Actor) {
    return this.ledger.wallet(actor);
  }

  @Get('wallet/transactions')
  @Access('TOK')
  @Endpoint({ summary: 'Wallet movements (credits and debits) the caller reaches: a customer\'s own, a company user\'s company, a driver none', type: TransactionDto, list: true, errors: [422], codes: NO_COMPANY })
  walletTransactions(@CurrentActor() actor: Actor, @Query() q: CustomerTransactionQuery) {
    return this.ledger.walletTransactions(actor, q);
  }

  @Get('wallet/transactions/:transactionId')
  @Access('TOK')
  @ApiIdParam('transactionId')
  @Endpoint({ summary: 'One wallet movement the caller reaches', type: TransactionDto, errors: [404], codes: NO_COMPANY })
  walletTransaction(@CurrentActor() actor: Actor, @IdParam('transactionId') id: string) {
    return this.ledger.walletTransaction(actor, id);
  }

  @Post('psp/buyer/payment-instrument')
  @Access('TOK')
  @Endpoint({ summary: 'Attach a card to my buyer identity (any user of a company; masked answer)', description: 'Creates the buyer identity when there is none. An unknown token is 422 `INVALID_PAYMENT_TOKEN`.', type: InstrumentDto, status: 201, errors: [422], codes: { ...TOKEN_CODES, ...NO_COMPANY } })
  addInstrument(@CurrentActor() actor: Actor, @Body() dto: InstrumentTokenDto) {
    return this.ledger.addInstrument(actor, dto);
  }

  @Get('psp/user/payment-instrument')
  @Access('TOK')
  @Endpoint({ summary: 'My payment instruments, masked (brand, last 4, expiry), newest first', type: InstrumentDto, list: true, errors: [422], codes: NO_COMPANY })
  instruments(@CurrentActor() actor: Actor, @Query() q: PageQuery) {
    return this.ledger.instruments(actor, q);
  }
}
