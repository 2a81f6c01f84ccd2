import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * A local stand-in for the Stripe API (node:http), in the spirit of stripe-mock: it answers the endpoints
 * the adapter (src/modules/payments/provider/stripe-provider.ts) calls the way Stripe does — form-encoded
 * bodies in, JSON objects with `id`, `object` and `status` out, card errors as 402 with
 * `error.type = 'card_error'`, `code`, `decline_code` and the PaymentIntent — and keeps what it made, so a
 * test can move it on (approve an account, settle a processing PaymentIntent). Every request is recorded
 * (method, path, decoded body, Idempotency-Key, Stripe-Account); an Idempotency-Key seen before answers
 * the first answer again (`Idempotent-Replayed: true`), or 400 `idempotency_error` with other parameters.
 *
 * Test tokens: Stripe's `tok_visa`, `tok_mastercard`, `tok_amex`, `tok_chargeDeclined`,
 * `tok_chargeDeclinedInsufficientFunds`, `tok_chargeDeclinedExpiredCard`, `tok_threeDSecure2Required`
 * (off-session: `authentication_required`), and the stub's own `tok_stub_processing` (the PaymentIntent
 * stays `processing` until `settleIntent`). Any other token is 400 `resource_missing`.
 */
export interface StubRequest {
  method: string;
  path: string;
  body: Record<string, any>;
  idempotencyKey: string | null;
  stripeAccount: string | null;
}

interface Card {
  brand: string;
  last4: string;
  decline?: { code: string; decline_code?: string; message: string };
  processing?: boolean;
}

