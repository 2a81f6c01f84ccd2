import { Client } from 'pg';
import { loadConfig } from '../../src/config/app-config';
import { moduleEntities } from '../../src/app.entities';
import { databaseTarget, openDataSource } from '../../src/database/data-source-options';
import { MIGRATIONS } from '../../migrations';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';
import { ADMIN_DATABASE_URL, databaseUrl, newTestDatabaseName } from '../support/template-db';

/**
 * Many instances on one PostgreSQL (docs/fleet.md): simultaneous starts migrate once and log no error;
 * a fleet must share its JWT secret; REDIS_PREFIX keeps deployments apart on one Redis; behind a proxy,
 * a hop count (not `true`) decides the client address the throttle counts.
 */
const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/haulops-fleet-startup' };

describe('fleet configuration', () => {
  it('requires JWT_SECRET with DATABASE_URL, and still generates one for the embedded database', () => {
    const { JWT_SECRET: _, ...noSecret } = base;
    expect(() => loadConfig({ ...noSecret, DATABASE_URL: 'postgres://db/haulops' })).toThrow(/JWT_SECRET is required with DATABASE_URL: every instance on one database must sign tokens with the same secret/);
    expect(loadConfig(noSecret).jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('takes REDIS_PREFIX, validated', () => {
    expect(loadConfig(base).redisPrefix).toBe('haulops:');
    expect(loadConfig({ ...base, REDIS_PREFIX: 'acme-prod:' }).redisPrefix).toBe('acme-prod:');
    expect(() => loadConfig({ ...base, REDIS_PREFIX: 'has space' })).toThrow(/REDIS_PREFIX/);
    expect(() => loadConfig({ ...base, REDIS_PREFIX: 'x'.repeat(65) })).toThrow(/REDIS_PREFIX/);
  });

  it('refuses TRUST_PROXY=true in production, and takes a hop count or addresses there', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be the proxies' hop count or addresses in production/);
    expect(loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => t?.close());

  it('counts the address the proxy saw, whatever X-Forwarded-For the client forged', async () => {
    // The proxy appends the address it saw; what the client sent stays in front of it.
    const login = (forged: string) => t.req('post', '/api/v1/auth/login', { ip: `${forged}, 198.51.100.7`, body: { email: 'nobody@example.test', password: 'whatever-1' } });
    for (let i = 0; i < 5; i++) await login(`203.0.113.${i + 1}`).expect(401);
    await login('203.0.113.99').expect(429);
    // Another real client behind the same proxy is counted apart.
    await t.req('post', '/api/v1/auth/login', { ip: '203.0.113.1, 198.51.100.8', body: { email: 'nobody@example.test', password: 'whatever-1' } }).expect(401);
  });
});

describe('simultaneous starts on one PostgreSQL', () => {
  it('migrate once: one instance runs the migrations, the others wait and find nothing to do, and nothing logs an error', async () => {
    if ((await testDatabaseKind()) !== 'postgres') return;
    const name = newTestDatabaseName();
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const lines: Record<string, unknown>[][] = [[], [], []];
    try {
      const sources = await Promise.all(
        lines.map(async (log) => {
          const config = loadConfig({ ...base, DATABASE_URL: databaseUrl(name), LOG_LEVEL: 'info' });
          config.logStream = { write: (line: string) => void log.push(JSON.parse(line)) };
          return openDataSource(await databaseTarget(config, { entities: moduleEntities() }));
        }),
      );
      try {
        const [{ n, distinct }] = await sources[0].query('SELECT count(*)::int AS n, count(DISTINCT name)::int AS "distinct" FROM migrations');
        expect({ n, distinct }).toEqual({ n: MIGRATIONS.length, distinct: MIGRATIONS.length });
        const all = lines.flat();
        expect(all.filter((l) => Number(l.level) >= 50 || l.level === 'error')).toEqual([]);
        const outcomes = lines.map((log) => log.find((l) => l.migrations_run !== undefined)?.migrations_run);
        expect(outcomes.sort()).toEqual([0, 0, MIGRATIONS.length]);
        expect(all.some((l) => l.msg === 'another instance is running the migrations: waiting for it')).toBe(true);
      } finally {
        await Promise.all(sources.map((ds) => ds.destroy()));
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
