import Stripe from 'stripe';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { PaymentReconciler } from '../../src/modules/payments/ledger/payment-reconciler';
import { platformFee } from '../../src/modules/payments/onboarding/platform-fees';
import { loadConfig } from '../../src/config/app-config';
import { ChargeStillPending, PENDING_POLLS, StripePaymentProvider } from '../../src/modules/payments/provider/stripe-provider';
import { inDays, orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startStripeStub, StripeStub } from '../support/stripe-stub';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
jest.setTimeout(60_000);

const WEBHOOK_SECRET = 'whsec_stripe_adapter_test_secret';
const PUBLIC = 'https://api.haulops.test';
const TERMS = '2025-06-01';

/**
 * The Stripe adapter (issue #13, PAYMENT_PROVIDER=stripe) over real HTTP: the official SDK pointed at a
 * local stub (test/support/stripe-stub.ts) through STRIPE_API_BASE. Everything through our HTTP API;
 * the stub says what reached "Stripe" (paths, bodies, Idempotency-Key).
 */
describe('Payments: the Stripe adapter', () => {
  let stub: StripeStub;
  let t: TestApp;
  let w: OrderWorld;
  let visa: { id: string };
  let account: string;

  const cu = (method: 'get' | 'post', path: string, body?: unknown, headers?: Record<string, string>) => t.req(method, `/api/v1/${path}`, { token: w.customer.token, body, headers });
  const co = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  const order = async (id: string) => (await cu('get', `customer/order/${id}`).expect(200)).body.data;
  const event = (type: string, object: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
  const hook = (payload: string, signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) =>
    t.http.post('/api/v1/psp/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', signature).send(payload);

  beforeAll(async () => {
    stub = await startStripeStub();
    t = await startTestApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_stubbed', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stub.url, PUBLIC_BASE_URL: `${PUBLIC}/` } });
    w = await orderWorld(t, { name: 'Stripe Hauling' });
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  it('validates the Stripe configuration at start', () => {
    const base = { DATA_DIR: '/tmp', JWT_SECRET: 'x'.repeat(40), PAYMENT_PROVIDER: 'stripe', PUBLIC_BASE_URL: PUBLIC };
    expect(() => loadConfig({ ...base })).toThrow(/STRIPE_SECRET_KEY is required/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_1' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', PUBLIC_BASE_URL: '' })).toThrow(/PUBLIC_BASE_URL is required/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_API_BASE: 'ftp://x' })).toThrow(/STRIPE_API_BASE/);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'nope' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER must be one of sandbox, stripe/);
    const c = loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(c.stripeApiBase).toEqual({ protocol: 'http', host: '127.0.0.1', port: 12111 });
  });

  it('onboards the company as an Express account through an Account Link; card payments wait for it', async () => {
    const o = await placeOrder(t, w);
    await cu('post', 'customer/psp/identity', {}).expect(201);
    const early = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_visa' }).expect(201)).body.data;
    expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: early.id }).expect(409)).body.code).toBe('MERCHANT_NOT_READY');

    await co('put', 'psp/onboarding/tos', { version: TERMS }).expect(200);
    const started = (await co('put', 'psp/onboarding/complete').expect(200)).body.data;
    account = started.provider_reference;
    expect(started).toMatchObject({ state: 'pending', provider: 'stripe', card_payments_ready: false });
    expect(account).toMatch(/^acct_/);
    expect(started.onboarding_url).toMatch(new RegExp(`^https://connect\\.stripe\\.test/setup/e/${account}/`));
    expect(stub.seen('/v1/accounts')).toEqual([expect.objectContaining({ body: expect.objectContaining({ type: 'express', metadata: { company_id: w.company.companyId } }) })]);
    expect(stub.seen('/v1/account_links')[0].body).toEqual({ account, type: 'account_onboarding', return_url: `${PUBLIC}/api/v1/psp/onboarding/complete`, refresh_url: `${PUBLIC}/api/v1/psp/onboarding/cancel` });

    // The link expired (the refresh URL): PUT complete again gives a fresh link for the same account.
    const refreshed = (await co('put', 'psp/onboarding/complete').expect(200)).body.data;
    expect(refreshed).toMatchObject({ state: 'pending', provider_reference: account });
    expect(refreshed.onboarding_url).not.toBe(started.onboarding_url);
    expect(stub.seen('/v1/accounts')).toHaveLength(1);
    expect(stub.seen('/v1/account_links').map((r) => r.body.account)).toEqual([account, account]);

    // The return URL while Stripe still waits for details: pending, read from the account.
    expect((await co('post', 'psp/onboarding/complete').expect(200)).body.data.state).toBe('pending');
    stub.setAccount(account, 'approved');
    const done = (await co('post', 'psp/onboarding/complete').expect(200)).body.data;
    expect(done).toMatchObject({ state: 'approved', card_payments_ready: true });
    expect(stub.seen(`/v1/accounts/${account}`, 'GET')).toHaveLength(2);
    visa = early;
  });

  it('makes the buyer a Customer and the token a PaymentMethod attached to it, masked', async () => {
    const identity = (await cu('post', 'customer/psp/identity', {}).expect(201)).body.data;
    expect(identity).toMatchObject({ provider: 'stripe', provider_reference: expect.stringMatching(/^cus_/) });
    expect(stub.customers.get(identity.provider_reference).metadata).toEqual({ user_id: w.customer.id });
    const mc = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_mastercard' }).expect(201)).body.data;
    expect(mc).toMatchObject({ provider: 'stripe', brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 });
    expect(JSON.stringify(mc)).not.toMatch(/pm_|tok_/);
    const attached = stub.seen(/^\/v1\/payment_methods\/pm_\w+\/attach$/);
    expect(attached.at(-1)!.body).toEqual({ customer: identity.provider_reference });
    const unknown = await cu('post', 'customer/psp/payment-instrument', { token: 'tok_nonsense' }).expect(422);
    expect(unknown.body.code).toBe('INVALID_PAYMENT_TOKEN');
  });

  it('charges an order with a PaymentIntent to the connected account, the platform fee and our idempotency key, once per key', async () => {
    const o = await placeOrder(t, w);
    const before = stub.seen('/v1/payment_intents').length;
    const paid = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }, { 'Idempotency-Key': `stripe-pay-${o.id}` }).expect(201);
    const tx = paid.body.data.transaction;
    expect(tx).toMatchObject({ kind: 'charge', status: 'succeeded', amount: o.total_amount, provider_reference: expect.stringMatching(/^pi_/) });
    expect(paid.body.data.order).toMatchObject({ paid_amount: o.total_amount, balance_amount: 0, payment_status: 'paid' });
    const [sent] = stub.seen('/v1/payment_intents').slice(before);
    // The request's Idempotency-Key gives the provider's (README "Stripe adapter").
    expect(sent.idempotencyKey).toMatch(/^charge:req:[0-9a-f]{40}$/);
    expect(sent.body).toMatchObject({
      amount: String(o.total_amount),
      currency: 'usd',
      confirm: 'true',
      off_session: 'true',
      transfer_data: { destination: account },
      application_fee_amount: String(platformFee(o.total_amount, 'card')),
      metadata: { idempotency_key: sent.idempotencyKey },
    });
    expect(stub.paymentIntents.get(tx.provider_reference)).toMatchObject({ status: 'succeeded', customer: expect.stringMatching(/^cus_/) });

    // The same Idempotency-Key replays our first answer; Stripe is not asked again.
    const again = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }, { 'Idempotency-Key': `stripe-pay-${o.id}` }).expect(201);
    expect(again.body.data.transaction.id).toBe(tx.id);
    expect(stub.seen('/v1/payment_intents').length).toBe(before + 1);
  });

  it('records a declined card as a failed transaction with its code; the balance stays', async () => {
    const o = await placeOrder(t, w);
    for (const [token, code] of [
      ['tok_chargeDeclined', 'card_declined'],
      ['tok_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ]) {
      const card = (await cu('post', 'customer/psp/payment-instrument', { token }).expect(201)).body.data;
      const refused = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: card.id }).expect(201);
      expect(refused.body.data.transaction).toMatchObject({ status: 'failed', failure_code: code, amount: o.total_amount, provider_reference: expect.stringMatching(/^pi_/) });
      expect(refused.body.data.order).toMatchObject({ paid_amount: 0, balance_amount: o.total_amount, payment_status: 'unpaid' });
    }
    expect((await order(o.id)).balance_amount).toBe(o.total_amount);
  });

  it('Stripe down: the charge stays pending (202) and holds the balance; the reconciler finds no charge and releases it; a new pay then pays', async () => {
    const o = await placeOrder(t, w);
    stub.outage = true;
    let pending: any;
    try {
      pending = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(202)).body.data.transaction;
      expect(pending).toMatchObject({ status: 'pending', provider_reference: null, amount: o.total_amount });
    } finally {
      stub.outage = false;
    }
    expect((await order(o.id)).balance_amount).toBe(o.total_amount);
    // The outcome is unknown: no second charge may start, with or without a key.
    expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(409)).body.code).toBe('PAYMENT_PENDING');
    // The reconciler asks Stripe (by our key in the metadata): no such PaymentIntent. Still unknown within 15 minutes; then failed, the hold released.
    const reconciler = t.app.get(PaymentReconciler);
    const soon = await reconciler.run(new Date(Date.now() + 2 * 60_000));
    expect(soon).toMatchObject({ checked: 1, unknown: 1 });
    await reconciler.run(new Date(Date.now() + 20 * 60_000));
    const [row] = await t.ds.query(`SELECT status, failure_code FROM payment_transactions WHERE id = $1`, [pending.id]);
    expect(row).toEqual({ status: 'failed', failure_code: 'not_charged' });
    await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(201);
    expect((await order(o.id)).balance_amount).toBe(0);
  });

  it('a request retried with its Idempotency-Key after Stripe charged but its answers were lost replays 202 and never charges twice; the reconciler settles it', async () => {
    const o = await placeOrder(t, w);
    const headers = { 'Idempotency-Key': `lost-answer-${o.id}` };
    const before = stub.paymentIntents.size;
    stub.dropAnswers = 3; // the first try and the SDK's two retries (same Stripe key) are all cut after Stripe did the work
    const lost = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }, headers).expect(202);
    expect(lost.body.data.transaction).toMatchObject({ status: 'pending', amount: o.total_amount });
    expect(stub.paymentIntents.size).toBe(before + 1); // Stripe did charge
    expect((await order(o.id)).balance_amount).toBe(o.total_amount); // not yet known to us
    const replay = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }, headers).expect(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(lost.body);
    expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(409)).body.code).toBe('PAYMENT_PENDING');
    expect(stub.paymentIntents.size).toBe(before + 1); // no second charge
    await t.app.get(PaymentReconciler).run(new Date(Date.now() + 2 * 60_000));
    const [row] = await t.ds.query(`SELECT status, provider_ref FROM payment_transactions WHERE id = $1`, [lost.body.data.transaction.id]);
    expect(row.status).toBe('succeeded');
    expect(stub.paymentIntents.get(row.provider_ref)).toMatchObject({ status: 'succeeded', amount: o.total_amount, metadata: { idempotency_key: expect.stringMatching(/^charge:req:/) } });
    expect((await order(o.id)).balance_amount).toBe(0);
    expect(stub.paymentIntents.size).toBe(before + 1);
  });

  it('refunds a cancelled prepaid order to the card: a Refund reversing the transfer and the fee, keyed by the event', async () => {
    await cu('post', 'customer/psp/identity', { refund_to: 'instrument' }).expect(201);
    const o = await placeOrder(t, w, { delivery_date: inDays(1) });
    const charge = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(201)).body.data.transaction;
    const cancelled = (await cu('post', `customer/order/${o.id}/cancel`, {}).expect(200)).body.data;
    for (let i = 0; i < 2; i++) await t.app.get(OutboxRelay).runOnce();
    const refunds = (await cu('get', `customer/transactions?kind=refund&order_id=${o.id}`).expect(200)).body.data;
    const amount = o.total_amount - cancelled.total_amount;
    expect(refunds).toEqual([expect.objectContaining({ status: 'succeeded', amount, related_transaction_id: charge.id, provider_reference: expect.stringMatching(/^re_/) })]);
    const sent = stub.seen('/v1/refunds');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ payment_intent: charge.provider_reference, amount: String(amount), reverse_transfer: 'true', refund_application_fee: 'true' });
    expect(sent[0].idempotencyKey).toMatch(/^refund:[0-9a-f-]{36}$/);
    expect((await order(o.id)).payment_status).toBe('refunded');
    await cu('post', 'customer/psp/identity', { refund_to: 'wallet' }).expect(201);

    // Stripe then reports the refund (charge.refunded): the ledger already holds it.
    const known = await hook(event('charge.refunded', { id: stub.paymentIntents.get(charge.provider_reference).latest_charge, object: 'charge', payment_intent: charge.provider_reference, amount_refunded: amount, refunded: false })).expect(200);
    expect(known.body.data).toMatchObject({ duplicate: false, outcome: 'no_match', reason: expect.stringMatching(/already holds/) });

    // Days later the refund fails at the bank (refund.failed): the refund row fails, the wallet gets the money; a replay changes nothing.
    const walletBefore = (await cu('get', 'wallet').expect(200)).body.data.balance_amount as number;
    const failed = event('refund.failed', { id: refunds[0].provider_reference, object: 'refund', amount, payment_intent: charge.provider_reference, status: 'failed', failure_reason: 'expired_or_canceled_card' }, 'evt_refund_failed_1');
    expect((await hook(failed).expect(200)).body.data).toMatchObject({ duplicate: false, outcome: 'applied' });
    expect((await hook(failed).expect(200)).body.data).toMatchObject({ duplicate: true, outcome: 'applied' });
    const rows = (await cu('get', `customer/transactions?order_id=${o.id}`).expect(200)).body.data as { kind: string; status: string; amount: number; failure_code: string | null; related_transaction_id: string | null }[];
    expect(rows.find((r) => r.kind === 'refund')).toMatchObject({ status: 'failed', failure_code: 'expired_or_canceled_card' });
    expect(rows.filter((r) => r.kind === 'wallet_credit')).toEqual([expect.objectContaining({ status: 'succeeded', amount, related_transaction_id: refunds[0].id })]);
    expect((await cu('get', 'wallet').expect(200)).body.data.balance_amount).toBe(walletBefore + amount);
    expect(await order(o.id)).toMatchObject({ paid_amount: cancelled.total_amount, payment_status: 'refunded' });
  });

  it('settles a processing charge from its signed webhook, once; a replay is a duplicate; a bad signature is 400', async () => {
    const o = await placeOrder(t, w);
    const slow = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_stub_processing' }).expect(201)).body.data;
    const pending = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: slow.id }).expect(201)).body.data;
    expect(pending.transaction).toMatchObject({ status: 'pending', provider_reference: expect.stringMatching(/^pi_/) });
    expect(pending.order).toMatchObject({ paid_amount: 0, balance_amount: o.total_amount });
    expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(409)).body.code).toBe('PAYMENT_PENDING');

    const pi = stub.settleIntent(pending.transaction.provider_reference, 'succeeded');
    const payload = event('payment_intent.succeeded', pi, 'evt_settle_processing_1');
    const applied = await hook(payload).expect(200);
    expect(applied.body.data).toEqual({ event: 'evt_settle_processing_1', type: 'payment_intent.succeeded', duplicate: false, outcome: 'applied', reason: null });
    expect(await order(o.id)).toMatchObject({ paid_amount: o.total_amount, payment_status: 'paid' });
    const tx = (await cu('get', `customer/transactions/${pending.transaction.id}`).expect(200)).body.data;
    expect(tx.status).toBe('succeeded');

    const replay = await hook(payload).expect(200);
    expect(replay.body.data).toEqual({ event: 'evt_settle_processing_1', type: 'payment_intent.succeeded', duplicate: true, outcome: 'applied', reason: null });
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM webhook_inbound_events WHERE provider = 'stripe' AND event_id = 'evt_settle_processing_1'`);
    expect(n).toBe(1);

    // A succeeded PaymentIntent the ledger settled when it was made: nothing pending, said why.
    const settled = await hook(event('payment_intent.succeeded', pi)).expect(200);
    expect(settled.body.data).toMatchObject({ outcome: 'no_match', reason: expect.stringMatching(/No pending charge/) });

    const wrong = await hook(payload.replace('evt_settle_processing_1', 'evt_forged'), Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' })).expect(400);
    expect(wrong.body.code).toBe('INVALID_SIGNATURE');
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await hook(payload.replace('evt_settle_processing_1', 'evt_forged'), signed).expect(400)).body.code).toBe('INVALID_SIGNATURE'); // the body changed after signing
    const unsigned = await t.http.post('/api/v1/psp/webhooks/stripe').set('Content-Type', 'application/json').send(payload).expect(400);
    expect(unsigned.body.code).toBe('INVALID_SIGNATURE');
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await hook(payload, stale).expect(400)).body.code).toBe('INVALID_SIGNATURE');
  });

  it('fails a processing charge from payment_intent.payment_failed; records a refund made at Stripe; tracks the account; ignores other types', async () => {
    const o = await placeOrder(t, w);
    const slow = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_stub_processing' }).expect(201)).body.data;
    const pending = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: slow.id }).expect(201)).body.data.transaction;
    const pi = stub.settleIntent(pending.provider_reference, 'failed');
    expect((await hook(event('payment_intent.payment_failed', pi)).expect(200)).body.data.outcome).toBe('applied');
    expect((await cu('get', `customer/transactions/${pending.id}`).expect(200)).body.data).toMatchObject({ status: 'failed', failure_code: 'card_declined' });

    // A partial refund made in Stripe's dashboard: recorded against the charge, the order owes it again.
    const paid = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa.id }).expect(201)).body.data.transaction;
    const refund = await hook(event('charge.refunded', { id: 'ch_dashboard_1', object: 'charge', payment_intent: paid.provider_reference, amount_refunded: 500, refunded: false }, 'evt_dashboard_refund')).expect(200);
    expect(refund.body.data).toMatchObject({ outcome: 'applied', reason: null });
    expect(await order(o.id)).toMatchObject({ paid_amount: o.total_amount - 500, balance_amount: 500, payment_status: 'partially_paid' });
    const rows = (await cu('get', `customer/transactions?kind=refund&order_id=${o.id}`).expect(200)).body.data;
    expect(rows).toEqual([expect.objectContaining({ amount: 500, status: 'succeeded', related_transaction_id: paid.id, provider_reference: 'ch_dashboard_1' })]);

    // account.updated: Stripe disabled the account for good.
    const rejected = stub.setAccount(account, 'rejected');
    expect((await hook(event('account.updated', rejected)).expect(200)).body.data.outcome).toBe('applied');
    expect((await co('get', 'psp/onboarding/complete').expect(200)).body.data).toMatchObject({ state: 'rejected', card_payments_ready: false });
    expect((await hook(event('account.updated', { ...rejected, id: 'acct_not_ours' })).expect(200)).body.data).toMatchObject({ outcome: 'no_match', reason: expect.stringMatching(/merchant/) });

    const other = await hook(event('customer.created', { id: 'cus_x', object: 'customer' })).expect(200);
    expect(other.body.data).toMatchObject({ type: 'customer.created', outcome: 'ignored', reason: 'Event type customer.created is not handled.' });
  });

  it('charge (for callers without a pending row) waits for a processing PaymentIntent, then gives up', async () => {
    const provider = new StripePaymentProvider(t.config);
    const buyer = await provider.createBuyer({ userId: w.customer.id });
    const card = await provider.attachInstrument('tok_stub_processing', buyer.reference);
    const input = { amount: 2500, currency: 'USD', buyerRef: buyer.reference, instrumentRef: card.reference, merchantRef: null, idempotencyKey: `subscription:test:${Date.now()}` };
    const settling = setTimeout(() => stub.settleIntent([...stub.paymentIntents.values()].at(-1).id, 'succeeded'), 200);
    const done = await provider.charge(input).finally(() => clearTimeout(settling));
    expect(done).toEqual({ status: 'succeeded', reference: expect.stringMatching(/^pi_/) });
    expect(stub.seen(`/v1/payment_intents/${done.reference}`, 'GET')).toHaveLength(1);
    expect(stub.paymentIntents.get(done.reference)).toMatchObject({ transfer_data: null, application_fee_amount: null });

    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const stuck = provider.charge({ ...input, idempotencyKey: `${input.idempotencyKey}:2` });
      const outcome = stuck.then(
        () => 'resolved',
        (e: unknown) => e,
      );
      for (let i = 0; i < PENDING_POLLS; i++) {
        while (jest.getTimerCount() === 0) await new Promise((r) => setImmediate(r));
        jest.advanceTimersByTime(1000);
      }
      expect(await outcome).toBeInstanceOf(ChargeStillPending);
    } finally {
      jest.useRealTimers();
    }
  });
});