export const STUB_TOKENS: Record<string, Card> = {
  tok_visa: { brand: 'visa', last4: '4242' },
  tok_mastercard: { brand: 'mastercard', last4: '4444' },
  tok_amex: { brand: 'amex', last4: '8431' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
  tok_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', decline: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
  tok_chargeDeclinedExpiredCard: { brand: 'visa', last4: '0069', decline: { code: 'expired_card', message: 'Your card has expired.' } },
  tok_threeDSecure2Required: { brand: 'visa', last4: '3220', decline: { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' } },
  tok_stub_processing: { brand: 'visa', last4: '1117', processing: true },
};

export interface StripeStub {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE. */
  url: string;
  requests: StubRequest[];
  customers: Map<string, any>;
  paymentMethods: Map<string, any>;
  paymentIntents: Map<string, any>;
  refunds: Map<string, any>;
  accounts: Map<string, any>;
  /** Requests to a path (exact, or a RegExp), with a method (POST unless told). */
  seen(path: string | RegExp, method?: string): StubRequest[];
  /** Stripe finished the account's onboarding: charges enabled (or rejected, with `rejected.other`). */
  setAccount(id: string, outcome: 'approved' | 'rejected'): any;
  /** A processing PaymentIntent ends (succeeded, or failed with a decline). */
  settleIntent(id: string, outcome: 'succeeded' | 'failed'): any;
  /** While true, every request answers 500 `api_error` with `Stripe-Should-Retry: false` (Stripe is down). */
  outage: boolean;
  /** The next this many requests are carried out, but their answers are lost (the connection is cut). */
  dropAnswers: number;
  /** Every answer is sent this many milliseconds late (a slow provider; the work is done at once). */
  delayMs: number;
  /** While true, answers are held (the work done at once) until `release()`: a provider as slow as the test needs. */
  hold: boolean;
  /** Sends the held answers and stops holding. */
  release(): void;
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][c]=1&l[0]=x` → `{ a: { b: { c: '1' } }, l: { 0: 'x' } }` (Stripe's form encoding, as the SDK writes it). */
export function decodeForm(text: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = value;
      else node = node[p] ??= {};
    });
  }
  return out;
}

class StripeHttpError {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {}
}
const invalid = (message: string, extra: Record<string, unknown> = {}) => new StripeHttpError(400, { type: 'invalid_request_error', message, ...extra });
const missing = (what: string, id: string, param?: string) => invalid(`No such ${what}: '${id}'`, { code: 'resource_missing', param });

export async function startStripeStub(): Promise<StripeStub> {
  const requests: StubRequest[] = [];
  const customers = new Map<string, any>();
  const paymentMethods = new Map<string, any>();
  const paymentIntents = new Map<string, any>();
  const refunds = new Map<string, any>();
  const accounts = new Map<string, any>();
  const tokensOfMethods = new Map<string, Card>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  const stub = { outage: false, dropAnswers: 0, delayMs: 0, hold: false } as StripeStub;
  const held: (() => void)[] = [];

  const intentError = (pi: any, card: Card) => ({ code: card.decline!.code, decline_code: card.decline!.decline_code, message: card.decline!.message, type: 'card_error', charge: pi.latest_charge, payment_method: { id: pi.payment_method, object: 'payment_method' } });

  function route(method: string, path: string, body: Record<string, any>): [number, unknown] {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const c = { id: newId('cus'), object: 'customer', created: now(), email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {}, livemode: false };
      customers.set(c.id, c);
      return [200, c];
    }
    if (method === 'POST' && path === '/v1/payment_methods') {
      if (body.type !== 'card') throw invalid('Only card payment methods are supported by the stub.', { param: 'type' });
      const token = body.card?.token;
      const card = typeof token === 'string' ? STUB_TOKENS[token] : undefined;
      if (!card) throw missing('token', String(token), 'card[token]');
      const pm = { id: newId('pm'), object: 'payment_method', type: 'card', created: now(), customer: null, livemode: false, metadata: {}, card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit', country: 'US' } };
      paymentMethods.set(pm.id, pm);
      tokensOfMethods.set(pm.id, card);
      return [200, pm];
    }
    if (method === 'POST' && (m = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path))) {
      const pm = paymentMethods.get(m[1]);
      if (!pm) throw missing('PaymentMethod', m[1], 'payment_method');
      if (!customers.has(body.customer)) throw missing('customer', String(body.customer), 'customer');
      pm.customer = body.customer;
      return [200, pm];
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount < 1) throw invalid('Invalid integer: amount', { param: 'amount' });
      const pm = paymentMethods.get(body.payment_method);
      if (!pm) throw missing('PaymentMethod', String(body.payment_method), 'payment_method');
      if (pm.customer !== body.customer) throw invalid('The provided PaymentMethod belongs to another customer.', { param: 'payment_method' });
      const destination = body.transfer_data?.destination ?? null;
      if (destination && !accounts.has(destination)) throw missing('destination', destination, 'transfer_data[destination]');
      if (destination && !accounts.get(destination).charges_enabled) throw invalid('The destination account cannot take charges yet.', { code: 'account_invalid', param: 'transfer_data[destination]' });
      const fee = body.application_fee_amount === undefined ? null : Number(body.application_fee_amount);
      if (fee !== null && (!destination || fee > amount)) throw invalid('application_fee_amount needs a destination and cannot exceed the amount.', { param: 'application_fee_amount' });
      const card = tokensOfMethods.get(pm.id)!;
      const pi: any = {
        id: newId('pi'),
        object: 'payment_intent',
        amount,
        currency: body.currency,
        customer: body.customer,
        payment_method: pm.id,
        description: body.description ?? null,
        metadata: body.metadata ?? {},
        application_fee_amount: fee,
        transfer_data: destination ? { destination } : null,
        off_session: body.off_session === 'true',
        created: now(),
        livemode: false,
        latest_charge: body.confirm === 'true' ? newId('ch') : null,
        last_payment_error: null,
        status: 'requires_confirmation',
      };
      paymentIntents.set(pi.id, pi);
      if (body.confirm !== 'true') return [200, pi];
      if (card.decline) {
        pi.status = 'requires_payment_method';
        pi.last_payment_error = intentError(pi, card);
        throw new StripeHttpError(402, { ...pi.last_payment_error, payment_intent: pi });
      }
      pi.status = card.processing ? 'processing' : 'succeeded';
      return [200, pi];
    }
    if (method === 'GET' && path === '/v1/payment_intents') {
      // The list, newest first: `customer`, `created[gte]`, `limit`, `starting_after` (what the reconciler sends).
      const gte = body.created?.gte === undefined ? 0 : Number(body.created.gte);
      let all = [...paymentIntents.values()].filter((pi) => (!body.customer || pi.customer === body.customer) && pi.created >= gte).reverse();
      if (body.starting_after) all = all.slice(all.findIndex((pi) => pi.id === body.starting_after) + 1);
      const limit = Number(body.limit ?? 10);
      return [200, { object: 'list', url: '/v1/payment_intents', has_more: all.length > limit, data: all.slice(0, limit) }];
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const pi = paymentIntents.get(m[1]);
      if (!pi) throw missing('payment_intent', m[1], 'intent');
      return [200, pi];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = paymentIntents.get(body.payment_intent);
      if (!pi) throw missing('payment_intent', String(body.payment_intent), 'payment_intent');
      if (pi.status !== 'succeeded') throw invalid('This PaymentIntent does not have a successful charge to refund.', { code: 'charge_not_refundable' });
      const done = [...refunds.values()].filter((r) => r.payment_intent === pi.id).reduce((s, r) => s + r.amount, 0);
      const amount = body.amount === undefined ? pi.amount - done : Number(body.amount);
      if (done >= pi.amount) throw invalid(`Charge ${pi.latest_charge} has already been refunded.`, { code: 'charge_already_refunded' });
      if (amount > pi.amount - done) throw invalid(`Refund amount is greater than unrefunded amount on charge.`, { code: 'amount_too_large', param: 'amount' });
      if ((body.reverse_transfer || body.refund_application_fee) && !pi.transfer_data) throw invalid('reverse_transfer needs a destination charge.', { param: 'reverse_transfer' });
      const r = { id: newId('re'), object: 'refund', amount, currency: pi.currency, payment_intent: pi.id, charge: pi.latest_charge, status: 'succeeded', metadata: body.metadata ?? {}, created: now(), reason: null, failure_reason: null };
      refunds.set(r.id, r);
      return [200, r];
    }
    if (method === 'POST' && path === '/v1/accounts') {
      if (body.type !== 'express') throw invalid('The stub makes express accounts only.', { param: 'type' });
      const a = {
        id: newId('acct'),
        object: 'account',
        type: 'express',
        created: now(),
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        metadata: body.metadata ?? {},
        capabilities: Object.fromEntries(Object.keys(body.capabilities ?? {}).map((k) => [k, 'inactive'])),
        requirements: { currently_due: ['business_type', 'external_account', 'tos_acceptance.date'], disabled_reason: 'requirements.past_due', errors: [], past_due: [], eventually_due: [] },
      };
      accounts.set(a.id, a);
      return [200, a];
    }
    if (method === 'GET' && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path))) {
      const a = accounts.get(m[1]);
      if (!a) throw missing('account', m[1], 'account');
      return [200, a];
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!accounts.has(body.account)) throw missing('account', String(body.account), 'account');
      for (const p of ['return_url', 'refresh_url']) if (!/^https?:\/\//.test(body[p] ?? '')) throw invalid(`Invalid URL: ${p}`, { param: p });
      return [200, { object: 'account_link', created: now(), expires_at: now() + 300, url: `https://connect.stripe.test/setup/e/${body.account}/${randomBytes(9).toString('hex')}` }];
    }
    throw new StripeHttpError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const method = req.method ?? 'GET';
      const body = decodeForm(method === 'GET' ? ((req.url ?? '').split('?')[1] ?? '') : text);
      const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : null);
      const key = header('idempotency-key');
      requests.push({ method, path, body, idempotencyKey: key, stripeAccount: header('stripe-account') });
      const send = (status: number, payload: string, replayed = false): void => {
        if (stub.hold) {
          held.push(() => sendNow(status, payload, replayed));
          return;
        }
        if (stub.delayMs > 0) {
          const wait = stub.delayMs;
          setTimeout(() => sendNow(status, payload, replayed), wait);
          return;
        }
        sendNow(status, payload, replayed);
      };
      const sendNow = (status: number, payload: string, replayed = false) => {
        if (stub.dropAnswers > 0) {
          // Done (and kept for its idempotency key), but the answer is lost on the way back.
          stub.dropAnswers--;
          return res.socket?.destroy();
        }
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...(replayed ? { 'idempotent-replayed': 'true' } : {}) });
        res.end(payload);
      };
      if (stub.outage) {
        res.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
        return res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred (stub outage).' } }));
      }
      if (!/^Bearer (sk|rk)_test_\w+$/.test(header('authorization') ?? '')) {
        return send(401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
      }
      const fingerprint = `${method} ${path} ${text}`;
      const known = key ? idempotent.get(key) : undefined;
      if (known) {
        if (known.fingerprint !== fingerprint) {
          return send(400, JSON.stringify({ error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with.` } }));
        }
        return send(known.status, known.body, true);
      }
      let status: number;
      let payload: string;
      try {
        const [s, answer] = route(method, path, body);
        [status, payload] = [s, JSON.stringify(answer)];
      } catch (e) {
        if (!(e instanceof StripeHttpError)) throw e;
        [status, payload] = [e.status, JSON.stringify({ error: e.error })];
      }
      if (key && method === 'POST') idempotent.set(key, { fingerprint, status, body: payload });
      send(status, payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    paymentMethods,
    paymentIntents,
    refunds,
    accounts,
    seen: (path, method = 'POST') => requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    setAccount(id, outcome) {
      const a = accounts.get(id);
      if (!a) throw new Error(`stub: no account ${id}`);
      if (outcome === 'approved') Object.assign(a, { charges_enabled: true, payouts_enabled: true, details_submitted: true, requirements: { ...a.requirements, currently_due: [], disabled_reason: null } });
      else Object.assign(a, { charges_enabled: false, requirements: { ...a.requirements, disabled_reason: 'rejected.other' } });
      return a;
    },
    settleIntent(id, outcome) {
      const pi = paymentIntents.get(id);
      if (!pi || pi.status !== 'processing') throw new Error(`stub: no processing PaymentIntent ${id}`);
      if (outcome === 'succeeded') pi.status = 'succeeded';
      else Object.assign(pi, { status: 'requires_payment_method', last_payment_error: intentError(pi, STUB_TOKENS.tok_chargeDeclined) });
      return pi;
    },
    release() {
      stub.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  } satisfies Omit<StripeStub, 'outage' | 'dropAnswers' | 'delayMs' | 'hold'>);
  return stub;
}
