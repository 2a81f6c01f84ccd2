import Stripe from 'stripe';
import { recordEvents } from '../../src/common/outbox/outbox';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { PaymentReconciler } from '../../src/modules/payments/ledger/payment-reconciler';
import { inDays, orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startStripeStub, StripeStub } from '../support/stripe-stub';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
jest.setTimeout(120_000);

const WEBHOOK_SECRET = 'whsec_money_edges_test_secret';

/**
 * Issue #22, money at the edges, over HTTP against the Stripe stub: a charge whose answer was lost is
 * settled by the provider's webhook (found by our key in its metadata) or by the reconciler, never
 * charged twice; and money follows every lifecycle path (rejection, repricing, fees removed, provider
 * refunds counted against what the wallet already returned, lost disputes), exactly once.
 */
describe('Payments: money at the edges', () => {
  let stub: StripeStub;
  let t: TestApp;
  let w: OrderWorld;
  let visa: string;

  const cu = (method: 'get' | 'post', path: string, body?: unknown, headers?: Record<string, string>) => t.req(method, `/api/v1/${path}`, { token: w.customer.token, body, headers });
  const co = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  const order = async (id: string) => (await cu('get', `customer/order/${id}`).expect(200)).body.data;
  const wallet = async () => (await cu('get', 'wallet').expect(200)).body.data.balance_amount as number;
  const rows = (orderId: string): Promise<any[]> => t.ds.query(`SELECT kind, status, amount, method FROM payment_transactions WHERE order_id = $1 ORDER BY created_at, id`, [orderId]);
  const relay = async () => {
    for (let i = 0; i < 4; i++) await t.app.get(OutboxRelay).runOnce();
  };
  const event = (type: string, object: Record<string, unknown>, id = `evt_${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
  const hook = (payload: string) =>
    t.http.post('/api/v1/psp/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })).send(payload).expect(200);
  const paidByCard = async (extra: Record<string, unknown> = {}) => {
    const o = await placeOrder(t, w, extra);
    const charge = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(201)).body.data.transaction;
    expect(charge.status).toBe('succeeded');
    return { o, charge, pi: stub.paymentIntents.get(charge.provider_reference) };
  };

  beforeAll(async () => {
    stub = await startStripeStub();
    t = await startTestApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_stubbed', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stub.url, PUBLIC_BASE_URL: 'https://api.haulops.test/' } });
    w = await orderWorld(t, { name: 'Edge Hauling' });
    await co('put', 'psp/onboarding/tos', { version: '2025-06-01' }).expect(200);
    const account = (await co('put', 'psp/onboarding/complete').expect(200)).body.data.provider_reference;
    stub.setAccount(account, 'approved');
    await co('post', 'psp/onboarding/complete').expect(200);
    visa = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_visa' }).expect(201)).body.data.id;
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  describe('lost answers', () => {
    it('Stripe charged, the answer was lost: 202 pending, a retry without key is 409 PAYMENT_PENDING, the webhook settles it by our key, once', async () => {
      const o = await placeOrder(t, w);
      const before = stub.paymentIntents.size;
      stub.dropAnswers = 3; // the call and the SDK's two retries: all done by Stripe, all answers cut
      const lost = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(202)).body.data;
      expect(lost.transaction).toMatchObject({ status: 'pending', provider_reference: null });
      expect(lost.order.balance_amount).toBe(o.total_amount);
      expect(stub.paymentIntents.size).toBe(before + 1);
      // No retry may charge twice, with or without a key; nor may the wallet or an offline payment take the held balance.
      expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(409)).body.code).toBe('PAYMENT_PENDING');
      expect((await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }, { 'Idempotency-Key': `k-${o.id}` }).expect(409)).body.code).toBe('PAYMENT_PENDING');
      expect((await co('post', 'customers/orders/payment-received', { order_id: o.id, method: 'cash', reference: 'C-1' }).expect(409)).body.code).toBe('PAYMENT_PENDING');
      expect(stub.paymentIntents.size).toBe(before + 1);

      // Stripe's payment_intent.succeeded: we never learnt the PaymentIntent's id; its metadata carries our key.
      const pi = [...stub.paymentIntents.values()].at(-1);
      expect(pi.metadata.idempotency_key).toBe(`charge:${lost.transaction.id}`);
      const payload = event('payment_intent.succeeded', { id: pi.id, object: 'payment_intent', amount: pi.amount, status: 'succeeded', metadata: pi.metadata });
      expect((await hook(payload)).body.data).toMatchObject({ duplicate: false, outcome: 'applied' });
      expect((await hook(payload)).body.data).toMatchObject({ duplicate: true });
      const [row] = await t.ds.query(`SELECT status, provider_ref FROM payment_transactions WHERE id = $1`, [lost.transaction.id]);
      expect(row).toEqual({ status: 'succeeded', provider_ref: pi.id });
      expect((await order(o.id)).balance_amount).toBe(0);
      // The reconciler finds nothing left to do; the provider's charge has exactly one ledger row.
      expect((await t.app.get(PaymentReconciler).run(new Date(Date.now() + 5 * 60_000))).checked).toBe(0);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM payment_transactions WHERE provider_ref = $1`, [pi.id]);
      expect(n).toBe(1);
    });

    it('a request retried with its key after a crash between its steps (its key forgotten) answers its own pending row, no second charge', async () => {
      const o = await placeOrder(t, w);
      const headers = { 'Idempotency-Key': `crash-${o.id}` };
      const before = stub.paymentIntents.size;
      stub.dropAnswers = 3;
      const first = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }, headers).expect(202)).body.data.transaction;
      // As if the process died before storing the answer and the key's lease ran out.
      await t.ds.query(`DELETE FROM idempotency_keys WHERE key = $1`, [headers['Idempotency-Key']]);
      const again = await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }, headers).expect(202);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.data.transaction).toMatchObject({ id: first.id, status: 'pending' });
      expect(stub.paymentIntents.size).toBe(before + 1);
      await t.app.get(PaymentReconciler).run(new Date(Date.now() + 2 * 60_000));
      expect((await order(o.id)).balance_amount).toBe(0);
    });

    it('a charge still unknown after an hour (Stripe down for the reconciler too) raises the alert metric; settled once Stripe answers', async () => {
      const o = await placeOrder(t, w);
      stub.outage = true;
      const reconciler = t.app.get(PaymentReconciler);
      try {
        await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(202);
        expect(await reconciler.run(new Date(Date.now() + 2 * 60 * 60_000))).toMatchObject({ checked: 1, unknown: 1, overdue: 1 });
      } finally {
        stub.outage = false;
      }
      const metrics = (await t.http.get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/^payments_pending_overdue_transactions 1$/m);
      expect(metrics).toMatch(/^payments_reconciled_total\{outcome="unknown"\} \d+$/m);
      // Stripe answers again: no such charge (it was down) → failed, the hold released, the alert cleared.
      expect(await reconciler.run(new Date(Date.now() + 4 * 60 * 60_000))).toMatchObject({ checked: 1, failed: 1, overdue: 0 });
      expect((await t.http.get('/metrics').expect(200)).text).toMatch(/^payments_pending_overdue_transactions 0$/m);
      await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(201);
    });

    it('pay-all-dues whose answer was lost: the reconciler settles the whole batch; exactly one charge', async () => {
      // Everything due paid first, then two fresh orders.
      await cu('post', 'customer/payments/pay-all-dues', { instrument_id: visa }).then((r) => expect([201, 409]).toContain(r.status));
      const [a, b] = [await placeOrder(t, w), await placeOrder(t, w)];
      const before = stub.paymentIntents.size;
      stub.dropAnswers = 3;
      const lost = (await cu('post', 'customer/payments/pay-all-dues', { instrument_id: visa }).expect(202)).body.data;
      expect(lost).toMatchObject({ status: 'pending', amount: a.total_amount + b.total_amount });
      expect(lost.transactions).toHaveLength(2);
      expect((await cu('post', `customer/orders/${a.id}/pay`, { instrument_id: visa }).expect(409)).body.code).toBe('PAYMENT_PENDING');
      expect((await cu('post', 'customer/payments/pay-all-dues', { instrument_id: visa }).expect(409)).body.code).toBe('PAYMENT_PENDING');
      const reconciler = t.app.get(PaymentReconciler);
      expect((await reconciler.run(new Date(Date.now() + 10_000))).checked).toBe(0); // not a minute old yet
      expect(await reconciler.run(new Date(Date.now() + 2 * 60_000))).toMatchObject({ checked: 1, succeeded: 1 });
      expect(stub.paymentIntents.size).toBe(before + 1);
      for (const o of [a, b]) expect((await order(o.id)).balance_amount).toBe(0);
      expect((await reconciler.run(new Date(Date.now() + 10 * 60_000))).checked).toBe(0);
    });
  });

  describe('money follows the lifecycle', () => {
    it('a paid order the company rejects: everything goes back to the wallet, once', async () => {
      const { o } = await paidByCard();
      const before = await wallet();
      await co('patch', `reject/order/${o.id}`, { reason: 'No truck' }).expect(200);
      await relay();
      await relay();
      expect(await rows(o.id)).toEqual([expect.objectContaining({ kind: 'charge', amount: o.total_amount }), expect.objectContaining({ kind: 'wallet_credit', status: 'succeeded', amount: o.total_amount })]);
      expect(await wallet()).toBe(before + o.total_amount);
      const after = await order(o.id);
      expect(after).toMatchObject({ status: 'rejected', paid_amount: 0, payment_status: 'refunded' });
    });

    it('a charge whose answer was lost, settled by the reconciler after the order was rejected meanwhile, goes back at once', async () => {
      const o = await placeOrder(t, w);
      stub.dropAnswers = 3;
      const lost = (await cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa }).expect(202)).body.data.transaction;
      await co('patch', `reject/order/${o.id}`, {}).expect(200);
      await relay(); // nothing paid yet: nothing to give back
      const before = await wallet();
      expect(await t.app.get(PaymentReconciler).run(new Date(Date.now() + 2 * 60_000))).toMatchObject({ checked: 1, succeeded: 1 });
      expect((await rows(o.id)).map((r) => [r.kind, r.status, r.amount])).toEqual([['charge', 'succeeded', o.total_amount], ['wallet_credit', 'succeeded', o.total_amount]]);
      expect(await wallet()).toBe(before + o.total_amount);
      expect(await order(o.id)).toMatchObject({ status: 'rejected', paid_amount: 0 });
      expect(lost.id).toBeTruthy();
    });

    it('an order rejected while its card charge waits on the provider: the pay settles it and sends the refund to the card at once', async () => {
      await cu('post', 'customer/psp/identity', { refund_to: 'instrument' }).expect(201);
      try {
        const o = await placeOrder(t, w);
        stub.hold = true; // Stripe charges, its answer waits
        const paying = cu('post', `customer/orders/${o.id}/pay`, { instrument_id: visa });
        const pending = paying.then((r) => r); // sends the request now
        for (let i = 0; i < 100 && !(await rows(o.id)).length; i++) await new Promise((r) => setTimeout(r, 50));
        await co('patch', `reject/order/${o.id}`, {}).expect(200);
        await relay(); // nothing paid yet: nothing to give back
        stub.release();
        const paid = (await pending).body.data.transaction;
        expect(paid.status).toBe('succeeded');
        // When the pay answers, the money has already gone back to the card: no reconciler run needed.
        const pi = stub.paymentIntents.get(paid.provider_reference);
        expect([...stub.refunds.values()].filter((r) => r.payment_intent === pi.id).map((r) => r.amount)).toEqual([o.total_amount]);
        expect((await rows(o.id)).map((r) => [r.kind, r.status, r.amount])).toEqual([['charge', 'succeeded', o.total_amount], ['refund', 'succeeded', o.total_amount]]);
        expect(await order(o.id)).toMatchObject({ status: 'rejected', paid_amount: 0 });
      } finally {
        stub.hold = false;
        await cu('post', 'customer/psp/identity', { refund_to: 'wallet' }).expect(201);
      }
    });

    it('repriced below what was paid (order update): the difference to the wallet at once; back to the card when the customer chose so', async () => {
      const { o } = await paidByCard({ asset_specification_id: w.otherSpecId });
      const before = await wallet();
      const updated = (await co('put', `update/order/${o.id}`, { asset_specification_id: w.specId }).expect(200)).body.data;
      const diff = o.total_amount - updated.total_amount;
      expect(diff).toBeGreaterThan(0);
      await relay();
      await relay(); // a redelivery changes nothing
      expect((await rows(o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', o.total_amount], ['wallet_credit', diff]]);
      expect(await wallet()).toBe(before + diff);
      expect(await order(o.id)).toMatchObject({ paid_amount: updated.total_amount, balance_amount: 0, payment_status: 'paid' });

      // refund_to: instrument → a Stripe refund, reserved in the relay's transaction and made after it committed.
      await cu('post', 'customer/psp/identity', { refund_to: 'instrument' }).expect(201);
      try {
        const card = await paidByCard({ asset_specification_id: w.otherSpecId });
        const cheaper = (await co('put', `update/order/${card.o.id}`, { asset_specification_id: w.specId }).expect(200)).body.data;
        await relay();
        const refunds = [...stub.refunds.values()].filter((r) => r.payment_intent === card.pi.id);
        expect(refunds.map((r) => r.amount)).toEqual([card.o.total_amount - cheaper.total_amount]);
        expect((await rows(card.o.id)).map((r) => [r.kind, r.status, r.amount])).toEqual([['charge', 'succeeded', card.o.total_amount], ['refund', 'succeeded', card.o.total_amount - cheaper.total_amount]]);
        expect(await order(card.o.id)).toMatchObject({ paid_amount: cheaper.total_amount, payment_status: 'paid' });
      } finally {
        await cu('post', 'customer/psp/identity', { refund_to: 'wallet' }).expect(201);
      }
    });

    it("the company's refund_excess_to setting decides where the excess goes, over the customer's choice", async () => {
      const settings = (body: Record<string, unknown>) => t.req('post', '/api/v1/company/settings', { token: w.company.token, body });
      expect((await settings({ refund_excess_to: 'bank' }).expect(422)).body.errors.refund_excess_to).toBeDefined();
      expect((await settings({ refund_excess_to: 'instrument' }).expect(200)).body.data.refund_excess_to).toBe('instrument');
      try {
        // The customer left refund_to at the wallet: the company's setting sends it back to the card.
        const card = await paidByCard({ asset_specification_id: w.otherSpecId });
        const cheaper = (await co('put', `update/order/${card.o.id}`, { asset_specification_id: w.specId }).expect(200)).body.data;
        await relay();
        const diff = card.o.total_amount - cheaper.total_amount;
        expect([...stub.refunds.values()].filter((r) => r.payment_intent === card.pi.id).map((r) => r.amount)).toEqual([diff]);
        expect((await rows(card.o.id)).map((r) => [r.kind, r.status, r.amount])).toEqual([['charge', 'succeeded', card.o.total_amount], ['refund', 'succeeded', diff]]);

        // `wallet` over a customer who chose the card.
        await settings({ refund_excess_to: 'wallet' }).expect(200);
        await cu('post', 'customer/psp/identity', { refund_to: 'instrument' }).expect(201);
        const walletBefore = await wallet();
        const other = await paidByCard({ asset_specification_id: w.otherSpecId });
        const cheaper2 = (await co('put', `update/order/${other.o.id}`, { asset_specification_id: w.specId }).expect(200)).body.data;
        await relay();
        expect((await rows(other.o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', other.o.total_amount], ['wallet_credit', other.o.total_amount - cheaper2.total_amount]]);
        expect(await wallet()).toBe(walletBefore + other.o.total_amount - cheaper2.total_amount);
      } finally {
        await cu('post', 'customer/psp/identity', { refund_to: 'wallet' }).expect(201);
        expect((await settings({ refund_excess_to: 'customer' }).expect(200)).body.data.refund_excess_to).toBe('customer');
      }
    });

    it('an approved change request that makes the order cheaper credits the difference', async () => {
      const { o } = await paidByCard({ asset_specification_id: w.otherSpecId });
      const cr = (await cu('post', `customer/orders/${o.id}/order-change-requests`, { type: 'change_specification', asset_specification_id: w.specId }).expect(201)).body.data;
      await co('patch', `order-change-requests/${cr.id}/approve`, {}).expect(200);
      const now = await order(o.id);
      expect(now.total_amount).toBeLessThan(o.total_amount);
      await relay();
      expect((await rows(o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', o.total_amount], ['wallet_credit', o.total_amount - now.total_amount]]);
      expect(await order(o.id)).toMatchObject({ paid_amount: now.total_amount, balance_amount: 0 });
    });

    it('a policy fee removed after it was paid credits it back (policy_violation.removed)', async () => {
      const { o } = await paidByCard();
      // The fee line voided as accountability does it (OrderOperations.voidViolationFee), with its event.
      await t.ds.transaction(async (m) => {
        await m.query(`UPDATE orders SET total_amount = total_amount - 1200 WHERE id = $1`, [o.id]);
        await recordEvents(m, { type: 'policy_violation.removed', aggregateType: 'policy_violation', aggregateId: o.id, companyId: w.company.companyId, actorId: null, payload: { order_id: o.id, customer_id: w.customer.id, policy_id: o.id } });
      });
      await relay();
      expect((await rows(o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', o.total_amount], ['wallet_credit', 1200]]);
    });

    it('a Stripe refund after the automatic wallet refund takes the wallet credit back instead of paying twice; beyond what is refundable it is refused', async () => {
      const { o, pi } = await paidByCard({ delivery_date: inDays(6) }); // inside the free cancellation window: everything back
      await cu('post', `customer/order/${o.id}/cancel`, {}).expect(200);
      await relay();
      const credited = await wallet();
      expect((await rows(o.id)).map((r) => r.kind)).toEqual(['charge', 'wallet_credit']);
      // The company also refunds the card in Stripe's dashboard: charge.refunded for the whole charge.
      const refunded = await hook(event('charge.refunded', { id: pi.latest_charge, object: 'charge', payment_intent: pi.id, amount_refunded: o.total_amount, refunded: true }));
      expect(refunded.body.data).toMatchObject({ outcome: 'applied' });
      // (the last two are written in one transaction: same created_at, so compared as a set)
      expect((await rows(o.id)).map((r) => `${r.kind}:${r.amount}`).sort()).toEqual([`charge:${o.total_amount}`, `refund:${o.total_amount}`, `wallet_credit:${o.total_amount}`, `wallet_debit:${o.total_amount}`]);
      expect(await wallet()).toBe(credited - o.total_amount);
      const after = await order(o.id);
      expect(after).toMatchObject({ paid_amount: 0, balance_amount: 0 });
      // Another event for the same total: known. One claiming more than the charge: refused, nothing recorded.
      expect((await hook(event('charge.refunded', { id: pi.latest_charge, object: 'charge', payment_intent: pi.id, amount_refunded: o.total_amount }))).body.data).toMatchObject({ outcome: 'no_match' });
      const beyond = await hook(event('charge.refunded', { id: pi.latest_charge, object: 'charge', payment_intent: pi.id, amount_refunded: o.total_amount + 500 }));
      expect(beyond.body.data).toMatchObject({ outcome: 'no_match', reason: expect.stringMatching(/500 beyond what was refundable was refused/) });
      expect(await rows(o.id)).toHaveLength(4);
    });

    it('a lost dispute is recorded once as money back; the order is due again; won or opened disputes change nothing', async () => {
      const { o, pi } = await paidByCard();
      const dispute = (status: string, id = 'dp_1') => event('charge.dispute.closed', { id, object: 'dispute', amount: o.total_amount, charge: pi.latest_charge, payment_intent: pi.id, status, reason: 'fraudulent' });
      expect((await hook(event('charge.dispute.created', { id: 'dp_0', object: 'dispute', amount: o.total_amount, charge: pi.latest_charge, payment_intent: pi.id, status: 'needs_response' }))).body.data).toMatchObject({ outcome: 'ignored' });
      expect((await hook(dispute('won', 'dp_0'))).body.data).toMatchObject({ outcome: 'ignored' });
      expect((await hook(dispute('lost'))).body.data).toMatchObject({ outcome: 'applied' });
      expect((await hook(dispute('lost'))).body.data).toMatchObject({ outcome: 'no_match' }); // another event of the same dispute
      expect((await rows(o.id)).map((r) => [r.kind, r.amount])).toEqual([['charge', o.total_amount], ['refund', o.total_amount]]);
      expect(await order(o.id)).toMatchObject({ paid_amount: 0, balance_amount: o.total_amount });
    });
  });
});
