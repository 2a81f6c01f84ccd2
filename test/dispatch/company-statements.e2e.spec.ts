import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The company-side dispatch reads run a fixed number of statements whatever the size of the day (no
 * statement per driver, job or order), counted at TypeORM's query runner as in
 * test/database/statements-per-request.e2e.spec.ts.
 */
describe('Dispatch (company): statements per request', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let statements: string[] | null = null;
  const small = inDays(5);
  const big = inDays(6);

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 12 });
    const logger = t.ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      statements?.push(query);
      return logQuery(query, parameters, runner);
    };
    // A small day (one driver, one job) and a big one (three drivers, nine jobs, two unassigned).
    const o = await approvedOrder(t, w, { delivery_date: small });
    await assignOrder(t, w, o.id);
    const drivers = [w.driver, await addDriver(t, w), await addDriver(t, w)];
    for (let i = 0; i < 11; i++) {
      const order = await approvedOrder(t, w, { delivery_date: big });
      if (i < 9) await assignOrder(t, w, order.id, { driver_id: drivers[i % 3].id });
    }
  }, 120_000);
  afterAll(() => t.close());

  async function count(path: string): Promise<string[]> {
    statements = [];
    const res = await t.req('get', `/api/v1/${path}`, { token: w.company.token });
    const seen = statements;
    statements = null;
    expect(res.status).toBe(200);
    return seen;
  }
  const list = (seen: string[]) => seen.map((q) => '  ' + q.replace(/\s+/g, ' ').slice(0, 140)).join('\n');

  it.each([
    // The caller, eight reads, and the leaves module's one batch read of who is on leave (onLeaveAmong).
    ['dispatch/context?date=', 10],
    ['available/drivers?date=', 10],
    ['order/jobs?date=', 3],
    ['drivers-with-orders?date=', 3],
    ['jobs?per_page=5&from=', 4],
  ])('GET /%s… : the same count on a small and a big day, within %i', async (path, budget) => {
    const a = await count(path + small);
    const b = await count(path + big);
    if (b.length > budget) throw new Error(`${path}: ${b.length} statements (budget ${budget}):\n${list(b)}`);
    expect(b.length).toBe(a.length);
  });

  it('GET /jobs/{driverJob}: the job, its order, names, history, merged pickups and counts in ≤ 6', async () => {
    const [job] = (await t.req('get', `/api/v1/jobs?from=${big}&to=${big}&per_page=1`, { token: w.company.token }).expect(200)).body.data;
    const seen = await count(`jobs/${job.id}`);
    if (seen.length > 6) throw new Error(`${seen.length} statements:\n${list(seen)}`);
  });

  it('POST /dispatch/plan with apply: the orders of the jobs to assign are locked once, in one statement, and passed on to the assignments', async () => {
    const preview = (await t.req('post', '/api/v1/dispatch/plan', { token: w.company.token, body: { date: big } }).expect(200)).body.data;
    statements = [];
    const res = await t.req('post', '/api/v1/dispatch/plan', { token: w.company.token, body: { date: big, apply: true, plan_id: preview.plan_id } });
    const seen = statements;
    statements = null;
    expect(res.status).toBe(200);
    // The big day has two unassigned jobs of two orders.
    const orderLocks = seen.filter((q) => /FROM "orders"/.test(q) && /FOR UPDATE/.test(q));
    if (orderLocks.length !== 1) throw new Error(`${orderLocks.length} order locks:\n${list(orderLocks)}`);
  });
});
