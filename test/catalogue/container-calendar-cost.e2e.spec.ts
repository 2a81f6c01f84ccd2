import { dispatchWorld, type DispatchWorld } from '../support/dispatch-fixtures';
import { inDays, orderBody } from '../support/order-fixtures';
import { startTestApp, testDatabaseKind, type TestApp } from '../support/test-app';

/**
 * The calendar's cost (issue #25's closing note): statements and time of an availability query over 90
 * days for a specification of 1,000 containers with 6,000 holds, and of a placement checked against
 * them, on PostgreSQL. Prints the figures (`CALENDAR_COST …`); asserts the statement counts and the
 * figures of one day against the seeded holds.
 */
const ASSETS = 1000;
const HOLDS = 6000;
const RUNS = 21;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('container calendar cost on PostgreSQL', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let statements: string[] | null = null;

  beforeAll(async () => {
    if ((await testDatabaseKind()) !== 'postgres') throw new Error('PostgreSQL is not reachable for the cost test');
    t = await startTestApp({ db: 'postgres' });
    w = await dispatchWorld(t, { name: 'Big Fleet Co', assets: 0 });
    await t.req('put', `/api/v1/asset-specifications/${w.specId}`, { token: w.company.token, body: { check_availability: true } }).expect(200);
    // 1,000 containers, and 6,000 holds of 2–9 days starting over the next 90 days (every 50th open-ended).
    await t.ds.query(
      `INSERT INTO assets (company_id, code, asset_specification_id, home_lot_id, status)
       SELECT $1, 'BIG-' || lpad(i::text, 4, '0'), $2, $3, 'available' FROM generate_series(1, $4::int) i`,
      [w.company.companyId, w.specId, w.lotId, ASSETS],
    );
    await t.ds.query(
      `INSERT INTO container_reservations (company_id, order_id, asset_specification_id, lot_id, starts_on, ends_on)
       SELECT $1, gen_random_uuid(), $2, $3, current_date + 2 + (i * 7) % 90,
              CASE WHEN i % 50 = 0 THEN NULL ELSE current_date + 2 + (i * 7) % 90 + 1 + i % 8 END
         FROM generate_series(1, $4::int) i`,
      [w.company.companyId, w.specId, w.lotId, HOLDS],
    );
    // As autovacuum leaves them: statistics and the visibility map (the calendar reads its holds from the index alone).
    await t.ds.query(`VACUUM (ANALYZE) container_reservations`);
    await t.ds.query(`VACUUM (ANALYZE) assets`);
    const logger = t.ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      statements?.push(query);
      return logQuery(query, parameters, runner);
    };
  }, 180_000);
  afterAll(() => t?.close());

  async function timed(send: () => PromiseLike<{ status: number; body: any }>, status: number) { // eslint-disable-line @typescript-eslint/no-explicit-any
    statements = [];
    const start = process.hrtime.bigint();
    const res = await send();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const seen = statements.length;
    statements = null;
    expect(res.status).toBe(status);
    return { ms, statements: seen, body: res.body };
  }

  it(`GET /company/availability over 90 days, ${ASSETS} containers, ${HOLDS} holds: 2 statements (the caller, the calendar)`, async () => {
    const from = inDays(1);
    const to = inDays(90);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(() => t.req('get', `/api/v1/company/availability?asset_specification_id=${w.specId}&from=${from}&to=${to}`, { token: w.company.token }), 200));
    expect(runs.every((r) => r.statements === 2)).toBe(true);
    const days = runs[0].body.data.days as { date: string; total: number; held: number }[];
    expect(days).toHaveLength(90);
    expect(days.every((d) => d.total === ASSETS)).toBe(true);
    // One day checked against the seed's own rule.
    const k = 40;
    let held = 0;
    for (let i = 1; i <= HOLDS; i++) {
      const s = 2 + ((i * 7) % 90);
      if (s <= k + 1 && (i % 50 === 0 || k + 1 <= s + 1 + (i % 8))) held++;
    }
    expect(days[k]).toMatchObject({ date: inDays(k + 1), held });
    // The statement's own time in PostgreSQL.
    const [plan] = await t.ds.query(
      `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT c.day::text AS day, c.total, c.held FROM asset_specifications s
        CROSS JOIN LATERAL catalogue_container_days(s.company_id, s.id, NULL::uuid, $3::date, $4::date, NULL) c
        WHERE s.id = $2 AND s.company_id = $1 AND s.deleted_at IS NULL ORDER BY c.day`,
      [w.company.companyId, w.specId, from, to],
    );
    const exec = plan['QUERY PLAN'][0]['Execution Time']; if (process.env.CALENDAR_PLAN) console.log(JSON.stringify(plan['QUERY PLAN'][0].Plan, (k, v) => (['Output', 'Parallel Aware', 'Async Capable', 'Startup Cost', 'Total Cost', 'Plan Width'].includes(k) ? undefined : v)));
    console.log(`CALENDAR_COST availability 90 days × ${ASSETS} containers, ${HOLDS} holds: statements ${runs[0].statements}, median ${median(runs.map((r) => r.ms)).toFixed(1)} ms over ${RUNS} requests (min ${Math.min(...runs.map((r) => r.ms)).toFixed(1)}, max ${Math.max(...runs.map((r) => r.ms)).toFixed(1)}); the calendar statement alone ${exec.toFixed(1)} ms in PostgreSQL`);
  }, 120_000);

  it('a placement checked against that calendar: 10 statements, like any placement', async () => {
    const runs = [];
    for (let i = 0; i < 11; i++) runs.push(await timed(() => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, { delivery_date: inDays(120 + i), pickup_date: inDays(127 + i) }) }), 201));
    expect(runs.every((r) => r.statements === 10)).toBe(true);
    console.log(`CALENDAR_COST placement against ${ASSETS} containers, ${HOLDS} holds: statements ${runs[0].statements}, median ${median(runs.map((r) => r.ms)).toFixed(1)} ms over ${runs.length}`);
  }, 120_000);
});
