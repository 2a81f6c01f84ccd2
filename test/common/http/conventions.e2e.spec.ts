import { randomUUID } from 'node:crypto';
import { companyActor } from '../../support/actors';
import { ProbeModule } from '../../support/probe.module';
import { startTestApp, TestApp } from '../../support/test-app';

describe('shared conventions over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ modules: [ProbeModule] });
  });
  afterAll(async () => t?.close());

  describe('Idempotency-Key', () => {
    it('replays the first response and runs the change once', async () => {
      const co = await companyActor(t);
      const key = randomUUID();
      const first = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 1250 } }).expect(201);
      const replay = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 1250 } }).expect(201);
      expect(replay.body).toEqual(first.body);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'test.charged' AND actor_id = $1`, [co.userId]);
      expect(n).toBe(1);
      // Without a key, every request runs.
      await t.req('post', '/test/charges', { token: co.token, body: { reference: 'A', amount: 1250 } }).expect(201);
      // Keys are per caller.
      const other = await companyActor(t);
      await t.req('post', '/test/charges', { token: other.token, headers: { 'Idempotency-Key': key }, body: { reference: 'B', amount: 1 } }).expect(201);
    });

    it('refuses the same key with another body (422) and a key still in flight (409)', async () => {
      const co = await companyActor(t);
      const key = randomUUID();
      await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 100 } }).expect(201);
      const reused = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 999 } }).expect(422);
      expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const inflight = randomUUID();
      await t.ds.query(`INSERT INTO idempotency_keys (scope, key, request_hash, status, expires_at) VALUES ($1, $2, 'x', 'in_flight', now() + interval '1 hour')`, [co.userId, inflight]);
      const busy = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': inflight }, body: { reference: 'A', amount: 100 } });
      expect([409, 422]).toContain(busy.status);
      await t.ds.query(`UPDATE idempotency_keys SET request_hash = $3 WHERE scope = $1 AND key = $2`, [co.userId, inflight, (await t.ds.query(`SELECT request_hash FROM idempotency_keys WHERE scope = $1 AND key = $2`, [co.userId, key]))[0].request_hash]);
      const busy2 = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': inflight }, body: { reference: 'A', amount: 100 } }).expect(409);
      expect(busy2.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      const long = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: { reference: 'A', amount: 1 } }).expect(422);
      expect(long.body.errors).toHaveProperty('Idempotency-Key');
    });

    it('forgets the key of a failed request; its event is rolled back with it', async () => {
      const co = await companyActor(t);
      const key = randomUUID();
      const failed = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'neg', amount: -5 } }).expect(500);
      expect(failed.body).toEqual({ success: false, message: 'Internal server error.', code: 'INTERNAL_ERROR', request_id: expect.any(String) });
      expect(JSON.stringify(failed.body)).not.toMatch(/negative amount|at \w/);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE actor_id = $1 AND type = 'test.charged'`, [co.userId]);
      expect(n).toBe(0);
      expect(await t.ds.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).toEqual([]);
    });

    it('expires keys after 24 hours', async () => {
      const co = await companyActor(t);
      const key = randomUUID();
      await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 1 } }).expect(201);
      const [row] = await t.ds.query(`SELECT expires_at - created_at AS ttl FROM idempotency_keys WHERE key = $1`, [key]);
      expect(row.ttl.hours ?? row.ttl.days * 24).toBe(24);
      await t.ds.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
      const again = await t.req('post', '/test/charges', { token: co.token, headers: { 'Idempotency-Key': key }, body: { reference: 'A', amount: 2 } }).expect(201);
      expect(again.body.data.amount).toBe(2);
    });
  });

  describe('envelopes, request ids, docs and probes', () => {
    it('echoes a sane X-Request-Id into the response and error body', async () => {
      const r = await t.http.get('/api/v1/auth/me').set('X-Request-Id', 'req-abc-123').expect(401);
      expect(r.headers['x-request-id']).toBe('req-abc-123');
      expect(r.body.request_id).toBe('req-abc-123');
      const gen = await t.http.get('/api/v1/auth/me').set('X-Request-Id', 'bad id with spaces').expect(401);
      expect(gen.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers an unknown route with the 404 envelope', async () => {
      const r = await t.http.get('/api/v1/nothing-here').expect(404);
      expect(r.body).toMatchObject({ success: false, code: 'NOT_FOUND', request_id: expect.any(String) });
    });

    it('serves Swagger UI, its JSON and the OAuth2 redirect page', async () => {
      const ui = await t.http.get('/api/documentation').expect(200);
      expect(ui.headers['content-type']).toMatch(/text\/html/);
      const doc = await t.http.get('/api/documentation-json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      const cb = await t.http.get('/api/oauth2-callback').expect(200);
      expect(cb.headers['content-type']).toMatch(/text\/html/);
      expect(cb.text).toMatch(/oauth2/i);
      expect(cb.text).not.toMatch(/src="oauth2-redirect\.js"/);
    });

    it('health and readiness', async () => {
      const h = await t.http.get('/health').expect(200);
      expect(h.body).toMatchObject({ success: true, data: { status: 'ok' } });
      const r = await t.http.get('/ready').expect(200);
      expect(r.body.data).toEqual({ status: 'ready', database: t.db, redis: 'not_configured' });
    });

    it('rejects an oversized body with 413', async () => {
      const r = await t.http.post('/api/v1/auth/login').set('X-Forwarded-For', '10.200.0.1').set('Content-Type', 'application/json').send(JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(2 * 1024 * 1024) })).expect(413);
      expect(r.body.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});
