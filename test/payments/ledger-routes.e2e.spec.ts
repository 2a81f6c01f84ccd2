import { memberActor, MemberActor } from '../support/actors';
import { ABSENT_ID } from '../support/fixtures';
import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/** Every ledger route: the happy path, the access rule (wrong actor 403), another tenant's id 404, bad input 422. */
describe('Payments ledger: routes', () => {
  let t: TestApp;
  let w: OrderWorld;
  let rival: OrderWorld;
  let visa: Row;
  let order: Row;
  let charge: Row;
  let offline: Row;
  let rivalTx: Row;
  let neighbour: MemberActor;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Ledger Co' });
    rival = await orderWorld(t, { name: 'Rival Ledger Co' });
    visa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: w.customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
    order = await placeOrder(t, w);
    charge = (await t.req('post', `/api/v1/customer/orders/${order.id}/pay`, { token: w.customer.token, body: { instrument_id: visa.id, amount: 1000 } }).expect(201)).body.data.transaction;
    offline = (await t.req('post', '/api/v1/customers/orders/payment-received', { token: w.company.token, body: { order_id: order.id, method: 'cash', reference: 'R-1', amount: 500 } }).expect(201)).body.data.transaction;
    const rivalVisa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: rival.customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
    const rivalOrder = await placeOrder(t, rival);
    rivalTx = (await t.req('post', `/api/v1/customer/orders/${rivalOrder.id}/pay`, { token: rival.customer.token, body: { instrument_id: rivalVisa.id, amount: 700 } }).expect(201)).body.data.transaction;
    neighbour = await memberActor(t, w.company, 'customer');
  });
  afterAll(async () => t?.close());

  const req = (method: 'get' | 'post', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const ids = (res: { body: { data: Row[] } }) => res.body.data.map((x) => x.id);

  describe('customer: identity and instruments', () => {
    it('registers the identity once and changes the refund target', async () => {
      const a = await req('post', 'customer/psp/identity', w.customer.token, {}).expect(201);
      const b = await req('post', 'customer/psp/identity', w.customer.token, { refund_to: 'instrument' }).expect(201);
      expect(b.body.data).toMatchObject({ id: a.body.data.id, refund_to: 'instrument' });
      await req('post', 'customer/psp/identity', w.customer.token, { refund_to: 'wallet' }).expect(201);
      await req('post', 'customer/psp/identity', w.company.token, {}).expect(403);
      await req('post', 'customer/psp/identity', w.customer.token, { refund_to: 'bank' }).expect(422);
      await req('post', 'customer/psp/identity', w.customer.token, { extra: 1 }).expect(422);
    });

    it('attaches masked cards; an unknown token is 422; never the number', async () => {
      const card = await req('post', 'customer/psp/payment-instrument', w.customer.token, { token: 'tok_3ds' }).expect(201);
      expect(card.body.data).toMatchObject({ brand: 'visa', last4: '3184', provider: 'sandbox' });
      const bad = await req('post', 'customer/psp/payment-instrument', w.customer.token, { token: '4242424242424242' }).expect(422);
      expect(bad.body.code).toBe('INVALID_PAYMENT_TOKEN');
      await req('post', 'customer/psp/payment-instrument', w.customer.token, {}).expect(422);
      await req('post', 'customer/psp/payment-instrument', w.driver.token, { token: 'tok_visa' }).expect(403);
      // TOK: any user of a company, each sees only their own.
      const mine = await req('post', 'psp/buyer/payment-instrument', w.company.token, { token: 'tok_visa' }).expect(201);
      const list = await req('get', 'psp/user/payment-instrument', w.company.token).expect(200);
      expect(ids(list)).toEqual([mine.body.data.id]);
      const customerList = await req('get', 'psp/user/payment-instrument', w.customer.token).expect(200);
      expect(ids(customerList)).toContain(visa.id);
      expect(ids(customerList)).not.toContain(mine.body.data.id);
      expect(ids(await req('get', 'psp/user/payment-instrument', neighbour.token).expect(200))).toEqual([]);
      await req('post', 'psp/buyer/payment-instrument', w.company.token, { token: 'nope' }).expect(422);
      await req('get', 'psp/user/payment-instrument?per_page=0', w.company.token).expect(422);
    });
  });

  describe('customer: paying', () => {
    it('pay: 409 above the balance, 422 without a method or with a stranger\'s card, 404 for another tenant\'s order, 403 for a company user', async () => {
      const o = await placeOrder(t, w);
      expect((await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: visa.id, amount: o.total_amount + 1 }).expect(409)).body.code).toBe('AMOUNT_EXCEEDS_BALANCE');
      await req('post', `customer/orders/${o.id}/pay`, w.customer.token, {}).expect(422);
      await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: visa.id, use_wallet: true }).expect(422);
      await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: visa.id, amount: 0 }).expect(422);
      await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: ABSENT_ID }).expect(422);
      await req('post', `customer/orders/${o.id}/pay`, neighbour.token, { instrument_id: visa.id }).expect(404);
      await req('post', `customer/orders/${o.id}/pay`, rival.customer.token, { instrument_id: visa.id }).expect(404);
      await req('post', `customer/orders/${o.id}/pay`, w.company.token, { instrument_id: visa.id }).expect(403);
      expect((await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { use_wallet: true }).expect(409)).body.code).toBe('INSUFFICIENT_WALLET_BALANCE');
      const threeDs = (await req('post', 'customer/psp/payment-instrument', w.customer.token, { token: 'tok_3ds' }).expect(201)).body.data;
      const refused = await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: threeDs.id }).expect(201);
      expect(refused.body.data.transaction).toMatchObject({ status: 'failed', failure_code: 'authentication_required' });
      const poor = (await req('post', 'customer/psp/payment-instrument', w.customer.token, { token: 'tok_insufficient_funds' }).expect(201)).body.data;
      expect((await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: poor.id }).expect(201)).body.data.transaction.failure_code).toBe('insufficient_funds');
      const ok = await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: visa.id }).expect(201);
      expect(ok.body.data.order).toMatchObject({ payment_status: 'paid', balance_amount: 0 });
      expect((await req('post', `customer/orders/${o.id}/pay`, w.customer.token, { instrument_id: visa.id }).expect(409)).body.code).toBe('NOTHING_DUE');
    });

    it('pay-all-dues: a declined card pays nothing; 409 when nothing is due; 403 for a driver', async () => {
      const other = await memberActor(t, w.company, 'customer');
      expect((await req('post', 'customer/payments/pay-all-dues', other.token, { use_wallet: true }).expect(409)).body.code).toBe('NOTHING_DUE');
      const declined = (await req('post', 'customer/psp/payment-instrument', w.customer.token, { token: 'tok_declined' }).expect(201)).body.data;
      const before = (await req('get', 'customer/total/pending-dues', w.customer.token).expect(200)).body.data;
      const res = await req('post', 'customer/payments/pay-all-dues', w.customer.token, { instrument_id: declined.id }).expect(201);
      expect(res.body.data).toMatchObject({ status: 'failed', failure_code: 'card_declined', amount: before.total_due_amount });
      // One failed row per order of the batch (reserved pending before the provider was called, issue #22).
      expect(res.body.data.transactions).toHaveLength(before.orders_count);
      expect(res.body.data.transactions.every((x: Row) => x.status === 'failed' && x.failure_code === 'card_declined')).toBe(true);
      expect((await req('get', 'customer/total/pending-dues', w.customer.token).expect(200)).body.data).toEqual(before);
      await req('post', 'customer/payments/pay-all-dues', w.customer.token, {}).expect(422);
      await req('post', 'customer/payments/pay-all-dues', w.customer.token, { instrument_id: rivalTx.instrument_id }).expect(422);
      await req('post', 'customer/payments/pay-all-dues', w.driver.token, { use_wallet: true }).expect(403);
    });
  });

  describe('customer: dues and transactions', () => {
    it('lists my dues and totals; another customer sees none of mine', async () => {
      const dues = await req('get', 'customer/orders/pending-dues?sort=due_date', w.customer.token).expect(200);
      expect(ids(dues)).toContain(order.id);
      const mine = dues.body.data.find((d: Row) => d.id === order.id);
      expect(mine).toMatchObject({ paid_amount: 1500, balance_amount: order.total_amount - 1500, days_past_due: 0, payment_status: 'partially_paid' });
      expect(ids(await req('get', 'customer/orders/pending-dues', neighbour.token).expect(200))).toEqual([]);
      const total = await req('get', 'customer/total/pending-dues', neighbour.token).expect(200);
      expect(total.body.data).toMatchObject({ orders_count: 0, total_due_amount: 0 });
      await req('get', 'customer/orders/pending-dues?overdue=maybe', w.customer.token).expect(422);
      await req('get', 'customer/orders/pending-dues?sort=nope', w.customer.token).expect(422);
      await req('get', 'customer/orders/pending-dues', w.company.token).expect(403);
      await req('get', 'customer/total/pending-dues', w.driver.token).expect(403);
    });

    it('lists and reads my transactions; another customer\'s and tenant\'s are 404', async () => {
      const list = await req('get', `customer/transactions?order_id=${order.id}&status=succeeded&sort=amount`, w.customer.token).expect(200);
      expect(ids(list)).toEqual([offline.id, charge.id]);
      await req('get', `customer/transactions/${charge.id}`, w.customer.token).expect(200);
      await req('get', `customer/transactions/${charge.id}`, neighbour.token).expect(404);
      await req('get', `customer/transactions/${rivalTx.id}`, w.customer.token).expect(404);
      await req('get', 'customer/transactions/not-a-uuid', w.customer.token).expect(404);
      await req('get', 'customer/transactions?kind=gift', w.customer.token).expect(422);
      await req('get', 'customer/transactions', w.company.token).expect(403);
      await req('get', `customer/transactions/${charge.id}`, w.company.token).expect(403);
    });
  });

  describe('company', () => {
    it('payment-received: 422 for another tenant\'s order or a bad method, 409 above the balance, 403 for a customer', async () => {
      await req('post', 'customers/orders/payment-received', w.company.token, { order_id: rivalTx.order_id, method: 'cash', reference: 'X' }).expect(422);
      await req('post', 'customers/orders/payment-received', w.company.token, { order_id: order.id, method: 'gold', reference: 'X' }).expect(422);
      await req('post', 'customers/orders/payment-received', w.company.token, { order_id: order.id, method: 'cash' }).expect(422);
      expect((await req('post', 'customers/orders/payment-received', w.company.token, { order_id: order.id, method: 'cash', reference: 'X', amount: order.total_amount }).expect(409)).body.code).toBe('AMOUNT_EXCEEDS_BALANCE');
      await req('post', 'customers/orders/payment-received', w.customer.token, { order_id: order.id, method: 'cash', reference: 'X' }).expect(403);
    });

    it('dues lists and totals with ageing buckets', async () => {
      const all = await req('get', 'customers/pending-dues/orders/get', w.company.token).expect(200);
      expect(ids(all)).toContain(order.id);
      expect(ids(await req('get', `customers/pending-dues/orders/get?customer_id=${neighbour.id}`, w.company.token).expect(200))).toEqual([]);
      expect(ids(await req('get', 'customers/pending-dues/orders/get?overdue=true', w.company.token).expect(200))).toEqual([]);
      const one = await req('get', `customers/${w.customer.id}/pending-dues/orders`, w.company.token).expect(200);
      expect(ids(one)).toContain(order.id);
      await req('get', `customers/${rival.customer.id}/pending-dues/orders`, w.company.token).expect(404);
      await req('get', `customers/${ABSENT_ID}/pending-dues/orders`, w.company.token).expect(404);
      const totals = await req('get', 'total-pending-dues', w.company.token).expect(200);
      expect(totals.body.data).toMatchObject({ overdue_count: 0, overdue_amount: 0, aged_0_30_amount: 0, aged_31_60_amount: 0, aged_61_90_amount: 0, aged_90_plus_amount: 0 });
      expect(totals.body.data.total_due_amount).toBe(totals.body.data.not_yet_due_amount);
      // Age one order: 45 days past due lands in 31–60.
      const aged = await placeOrder(t, w);
      await t.ds.query(`UPDATE orders SET due_date = current_date - 45 WHERE id = $1`, [aged.id]);
      const after = (await req('get', 'total-pending-dues', w.company.token).expect(200)).body.data;
      expect(after).toMatchObject({ overdue_count: 1, overdue_amount: aged.total_amount, aged_31_60_amount: aged.total_amount });
      const overdue = await req('get', 'customers/pending-dues/orders/get?overdue=true', w.company.token).expect(200);
      expect(overdue.body.data.map((d: Row) => [d.id, d.days_past_due])).toEqual([[aged.id, 45]]);
      await req('get', 'customers/pending-dues/orders/get?customer_id=x', w.company.token).expect(422);
      await req('get', 'total-pending-dues', w.customer.token).expect(403);
      await req('get', `customers/${w.customer.id}/pending-dues/orders`, w.driver.token).expect(403);
    });

    it('transactions, order transactions and payments, with their filters; another tenant\'s ids 404', async () => {
      expect(ids(await req('get', `transactions?order_id=${order.id}&status=succeeded&sort=created_at`, w.company.token).expect(200))).toEqual([charge.id, offline.id]);
      expect(ids(await req('get', 'transactions?method=cash', w.company.token).expect(200))).toEqual([offline.id]);
      // An offline payment's row names its order, method and reference.
      expect(offline.description).toBe(`Cash payment of ${order.number}, reference R-1`);
      expect(ids(await req('get', `transactions?customer_id=${neighbour.id}`, w.company.token).expect(200))).toEqual([]);
      expect(ids(await req('get', 'transactions', w.company.token).expect(200))).not.toContain(rivalTx.id);
      expect(ids(await req('get', `order/transactions/get?order_id=${order.id}&status=succeeded`, w.company.token).expect(200))).toEqual([offline.id, charge.id]);
      expect(ids(await req('get', 'payments?status=failed', w.company.token).expect(200)).length).toBeGreaterThan(0);
      for (const path of ['transactions', 'order/transactions', 'payments']) {
        await req('get', `${path}/${charge.id}`, w.company.token).expect(200);
        await req('get', `${path}/${rivalTx.id}`, w.company.token).expect(404);
        await req('get', `${path}/${charge.id}`, w.customer.token).expect(403);
      }
      for (const path of ['transactions', 'order/transactions/get', 'payments']) {
        await req('get', `${path}?status=lost`, w.company.token).expect(422);
        await req('get', path, w.driver.token).expect(403);
      }
    });
  });

  describe('wallet (TOK)', () => {
    it('a customer\'s own wallet; a company user\'s summary; a driver\'s none; rows by reach', async () => {
      const none = await req('get', 'wallet', neighbour.token).expect(200);
      expect(none.body.data).toEqual({ id: null, customer_id: neighbour.id, balance_amount: 0, currency: null, wallets_count: 0 });
      const [{ id: walletId }] = await t.ds.query(`INSERT INTO wallets (company_id, customer_id, currency, balance) VALUES ($1, $2, 'USD', 300) RETURNING id`, [w.company.companyId, neighbour.id]);
      const [{ id: credit }] = await t.ds.query(`INSERT INTO payment_transactions (company_id, customer_id, wallet_id, kind, status, method, amount, currency) VALUES ($1, $2, $3, 'wallet_credit', 'succeeded', 'wallet', 300, 'USD') RETURNING id`, [w.company.companyId, neighbour.id, walletId]);
      expect((await req('get', 'wallet', neighbour.token).expect(200)).body.data).toMatchObject({ id: walletId, balance_amount: 300, currency: 'USD', wallets_count: 1 });
      expect((await req('get', 'wallet', w.company.token).expect(200)).body.data).toMatchObject({ id: null, balance_amount: 300, wallets_count: 1 });
      expect((await req('get', 'wallet', w.driver.token).expect(200)).body.data).toMatchObject({ balance_amount: 0, wallets_count: 0 });
      expect(ids(await req('get', 'wallet/transactions', neighbour.token).expect(200))).toEqual([credit]);
      expect(ids(await req('get', 'wallet/transactions', w.company.token).expect(200))).toContain(credit);
      expect(ids(await req('get', 'wallet/transactions', w.driver.token).expect(200))).toEqual([]);
      expect(ids(await req('get', 'wallet/transactions', rival.company.token).expect(200))).not.toContain(credit);
      await req('get', `wallet/transactions/${credit}`, neighbour.token).expect(200);
      await req('get', `wallet/transactions/${credit}`, w.customer.token).expect(404);
      await req('get', `wallet/transactions/${credit}`, rival.customer.token).expect(404);
      await req('get', `wallet/transactions/${credit}`, w.driver.token).expect(404);
      await req('get', `wallet/transactions/${charge.id}`, w.customer.token).expect(404);
      await req('get', 'wallet/transactions?per_page=1000', neighbour.token).expect(422);
      await t.req('get', '/api/v1/wallet').expect(401);
    });
  });
});
