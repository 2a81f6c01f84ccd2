import { ABSENT_ID } from '../support/fixtures';
import { memberActor } from '../support/actors';
import { inDays, orderBody, orderWorld, OrderWorld } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Issue #25, "fewer calls for a client": the office takes an order by phone. A company user adds a site for
 * a customer and places (or quotes) an order for them through the customer's own placement path: the same
 * checks and prices, the same Idempotency-Key behaviour; recorded as placed by the user.
 */
describe('Orders placed by the office for a customer (phone orders)', () => {
  let t: TestApp;
  let w: OrderWorld;
  let rival: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Phone Co' });
    rival = await orderWorld(t, { name: 'Rival Phone Co' });
  });
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'post', path: string, body?: unknown, token = w.company.token, headers?: Record<string, string>) => t.req(method, `/api/v1/${path}`, { token, body, headers });
  const site = { label: 'Back lot', line1: '9 Quarry Rd', city: 'Springfield', latitude: 40.18, longitude: -89.0, instructions: 'Gate code 4411' };

  it("adds a site for the customer as the customer would: it is the customer's, listed on both sides", async () => {
    const c = await memberActor(t, w.company, 'customer');
    const created = await co('post', `customer/${c.id}/addresses`, site).expect(201);
    // The customer's first address: the default.
    expect(created.body.data).toMatchObject({ label: 'Back lot', line1: '9 Quarry Rd', is_default: true });
    const second = await co('post', `customer/${c.id}/addresses`, { ...site, label: 'Front lot', is_default: true }).expect(201);
    expect(second.body.data.is_default).toBe(true);
    const mine = (await t.req('get', '/api/v1/customer/addresses', { token: c.token }).expect(200)).body.data as Row[];
    expect(mine.map((a) => [a.id, a.is_default]).sort()).toEqual([[created.body.data.id, false], [second.body.data.id, true]].sort());
    const office = await co('get', `customer/${c.id}/addresses`).expect(200);
    expect(office.body.data.map((a: Row) => a.id).sort()).toEqual([created.body.data.id, second.body.data.id].sort());
    expect(office.body.meta.total).toBe(2);
    // The event names the user who added it.
    const [event] = await t.ds.query(`SELECT actor_id, payload FROM outbox_events WHERE type = 'customer_address.created' AND aggregate_id = $1`, [created.body.data.id]);
    expect(event).toMatchObject({ actor_id: w.company.userId, payload: { customer_id: c.id, is_default: true } });
  });

  it("places an order for the customer priced exactly as the customer's own placement, recorded as placed by the user", async () => {
    const body = orderBody(w, { delivery_date: inDays(4), pickup_date: inDays(14), notes: 'phoned in' });
    const quote = await co('post', `customer/${w.customer.id}/order/billing`, body).expect(200);
    const ownQuote = await t.req('post', '/api/v1/customer/order/billing', { token: w.customer.token, body }).expect(200);
    expect(quote.body.data).toEqual(ownQuote.body.data);

    const placed = await co('post', `customer/${w.customer.id}/orders`, body).expect(201);
    const o = placed.body.data;
    expect(o).toMatchObject({ status: 'pending', customer: { id: w.customer.id, name: 'A customer' }, address_id: w.addressId, notes: 'phoned in', total_amount: quote.body.data.total_amount });
    expect(o.lines).toEqual(quote.body.data.lines);
    // The customer sees it as theirs; its history names the company user who placed it.
    const theirs = await t.req('get', `/api/v1/customer/order/${o.id}`, { token: w.customer.token }).expect(200);
    expect(theirs.body.data.lines).toEqual(o.lines);
    const history = (await co('get', `order/${o.id}/status-history`).expect(200)).body.data as Row[];
    expect(history[0]).toMatchObject({ from_status: null, to_status: 'pending', actor_type: 'company' });
    const [{ actor_id: historyActor }] = await t.ds.query(`SELECT actor_id FROM order_status_history WHERE order_id = $1 AND from_status IS NULL`, [o.id]);
    expect(historyActor).toBe(w.company.userId);
    const [event] = await t.ds.query(`SELECT actor_id, payload FROM outbox_events WHERE type = 'order.placed' AND aggregate_id = $1`, [o.id]);
    expect(event).toMatchObject({ actor_id: w.company.userId, payload: { customer_id: w.customer.id, placed_by: 'company' } });
    // The customer's own placement says so too.
    const own = (await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body }).expect(201)).body.data;
    const [ownEvent] = await t.ds.query(`SELECT actor_id, payload FROM outbox_events WHERE type = 'order.placed' AND aggregate_id = $1`, [own.id]);
    expect(ownEvent).toMatchObject({ actor_id: w.customer.id, payload: { placed_by: 'customer' } });
  });

  it('replays an Idempotency-Key as the customer placement does (one order; another body with the key is 422)', async () => {
    const key = `phone-${Date.now()}`;
    const body = orderBody(w, { notes: 'phone key' });
    const first = await co('post', `customer/${w.customer.id}/orders`, body, w.company.token, { 'Idempotency-Key': key }).expect(201);
    const replay = await co('post', `customer/${w.customer.id}/orders`, body, w.company.token, { 'Idempotency-Key': key }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    const reused = await co('post', `customer/${w.customer.id}/orders`, { ...body, notes: 'other' }, w.company.token, { 'Idempotency-Key': key }).expect(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE notes = 'phone key'`);
    expect(n).toBe(1);
  });

  it("validates as the customer's placement: another customer's address, the lead time, an unknown field (422)", async () => {
    const other = await memberActor(t, w.company, 'customer');
    const otherSite = (await co('post', `customer/${other.id}/addresses`, site).expect(201)).body.data;
    // The address must be the named customer's: another customer's of the same company is not found.
    const foreign = await co('post', `customer/${w.customer.id}/orders`, orderBody(w, { address_id: otherSite.id })).expect(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['address_id']);
    const early = await co('post', `customer/${w.customer.id}/orders`, orderBody(w, { delivery_date: inDays(0) })).expect(422);
    expect(Object.keys(early.body.errors)).toEqual(['delivery_date']);
    const unknown = await co('post', `customer/${w.customer.id}/orders`, { ...orderBody(w), customer_id: w.customer.id }).expect(422);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(unknown.body.errors)).toEqual(['customer_id']);
    const badSite = await co('post', `customer/${w.customer.id}/addresses`, { ...site, latitude: 91, extra: 1 }).expect(422);
    expect(Object.keys(badSite.body.errors).sort()).toEqual(['extra', 'latitude']);
  });

  it("refuses a deactivated customer (409 CUSTOMER_INACTIVE) and a blocked one (403 DEMERIT_BLOCKED)", async () => {
    const c = await memberActor(t, w.company, 'customer');
    const cSite = (await co('post', `customer/${c.id}/addresses`, site).expect(201)).body.data;
    await t.ds.query(`UPDATE customers SET demerit_blocked = true WHERE id = $1`, [c.id]);
    const blocked = await co('post', `customer/${c.id}/orders`, orderBody(w, { address_id: cSite.id })).expect(403);
    expect(blocked.body.code).toBe('DEMERIT_BLOCKED');
    await co('post', `customer/${c.id}/deactivate`).expect(200);
    for (const [path, body] of [[`customer/${c.id}/orders`, orderBody(w, { address_id: cSite.id })], [`customer/${c.id}/order/billing`, orderBody(w, { address_id: cSite.id })], [`customer/${c.id}/addresses`, site]] as const) {
      expect((await co('post', path, body).expect(409)).body.code).toBe('CUSTOMER_INACTIVE');
    }
  });

  it("answers 404 for another company's customer, a driver's id or an absent one; 403 to customers and drivers", async () => {
    const body = orderBody(w);
    for (const id of [rival.customer.id, w.driver.id, ABSENT_ID, 'not-a-uuid']) {
      expect((await co('post', `customer/${id}/orders`, body).expect(404)).body.code).toBe('NOT_FOUND');
      await co('post', `customer/${id}/order/billing`, body).expect(404);
      await co('post', `customer/${id}/addresses`, site).expect(404);
      await co('get', `customer/${id}/addresses`).expect(404);
    }
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = $1`, [rival.customer.id]);
    expect(n).toBe(1);
    for (const token of [w.customer.token, w.driver.token]) {
      expect((await co('post', `customer/${w.customer.id}/orders`, body, token).expect(403)).body.code).toBe('WRONG_ACTOR');
      await co('post', `customer/${w.customer.id}/addresses`, site, token).expect(403);
      await co('get', `customer/${w.customer.id}/addresses`, undefined, token).expect(403);
      await co('post', `customer/${w.customer.id}/order/billing`, body, token).expect(403);
    }
  });
});
