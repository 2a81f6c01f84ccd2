import { Client } from 'pg';
import { ConfigError, loadConfig } from '../../src/config/app-config';
import { moduleEntities } from '../../src/app.entities';
import { databaseTarget, openDataSource } from '../../src/database/data-source-options';
import { orderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';
import { ADMIN_DATABASE_URL, databaseUrl, newTestDatabaseName } from '../support/template-db';

/**
 * Time limits (docs/time-limits.md): no request waits without end for the database. A lock
 * not granted within DATABASE_LOCK_TIMEOUT_MS, a statement past DATABASE_STATEMENT_TIMEOUT_MS, or no free
 * pooled connection within DATABASE_ACQUIRE_TIMEOUT_MS answers 503 DATABASE_BUSY with Retry-After, and
 * changes nothing. Migrations run with the limits off; the pool's sessions have them afterwards.
 */
const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/haulops-time-limits' };

describe('time limits: configuration', () => {
  it('has defaults that keep a request under about 15 s, and validates every setting at boot', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({ databasePoolSize: 10, databaseAcquireTimeoutMs: 5000, databaseStatementTimeoutMs: 10000, databaseLockTimeoutMs: 3000, databaseIdleInTransactionTimeoutMs: 10000, paymentProviderTimeoutMs: 6000, paymentProviderMaxRetries: 1 });
    expect(loadConfig({ ...base, DATABASE_POOL_SIZE: '25', DATABASE_LOCK_TIMEOUT_MS: '0' })).toMatchObject({ databasePoolSize: 25, databaseLockTimeoutMs: 0 });
    for (const [name, value] of [
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', 'ten'],
      ['DATABASE_ACQUIRE_TIMEOUT_MS', '5'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', '-1'],
      ['DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', '1.5'],
      ['PAYMENT_PROVIDER_TIMEOUT_MS', '0'],
      ['PAYMENT_PROVIDER_MAX_RETRIES', '9'],
    ]) {
      expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(name));
    }
    // A lock wait must end as a lock timeout, not as a cancelled statement.
    expect(() => loadConfig({ ...base, DATABASE_LOCK_TIMEOUT_MS: '20000' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DATABASE_LOCK_TIMEOUT_MS: '20000' })).toThrow(/DATABASE_LOCK_TIMEOUT_MS must be below DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(loadConfig({ ...base, DATABASE_LOCK_TIMEOUT_MS: '20000', DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseLockTimeoutMs).toBe(20000);
  });
});

const onPostgres = async () => (await testDatabaseKind()) === 'postgres';

describe('time limits on PostgreSQL', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('sets the limits on every pooled session', async () => {
    if (!(await onPostgres())) return;
    t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '400', DATABASE_STATEMENT_TIMEOUT_MS: '4000', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '6000' } });
    const [row] = await t.ds.query(`SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`);
    expect(row).toEqual({ lock: '400ms', statement: '4s', idle: '6s' });
  });

  it('answers 503 DATABASE_BUSY with Retry-After when an order stays locked past lock_timeout, and changes nothing', async () => {
    if (!t) return;
    const w = await orderWorld(t);
    const order = await placeOrder(t, w);
    const holder = new Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [order.id]);
      const started = Date.now();
      const res = await t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token });
      const waited = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'DATABASE_BUSY' });
      expect(res.headers['retry-after']).toBe('1');
      expect(waited).toBeGreaterThanOrEqual(350);
      expect(waited).toBeLessThan(3000);
      // Unrelated requests went on meanwhile.
      await t.req('get', '/api/v1/auth/me', { token: w.customer.token }).expect(200);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const read = await t.req('get', `/api/v1/order/${order.id}`, { token: w.company.token }).expect(200);
    expect(read.body.data.status).toBe('pending');
    await t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }).expect(200);
  });

  it('runs the migrations with the limits off, and gives the sessions back with them', async () => {
    if (!(await onPostgres())) return;
    const name = newTestDatabaseName();
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      // 5 ms: many migration statements (tables, indexes, the rollup backfills) take longer than that.
      const config = loadConfig({ ...base, DATABASE_URL: databaseUrl(name), DATABASE_STATEMENT_TIMEOUT_MS: '5', DATABASE_LOCK_TIMEOUT_MS: '0', LOG_LEVEL: 'silent' });
      // TypeORM's first statement (`SELECT version()`, before the migrations) runs under the 5 ms limit too. The
      // first session of a new database builds its catalogue caches, which takes longer: one session warms them
      // first, and on a loaded machine the open is tried again (the migrations themselves never hit the limit).
      const warm = new Client({ connectionString: databaseUrl(name) });
      await warm.connect();
      await warm.query('SELECT version()');
      await warm.end();
      const open = async (left: number): Promise<Awaited<ReturnType<typeof openDataSource>>> => {
        try {
          return await openDataSource(await databaseTarget(config, { entities: moduleEntities() }));
        } catch (e) {
          if (left > 0 && (e as { driverError?: { code?: string } }).driverError?.code === '57014' && /version\(\)/.test(String((e as { query?: string }).query))) return open(left - 1);
          throw e;
        }
      };
      const ds = await open(5);
      const session = ds.createQueryRunner();
      try {
        await expect(session.query('SELECT pg_sleep(0.2)')).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '57014' }) });
        await session.query('SET statement_timeout = 0');
        const [{ n }] = await session.query('SELECT count(*)::int AS n FROM migrations');
        expect(n).toBeGreaterThan(20);
      } finally {
        await session.release();
        await ds.destroy();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('time limits on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded', env: { DATABASE_ACQUIRE_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => t.close());

  it('answers 503 DATABASE_BUSY instead of waiting without end for the one connection, then serves again', async () => {
    const w = await orderWorld(t);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holding = t.ds.transaction(async () => held);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const res = await t.req('get', '/api/v1/auth/me', { token: w.customer.token });
    const waited = Date.now() - started;
    release();
    await holding;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, code: 'DATABASE_BUSY' });
    expect(res.headers['retry-after']).toBe('1');
    expect(waited).toBeLessThan(2000);
    await t.req('get', '/api/v1/auth/me', { token: w.customer.token }).expect(200);
  });
});
