import fc from 'fast-check';
import Stripe from 'stripe';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { PaymentReconciler } from '../../src/modules/payments/ledger/payment-reconciler';
import { memberActor } from '../support/actors';
import { checkIn, deliverOrder, pickUpOrder } from '../support/delivery-fixtures';
import { addAsset, coPost, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { orderJobs } from '../support/driver-fixtures';
import { inDays, placeOrder } from '../support/order-fixtures';
import { startStripeStub, StripeStub } from '../support/stripe-stub';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
jest.setTimeout(600_000);

const WEBHOOK_SECRET = 'whsec_money_conservation_secret';
/** Fixed seed and number of generated sequences (fast-check): the same sequences on every run (CONSERVATION_SEED / CONSERVATION_RUNS explore others locally). */
const SEED = Number(process.env.CONSERVATION_SEED ?? 22);
const RUNS = Number(process.env.CONSERVATION_RUNS ?? 30);
/** Net weight on the station ticket when the order is picked up: within the 2000 kg allowance, or 1100 kg over it (overage on the final bill). */
const TICKET_GROSS_KG = { within: 9900, over: 12000 };

/** One step of a sequence. `o` picks one of the sequence's orders (modulo how many there are). */
type Step =
  | { kind: 'place'; spec: 'small' | 'large'; when: 'today' | 'soon' | 'later' }
  | { kind: 'approve' | 'reject' | 'cancel' | 'reprice'; o: number }
  | { kind: 'change_request'; o: number; spec: 'small' | 'large' }
  | { kind: 'deliver'; o: number }
  | { kind: 'complete'; o: number; overweight: boolean }
  | { kind: 'fee'; o: number; policy: 0 | 1 }
  | { kind: 'void_fee'; o: number; keep: boolean }
  | { kind: 'waive'; o: number }
  | { kind: 'refund_to'; to: 'wallet' | 'instrument' }
  | { kind: 'pay_card'; o: number; part: boolean; key: boolean; fault: 'none' | 'lost' | 'down' }
  | { kind: 'pay_wallet' | 'pay_offline'; o: number; part: boolean }
  | { kind: 'lost_webhook' }
  | { kind: 'provider_refund'; o: number }
  | { kind: 'reconcile'; minutes: number };

const place = fc.record({ kind: fc.constant('place' as const), spec: fc.constantFrom('small' as const, 'large' as const), when: fc.constantFrom('today' as const, 'today' as const, 'soon' as const, 'later' as const) });
const refundTo = fc.record({ kind: fc.constant('refund_to' as const), to: fc.constantFrom('instrument' as const, 'wallet' as const) });
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: place, weight: 1 },
  { arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const, 'cancel' as const, 'reprice' as const), o: fc.nat(5) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('pay_card' as const), o: fc.nat(5), part: fc.boolean(), key: fc.boolean(), fault: fc.constantFrom('none' as const, 'none' as const, 'lost' as const, 'down' as const) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constantFrom('pay_wallet' as const, 'pay_offline' as const), o: fc.nat(5), part: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('lost_webhook' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('provider_refund' as const), o: fc.nat(5) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reconcile' as const), minutes: fc.constantFrom(2, 20) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('change_request' as const), o: fc.nat(5), spec: fc.constantFrom('small' as const, 'large' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('deliver' as const), o: fc.nat(5) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('complete' as const), o: fc.nat(5), overweight: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('fee' as const), o: fc.nat(5), policy: fc.constantFrom(0 as const, 1 as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('void_fee' as const), o: fc.nat(5), keep: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('waive' as const), o: fc.nat(5) }), weight: 2 },
  { arbitrary: refundTo, weight: 1 },
);
/** A sequence: where the customer wants money back (half the time: the wallet by default, or the card), 2 or 3 orders placed, then the steps. */
const sequence = fc
  .tuple(fc.option(refundTo, { nil: undefined }), fc.array(place, { minLength: 2, maxLength: 3 }), fc.array(step, { minLength: 6, maxLength: 18 }))
  .map(([r, a, b]): Step[] => [...(r ? [r] : []), ...a, ...b]);

/**
 * Sequences that once broke the property (shrunk), run before the generated ones:
 * 1. a card-paid policy fee waived when the customer wants refunds on the card: the refund was reserved
 *    but Stripe was not called until the reconciler's next run (paid 53587 for a bill of 45468 meanwhile);
 * 2. a refund made in Stripe's dashboard, then the order paid again: what came in must count the refund;
 * 3. a card charge whose answer was lost, the order rejected meanwhile, settled by Stripe's webhook when the
 *    customer wants refunds on the card: the refund was reserved but Stripe not called until the
 *    reconciler's next run (the rejected order held 45468 meanwhile).
 */
