import { coPost, dispatchWorld, type DispatchWorld } from '../support/dispatch-fixtures';
import { inDays, orderBody, placeOrder } from '../support/order-fixtures';
import { startTestApp, testDatabaseKind, type TestApp } from '../support/test-app';

/**
 * The last container goes to exactly one of concurrent callers (issue #25): every hold of a
 * specification queues on its row lock inside `catalogue_hold_container`, whose count then runs on a
 * new snapshot. On PostgreSQL the requests run side by side; on the embedded database (PGlite) they queue
 * on its one connection, and the same SQL must still give one winner. The default run covers both (as
 * test/database/concurrency.e2e.spec.ts does); `npm run test:embedded` the embedded one alone.
 */
const DATABASES = process.env.TEST_DB === 'embedded' ? (['embedded'] as const) : (['embedded', 'postgres'] as const);
const N = 8;

describe.each(DATABASES)('container calendar race on the %s database', (db) => {
  let t: TestApp;
  let w: DispatchWorld;
  beforeAll(async () => {
    if (db === 'postgres' && (await testDatabaseKind()) !== 'postgres') throw new Error('PostgreSQL is not reachable for the race test');
    t = await startTestApp({ db });
    w = await dispatchWorld(t, { name: 'Race Box Co', assets: 1 });
    await coPost(t, w, `asset-specifications/${w.specId}`, { check_availability: true }, 200, 'put');
  }, 120_000);
  afterAll(async () => t?.close());

  const liveOn = async (day: string) =>
    (await t.ds.query(`SELECT count(*)::int AS n FROM container_reservations WHERE asset_specification_id = $1 AND released_at IS NULL AND starts_on <= $2 AND (ends_on IS NULL OR ends_on >= $2)`, [w.specId, day]))[0].n;

  it(`${N} concurrent placements for the last container on a date: exactly one 201, ${N - 1} × 409 NO_CONTAINER_AVAILABLE`, async () => {
    const day = inDays(3);
    const res = await Promise.all(Array.from({ length: N }, () => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, { delivery_date: day, pickup_date: day }) })));
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    expect(res.filter((r) => r.status !== 201).map((r) => [r.status, r.body.code, r.body.details?.dates])).toEqual(Array.from({ length: N - 1 }, () => [409, 'NO_CONTAINER_AVAILABLE', [day]]));
    expect(await liveOn(day)).toBe(1);
    // The refused placements left nothing: one order of the company on that day, numbers without gaps.
    const orders = await t.ds.query(`SELECT number FROM orders WHERE company_id = $1 AND delivery_date = $2`, [w.company.companyId, day]);
    expect(orders).toHaveLength(1);
  }, 120_000);

  it(`${N} concurrent edits moving ${N} orders onto the last free day: exactly one 200, ${N - 1} × 409 (the specification's lock, not the order counter's)`, async () => {
    const orders: string[] = [];
    for (let i = 0; i < N; i++) orders.push((await placeOrder(t, w, { delivery_date: inDays(10 + i), pickup_date: inDays(10 + i) })).id);
    const target = inDays(25);
    const res = await Promise.all(orders.map((id) => t.req('put', `/api/v1/update/order/${id}`, { token: w.company.token, body: { delivery_date: target, pickup_date: target } })));
    expect(res.filter((r) => r.status === 200)).toHaveLength(1);
    expect(res.filter((r) => r.status !== 200).map((r) => [r.status, r.body.code, r.body.details?.dates])).toEqual(Array.from({ length: N - 1 }, () => [409, 'NO_CONTAINER_AVAILABLE', [target]]));
    expect(await liveOn(target)).toBe(1);
    // The refused edits changed nothing: their orders keep their own day.
    const moved = await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE id = ANY($1::uuid[]) AND delivery_date = $2`, [orders, target]);
    expect(moved[0].n).toBe(1);
  }, 120_000);
});
