import { approvedOrder, coPost, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { startTestApp, testDatabaseKind, TestApp } from '../support/test-app';

/**
 * Reserving is race-free (issue #11): 50 concurrent assignments of 50 different orders of the same
 * specification compete for its last free asset. Exactly one gets it (the asset reserved, its job
 * assigned, its order scheduled); the 49 others answer 409 NO_CONTAINER_AVAILABLE (issue #25: no container
 * is free on their days) and leave nothing behind. On PostgreSQL the requests run side by side
 * (AssetsService.reserve: one statement, `catalogue_pin_container`, queued on the specification's row
 * lock); on the embedded database (`npm run test:embedded`) they queue on its
 * one connection, so the default run races on PostgreSQL only.
 */
const DATABASES = process.env.TEST_DB === 'embedded' ? (['embedded'] as const) : (['postgres'] as const);
const N = 50;

describe.each(DATABASES)('asset reservation race on the %s database', (db) => {
  let t: TestApp;
  let w: DispatchWorld;
  let orders: { id: string; deliveryJobId: string }[];
  beforeAll(async () => {
    if (db === 'postgres' && (await testDatabaseKind()) !== 'postgres') throw new Error('PostgreSQL is not reachable for the race test');
    t = await startTestApp({ db });
    w = await dispatchWorld(t, { assets: 1 });
    // The orders are all taken (check_availability false: held, never refused), so that assignment alone races.
    await coPost(t, w, `asset-specifications/${w.specId}`, { check_availability: false }, 200, 'put');
    orders = [];
    // Ten at a time (placement numbers are race-free; that is tested elsewhere).
    for (let i = 0; i < N; i += 10) orders.push(...(await Promise.all(Array.from({ length: 10 }, () => approvedOrder(t, w)))));
  }, 180_000);
  afterAll(async () => t?.close());

  it(`${N} concurrent assignments for the last free asset: exactly one reserves it, ${N - 1} get 409 NO_CONTAINER_AVAILABLE`, async () => {
    const [asset] = w.assetIds;
    const res = await Promise.all(orders.map((o) => t.req('post', `/api/v1/driver/assign/${o.id}`, { token: w.company.token, body: { driver_id: w.driver.id, truck_id: w.truckId } })));
    const won = res.filter((r) => r.status === 200);
    const lost = res.filter((r) => r.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost.map((r) => [r.status, r.body.code])).toEqual(Array.from({ length: N - 1 }, () => [409, 'NO_CONTAINER_AVAILABLE']));
    const job = won[0].body.data.jobs[0];
    expect(job).toMatchObject({ status: 'assigned', asset_id: asset, driver_id: w.driver.id });

    // The database agrees: one reservation, one assigned job holding the asset, one scheduled order.
    const [row] = await t.ds.query(`SELECT status FROM assets WHERE id = $1`, [asset]);
    expect(row.status).toBe('reserved');
    const holders = await t.ds.query(`SELECT id FROM jobs WHERE asset_id = $1`, [asset]);
    expect(holders).toEqual([{ id: job.id }]);
    const ids = orders.map((o) => o.id);
    const statuses = await t.ds.query(`SELECT status, count(*)::int AS n FROM orders WHERE id = ANY($1::uuid[]) GROUP BY status ORDER BY status`, [ids]);
    expect(statuses).toEqual([
      { status: 'approved', n: N - 1 },
      { status: 'scheduled', n: 1 },
    ]);
    const [{ assigned }] = await t.ds.query(`SELECT count(*)::int AS assigned FROM jobs WHERE order_id = ANY($1::uuid[]) AND status <> 'unassigned'`, [ids]);
    expect(assigned).toBe(1);
    const history = await t.ds.query(`SELECT to_status, job_id FROM asset_history WHERE asset_id = $1`, [asset]);
    expect(history).toEqual([{ to_status: 'reserved', job_id: job.id }]);
  }, 120_000);
});
