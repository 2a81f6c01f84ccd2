import { recordEvents } from '../../src/common/outbox/outbox';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { inDays, orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/** Refunds of cancelled paid orders (wallet or card, the fee kept) and credits of overpaid final bills. */
describe('Payments ledger: refunds', () => {
  let t: TestApp;
  let w: OrderWorld;
  let visa: string;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Refund Hauling' });
    visa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: w.customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data.id;
  });
  afterAll(async () => t?.close());

  const cu = (method: 'get' | 'post', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.customer.token, body });
  const relay = async () => {
    for (let i = 0; i < 5; i++) await t.app.get(OutboxRelay).runOnce();
  };
  const rows = (orderId: string): Promise<Row[]> => t.ds.query(`SELECT kind, status, amount, method, related_transaction_id, description FROM payment_transactions WHERE order_id = $1 ORDER BY created_at, id`, [orderId]);

  it('a late cancellation keeps the fee and refunds the rest to the card when the customer chose so, once', async () => {
    await cu('post', 'customer/psp/identity', { refund_to: 'instrument' }).expect(201);
    const o = await placeOrder(t, w, { delivery_date: inDays(1) });
    const paid = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(201)).body.data.transaction;
    const cancelled = (await cu('post', `customer/order/${o.id}/cancel`, {}).expect(200)).body.data;
    expect(cancelled.total_amount).toBeGreaterThan(0); // the fee with its tax
    await relay();
    await relay();
    const ledger = await rows(o.id);
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'charge', status: 'succeeded', amount: o.total_amount }),
      expect.objectContaining({ kind: 'refund', status: 'succeeded', amount: o.total_amount - cancelled.total_amount, method: 'instrument', related_transaction_id: paid.id }),
    ]);
    // The ledger's words name the order as people know it.
    expect(ledger[1].description).toBe(`Refund of ${o.number} (cancelled) to the card`);
    expect(o.number).toMatch(/^ORD-\d{6}$/);
    const [order] = await t.ds.query(`SELECT paid_amount, payment_status FROM orders WHERE id = $1`, [o.id]);
    expect(order).toEqual({ paid_amount: cancelled.total_amount, payment_status: 'refunded' });
    await cu('post', 'customer/psp/identity', { refund_to: 'wallet' }).expect(201);
  });

  it('an unpaid cancelled order refunds nothing; a final bill below what was paid credits the wallet', async () => {
    const unpaid = await placeOrder(t, w, { delivery_date: inDays(6) });
    await cu('post', `customer/order/${unpaid.id}/cancel`, {}).expect(200);
    await relay();
    expect(await rows(unpaid.id)).toEqual([]);

    const o = await placeOrder(t, w);
    await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(201);
    // The final bill came out 1000 lower (as the pricing engine's final bill would write it), and the order completed.
    await t.ds.transaction(async (m) => {
      await m.query(`UPDATE orders SET total_amount = total_amount - 1000, status = 'completed' WHERE id = $1`, [o.id]);
      await recordEvents(m, { type: 'order.completed', aggregateType: 'order', aggregateId: o.id, companyId: w.company.companyId, actorId: null, payload: { number: 1, customer_id: w.customer.id, from: 'delivered', to: 'completed', reason: null } });
    });
    await relay();
    expect((await rows(o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', o.total_amount], ['wallet_credit', 1000]]);
    expect((await rows(o.id))[1].description).toBe(`Overpayment of ${o.number} on its final bill, credited to the wallet`);
    const [order] = await t.ds.query(`SELECT paid_amount, payment_status FROM orders WHERE id = $1`, [o.id]);
    expect(order).toEqual({ paid_amount: o.total_amount - 1000, payment_status: 'paid' });
    expect((await cu('get', 'wallet').expect(200)).body.data.balance_amount).toBe(1000);
  });

  it('a cancelled paid order refunded to the wallet, and a payment from the wallet, say so with the order number', async () => {
    const o = await placeOrder(t, w, { delivery_date: inDays(8) });
    await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(201);
    await cu('post', `customer/order/${o.id}/cancel`, {}).expect(200);
    await relay();
    const credit = (await rows(o.id)).find((r) => r.kind === 'wallet_credit');
    expect(credit?.description).toBe(`Refund of ${o.number} (cancelled) to the wallet`);
    const next = await placeOrder(t, w, { delivery_date: inDays(9) });
    const part = Math.min(credit!.amount, next.total_amount);
    await cu('post', `customer/orders/${next.id}/pay`, { use_wallet: true, amount: part }).expect(201);
    expect((await rows(next.id)).map((r) => [r.kind, r.description])).toEqual([['wallet_debit', `Payment of ${next.number} from the wallet`]]);
  });
});
