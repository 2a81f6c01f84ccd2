import { Scope } from '../../src/common/access/scope';
import { MerchantReadiness } from '../../src/modules/payments/onboarding/merchant-readiness';
import { PaymentProvider } from '../../src/modules/payments/provider/payment-provider';
import { companyActor, CompanyActor, memberActor, MemberActor } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
const BASE = '/api/v1/psp/onboarding';
const PATHS = ['cancel', 'complete', 'fee_details', 'tos'] as const;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ALLOW = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const VERSION = '2025-06-01';

/**
 * Merchant onboarding (issue #13): the 24 routes /psp/onboarding/{cancel,complete,fee_details,tos}
 * with GET, POST, PUT, PATCH, DELETE and OPTIONS, all CO. The sandbox provider approves merchants at
 * once; this app runs with PAYMENT_SANDBOX_MERCHANT_READY=false so that readiness follows the state.
 */
describe('Merchant onboarding', () => {
  let t: TestApp;
  let co: CompanyActor;
  let customer: MemberActor;
  let driver: MemberActor;

  beforeAll(async () => {
    t = await startTestApp({ env: { PAYMENT_SANDBOX_MERCHANT_READY: 'false' } });
    co = await companyActor(t, 'Onboarding Hauling');
    customer = await memberActor(t, co, 'customer');
    driver = await memberActor(t, co, 'driver');
  }, 120_000);
  afterAll(async () => t?.close());

  const req = (method: (typeof METHODS)[number], path: string, token: string, body?: unknown, ip?: string) => t.req(method, `${BASE}/${path}`, { token, body, ip });
  const options = (path: string, token?: string) => {
    let r = t.http.options(`${BASE}/${path}`).set('X-Forwarded-For', '10.9.9.9');
    if (token) r = r.set('Authorization', `Bearer ${token}`);
    return r;
  };
  /**
   * The company's events of a type, oldest first. Events of one transaction share `created_at` (now()),
   * so state changes are put in the order of their chain (each one's `from` is the previous one's `to`).
   */
  const events = async (companyId: string, type: string) => {
    const payloads: any[] = (await t.ds.query(`SELECT payload FROM outbox_events WHERE company_id = $1 AND type = $2 ORDER BY created_at, id`, [companyId, type])).map((r: any) => r.payload);
    if (!payloads.every((p) => 'from' in p && 'to' in p)) return payloads;
    const rest = [...payloads];
    const out: any[] = [];
    while (rest.length) {
      const prev = out[out.length - 1];
      const next = prev ? rest.findIndex((p) => p.from === prev.to) : rest.findIndex((p) => !rest.some((q) => q !== p && q.to === p.from));
      out.push(...rest.splice(next < 0 ? 0 : next, 1));
    }
    return out;
  };
  const ready = (companyId: string) => t.app.get(MerchantReadiness).isCardReady(Scope.company(companyId));

  describe('the onboarding story: not_started → pending (with URL) → complete → approved', () => {
    it('walks through terms, start, the return URL and approval', async () => {
      const initial = (await req('get', 'complete', co.token).expect(200)).body.data;
      expect(initial).toMatchObject({ state: 'not_started', provider: null, provider_reference: null, onboarding_url: null, card_payments_ready: false, terms_accepted: false, payout_schedule: 'weekly' });
      expect(await ready(co.companyId)).toBe(false);
      await expect(t.app.get(MerchantReadiness).assertCardReady(Scope.company(co.companyId))).rejects.toMatchObject({ code: 'MERCHANT_NOT_READY' });

      // Starting needs the current terms.
      const refused = await req('put', 'complete', co.token).expect(409);
      expect(refused.body.code).toBe('TERMS_NOT_ACCEPTED');
      await req('put', 'tos', co.token, { version: VERSION }).expect(200);

      const started = (await req('put', 'complete', co.token).expect(200)).body.data;
      expect(started).toMatchObject({ state: 'pending', provider: 'sandbox', terms_accepted: true, card_payments_ready: false });
      expect(started.provider_reference).toEqual(expect.any(String));
      expect(started.onboarding_url).toMatch(/^https?:\/\//);
      expect(started.started_at).toEqual(expect.any(String));
      // Idempotent: no second merchant.
      const again = (await req('put', 'complete', co.token).expect(200)).body.data;
      expect(again.provider_reference).toBe(started.provider_reference);

      // The provider's return URL: re-check and record.
      const done = (await req('post', 'complete', co.token).expect(200)).body.data;
      expect(done).toMatchObject({ state: 'approved', provider_reference: started.provider_reference, card_payments_ready: true });
      expect(done.approved_at).toEqual(expect.any(String));
      expect(done.last_checked_at).toEqual(expect.any(String));
      expect(await ready(co.companyId)).toBe(true);
      expect((await req('get', 'cancel', co.token).expect(200)).body.data.state).toBe('approved');

      // PATCH re-checks (still approved, no new event).
      expect((await req('patch', 'complete', co.token).expect(200)).body.data.state).toBe('approved');
      const moves = await events(co.companyId, 'merchant_account.state_changed');
      expect(moves.map((p: any) => `${p.from}>${p.to}:${p.reason}`)).toEqual(['not_started>pending:started', 'pending>approved:provider_check']);
      expect(moves[0]).toMatchObject({ provider: 'sandbox', provider_reference: started.provider_reference });

      // An approved account can be neither cancelled nor restarted.
      expect((await req('post', 'cancel', co.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
      expect((await req('delete', 'complete', co.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
      expect((await req('delete', 'cancel', co.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
    });

    it('a first POST complete (the return URL) starts onboarding and records the answer', async () => {
      const c = await companyActor(t, 'Direct Hauling');
      await req('post', 'tos', c.token, { version: VERSION }).expect(200);
      const res = (await req('post', 'complete', c.token).expect(200)).body.data;
      expect(res.state).toBe('approved');
      expect((await events(c.companyId, 'merchant_account.state_changed')).map((p: any) => p.to)).toEqual(['pending', 'approved']);
    });

    it('keeps companies apart', async () => {
      const other = await companyActor(t, 'Other Hauling');
      const res = (await req('get', 'complete', other.token).expect(200)).body.data;
      expect(res).toMatchObject({ state: 'not_started', provider_reference: null, terms_accepted: false });
      expect((await req('get', 'tos', other.token).expect(200)).body.data.acceptance).toBeNull();
    });
  });

  describe('cancel, resume, restart', () => {
    it('cancels a pending onboarding, withdraws the cancellation, restarts', async () => {
      const c = await companyActor(t, 'Cancel Hauling');
      await req('patch', 'tos', c.token, { version: VERSION }).expect(200);
      // Nothing to cancel yet.
      expect((await req('post', 'cancel', c.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
      expect((await req('patch', 'complete', c.token).expect(409)).body.code).toBe('ONBOARDING_NOT_STARTED');
      const started = (await req('put', 'complete', c.token).expect(200)).body.data;

      const cancelled = (await req('post', 'cancel', c.token, { reason: 'Later' }).expect(200)).body.data;
      expect(cancelled).toMatchObject({ state: 'cancelled', cancel_reason: 'Later', provider_reference: started.provider_reference });
      expect(cancelled.cancelled_at).toEqual(expect.any(String));
      // PATCH/PUT on a cancelled account: only the reason changes.
      expect((await req('patch', 'cancel', c.token, { reason: 'Next week' }).expect(200)).body.data).toMatchObject({ state: 'cancelled', cancel_reason: 'Next week' });
      expect((await req('put', 'cancel', c.token, {}).expect(200)).body.data).toMatchObject({ state: 'cancelled', cancel_reason: 'Next week' });
      // DELETE cancel withdraws the cancellation: pending with the same merchant.
      const resumed = (await req('delete', 'cancel', c.token).expect(200)).body.data;
      expect(resumed).toMatchObject({ state: 'pending', cancel_reason: null, cancelled_at: null, provider_reference: started.provider_reference, onboarding_url: started.onboarding_url });
      expect((await req('delete', 'cancel', c.token).expect(409)).body.code).toBe('INVALID_TRANSITION');

      // PUT cancel, then PUT complete: a new merchant.
      expect((await req('put', 'cancel', c.token, { reason: 'Wrong entity' }).expect(200)).body.data.state).toBe('cancelled');
      // (The sandbox derives the reference from the company, so the new merchant has the same one.)
      const restarted = (await req('put', 'complete', c.token).expect(200)).body.data;
      expect(restarted).toMatchObject({ state: 'pending', cancel_reason: null, cancelled_at: null });
      expect(restarted.onboarding_url).toEqual(expect.any(String));

      // DELETE complete: back to not_started, the reference forgotten; idempotent.
      const reset = (await req('delete', 'complete', c.token).expect(200)).body.data;
      expect(reset).toMatchObject({ state: 'not_started', provider: null, provider_reference: null, onboarding_url: null, started_at: null });
      expect((await req('delete', 'complete', c.token).expect(200)).body.data.state).toBe('not_started');
      expect((await events(c.companyId, 'merchant_account.state_changed')).map((p: any) => `${p.to}:${p.reason}`)).toEqual([
        'pending:started',
        'cancelled:cancelled',
        'pending:resumed',
        'cancelled:cancelled',
        'pending:started',
        'not_started:restarted',
      ]);
    });

    it('records a rejection from the provider; DELETE complete restarts', async () => {
      const c = await companyActor(t, 'Rejected Hauling');
      await req('put', 'tos', c.token, { version: VERSION }).expect(200);
      await req('put', 'complete', c.token).expect(200);
      const provider = t.app.get(PaymentProvider);
      const status = jest.spyOn(provider, 'merchantStatus');
      try {
        status.mockResolvedValueOnce('pending');
        expect((await req('patch', 'complete', c.token).expect(200)).body.data.state).toBe('pending');
        // Cancelled while the provider still waits: stays cancelled.
        await req('post', 'cancel', c.token).expect(200);
        status.mockResolvedValueOnce('pending');
        expect((await req('patch', 'complete', c.token).expect(200)).body.data.state).toBe('cancelled');
        await req('delete', 'cancel', c.token).expect(200);
        status.mockResolvedValueOnce('rejected');
        const rejected = (await req('post', 'complete', c.token).expect(200)).body.data;
        expect(rejected).toMatchObject({ state: 'rejected', card_payments_ready: false });
        expect(rejected.rejected_at).toEqual(expect.any(String));
        // Rejected: PUT answers it as it is; cancel is refused; DELETE complete restarts.
        expect((await req('put', 'complete', c.token).expect(200)).body.data.state).toBe('rejected');
        expect((await req('put', 'cancel', c.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
        expect((await req('delete', 'complete', c.token).expect(200)).body.data).toMatchObject({ state: 'not_started', rejected_at: null });
        expect((await req('post', 'complete', c.token).expect(200)).body.data.state).toBe('approved');
      } finally {
        status.mockRestore();
      }
    });

    it('serialises concurrent starts: one merchant', async () => {
      const c = await companyActor(t, 'Race Hauling');
      await req('put', 'tos', c.token, { version: VERSION }).expect(200);
      const answers = await Promise.all(Array.from({ length: 6 }, () => req('put', 'complete', c.token)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.body.data.provider_reference)).size).toBe(1);
      expect(await events(c.companyId, 'merchant_account.state_changed')).toHaveLength(1);
    });
  });

  describe('terms of service', () => {
    it('records who, when and from where; withdraws and re-accepts', async () => {
      const c = await companyActor(t, 'Terms Hauling');
      const before = (await req('get', 'tos', c.token).expect(200)).body.data;
      expect(before).toMatchObject({ current_version: VERSION, accepted: false, acceptance: null });
      expect(before.terms_url).toMatch(/^https:\/\//);

      const accepted = (await req('post', 'tos', c.token, { version: VERSION }, '203.0.113.7').expect(200)).body.data;
      expect(accepted.accepted).toBe(true);
      expect(accepted.acceptance).toMatchObject({ version: VERSION, accepted_by_id: c.userId, ip: '203.0.113.7' });
      // Accepting again keeps the acceptance (PUT and PATCH are the same).
      expect((await req('put', 'tos', c.token, { version: VERSION }).expect(200)).body.data.acceptance.id).toBe(accepted.acceptance.id);
      expect((await req('patch', 'tos', c.token, { version: VERSION }).expect(200)).body.data.acceptance.id).toBe(accepted.acceptance.id);

      const withdrawn = (await req('delete', 'tos', c.token).expect(200)).body.data;
      expect(withdrawn).toMatchObject({ accepted: false, acceptance: null });
      const [row] = await t.ds.query(`SELECT withdrawn_at, withdrawn_by FROM merchant_terms_acceptances WHERE id = $1`, [accepted.acceptance.id]);
      expect(row.withdrawn_by).toBe(c.userId);
      expect(row.withdrawn_at).toBeInstanceOf(Date);
      expect((await req('delete', 'tos', c.token).expect(200)).body.data.acceptance).toBeNull();
      // Without terms, onboarding does not start.
      expect((await req('post', 'complete', c.token).expect(409)).body.code).toBe('TERMS_NOT_ACCEPTED');

      const again = (await req('patch', 'tos', c.token, { version: VERSION }).expect(200)).body.data;
      expect(again.acceptance.id).not.toBe(accepted.acceptance.id);
      expect((await events(c.companyId, 'merchant_terms.accepted')).length).toBe(2);
      expect((await events(c.companyId, 'merchant_terms.withdrawn')).length).toBe(1);
    });

    it('refuses another version or a missing one (422)', async () => {
      for (const m of ['post', 'put', 'patch'] as const) {
        const old = await req(m, 'tos', co.token, { version: '2020-01-01' }).expect(422);
        expect(old.body.code).toBe('TERMS_VERSION_OUTDATED');
        expect(old.body.errors.version).toBeDefined();
        expect((await req(m, 'tos', co.token, {}).expect(422)).body.errors.version).toBeDefined();
        expect((await req(m, 'tos', co.token, { version: VERSION, ip: '1.2.3.4' }).expect(422)).body.errors.ip).toBeDefined();
        expect((await req(m, 'tos', co.token, { version: 42 }).expect(422)).body.code).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('fee details', () => {
    it("shows the platform's fees and the payout schedule", async () => {
      const res = (await req('get', 'fee_details', co.token).expect(200)).body.data;
      expect(res).toEqual({
        currency: 'USD',
        card_percent_bps: 290,
        card_fixed_amount: 30,
        offline_percent_bps: 0,
        offline_fixed_amount: 0,
        refund_fee_amount: 0,
        payout_schedule: 'weekly',
        payout_schedules: ['daily', 'weekly', 'monthly'],
        merchant_state: 'approved',
      });
    });

    it('quotes the fee on a payment (POST)', async () => {
      expect((await req('post', 'fee_details', co.token, { amount: 45000 }).expect(200)).body.data).toEqual({ amount: 45000, method: 'card', currency: 'USD', platform_fee_amount: 1335, net_amount: 43665 });
      expect((await req('post', 'fee_details', co.token, { amount: 10, method: 'card' }).expect(200)).body.data).toMatchObject({ platform_fee_amount: 10, net_amount: 0 });
      expect((await req('post', 'fee_details', co.token, { amount: 45000, method: 'offline' }).expect(200)).body.data).toMatchObject({ platform_fee_amount: 0, net_amount: 45000 });
      for (const body of [{}, { amount: 0 }, { amount: 1.5 }, { amount: '100' }, { amount: 100, method: 'crypto' }, { amount: 100, extra: 1 }, { amount: 2 ** 31 }]) {
        expect((await req('post', 'fee_details', co.token, body).expect(422)).body.code).toBe('VALIDATION_FAILED');
      }
    });

    it('sets (PUT), updates (PATCH) and resets (DELETE) the payout schedule', async () => {
      const c = await companyActor(t, 'Payout Hauling');
      expect((await req('put', 'fee_details', c.token, { payout_schedule: 'daily' }).expect(200)).body.data).toMatchObject({ payout_schedule: 'daily', merchant_state: 'not_started' });
      expect((await req('patch', 'fee_details', c.token, {}).expect(200)).body.data.payout_schedule).toBe('daily');
      expect((await req('patch', 'fee_details', c.token, { payout_schedule: 'monthly' }).expect(200)).body.data.payout_schedule).toBe('monthly');
      expect((await req('get', 'fee_details', c.token).expect(200)).body.data.payout_schedule).toBe('monthly');
      expect((await req('get', 'complete', c.token).expect(200)).body.data.payout_schedule).toBe('monthly');
      expect((await req('delete', 'fee_details', c.token).expect(200)).body.data.payout_schedule).toBe('weekly');
      expect((await events(c.companyId, 'merchant_account.payout_schedule_changed')).map((p: any) => `${p.from}>${p.to}`)).toEqual(['weekly>daily', 'daily>monthly', 'monthly>weekly']);

      for (const body of [{}, { payout_schedule: 'hourly' }, { payout_schedule: null }, { payout_schedule: 'daily', fee: 1 }]) {
        expect((await req('put', 'fee_details', c.token, body).expect(422)).body.code).toBe('VALIDATION_FAILED');
      }
      for (const body of [{ payout_schedule: 'hourly' }, { payout_schedule: null }]) {
        expect((await req('patch', 'fee_details', c.token, body).expect(422)).body.code).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('OPTIONS', () => {
    it.each(PATHS)('%s answers 204 with the Allow header', async (path) => {
      const res = await options(path, co.token).expect(204);
      expect(res.headers.allow).toBe(ALLOW);
      expect(res.text).toBe('');
    });

    it.each(PATHS)('%s is CO only (401 without a token, 403 for customer and driver)', async (path) => {
      expect((await options(path).expect(401)).body.code).toBe('UNAUTHENTICATED');
      expect((await options(path, customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
      expect((await options(path, driver.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    });

    it('leaves browser preflights to CORS (no token needed)', async () => {
      const res = await t.http
        .options(`${BASE}/tos`)
        .set('Origin', 'https://app.example.test')
        .set('Access-Control-Request-Method', 'PUT')
        .expect(204);
      expect(res.headers['access-control-allow-methods']).toContain('PUT');
    });
  });

  describe('access and bad input on every route', () => {
    const routes = PATHS.flatMap((p) => METHODS.map((m) => [m, p] as const));

    it.each(routes)('%s %s is CO only (403 for customer and driver)', async (method, path) => {
      const body = path === 'tos' && method !== 'get' && method !== 'delete' ? { version: VERSION } : undefined;
      expect((await req(method, path, customer.token, body).expect(403)).body.code).toBe('WRONG_ACTOR');
      expect((await req(method, path, driver.token, body).expect(403)).body.code).toBe('WRONG_ACTOR');
      await req(method, path, '').expect(401);
    });

    it.each(routes)('%s %s refuses unreadable input with 422, never 500', async (method, path) => {
      const res = await t.req(method, `${BASE}/${path}?note=%00`, { token: co.token }).expect(422);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    it.each([...PATHS.map((p) => ['post', p] as const), ...PATHS.map((p) => ['put', p] as const), ...PATHS.map((p) => ['patch', p] as const)])('%s %s refuses unknown fields or wrong types (422)', async (method, path) => {
      const body = path === 'cancel' ? { reason: 42 } : path === 'complete' ? { whatever: '\u0000' } : path === 'tos' ? { version: VERSION, extra: true } : { payout_schedule: 'daily', amount: 100, extra: 1 };
      expect((await req(method, path, co.token, body).expect(422)).body.code).toBe('VALIDATION_FAILED');
    });
  });
});
