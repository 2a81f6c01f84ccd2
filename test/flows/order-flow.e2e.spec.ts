import { inDays, orderBody, orderWorld, OrderWorld } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * The life of two orders through HTTP only (issue #4's acceptance story): quote, placement, approval
 * with its jobs, an extension requested by the customer and approved by the company with the bill
 * updated, and the late cancellation of a second order with its fee.
 */
describe('Order flow over HTTP', () => {
  let t: TestApp;
  let w: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Flow Hauling' });
  });
  afterAll(async () => t?.close());

  const as = (token: string) => (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });

  it('quote → placement → approval → extension → cancellation of a second order with a fee', async () => {
    const customer = as(w.customer.token);
    const company = as(w.company.token);

    // 1. Quote: rental 40000, 3 planned extra days 4500, delivery 2003, tax 8.25 % 3836 → 50339.
    const body = orderBody(w, { delivery_date: inDays(3), pickup_date: inDays(13), time_window: 'morning', notes: 'Driveway, left side' });
    const quote = (await customer('post', 'customer/order/billing', body).expect(200)).body.data;
    expect(quote.total_amount).toBe(50339);

    // 2. Placement freezes the same lines.
    const order = (await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body, headers: { 'Idempotency-Key': 'flow-order-1' } }).expect(201)).body.data;
    expect(order).toMatchObject({ status: 'pending', total_amount: quote.total_amount, time_window: 'morning' });
    expect(order.lines).toEqual(quote.lines);

    // 3. The company sees it pending and approves it: delivery and pickup jobs, unassigned.
    const pending = (await company('get', 'orders?status=pending').expect(200)).body.data;
    expect(pending.map((o: Row) => o.id)).toContain(order.id);
    await company('patch', `approve/order/${order.id}`).expect(200);
    let full = (await company('get', `order/${order.id}/full`).expect(200)).body.data;
    expect(full.status).toBe('approved');
    expect(full.jobs.map((j: Row) => [j.type, j.status, j.scheduled_date])).toEqual([
      ['delivery', 'unassigned', inDays(3)],
      ['pickup', 'unassigned', inDays(13)],
    ]);

    // 4. The customer asks for 3 more days; the company prices and approves it.
    // 3 × 1500 = 4500, tax 8.25 % = 371.25 → 371: the bill grows by 4871.
    const preview = (await customer('post', `customer/orders/${order.id}/order-change-requests/billing`, { type: 'extend_rental', days: 3 }).expect(200)).body.data;
    expect(preview.total_amount).toBe(4871);
    const request = (await customer('post', `customer/orders/${order.id}/order-change-requests`, { type: 'extend_rental', days: 3, note: 'Remodel running late' }).expect(201)).body.data;
    expect(request).toMatchObject({ type: 'extend_rental', status: 'pending', order_id: order.id });
    await customer('post', `customer/orders/${order.id}/order-change-requests`, { type: 'extend_rental', days: 1 }).expect(409);
    const priced = (await company('get', `order-change-requests/${request.id}/billing`).expect(200)).body.data;
    expect(priced.total_amount).toBe(4871);
    await company('patch', `order-change-requests/${request.id}/approve`).expect(200);

    full = (await company('get', `order/${order.id}/full`).expect(200)).body.data;
    expect(full).toMatchObject({ pickup_date: inDays(16), total_amount: 50339 + 4871, balance_amount: 50339 + 4871 });
    expect(full.jobs.find((j: Row) => j.type === 'pickup').scheduled_date).toBe(inDays(16));
    expect(full.lines.filter((l: Row) => l.kind === 'extra_days').map((l: Row) => l.amount)).toEqual([4500, 4500]);
    const mine = (await customer('get', `customer/order/${order.id}`).expect(200)).body.data;
    expect(mine.total_amount).toBe(55210);

    // 5. A second order for tomorrow, cancelled inside the 48-hour window: fee 5000 + tax 413.
    const second = (await customer('post', 'customer/orders', orderBody(w, { delivery_date: inDays(1) })).expect(201)).body.data;
    expect(Number(second.number.slice(4))).toBe(Number(order.number.slice(4)) + 1);
    const cancelled = (await customer('post', `customer/order/${second.id}/cancel`, { reason: 'Found a cheaper skip' }).expect(200)).body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', total_amount: 5413 });
    expect(cancelled.lines.map((l: Row) => l.kind)).toEqual(['cancellation_fee', 'tax']);
    const history = (await company('get', `order/${second.id}/status-history`).expect(200)).body.data;
    expect(history.map((h: Row) => [h.from_status, h.to_status, h.reason])).toEqual([
      [null, 'pending', null],
      ['pending', 'cancelled', 'Found a cheaper skip'],
    ]);

    // The public PDF of the first order.
    const pdf = await t.req('get', `/api/public/order/${order.id}/download`).expect(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });
});
