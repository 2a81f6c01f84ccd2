import { inDays, orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The whole money path through HTTP only (issue #13, "Done when"); the event relay runs in the background. */
describe('Payments: the flow over HTTP', () => {
  let t: TestApp;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp({ env: { OUTBOX_RELAY_ENABLED: 'true', OUTBOX_RELAY_POLL_MS: '50' } });
    w = await orderWorld(t, { name: 'Flow Hauling' });
  });
  afterAll(async () => t?.close());

  const cu = (method: 'get' | 'post', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.customer.token, body });
  const co = (method: 'get' | 'post', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  const order = async (id: string) => (await cu('get', `customer/order/${id}`).expect(200)).body.data;

  it('identity, instrument, half an order, all dues, a declined card, an offline payment, a refund to the wallet that pays the next order', async () => {
    const identity = await cu('post', 'customer/psp/identity', {}).expect(201);
    expect(identity.body.data).toMatchObject({ provider: 'sandbox', refund_to: 'wallet' });
    const visa = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_visa' }).expect(201)).body.data;
    expect(visa).toMatchObject({ brand: 'visa', last4: '4242' });
    const listed = await cu('get', 'psp/user/payment-instrument').expect(200);
    expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([visa.id]);

    // Half of the first order.
    const a = await placeOrder(t, w);
    const half = Math.floor(a.total_amount / 2);
    const paidHalf = await cu('post', `customer/orders/${a.id}/pay`, { instrument_id: visa.id, amount: half }).expect(201);
    expect(paidHalf.body.data.transaction).toMatchObject({ kind: 'charge', status: 'succeeded', amount: half, method: 'instrument', order_id: a.id });
    expect(paidHalf.body.data.order).toMatchObject({ paid_amount: half, balance_amount: a.total_amount - half, payment_status: 'partially_paid' });

    // All dues: the rest of the first and the whole second, one charge.
    const b = await placeOrder(t, w, { delivery_date: inDays(4) });
    const totals = (await cu('get', 'customer/total/pending-dues').expect(200)).body.data;
    expect(totals).toMatchObject({ orders_count: 2, total_due_amount: a.total_amount - half + b.total_amount });
    const all = await cu('post', 'customer/payments/pay-all-dues', { instrument_id: visa.id }).expect(201);
    expect(all.body.data).toMatchObject({ status: 'succeeded', amount: a.total_amount - half + b.total_amount });
    expect(new Set(all.body.data.transactions.map((x: { provider_reference: string }) => x.provider_reference)).size).toBe(1);
    expect((await order(a.id)).payment_status).toBe('paid');
    expect((await order(b.id)).payment_status).toBe('paid');
    expect((await cu('get', 'customer/orders/pending-dues').expect(200)).body.data).toEqual([]);

    // A declined card leaves the balance and records a failed transaction.
    const c = await placeOrder(t, w);
    const declined = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_declined' }).expect(201)).body.data;
    const refused = await cu('post', `customer/orders/${c.id}/pay`, { instrument_id: declined.id }).expect(201);
    expect(refused.body.data.transaction).toMatchObject({ status: 'failed', failure_code: 'card_declined', amount: c.total_amount });
    expect(refused.body.data.order).toMatchObject({ paid_amount: 0, balance_amount: c.total_amount, payment_status: 'unpaid' });
    const failed = await cu('get', `customer/transactions?status=failed`).expect(200);
    expect(failed.body.data.map((x: { id: string }) => x.id)).toEqual([refused.body.data.transaction.id]);

    // The company records a cheque that settles it.
    const cheque = await co('post', 'customers/orders/payment-received', { order_id: c.id, method: 'cheque', reference: 'CHQ-1001' }).expect(201);
    expect(cheque.body.data.transaction).toMatchObject({ kind: 'offline_payment', method: 'cheque', offline_reference: 'CHQ-1001', amount: c.total_amount });
    expect((await order(c.id)).payment_status).toBe('paid');

    // A prepaid order cancelled in the free window is refunded to the wallet, which pays the next order.
    const d = await placeOrder(t, w, { delivery_date: inDays(6) });
    await cu('post', `customer/orders/${d.id}/pay`, { instrument_id: visa.id }).expect(201);
    await cu('post', `customer/order/${d.id}/cancel`, {}).expect(200);
    let wallet = (await cu('get', 'wallet').expect(200)).body.data;
    for (let i = 0; i < 100 && wallet.balance_amount === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      wallet = (await cu('get', 'wallet').expect(200)).body.data;
    }
    expect(wallet).toMatchObject({ balance_amount: d.total_amount, currency: 'USD', wallets_count: 1 });
    expect((await order(d.id)).payment_status).toBe('refunded');
    const credits = (await cu('get', 'wallet/transactions').expect(200)).body.data;
    expect(credits).toEqual([expect.objectContaining({ kind: 'wallet_credit', amount: d.total_amount, order_id: d.id })]);

    const e = await placeOrder(t, w, { delivery_date: inDays(6) });
    expect(e.total_amount).toBeLessThanOrEqual(d.total_amount);
    const fromWallet = await cu('post', `customer/orders/${e.id}/pay`, { use_wallet: true }).expect(201);
    expect(fromWallet.body.data.transaction).toMatchObject({ kind: 'wallet_debit', method: 'wallet', amount: e.total_amount });
    expect((await order(e.id)).payment_status).toBe('paid');
    expect((await cu('get', 'wallet').expect(200)).body.data.balance_amount).toBe(d.total_amount - e.total_amount);
  });
});