const today = (spec: 'small' | 'large' = 'small'): Step => ({ kind: 'place', spec, when: 'today' });
const REGRESSIONS: Step[][] = [
  [today(), today(), { kind: 'fee', o: 0, policy: 0 }, { kind: 'pay_card', o: 0, part: false, key: false, fault: 'none' }, { kind: 'refund_to', to: 'instrument' }, { kind: 'waive', o: 0 }, { kind: 'reconcile', minutes: 2 }],
  [today(), today(), { kind: 'pay_card', o: 0, part: false, key: false, fault: 'none' }, { kind: 'provider_refund', o: 0 }, { kind: 'pay_card', o: 0, part: false, key: false, fault: 'none' }],
  [{ kind: 'refund_to', to: 'instrument' }, today(), today(), { kind: 'pay_card', o: 0, part: false, key: false, fault: 'lost' }, { kind: 'reject', o: 0 }, { kind: 'lost_webhook' }],
];

/**
 * Issue #22, part 4: conservation as a property (fast-check, fixed seed, PostgreSQL, the Stripe stub that
 * can lose answers and go down). Random sequences of placing, approving, rejecting, cancelling and
 * repricing orders, paying them (card — whole or partial, with and without `Idempotency-Key`, the answer
 * lost or Stripe down —, wallet, offline), Stripe's webhook for a lost charge, refunds made in Stripe's
 * dashboard (`charge.refunded`) and reconciler runs; the event relay runs after every step. After each
 * step, for every order: the ledger's money in − money returned = its paid amount, 0 ≤ paid ≤ what it
 * bills; every wallet = its credits − debits ≥ 0; and, once nothing is pending, Stripe's net card total
 * (succeeded PaymentIntents − refunds) = the ledger's (succeeded charges − card refunds). A failure is
 * shrunk and printed as the sequence that breaks it.
 */
