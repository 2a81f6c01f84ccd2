import { randomUUID } from 'node:crypto';
import { guardConnections, runInRequestUnit, runUnit } from '../../../src/database/unit-of-work';
import { companyActor, CompanyActor } from '../../support/actors';
import { orderBody, orderWorld, OrderWorld } from '../../support/order-fixtures';
import { ProbeModule } from '../../support/probe.module';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The Idempotency-Key contract under concurrency and crashes (README, Conventions): the key, the work
 * and the stored answer commit in one transaction. The kill -9 version of these checks runs against
 * the built server in `npm run test:crash` (test/crash/).
 */
describe('Idempotency-Key: one transaction for the key, the work and the answer', () => {
  let t: TestApp;
  let co: CompanyActor;
  beforeAll(async () => {
    t = await startTestApp({ modules: [ProbeModule] });
    co = await companyActor(t);
  });
  afterAll(async () => t?.close());

  const charge = (key: string, body: Record<string, unknown>) => t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body });
  const charged = async (reference: string): Promise<number> =>
    (await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'test.charged' AND payload->>'reference' = $1`, [reference]))[0].n;

  it('answers 409 with Retry-After while the first request runs, then replays its answer', async () => {
    const key = randomUUID();
    const reference = `slow-${key}`;
    const first = charge(key, { reference, amount: 10, delay_ms: 600 }).then((r) => r);
    await new Promise((r) => setTimeout(r, 150));
    const busy = await charge(key, { reference, amount: 10, delay_ms: 600 });
    const done = await first;
    expect(done.status).toBe(201);
    if (t.db === 'postgres') {
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      expect(busy.headers['retry-after']).toBe('1');
    } else {
      // The embedded database runs one transaction at a time: the duplicate's access check waits for
      // the connection the first request holds, and then it is a replay.
      expect(busy.status).toBe(201);
      expect(busy.body).toEqual(done.body);
    }
    const replay = await charge(key, { reference, amount: 10, delay_ms: 600 }).expect(201);
    expect(replay.body).toEqual(done.body);
    expect(done.headers['idempotent-replayed']).toBeUndefined();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await charged(reference)).toBe(1);
  });

  it('commits nothing, not even the key, before the work is done', async () => {
    if (t.db !== 'postgres') return; // the embedded database's one connection is held by the request: nothing to look with
    const key = randomUUID();
    const reference = `atomic-${key}`;
    const first = charge(key, { reference, amount: 10, delay_ms: 500 }).then((r) => r);
    await new Promise((r) => setTimeout(r, 200));
    expect(await t.ds.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).toEqual([]);
    expect(await charged(reference)).toBe(0);
    expect((await first).status).toBe(201);
    expect(await t.ds.query(`SELECT status, response_status FROM idempotency_keys WHERE key = $1`, [key])).toEqual([{ status: 'done', response_status: 201 }]);
    expect(await charged(reference)).toBe(1);
  });

  it('a request whose connection dies mid-work leaves no key behind: the same key runs it afresh, once', async () => {
    if (t.db !== 'postgres') return; // kill -9 on both databases: test/crash
    const key = randomUUID();
    const reference = `cut-${key}`;
    const first = charge(key, { reference, amount: 10, delay_ms: 700 }).then((r) => r);
    await new Promise((r) => setTimeout(r, 250));
    // What a crash does to the transaction: its connection goes, and with it the work and the key's lock.
    const [{ n }] = await t.ds.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND classid = 7640 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(n).toBe(1);
    expect((await first).status).toBe(500);
    expect(await t.ds.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).toEqual([]);
    const retry = await charge(key, { reference, amount: 10 });
    expect(retry.status).toBe(201);
    expect(await charged(reference)).toBe(1);
    expect((await charge(key, { reference, amount: 10 }).expect(201)).body).toEqual(retry.body);
  });

  it('takes over a key the previous version left in flight once its claim is older than 60 s', async () => {
    const key = randomUUID();
    const reference = `legacy-${key}`;
    const body = { reference, amount: 3 };
    const hash = async () => {
      // the hash of this very request, as the interceptor computes it
      const { createHash } = await import('node:crypto');
      return createHash('sha256').update(`POST /test/charges\n${JSON.stringify(body)}`).digest('hex');
    };
    await t.ds.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, status, created_at, expires_at) VALUES ($1, $2, $3, 'in_flight', now() - interval '61 seconds', now() + interval '23 hours')`,
      [co.userId, key, await hash()],
    );
    const r = await charge(key, body).expect(201);
    expect(r.body.data.amount).toBe(3);
    expect(await t.ds.query(`SELECT status FROM idempotency_keys WHERE scope = $1 AND key = $2`, [co.userId, key])).toEqual([{ status: 'done' }]);
    expect(await charged(reference)).toBe(1);
  });

  it('inside the request transaction: savepoints per runUnit, and a second connection fails fast', async () => {
    guardConnections(t.ds);
    const runner = t.ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runInRequestUnit(t.ds, runner, async () => {
        expect(() => t.ds.createQueryRunner()).toThrow(/second database connection/);
        await expect(
          runUnit(t.ds, async (m) => {
            await m.query(`CREATE TEMP TABLE idem_probe (n int)`);
            throw new Error('rolled back to the savepoint');
          }),
        ).rejects.toThrow('rolled back to the savepoint');
        // The outer transaction is still usable; the savepoint's table is gone.
        const [{ exists }] = await runner.query(`SELECT to_regclass('pg_temp.idem_probe') IS NOT NULL AS exists`);
        expect(exists).toBe(false);
        // Nested calls run inside the outer one (no wait on it); siblings run one after the other.
        const order: string[] = [];
        await Promise.all([
          runUnit(t.ds, async (m) => {
            order.push('a:start');
            await runUnit(t.ds, async (n) => {
              expect(n).toBe(m);
              order.push('a:nested');
            });
            await new Promise((r) => setTimeout(r, 20));
            order.push('a:end');
          }),
          runUnit(t.ds, async () => {
            order.push('b');
          }),
        ]);
        expect(order).toEqual(['a:start', 'a:nested', 'a:end', 'b']);
      });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    // Outside a request transaction the DataSource is free again.
    await t.ds.query('SELECT 1');
  });

  describe('placing an order', () => {
    let w: OrderWorld;
    beforeAll(async () => {
      w = await orderWorld(t, { name: 'Idempotent Orders Co' });
    });

    it('two concurrent placements with one key make one order; the replay returns it', async () => {
      const key = randomUUID();
      const body = orderBody(w, { notes: `once ${key}` });
      const place = () => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body, headers: { 'Idempotency-Key': key } });
      const results = await Promise.all([place(), place()]);
      const statuses = results.map((r) => r.status).sort();
      // Either the second saw the first in flight (409), or it came after the commit (201, the same order).
      expect([[201, 409], [201, 201]]).toContainEqual(statuses);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE notes = $1`, [`once ${key}`]);
      expect(n).toBe(1);
      const created = results.find((r) => r.status === 201)!;
      const replay = await place().expect(201);
      expect(replay.body).toEqual(created.body);
      expect(replay.body.data.lines.length).toBeGreaterThan(0);
    });
  });
});
