import { randomUUID } from 'node:crypto';
import { inDays, orderBody, orderWorld, placeOrder, type OrderWorld } from '../support/order-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The request path's statement budget (#10): how many SQL statements a request runs, counted at
 * TypeORM's query runner (every statement, BEGIN and COMMIT included, goes through
 * `logger.logQuery`), the same count `npm run bench` reports. A new statement on these routes
 * fails here before it shows in a benchmark.
 */
describe('statements per request', () => {
  let t: TestApp;
  let w: OrderWorld;
  let statements: string[] | null = null;

  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Budget Co' });
    const logger = t.ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      statements?.push(query);
      return logQuery(query, parameters, runner);
    };
  });
  afterAll(() => t.close());

  async function count(send: () => PromiseLike<{ status: number }>, status: number): Promise<string[]> {
    statements = [];
    const res = await send();
    const seen = statements;
    statements = null;
    expect(res.status).toBe(status);
    return seen;
  }

  /** Fails listing the statements when there are more than `max`. */
  function within(seen: string[], max: number, what = expect.getState().currentTestName ?? '') {
    if (seen.length > max) throw new Error(`${what}: ${seen.length} statements (budget ${max}):\n${seen.map((q) => '  ' + q.replace(/\s+/g, ' ').slice(0, 160)).join('\n')}`);
    expect(seen.length).toBeGreaterThan(0);
  }

  it('GET /auth/me: the caller, then the profile (≤ 2)', async () => {
    const seen = await count(() => t.req('get', '/api/v1/auth/me', { token: w.company.token }), 200);
    within(seen, 2);
  });

  it('GET /order/{order}: the caller, then the order with its names, lines and time zone (≤ 2)', async () => {
    const order = await placeOrder(t, w);
    const seen = await count(() => t.req('get', `/api/v1/order/${order.id}`, { token: w.company.token }), 200);
    within(seen, 2);
    const customer = await count(() => t.req('get', `/api/v1/customer/order/${order.id}`, { token: w.customer.token }), 200);
    within(customer, 2);
  });

  it('GET /orders: the caller, the count and the page with its names (≤ 3), filtered or not', async () => {
    for (let i = 0; i < 3; i++) await placeOrder(t, w, { delivery_date: inDays(3 + i) });
    for (const query of ['', '?status=pending', `?customer_id=${w.customer.id}&sort=-total_amount`, '?q=Site&from=' + inDays(1)]) {
      const seen = await count(() => t.req('get', `/api/v1/orders${query}`, { token: w.company.token }), 200);
      within(seen, 3, `GET /orders${query}`);
    }
    const mine = await count(() => t.req('get', '/api/v1/customer/orders', { token: w.customer.token }), 200);
    within(mine, 3);
  });

  // An Idempotency-Key adds five: the key's advisory lock, its lookup, the savepoint around the work
  // (a failed placement rolls back alone, its 4xx answer is stored), and the stored answer.
  // Issues #13/#14 added four: the customer's demerit flag (accountability), and the plan's monthly orders
  // limit: the per-company advisory lock, the plan in force (one statement: plans, the live subscription
  // and the administrator's plan override) and the month's count.
  it('POST /customer/orders: placement in ≤ 16 statements (≤ 21 with an Idempotency-Key)', async () => {
    const plain = await count(() => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w) }), 201);
    within(plain, 16);
    const keyed = await count(() => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w), headers: { 'idempotency-key': randomUUID() } }), 201);
    within(keyed, 21);
  });

  it('PATCH /approve/order/{orderId}: approval with its jobs in ≤ 10 statements', async () => {
    const order = await placeOrder(t, w, { pickup_date: inDays(10) });
    const seen = await count(() => t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }), 200);
    within(seen, 10);
  });
});
