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

  it('GET /auth/me: the caller with the profile (≤ 1)', async () => {
    const seen = await count(() => t.req('get', '/api/v1/auth/me', { token: w.company.token }), 200);
    within(seen, 1);
  });

  it('GET /order/{order}: the caller, then the order with its names, lines and time zone (≤ 2)', async () => {
    const order = await placeOrder(t, w);
    const seen = await count(() => t.req('get', `/api/v1/order/${order.id}`, { token: w.company.token }), 200);
    within(seen, 2);
    const customer = await count(() => t.req('get', `/api/v1/customer/order/${order.id}`, { token: w.customer.token }), 200);
    within(customer, 2);
  });

  it('GET /orders: the caller and the page with its names and counted total (≤ 2); a text search, the caller, the page and the count (≤ 3)', async () => {
    for (let i = 0; i < 3; i++) await placeOrder(t, w, { delivery_date: inDays(3 + i) });
    // `per_page=2`: a full page, whose total is not known from the page alone.
    for (const query of ['', '?per_page=2', '?status=pending&per_page=2', `?customer_id=${w.customer.id}&sort=-total_amount`, '?from=' + inDays(1) + '&per_page=2']) {
      const seen = await count(() => t.req('get', `/api/v1/orders${query}`, { token: w.company.token }), 200);
      within(seen, query.startsWith('?from') ? 3 : 2, `GET /orders${query}`);
    }
    const search = await count(() => t.req('get', `/api/v1/orders?q=Site&from=${inDays(1)}&per_page=2`, { token: w.company.token }), 200);
    within(search, 3, 'GET /orders?q=');
    const mine = await count(() => t.req('get', '/api/v1/customer/orders?per_page=2', { token: w.customer.token }), 200);
    within(mine, 2);
  });

  // An Idempotency-Key adds five: the key's advisory lock, its lookup, the savepoint around the work
  // (a failed placement rolls back alone, its 4xx answer is stored), and the stored answer.
  // Issues #13/#14 added three: the customer's demerit flag (accountability), and the plan's monthly orders
  // limit: the plan in force (one statement: plans, the live subscription and the administrator's plan
  // override) and the month's count. Issue #24: the month's count is kept on the company's order counter, and the
  // order, its history, its lines and its number are one statement, the event goes with the COMMIT on
  // PostgreSQL, and the demerit flag comes with the caller (10: the caller, BEGIN, five reads, the plan's limit,
  // the write, the event with COMMIT).
  it('POST /customer/orders: placement in ≤ 10 statements (≤ 16 with an Idempotency-Key)', async () => {
    const plain = await count(() => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w) }), 201);
    within(plain, t.db === 'postgres' ? 10 : 11);
    const keyed = await count(() => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w), headers: { 'idempotency-key': randomUUID() } }), 201);
    within(keyed, 16);
  });

  it('PATCH /approve/order/{orderId}: approval with its jobs in ≤ 8 statements (10 embedded: its events not with the COMMIT)', async () => {
    const order = await placeOrder(t, w, { pickup_date: inDays(10) });
    const seen = await count(() => t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }), 200);
    within(seen, t.db === 'postgres' ? 8 : 10);
  });
});
