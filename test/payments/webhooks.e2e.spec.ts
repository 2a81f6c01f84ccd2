import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { createHmac, randomUUID } from 'node:crypto';
import { recordEvents } from '../../src/common/outbox/outbox';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { companyActor, CompanyActor, memberActor, MemberActor } from '../support/actors';
import { orderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
jest.setTimeout(120_000);

const ROUTE = '/api/v1/psp/create/webhook';
const INBOUND = '/api/v1/psp/webhooks';
const SECRET = 'sandbox-webhook-secret-for-tests';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver: records every POST and answers `status()` (200 unless told). */
async function receiver(status: () => number = () => 200): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status();
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const verify = (secret: string, r: Received) =>
  r.headers['x-signature'] === `sha256=${createHmac('sha256', secret).update(`${r.headers['x-timestamp']}.${r.body}`).digest('hex')}`;

/**
 * Outbound webhooks (issue #13): POST /psp/create/webhook registers an endpoint (company users only)
 * and answers its secret once; the event relay POSTs subscribed events signed with HMAC-SHA256, retries
 * failures with backoff and logs every attempt.
 */
describe('Webhooks', () => {
  let t: TestApp;
  let co: CompanyActor;
  let other: CompanyActor;
  let customer: MemberActor;
  let driver: MemberActor;
  const servers: Server[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { OUTBOX_RELAY_RETRY_BASE_MS: '1', OUTBOX_RELAY_RETRY_MAX_MS: '1', PAYMENT_WEBHOOK_SECRET: SECRET } });
    co = await companyActor(t, 'Hooked Hauling');
    other = await companyActor(t, 'Other Hauling');
    customer = await memberActor(t, co, 'customer');
    driver = await memberActor(t, co, 'driver');
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) s.close();
    await t?.close();
  });

  const register = (token: string, body: unknown) => t.req('post', ROUTE, { token, body });
  const relay = async (times = 1) => {
    for (let i = 0; i < times; i++) await t.app.get(OutboxRelay).runOnce();
  };
  const emit = async (companyId: string, status: 'succeeded' | 'failed' = 'succeeded') => {
    const id = randomUUID();
    await t.ds.transaction((m) =>
      recordEvents(m, {
        type: 'payment_transaction.recorded',
        aggregateType: 'payment_transaction',
        aggregateId: id,
        companyId,
        actorId: null,
        payload: { kind: 'charge', status, amount: 1250, currency: 'USD', customer_id: randomUUID(), order_id: null, method: 'card', failure_code: null },
      }),
    );
    const [row] = await t.ds.query(`SELECT id FROM outbox_events WHERE aggregate_id = $1`, [id]);
    return row.id as string;
  };
  const deliveries = (eventId: string) =>
    t.ds.query(`SELECT endpoint_id, attempt, status_code, duration_ms, error FROM webhook_deliveries WHERE event_id = $1 ORDER BY created_at, attempt`, [eventId]);

  it('registers an endpoint and answers its secret once; delivers signed events to subscribed endpoints only', async () => {
    const rx = await receiver();
    servers.push(rx.server);
    const created = await register(co.token, { url: rx.url, events: ['payment_transaction.recorded', 'order.placed'] }).expect(201);
    const ep = created.body.data;
    expect(ep).toMatchObject({ url: rx.url, events: ['payment_transaction.recorded', 'order.placed'] });
    expect(ep.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    // The secret is stored (to sign) but no route answers it again.
    const again = await register(co.token, { url: rx.url, events: ['order.placed'] }).expect(201);
    expect(again.body.data.secret).not.toBe(ep.secret);

    // Another company's events never reach this endpoint; a type it did not subscribe to neither.
    const foreign = await emit(other.companyId);
    const eventId = await emit(co.companyId);
    await relay(2);
    expect(rx.got).toHaveLength(1);
    const [r] = rx.got;
    expect(r.headers['x-event-id']).toBe(eventId);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(Math.abs(Number(r.headers['x-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(verify(ep.secret, r)).toBe(true);
    expect(verify(again.body.data.secret, r)).toBe(false);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ id: eventId, type: 'payment_transaction.recorded', aggregate_type: 'payment_transaction', data: { kind: 'charge', amount: 1250 } });
    const log = await deliveries(eventId);
    expect(log).toEqual([expect.objectContaining({ endpoint_id: ep.id, attempt: 1, status_code: 200, error: null })]);
    expect(await deliveries(foreign)).toEqual([]);
  });

  it('retries a failing endpoint with the relay and logs every attempt; an endpoint that answered 2xx is not sent the event again', async () => {
    const c = await companyActor(t, 'Flaky Hooks');
    let fails = 2;
    const bad = await receiver(() => (fails-- > 0 ? 503 : 204));
    const good = await receiver();
    servers.push(bad.server, good.server);
    const epBad = (await register(c.token, { url: bad.url, events: ['payment_transaction.recorded'] }).expect(201)).body.data;
    const epGood = (await register(c.token, { url: good.url, events: ['payment_transaction.recorded'] }).expect(201)).body.data;
    const eventId = await emit(c.companyId, 'failed');

    for (let i = 0; i < 5 && bad.got.length < 3; i++) {
      await relay();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(bad.got).toHaveLength(3);
    expect(good.got).toHaveLength(1);
    for (const r of bad.got) expect(verify(epBad.secret, r)).toBe(true);
    expect(bad.got.every((r) => r.headers['x-event-id'] === eventId)).toBe(true);

    const log = await deliveries(eventId);
    const ofBad = log.filter((d: any) => d.endpoint_id === epBad.id);
    expect(ofBad.map((d: any) => [d.attempt, d.status_code])).toEqual([[1, 503], [2, 503], [3, 204]]);
    expect(ofBad[0].error).toBe('HTTP 503');
    expect(log.filter((d: any) => d.endpoint_id === epGood.id).map((d: any) => d.status_code)).toEqual([200]);
    const [d] = await t.ds.query(`SELECT status, attempts FROM outbox_deliveries WHERE event_id = $1 AND subscriber = 'outbound-webhooks'`, [eventId]);
    expect(d).toMatchObject({ status: 'processed', attempts: 3 });
  });

  it('counts an unreachable endpoint as a failure (logged with no status)', async () => {
    const c = await companyActor(t, 'Gone Hooks');
    const dead = await receiver();
    await new Promise((r) => dead.server.close(r));
    await register(c.token, { url: dead.url, events: ['payment_transaction.recorded'] }).expect(201);
    const eventId = await emit(c.companyId);
    await relay();
    const [log] = await deliveries(eventId);
    expect(log).toMatchObject({ attempt: 1, status_code: null });
    expect(log.error).toEqual(expect.any(String));
  });

  it('access: company users only (customer, driver 403 WRONG_ACTOR; no token 401)', async () => {
    const body = { url: 'https://hooks.example.com/x', events: ['order.placed'] };
    for (const token of [customer.token, driver.token]) {
      const r = await register(token, body).expect(403);
      expect(r.body.code).toBe('WRONG_ACTOR');
    }
    await t.req('post', ROUTE, { body }).expect(401);
    // What a test lets through points at a listener on 127.0.0.1 (docs/outbound-webhooks.md).
    const rx = await receiver();
    servers.push(rx.server);
    await register(co.token, { ...body, url: rx.url }).expect(201);
  });

  it('bad input is 422', async () => {
    const cases: unknown[] = [
      {},
      { url: 'https://hooks.example.com/x' },
      { url: 'https://hooks.example.com/x', events: [] },
      { url: 'https://hooks.example.com/x', events: ['order.exploded'] },
      { url: 'https://hooks.example.com/x', events: 'order.placed' },
      { url: 'http://hooks.example.com/x', events: ['order.placed'] },
      { url: 'ftp://127.0.0.1/x', events: ['order.placed'] },
      { url: 'not a url', events: ['order.placed'] },
      { url: 'https://user:pw@hooks.example.com/x', events: ['order.placed'] },
      { url: 42, events: ['order.placed'] },
      { url: 'https://hooks.example.com/x', events: ['order.placed'], secret: 'mine' },
    ];
    for (const body of cases) {
      const r = await register(co.token, body);
      expect([r.status, body]).toEqual([422, body]);
    }
  });

  // ------------------------------------------------------------ inbound (extension, PUB)

  const sign = (raw: string, ts = String(Math.floor(Date.now() / 1000)), secret = SECRET) => ({
    'X-Timestamp': ts,
    'X-Signature': `sha256=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`,
  });
  /** POSTs exactly `raw` (the signed bytes) to the inbound route. */
  const inbound = (raw: string, headers: Record<string, string> = sign(raw), provider = 'sandbox') => {
    let r = t.http.post(`${INBOUND}/${provider}`).set('Content-Type', 'application/json').set('X-Forwarded-For', `10.77.0.${Math.floor(Math.random() * 250) + 1}`);
    for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
    return r.send(raw);
  };

  describe('inbound provider events', () => {
    let orderId: string;
    let total: number;
    const ref = `ch_sandbox_pending_${Date.now()}`;

    beforeAll(async () => {
      const w = await orderWorld(t, { name: 'Inbound Hauling' });
      const o = await placeOrder(t, w);
      orderId = o.id;
      total = o.total_amount;
      // A charge the provider reported as pending (the sandbox answers at once; a real provider may not).
      const [row] = await t.ds.query(`SELECT company_id, customer_id FROM orders WHERE id = $1`, [orderId]);
      await t.ds.query(
        `INSERT INTO payment_transactions (company_id, customer_id, order_id, kind, status, method, amount, currency, provider_ref)
         VALUES ($1, $2, $3, 'charge', 'pending', 'instrument', $4, 'USD', $5)`,
        [row.company_id, row.customer_id, orderId, total, ref],
      );
    });

    it('a signed charge.succeeded settles the pending charge once; the replay answers duplicate and changes nothing', async () => {
      const raw = JSON.stringify({ id: `evt_${ref}`, type: 'charge.succeeded', data: { reference: ref } });
      const first = await inbound(raw).expect(200);
      expect(first.body.data).toEqual({ event: `evt_${ref}`, type: 'charge.succeeded', duplicate: false, outcome: 'applied', reason: null });
      const [tx] = await t.ds.query(`SELECT id, status FROM payment_transactions WHERE provider_ref = $1`, [ref]);
      expect(tx.status).toBe('succeeded');
      const [o] = await t.ds.query(`SELECT paid_amount, payment_status FROM orders WHERE id = $1`, [orderId]);
      expect({ paid: Number(o.paid_amount), status: o.payment_status }).toEqual({ paid: total, status: 'paid' });
      const events = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1`, [tx.id]))[0].n;
      expect(await events()).toBe(1);

      // Replayed (re-signed, same event id): nothing changes, even a different type under the same id.
      const again = await inbound(raw).expect(200);
      expect(again.body.data).toEqual({ event: `evt_${ref}`, type: 'charge.succeeded', duplicate: true, outcome: 'applied', reason: null });
      const forged = JSON.stringify({ id: `evt_${ref}`, type: 'charge.failed', data: { reference: ref } });
      expect((await inbound(forged).expect(200)).body.data.duplicate).toBe(true);
      expect((await t.ds.query(`SELECT status FROM payment_transactions WHERE provider_ref = $1`, [ref]))[0].status).toBe('succeeded');
      expect(await events()).toBe(1);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM webhook_inbound_events WHERE event_id = $1`, [`evt_${ref}`]))[0].n).toBe(1);

      // A settled charge is no longer pending: a later failure for it matches nothing.
      const late = JSON.stringify({ id: `evt_late_${ref}`, type: 'charge.failed', data: { reference: ref, failure_code: 'card_declined' } });
      expect((await inbound(late).expect(200)).body.data).toMatchObject({ duplicate: false, outcome: 'no_match', reason: expect.stringMatching(/No pending charge/) });
    });

    it('charge.failed marks a pending charge failed with its code', async () => {
      const [row] = await t.ds.query(`SELECT company_id, customer_id FROM orders WHERE id = $1`, [orderId]);
      const failRef = `${ref}_f`;
      await t.ds.query(
        `INSERT INTO payment_transactions (company_id, customer_id, order_id, kind, status, method, amount, currency, provider_ref)
         VALUES ($1, $2, $3, 'charge', 'pending', 'instrument', 100, 'USD', $4)`,
        [row.company_id, row.customer_id, orderId, failRef],
      );
      const raw = JSON.stringify({ id: `evt_${failRef}`, type: 'charge.failed', data: { reference: failRef, failure_code: 'insufficient_funds' } });
      expect((await inbound(raw).expect(200)).body.data.outcome).toBe('applied');
      const [tx] = await t.ds.query(`SELECT status, failure_code FROM payment_transactions WHERE provider_ref = $1`, [failRef]);
      expect(tx).toEqual({ status: 'failed', failure_code: 'insufficient_funds' });
    });

    it('merchant.updated records the onboarding state through the onboarding service', async () => {
      const c = await companyActor(t, 'Merchant Hooks');
      await t.req('put', '/api/v1/psp/onboarding/tos', { token: c.token, body: { version: '2025-06-01' } }).expect(200);
      const started = (await t.req('put', '/api/v1/psp/onboarding/complete', { token: c.token }).expect(200)).body.data;
      expect(started.state).toBe('pending');
      const raw = JSON.stringify({ id: `evt_m_${c.companyId}`, type: 'merchant.updated', data: { reference: started.provider_reference, status: 'approved' } });
      expect((await inbound(raw).expect(200)).body.data.outcome).toBe('applied');
      const now = (await t.req('get', '/api/v1/psp/onboarding/complete', { token: c.token }).expect(200)).body.data;
      expect(now.state).toBe('approved');
      const [e] = await t.ds.query(`SELECT payload, actor_id FROM outbox_events WHERE company_id = $1 AND type = 'merchant_account.state_changed' ORDER BY created_at DESC LIMIT 1`, [c.companyId]);
      expect(e).toMatchObject({ actor_id: null, payload: { from: 'pending', to: 'approved', reason: 'provider_check' } });
    });

    it('unknown event types are recorded and ignored (200)', async () => {
      const raw = JSON.stringify({ id: `evt_unknown_${ref}`, type: 'payout.paid', data: { amount: 5 } });
      expect((await inbound(raw).expect(200)).body.data).toMatchObject({ duplicate: false, outcome: 'ignored' });
      const [row] = await t.ds.query(`SELECT type, outcome, reason FROM webhook_inbound_events WHERE event_id = $1`, [`evt_unknown_${ref}`]);
      expect(row).toEqual({ type: 'payout.paid', outcome: 'ignored', reason: 'Event type payout.paid is not handled.' });
    });

    it('a bad, missing or stale signature is 400 INVALID_SIGNATURE and records nothing', async () => {
      const raw = JSON.stringify({ id: `evt_bad_${ref}`, type: 'charge.succeeded', data: { reference: 'x' } });
      const stale = String(Math.floor(Date.now() / 1000) - 3600);
      for (const headers of [{} as Record<string, string>, { 'X-Timestamp': sign(raw)['X-Timestamp'] }, sign(raw, undefined, 'wrong-secret'), sign(raw, stale), { ...sign(raw), 'X-Signature': 'sha256=00' }]) {
        const r = await inbound(raw, headers).expect(400);
        expect(r.body.code).toBe('INVALID_SIGNATURE');
      }
      // The signature covers the exact bytes: the same JSON re-spaced does not verify.
      const r = await inbound(JSON.stringify(JSON.parse(raw), null, 2), sign(raw)).expect(400);
      expect(r.body.code).toBe('INVALID_SIGNATURE');
      expect(await t.ds.query(`SELECT 1 FROM webhook_inbound_events WHERE event_id = $1`, [`evt_bad_${ref}`])).toEqual([]);
    });

    it('an unknown provider is 404; bad input is 422', async () => {
      const raw = JSON.stringify({ id: 'evt_x', type: 'charge.succeeded', data: { reference: 'x' } });
      await inbound(raw, sign(raw), 'acme').expect(404);
      for (const body of [{}, { id: 'evt_1' }, { id: '', type: 'charge.succeeded' }, { id: 'evt_2', type: 'Charge Succeeded!' }, { id: 'evt_3', type: 'charge.succeeded', data: 'x' }, { id: 'evt_4', type: 'charge.succeeded', extra: 1 }, { id: 'evt_5', type: 'charge.succeeded', data: {} }, { id: 'evt_6', type: 'merchant.updated', data: { reference: 'm', status: 'bogus' } }]) {
        const raw2 = JSON.stringify(body);
        const r = await inbound(raw2);
        expect([r.status, body]).toEqual([422, body]);
      }
    });
  });
});
