import { companyActor } from '../../support/actors';
import { startTestApp, type TestApp } from '../../support/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Log lines written by an app, parsed. */
function logSink() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  return {
    lines,
    raw,
    stream: {
      write(line: string) {
        raw.push(line);
        for (const l of line.split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      },
    },
  };
}

describe('running like production: logs, metrics, security headers, readiness', () => {
  let t: TestApp;
  const sink = logSink();

  beforeAll(async () => {
    t = await startTestApp({
      configure: (c) => {
        c.logLevel = 'info';
        c.logStream = sink.stream;
      },
    });
  });
  afterAll(() => t.close());

  it('writes one access-log line per request: method, route pattern, status, duration, request id, actor; no bodies, tokens or e-mails', async () => {
    const owner = await companyActor(t, 'Logs Co');
    const login = await t.req('post', '/api/v1/auth/login', { body: { email: 'nobody@logs.test', password: 'not-the-password-1' }, headers: { 'x-request-id': 'login-probe-1' } });
    expect(login.status).toBe(401);
    const me = await t.req('get', '/api/v1/auth/me', { token: owner.token, headers: { 'x-request-id': 'me-probe-1' } }).expect(200);
    const bad = await t.req('get', '/api/v1/order/00000000-0000-4000-8000-000000000000', { token: owner.token, headers: { 'x-request-id': 'order-probe-1' } });
    expect(bad.status).toBe(404);

    const access = (id: string) => sink.lines.filter((l) => l.msg === 'request' && l.request_id === id);
    expect(access('login-probe-1')).toEqual([
      expect.objectContaining({ level: 'info', method: 'POST', route: '/api/v1/auth/login', status: 401, duration_ms: expect.any(Number), actor_id: null }),
    ]);
    expect(access('me-probe-1')).toEqual([expect.objectContaining({ method: 'GET', route: '/api/v1/auth/me', status: 200, actor_id: me.body.data.id })]);
    // The route pattern, not the URL with its id.
    expect(access('order-probe-1')).toEqual([expect.objectContaining({ route: '/api/v1/order/:order', status: 404 })]);

    const all = sink.raw.join('');
    for (const secret of ['nobody@logs.test', 'not-the-password-1', owner.token, 'Bearer ', 'secret-pass']) expect(all).not.toContain(secret);
  });

  it('redacts credentials and e-mails whoever logs them', () => {
    const before = sink.lines.length;
    const { appLogger } = jest.requireActual('../../../src/common/logger') as typeof import('../../../src/common/logger');
    const logger = appLogger(t.config);
    logger.info({ password: 'p4ss', token: 'tok', user: { email: 'x@y.test', name: 'X' } }, 'probe');
    logger.flush();
    const line = sink.lines.slice(before).find((l) => l.msg === 'probe');
    expect(line).toMatchObject({ password: '[redacted]', token: '[redacted]', user: { email: '[redacted]', name: 'X' } });
  });

  it('serves Prometheus metrics: request durations by route pattern, relay lag and backlog, database pool', async () => {
    await t.req('get', '/health').expect(200);
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} \d+$/m);
    expect(res.text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v1\/order\/:order",status="404"\} \d+$/m);
    expect(res.text).toMatch(/^outbox_relay_lag_seconds \d+(\.\d+)?$/m);
    expect(res.text).toMatch(/^outbox_relay_backlog_events \d+$/m);
    expect(res.text).toMatch(/^db_pool_connections\{state="idle"\} \d+$/m);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('sends security headers (helmet) on API answers; the documentation page may run its inline scripts', async () => {
    const api = await t.req('get', '/health').expect(200);
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['content-security-policy']).toContain("script-src 'self'");
    expect(api.headers['content-security-policy']).not.toContain("script-src 'self' 'unsafe-inline'");
    const docs = await t.http.get('/api/documentation/').expect(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
  });

  it('sends the CORS headers on actual requests (any origin) and answers preflights', async () => {
    for (const res of [await t.req('get', '/health').expect(200), await t.http.post('/api/v1/auth/login').set('Origin', 'https://app.example.test').send({}).expect(422)]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe('X-Request-Id,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,Idempotent-Replayed');
    }
    const preflight = await t.http.options('/api/v1/psp/onboarding/tos').set('Origin', 'https://app.example.test').set('Access-Control-Request-Method', 'PUT').set('Access-Control-Request-Headers', 'authorization').expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization');
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
  });
  afterAll(() => t.close());

  it('needs the bearer token', async () => {
    const denied = await t.http.get('/metrics');
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    await t.http.get('/metrics').set('authorization', 'Bearer wrong-token-0123456789').expect(401);
    await t.http.get('/metrics').set('authorization', 'Bearer metrics-token-0123456789').expect(200);
  });
});

describe('GET /ready with Redis', () => {
  it('checks Redis when REDIS_URL is set: up → 200', async () => {
    const t = await startTestApp({ env: { REDIS_URL } });
    try {
      const res = await t.req('get', '/ready').expect(200);
      expect(res.body.data).toEqual({ status: 'ready', database: t.db === 'embedded' ? 'embedded' : 'postgres', redis: 'up' });
    } finally {
      await t.close();
    }
  });

  it('unreachable → 503 REDIS_UNAVAILABLE', async () => {
    const t = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await t.req('get', '/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'REDIS_UNAVAILABLE' });
    } finally {
      await t.close();
    }
  });

  it('without REDIS_URL: not configured', async () => {
    const t = await startTestApp();
    try {
      expect((await t.req('get', '/ready').expect(200)).body.data.redis).toBe('not_configured');
    } finally {
      await t.close();
    }
  });
});
