import { memberActor } from '../support/actors';
import { inDays, orderWorld, placeOrder, type OrderWorld } from '../support/order-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * `meta.total` of the order lists comes from `order_status_counts` (kept by a trigger) when the list is
 * filtered by nothing but status, ongoing and customer, else from an exact count(*). Either way it must
 * equal the rows there are, through every status move.
 */
describe('order list totals', () => {
  let t: TestApp;
  let w: OrderWorld;

  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Totals Co' });
  });
  afterAll(() => t.close());

  const total = async (path: string, token: string) => {
    const res = await t.req('get', `${path}${path.includes('?') ? '&' : '?'}per_page=1`, { token }).expect(200);
    return res.body.meta.total as number;
  };
  const sql = async (where: string, params: unknown[]) => (await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE ${where}`, params))[0].n as number;

  it('equals the orders there are, per filter, after placements, approvals, rejections and cancellations', async () => {
    const other = await memberActor(t, w.company, 'customer');
    const address = await t.req('post', '/api/v1/customer/addresses', { token: other.token, body: { line1: '2 Site Rd', city: 'Springfield', latitude: 40.1, longitude: -89.0 } }).expect(201);
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await placeOrder(t, w, { delivery_date: inDays(3 + i) }));
    for (let i = 0; i < 3; i++) await placeOrder(t, w, { address_id: address.body.data.id, delivery_date: inDays(4) }, other);
    await t.req('patch', `/api/v1/approve/order/${mine[0].id}`, { token: w.company.token }).expect(200);
    await t.req('patch', `/api/v1/approve/order/${mine[1].id}`, { token: w.company.token }).expect(200);
    await t.req('patch', `/api/v1/reject/order/${mine[2].id}`, { token: w.company.token, body: {} }).expect(200);
    await t.req('post', `/api/v1/customer/order/${mine[1].id}/cancel`, { token: w.customer.token, body: {} }).expect(200);

    const company = w.company.companyId;
    expect(await total('/api/v1/orders', w.company.token)).toBe(await sql('company_id = $1', [company]));
    expect(await total('/api/v1/orders', w.company.token)).toBe(8);
    for (const status of ['pending', 'approved', 'rejected', 'cancelled', 'completed']) {
      expect({ status, n: await total(`/api/v1/orders?status=${status}`, w.company.token) }).toEqual({ status, n: await sql('company_id = $1 AND status = $2', [company, status]) });
    }
    expect(await total(`/api/v1/orders?customer_id=${other.id}`, w.company.token)).toBe(3);
    expect(await total(`/api/v1/orders?customer_id=${w.customer.id}&status=pending`, w.company.token)).toBe(2);
    expect(await total('/api/v1/customer/orders', w.customer.token)).toBe(5);
    expect(await total('/api/v1/customer/orders/ongoing', w.customer.token)).toBe(3); // 2 pending, 1 approved
    expect(await total('/api/v1/customer/orders/ongoing?status=rejected', w.customer.token)).toBe(0);
    // A filter the counters do not cover: an exact count.
    expect(await total(`/api/v1/orders?from=${inDays(4)}`, w.company.token)).toBe(await sql('company_id = $1 AND delivery_date >= $2', [company, inDays(4)]));

    // The counter rows match a fresh count of every (company, customer, status).
    const drift = await t.ds.query(`
      SELECT coalesce(c.company_id, o.company_id) AS company_id, coalesce(c.customer_id, o.customer_id) AS customer_id, coalesce(c.status, o.status) AS status, c.n, o.n AS actual
        FROM order_status_counts c
        FULL JOIN (SELECT company_id, customer_id, status, count(*)::int AS n FROM orders GROUP BY 1, 2, 3) o USING (company_id, customer_id, status)
       WHERE coalesce(c.n, 0) <> coalesce(o.n, 0)`);
    expect(drift).toEqual([]);
  });
});
