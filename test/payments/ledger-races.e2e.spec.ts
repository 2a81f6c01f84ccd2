import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** No double charge, no overpayment, no negative wallet, on PostgreSQL under concurrency (issue #13). */
describe('Payments ledger: races', () => {
  let t: TestApp;
  let w: OrderWorld;
  let visa: string;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Race Hauling' });
    visa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: w.customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data.id;
  });
  afterAll(async () => t?.close());

  const pay = (orderId: string, body: unknown, key: string) => t.req('post', `/api/v1/customer/orders/${orderId}/pay`, { token: w.customer.token, body, headers: { 'Idempotency-Key': key } });
  const succeeded = async (orderId: string) => (await t.ds.query(`SELECT count(*)::int AS n, coalesce(sum(amount), 0)::int AS total FROM payment_transactions WHERE order_id = $1 AND status = 'succeeded'`, [orderId]))[0];

  it('50 concurrent pays of the full balance with different keys: one succeeded charge, 49 × 409', async () => {
    const o = await placeOrder(t, w);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pay(o.id, { instrument_id: visa, amount: o.total_amount }, `race-${o.id}-${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await succeeded(o.id)).toEqual({ n: 1, total: o.total_amount });
    const [row] = await t.ds.query(`SELECT paid_amount, payment_status FROM orders WHERE id = $1`, [o.id]);
    expect(row).toEqual({ paid_amount: o.total_amount, payment_status: 'paid' });
  });

  it('replays the same Idempotency-Key with the first answer and charges once', async () => {
    const o = await placeOrder(t, w);
    const body = { instrument_id: visa, amount: 1000 };
    const first = await pay(o.id, body, `replay-${o.id}`).expect(201);
    const again = await pay(o.id, body, `replay-${o.id}`).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    // Concurrent duplicates: the first answer or 409 in flight, never a second charge.
    const burst = await Promise.all(Array.from({ length: 10 }, () => pay(o.id, { ...body, amount: 2000 }, `burst-${o.id}`)));
    expect(burst.every((b) => b.status === 201 || (b.status === 409 && b.body.code === 'IDEMPOTENCY_KEY_IN_FLIGHT'))).toBe(true);
    expect(await succeeded(o.id)).toEqual({ n: 2, total: 3000 });
  });

  it('pay-all-dues racing single pays never pays an order twice', async () => {
    const orders = [await placeOrder(t, w), await placeOrder(t, w), await placeOrder(t, w)];
    const calls = [
      t.req('post', '/api/v1/customer/payments/pay-all-dues', { token: w.customer.token, body: { instrument_id: visa }, headers: { 'Idempotency-Key': `all-${orders[0].id}` } }),
      ...orders.flatMap((o, i) => [pay(o.id, { instrument_id: visa }, `single-a-${o.id}-${i}`), pay(o.id, { instrument_id: visa }, `single-b-${o.id}-${i}`)]),
    ];
    const answers = await Promise.all(calls);
    expect(answers.every((a) => [201, 409].includes(a.status))).toBe(true);
    for (const o of orders) {
      const s = await succeeded(o.id);
      expect(s.total).toBe(o.total_amount);
      const [row] = await t.ds.query(`SELECT paid_amount, payment_status FROM orders WHERE id = $1`, [o.id]);
      expect(row).toEqual({ paid_amount: o.total_amount, payment_status: 'paid' });
    }
  });

  it('the wallet never goes negative under concurrent wallet payments (and the database refuses it)', async () => {
    const orders = await Promise.all(Array.from({ length: 6 }, () => placeOrder(t, w)));
    // Credit the wallet with enough for two orders and a bit (a ledger row and the balance together, as a refund does).
    const credit = orders[0].total_amount * 2 + 10;
    const [{ id: walletId }] = await t.ds.query(`INSERT INTO wallets (company_id, customer_id, currency, balance) VALUES ($1, $2, 'USD', $3) RETURNING id`, [w.company.companyId, w.customer.id, credit]);
    await t.ds.query(`INSERT INTO payment_transactions (company_id, customer_id, wallet_id, kind, status, method, amount, currency) VALUES ($1, $2, $3, 'wallet_credit', 'succeeded', 'wallet', $4, 'USD')`, [w.company.companyId, w.customer.id, walletId, credit]);
    const answers = await Promise.all(orders.map((o, i) => pay(o.id, { use_wallet: true }, `wallet-${o.id}-${i}`)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'INSUFFICIENT_WALLET_BALANCE')).toBe(true);
    const [wallet] = await t.ds.query(`SELECT balance FROM wallets WHERE id = $1`, [walletId]);
    expect(wallet.balance).toBe(10);
    const [{ sum }] = await t.ds.query(`SELECT sum(CASE WHEN kind = 'wallet_credit' THEN amount ELSE -amount END)::int AS sum FROM payment_transactions WHERE wallet_id = $1 AND status = 'succeeded'`, [walletId]);
    expect(sum).toBe(10);
    await expect(t.ds.query(`UPDATE wallets SET balance = balance - 11 WHERE id = $1`, [walletId])).rejects.toThrow(/wallets_balance_check/);
  });
});