describe('Payments: money is conserved (property)', () => {
  let stub: StripeStub;
  let t: TestApp;
  let w: DispatchWorld;
  let visa: string;
  let policies: [string, string];
  let assets = 0;
  let stepsRun = 0;
  /** How each kind of step was answered over the whole run (`kind status` → count): what the sequences really exercised. */
  const outcomes = new Map<string, number>();
  const count = (what: string, status: number | string) => outcomes.set(`${what} ${status}`, (outcomes.get(`${what} ${status}`) ?? 0) + 1);
  let skip = false;
  let sequences = 0;

  beforeAll(async () => {
    if ((await testDatabaseKind()) !== 'postgres') {
      skip = true;
      return;
    }
    stub = await startStripeStub();
    t = await startTestApp({ env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_stubbed', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stub.url, PUBLIC_BASE_URL: 'https://api.haulops.test/' } });
    // Same-day orders (so the driver can deliver and pick up today); demerit points never block a customer here.
    w = await dispatchWorld(t, { name: 'Conservation Hauling', assets: 0, settings: { order_lead_time_days: 0, demerit_warning_threshold: 100000, demerit_block_threshold: 100000 } });
    await checkIn(t, w);
    // A trial of the pro plan: the run (and fast-check's shrinking) places and adds more than the free plan's 300 orders a month and 100 assets.
    await coPost(t, w, 'psp/plans/pro/trial', undefined);
    await coPost(t, w, `truck-types/${w.truckTypeId}`, { asset_specification_ids: [w.specId, w.otherSpecId] }, 200, 'put');
    // Money, not containers: orders are taken whatever the container calendar says (check_availability false:
    // held, never refused at placement); each delivery records the free container it takes (`deliver`).
    for (const spec of [w.specId, w.otherSpecId]) await coPost(t, w, `asset-specifications/${spec}`, { check_availability: false }, 200, 'put');
    policies = [
      (await coPost(t, w, 'policies', { name: 'Overfilled container', category: 'overfill', demerit_points: 1, fee_amount: 7500, active: true })).id,
      (await coPost(t, w, 'policies', { name: 'Blocked access', category: 'blocked_access', demerit_points: 1, fee_amount: 2000, active: true })).id,
    ];
    await t.req('put', '/api/v1/psp/onboarding/tos', { token: w.company.token, body: { version: '2025-06-01' } }).expect(200);
    const account = (await t.req('put', '/api/v1/psp/onboarding/complete', { token: w.company.token }).expect(200)).body.data.provider_reference;
    stub.setAccount(account, 'approved');
    await t.req('post', '/api/v1/psp/onboarding/complete', { token: w.company.token }).expect(200);
  });
  afterAll(async () => {
    const rows = t && !skip ? await t.ds.query(`SELECT kind || ':' || status AS k, count(*)::int AS n FROM payment_transactions GROUP BY 1 ORDER BY 1`) : [];
    console.log(`money conservation: ${sequences} sequences (${REGRESSIONS.length} regression examples, then generated ones), ${stepsRun} steps run (seed ${SEED}); ledger rows: ${rows.map((r: any) => `${r.k}=${r.n}`).join(', ')}; Stripe PaymentIntents ${stub?.paymentIntents.size}, refunds ${stub?.refunds.size}; answers: ${[...outcomes].sort().map(([k, n]) => `${k}=${n}`).join(', ')}`);
    await t?.close();
    await stub?.close();
  });

  const relay = async () => {
    for (let i = 0; i < 3; i++) await t.app.get(OutboxRelay).runOnce();
  };
  const hook = (payload: string) =>
    t.http.post('/api/v1/psp/webhooks/stripe').set('Content-Type', 'application/json').set('Stripe-Signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })).send(payload);
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });

  /**
   * The invariants, for one customer's orders and wallet. `maxBill` is the highest bill each order had
   * after any step so far (fees, change requests and final bills raise bills; money comes in only by
   * payment steps, which change no bill): what came in never exceeds it.
   */
  async function check(customerId: string, steps: Step[], maxBill: Map<string, number>): Promise<void> {
    const where = `after ${JSON.stringify(steps)}`;
    // money_in: what the customer paid (card, offline, wallet), less refunds made in Stripe's dashboard (LedgerText.providerRefund: `Refund of ORD-… made at the payment provider`).
    const orders = await t.ds.query(
      `SELECT o.id, o.status, o.total_amount, o.paid_amount,
              coalesce((SELECT sum(CASE WHEN kind IN ('charge', 'offline_payment', 'wallet_debit') THEN amount WHEN kind IN ('refund', 'wallet_credit') THEN -amount ELSE 0 END)
                          FROM payment_transactions WHERE order_id = o.id AND status = 'succeeded'), 0)::int AS ledger,
              coalesce((SELECT sum(CASE WHEN kind = 'refund' THEN -amount ELSE amount END) FROM payment_transactions
                         WHERE order_id = o.id AND status = 'succeeded' AND (kind IN ('charge', 'offline_payment') OR (kind = 'wallet_debit' AND related_transaction_id IS NULL) OR (kind = 'refund' AND description LIKE 'Refund% made at the payment provider'))), 0)::int AS money_in
         FROM orders o WHERE o.customer_id = $1`,
      [customerId],
    );
    for (const o of orders) {
      const billed = o.status === 'rejected' ? 0 : Math.max(o.total_amount, 0);
      if (o.ledger !== o.paid_amount || o.paid_amount < 0 || o.paid_amount > billed) throw new Error(`order ${o.id} (${o.status}): ledger ${o.ledger}, paid ${o.paid_amount}, billed ${billed} ${where}`);
      // Never charged twice: what came in for the order never exceeds the highest bill it ever had.
      const highest = Math.max(maxBill.get(o.id) ?? 0, o.total_amount);
      maxBill.set(o.id, highest);
      if (o.money_in > highest) throw new Error(`order ${o.id}: ${o.money_in} came in for a bill of at most ${highest} ${where}`);
    }
    // What goes back goes back when it arises: with Stripe answering (faults last only during a pay step), no refund is left pending after the relay.
    const [{ refunds }] = await t.ds.query(`SELECT count(*)::int AS refunds FROM payment_transactions WHERE customer_id = $1 AND kind = 'refund' AND status = 'pending'`, [customerId]);
    if (refunds) throw new Error(`${refunds} refunds left pending ${where}`);
    const [wallet] = await t.ds.query(
      `SELECT coalesce((SELECT balance FROM wallets WHERE customer_id = $1), 0) AS balance,
              coalesce((SELECT sum(CASE kind WHEN 'wallet_credit' THEN amount ELSE -amount END) FROM payment_transactions WHERE customer_id = $1 AND status = 'succeeded' AND kind IN ('wallet_credit', 'wallet_debit')), 0)::int AS ledger`,
      [customerId],
    );
    if (Number(wallet.balance) !== wallet.ledger || wallet.ledger < 0) throw new Error(`wallet ${wallet.balance} vs ledger ${wallet.ledger} ${where}`);
    const [{ pending }] = await t.ds.query(`SELECT count(*)::int AS pending FROM payment_transactions WHERE customer_id = $1 AND status = 'pending'`, [customerId]);
    if (pending) return;
    const [{ net }] = await t.ds.query(
      `SELECT coalesce(sum(CASE WHEN kind = 'charge' THEN amount ELSE -amount END), 0)::int AS net FROM payment_transactions
        WHERE customer_id = $1 AND status = 'succeeded' AND method = 'instrument' AND kind IN ('charge', 'refund')`,
      [customerId],
    );
    const buyer = (await t.ds.query(`SELECT provider_ref FROM payment_buyers WHERE user_id = $1`, [customerId]))[0]?.provider_ref;
    const intents = [...stub.paymentIntents.values()].filter((pi) => pi.customer === buyer && pi.status === 'succeeded');
    const refunded = [...stub.refunds.values()].filter((r) => intents.some((pi) => pi.id === r.payment_intent)).reduce((s, r) => s + r.amount, 0);
    const stripeNet = intents.reduce((s, pi) => s + pi.amount, 0) - refunded;
    if (stripeNet !== net) throw new Error(`Stripe's net card total ${stripeNet} vs the ledger's ${net} ${where}`);
  }

  it('holds over random sequences of orders, payments, faults, webhooks and reconciler runs', async () => {
    if (skip) return;
    await fc.assert(
      fc.asyncProperty(sequence, async (steps) => {
        sequences++;
        stub.dropAnswers = 0;
        stub.outage = false;
        // A fresh customer per sequence (the company, its catalogue and Stripe account are shared).
        const customer = await memberActor(t, w.company, 'customer');
        const address = (await t.req('post', '/api/v1/customer/addresses', { token: customer.token, body: { line1: '2 Site Rd', city: 'Springfield', latitude: 40.18, longitude: -89.0 } }).expect(201)).body.data.id;
        visa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data.id;
        const me = { ...w, customer, addressId: address };
        const ids: string[] = [];
        const pick = (o: number) => (ids.length ? ids[o % ids.length] : null);
        // Any answer but a server error is allowed (a step may not apply to the order's state: 409/422).
        const sure = async (res: Promise<{ status: number; body: any }>, what: string) => {
          const r = await res;
          count(what, r.status);
          if (r.status >= 500) throw new Error(`${what} → ${r.status} ${JSON.stringify(r.body)}`);
          return r;
        };
        const cu = (method: 'get' | 'post', path: string, body?: unknown, headers?: Record<string, string>) => t.req(method, `/api/v1/${path}`, { token: customer.token, body, headers });
        const co = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
        const balance = async (id: string) => (await cu('get', `customer/order/${id}`).expect(200)).body.data.balance_amount as number;
        const state = async (id: string) => (await t.ds.query(`SELECT status, delivery_date::text AS delivery, pickup_date::text AS pickup, asset_specification_id AS spec FROM orders WHERE id = $1`, [id]))[0];
        /** The driver delivers the order today (approved first when still pending); false when it cannot be delivered today. */
        const deliver = async (id: string) => {
          let o = await state(id);
          if (o.delivery !== inDays(0) || !['pending', 'approved'].includes(o.status)) return o.status === 'delivered';
          if (o.status === 'pending' && (await sure(co('patch', `approve/order/${id}`), 'approve')).status !== 200) return false;
          o = await state(id);
          await addAsset(t, w, `CONS-${++assets}`, o.spec); // a free asset of the order's specification at the lot
          const jobs = await orderJobs(t, w, id);
          await deliverOrder(t, w, { id, deliveryJobId: jobs.find((j) => j.type === 'delivery')!.id });
          count('delivered', 'ok');
          return true;
        };
        /** The first order from the `o`-th on (rotating) that the query returns, else the `o`-th: steps land where they can apply. */
        const first = async (o: number, sql: string) => {
          const has = new Set(((await t.ds.query(sql, [ids])) as { id: string }[]).map((r) => r.id));
          return ids.map((_, k) => ids[(o + k) % ids.length]).find((x) => has.has(x)) ?? pick(o);
        };
        const withViolation = (o: number) => first(o, `SELECT order_id AS id FROM customer_policy_violations WHERE order_id = ANY($1::uuid[]) AND status IN ('open', 'disputed')`);
        const withBalance = (o: number) => first(o, `SELECT id FROM orders WHERE id = ANY($1::uuid[]) AND total_amount > paid_amount AND status <> 'rejected'`);
        const maxBill = new Map<string, number>();
        let clock = Date.now();
        for (const [i, s] of steps.entries()) {
          const id = !('o' in s) || !ids.length ? null : s.kind === 'waive' || s.kind === 'void_fee' ? await withViolation(s.o) : s.kind.startsWith('pay_') ? await withBalance(s.o) : pick(s.o);
          stepsRun++;
          switch (s.kind) {
            case 'place': {
              const dates = s.when === 'today' ? { delivery_date: inDays(0), pickup_date: inDays(0) } : { delivery_date: inDays(s.when === 'soon' ? 1 : 6) };
              ids.push((await placeOrder(t, me, { asset_specification_id: s.spec === 'small' ? w.specId : w.otherSpecId, ...dates }, customer)).id);
              break;
            }
            case 'approve':
              if (id) await sure(co('patch', `approve/order/${id}`), s.kind);
              break;
            case 'reject':
              if (id) await sure(co('patch', `reject/order/${id}`, {}), s.kind);
              break;
            case 'cancel':
              if (id) await sure(cu('post', `customer/order/${id}/cancel`, {}), s.kind);
              break;
            case 'reprice':
              if (id) await sure(co('put', `update/order/${id}`, { asset_specification_id: w.specId }), s.kind);
              break;
            case 'change_request': {
              // The customer asks for another container; the company approves (the order repriced up or down).
              if (!id) break;
              const cr = await sure(cu('post', `customer/orders/${id}/order-change-requests`, { type: 'change_specification', asset_specification_id: s.spec === 'small' ? w.specId : w.otherSpecId }), 'change request');
              if (cr.status === 201) await sure(co('patch', `order-change-requests/${cr.body.data.id}/approve`, {}), 'approve change request');
              break;
            }
            case 'deliver':
              if (id) await deliver(id);
              break;
            case 'complete': {
              // Delivered (approved and delivered first when needed), then picked up and weighed: completed with its final bill.
              if (!id || !(await deliver(id))) break;
              if ((await state(id)).pickup !== inDays(0)) break;
              const jobs = await orderJobs(t, w, id);
              await pickUpOrder(t, w, { id, pickupJobId: jobs.find((j) => j.type === 'pickup')!.id }, s.overweight ? TICKET_GROSS_KG.over : TICKET_GROSS_KG.within);
              count(s.overweight ? 'completed(overweight)' : 'completed', 'ok');
              break;
            }
            case 'fee':
              // A policy violation recorded on a delivered or completed order (delivered first when needed): its fee (with tax) joins the bill.
              if (id && (await deliver(id))) await sure(co('post', `orders/${id}/violated-policies`, { policy_ids: [policies[s.policy]] }), s.kind);
              break;
            case 'void_fee':
              // The order's set of violations replaced (none resolved yet): the removed fees' lines are voided.
              if (id) await sure(co('put', `orders/${id}/violated-policies/update`, { policy_ids: s.keep ? [policies[0]] : [] }), s.kind);
              break;
            case 'waive': {
              // The customer disputes a fee; the company waives it (the fee credited on the bill). No fee open on any order: this step records one instead (to be paid, or not, and waived by a later step).
              if (!id) break;
              const list = (await co('get', `demerit/${id}/violated-policies`).expect(200)).body.data as any[];
              const v = list.find((x) => x.status === 'open' || x.status === 'disputed');
              if (!v) {
                if (await deliver(id)) await sure(co('post', `orders/${id}/violated-policies`, { policy_ids: [policies[1]] }), 'fee');
                break;
              }
              if (v.status === 'open') await sure(cu('post', `customer/policy-violations/${v.id}/dispute-messages`, { body: 'It was level with the rim.' }), 'dispute');
              await sure(co('post', `policy-violations/${v.id}/dispute-messages`, { body: 'Waived.', resolution: 'waived' }), s.kind);
              break;
            }
            case 'refund_to':
              await cu('post', 'customer/psp/identity', { refund_to: s.to }).expect(201);
              break;
            case 'pay_card': {
              if (!id) break;
              const due = await balance(id);
              const body = { instrument_id: visa, ...(s.part && due > 1 ? { amount: Math.floor(due / 2) } : {}) };
              if (s.fault === 'lost') stub.dropAnswers = 3;
              if (s.fault === 'down') stub.outage = true;
              try {
                const res = await cu('post', `customer/orders/${id}/pay`, body, s.key ? { 'Idempotency-Key': `seq-${sequences}-${i}` } : undefined);
                count(`pay_card(${s.fault})`, res.status);
                if (![201, 202, 409].includes(res.status)) throw new Error(`pay → ${res.status} ${JSON.stringify(res.body)}`);
                if (s.key && res.status !== 409) {
                  // The same request again: the first answer, never a second charge.
                  const again = await cu('post', `customer/orders/${id}/pay`, body, { 'Idempotency-Key': `seq-${sequences}-${i}` });
                  if (again.status !== res.status || again.body.data?.transaction?.id !== res.body.data.transaction.id) throw new Error(`replay → ${again.status}`);
                }
              } finally {
                stub.dropAnswers = 0;
                stub.outage = false;
              }
              break;
            }
            case 'pay_wallet':
            case 'pay_offline': {
              if (!id) break;
              const due = await balance(id);
              const amount = s.part && due > 1 ? { amount: Math.floor(due / 2) } : {};
              const res =
                s.kind === 'pay_wallet'
                  ? await cu('post', `customer/orders/${id}/pay`, { use_wallet: true, ...amount })
                  : await co('post', 'customers/orders/payment-received', { order_id: id, method: 'cash', reference: `R-${i}`, ...amount });
              count(s.kind, res.status);
              if (![201, 409].includes(res.status)) throw new Error(`${s.kind} → ${res.status} ${JSON.stringify(res.body)}`);
              break;
            }
            case 'lost_webhook': {
              // Stripe's payment_intent.succeeded for a charge of this customer still pending with us.
              const [row] = await t.ds.query(`SELECT idempotency_key FROM payment_transactions WHERE customer_id = $1 AND kind = 'charge' AND status = 'pending' AND (batch_id IS NULL OR batch_id = id) LIMIT 1`, [customer.id]);
              const pi = row && [...stub.paymentIntents.values()].find((p) => p.metadata?.idempotency_key === row.idempotency_key);
              if (pi) await hook(event('payment_intent.succeeded', { id: pi.id, object: 'payment_intent', amount: pi.amount, status: pi.status, metadata: pi.metadata })).expect(200);
              break;
            }
            case 'provider_refund': {
              // A refund made in Stripe's dashboard: half of what the order still counts as paid by card.
              if (!id) break;
              const [c] = await t.ds.query(`SELECT provider_ref FROM payment_transactions WHERE order_id = $1 AND kind = 'charge' AND status = 'succeeded' ORDER BY created_at DESC LIMIT 1`, [id]);
              const [{ paid }] = await t.ds.query(`SELECT paid_amount AS paid FROM orders WHERE id = $1`, [id]);
              const pi = c && stub.paymentIntents.get(c.provider_ref);
              if (!pi) break;
              const done = [...stub.refunds.values()].filter((r) => r.payment_intent === pi.id).reduce((sum, r) => sum + r.amount, 0);
              const amount = Math.min(Math.floor(paid / 2), pi.amount - done);
              if (amount <= 0) break;
              const made = await fetch(`${stub.url}/v1/refunds`, { method: 'POST', headers: { Authorization: 'Bearer sk_test_stubbed', 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payment_intent: pi.id, amount: String(amount) }) });
              if (made.status !== 200) break;
              await hook(event('charge.refunded', { id: pi.latest_charge, object: 'charge', payment_intent: pi.id, amount_refunded: done + amount })).expect(200);
              break;
            }
            case 'reconcile':
              clock += s.minutes * 60_000;
              await t.app.get(PaymentReconciler).run(new Date(clock));
              break;
          }
          await relay();
          await check(customer.id, steps.slice(0, i + 1), maxBill);
        }
        // The end of the outage: the reconciler settles everything; then Stripe and the ledger agree.
        await t.app.get(PaymentReconciler).run(new Date(clock + 60 * 60_000));
        await relay();
        const [{ pending }] = await t.ds.query(`SELECT count(*)::int AS pending FROM payment_transactions WHERE customer_id = $1 AND status = 'pending'`, [customer.id]);
        if (pending) throw new Error(`${pending} rows still pending after the reconciler, after ${JSON.stringify(steps)}`);
        await check(customer.id, steps, maxBill);
      }),
      { seed: SEED, numRuns: RUNS, verbose: true, examples: REGRESSIONS.map((r) => [r]) },
    );
  });
});
