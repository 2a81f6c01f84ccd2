import Redis from 'ioredis';
import { PASSWORD, companyActor, uniqueEmail } from '../../support/actors';
import { startTestApp, TestApp } from '../../support/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('throttle: 5 requests a minute per client address per route on PUB-T and TOK-T', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const login = (ip: string) => t.req('post', '/api/v1/auth/login', { ip, body: { email: 'nobody@example.test', password: 'whatever-1' } });

  it('answers the 6th request with 429, Retry-After and X-RateLimit-*', async () => {
    const ip = '192.0.2.10';
    for (let i = 0; i < 5; i++) {
      const r = await login(ip).expect(401);
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(r.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const sixth = await login(ip).expect(429);
    expect(sixth.body).toMatchObject({ success: false, code: 'THROTTLED' });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(sixth.headers['x-ratelimit-limit']).toBe('5');
    expect(sixth.headers['x-ratelimit-remaining']).toBe('0');
    expect(sixth.headers['x-ratelimit-reset']).toBeDefined();
    // Another address, and another route from the same address, are counted apart.
    await login('192.0.2.11').expect(401);
    await t.req('post', '/api/v1/auth/get-otp', { ip, body: { email: 'nobody@example.test' } }).expect(200);
  });

  it('throttles TOK-T (company/create) and leaves unthrottled routes alone', async () => {
    const ip = '192.0.2.20';
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'O', email: uniqueEmail('o'), password: PASSWORD, type: 'company' } }).expect(201);
    for (let i = 0; i < 5; i++) await t.req('post', '/api/v1/company/create', { ip, token: reg.body.data.token, body: { name: '' } }).expect(422);
    await t.req('post', '/api/v1/company/create', { ip, token: reg.body.data.token, body: { name: 'Late' } }).expect(429);
    for (let i = 0; i < 7; i++) await t.req('get', '/api/v1/auth/me', { ip, token: reg.body.data.token }).expect(200);
  });

  it('does not throttle PUB admin routes (they lock accounts instead)', async () => {
    for (let i = 0; i < 7; i++) {
      await t.req('post', '/api/v1/admin/auth/login', { ip: '192.0.2.30', body: { email: 'ghost@example.test', password: 'whatever-1' } }).expect(401);
    }
  });
});

describe('throttle counts shared between two instances through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  const prefix = `haulops-test:${process.pid}:${Date.now()}:`;
  beforeAll(async () => {
    const env = { REDIS_URL };
    a = await startTestApp({ env, configure: (c) => (c.redisPrefix = prefix) });
    b = await startTestApp({ env, configure: (c) => (c.redisPrefix = prefix) });
  }, 180_000); // two app starts, beside whatever the suite's other worker runs
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const r = new Redis(REDIS_URL);
    const keys = await r.keys(`${prefix}*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
  });

  it('the 6th request, sent to the other instance, is 429', async () => {
    const ip = '198.51.100.7';
    const body = { email: 'nobody@example.test' };
    for (let i = 0; i < 3; i++) await a.req('post', '/api/v1/auth/forgot-password', { ip, body }).expect(200);
    for (let i = 0; i < 2; i++) await b.req('post', '/api/v1/auth/forgot-password', { ip, body }).expect(200);
    const sixth = await b.req('post', '/api/v1/auth/forgot-password', { ip, body }).expect(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    await a.req('post', '/api/v1/auth/forgot-password', { ip, body }).expect(429);
    // The counts really are in Redis.
    const r = new Redis(REDIS_URL);
    const keys = await r.keys(`${prefix}throttle:*`);
    await r.quit();
    expect(keys.length).toBeGreaterThan(0);
  });

  it('still works for logins of real accounts across instances', async () => {
    const co = await companyActor(a);

    const ip = '198.51.100.8';
    for (let i = 0; i < 5; i++) await (i % 2 ? a : b).req('post', '/api/v1/auth/login', { ip, body: { email: co.email, password: PASSWORD } }).expect(i % 2 ? 200 : 401);
    await a.req('post', '/api/v1/auth/login', { ip, body: { email: co.email, password: PASSWORD } }).expect(429);
  });
});
