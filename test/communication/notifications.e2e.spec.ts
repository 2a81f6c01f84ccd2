import { randomUUID } from 'node:crypto';
import { recordEvents, type DomainEvent } from '../../src/common/outbox/outbox';
import type { EventType } from '../../src/common/outbox/event-catalogue';
import { companyActor, CompanyActor, MemberActor, memberActor } from '../support/actors';
import { ABSENT_ID } from '../support/fixtures';
import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { placeOrder } from '../support/order-fixtures';
import { afterCommit } from '../../src/modules/communication/push/after-commit';
import { relayAll } from '../support/tenant-world';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Notifications (issue #14): made by the relay's subscribers from domain events (who is told what:
 * README "Notifications and live push"), de-duplicated by event, and the caller's own list, read,
 * read-all and delete for the company, the customer and the driver; the contact form.
 */
describe('Notifications and the contact form', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let driver2: MemberActor;
  let rival: CompanyActor;
  let rivalCustomer: MemberActor;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 4 }); // one container per order it places (the calendar refuses an order no container is free for)
    driver2 = await addDriver(t, w);
    rival = await companyActor(t, 'Rival Co');
    rivalCustomer = await memberActor(t, rival, 'customer');
    await relay();
  }, 120_000);
  afterAll(async () => t?.close());

  const api = (method: 'get' | 'post' | 'delete', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const relay = () => relayAll(t);
  const list = async (prefix: '' | 'customer/' | 'driver/', token: string, query = '') => (await api('get', `${prefix}notifications/get${query}`, token).expect(200)).body;
  /** Who was told about an event, by notification type (user ids sorted). */
  const toldAbout = async (eventIds: string[]) =>
    (await t.ds.query(`SELECT user_id, type, title, body, data FROM notifications WHERE event_id = ANY($1::uuid[]) ORDER BY type, user_id`, [eventIds])) as Row[];
  /** Records events as a module would (each in a transaction of its own), relays them, and answers their ids in order. */
  const record = async (...events: DomainEvent<EventType>[]): Promise<string[]> => {
    const ids: string[] = [];
    for (const e of events) {
      await t.ds.transaction((m) => recordEvents(m, e));
      const [row]: { id: string }[] = await t.ds.query(`SELECT id FROM outbox_events WHERE aggregate_id = $1 AND type = $2 ORDER BY created_at DESC, id DESC LIMIT 1`, [e.aggregateId, e.type]);
      ids.push(row.id);
    }
    await relay();
    return ids;
  };
  const about = (aggregateType: string, aggregateId: string = randomUUID()) => ({ aggregateType, aggregateId, companyId: w.company.companyId });

  it('an order placed, approved and assigned through the routes tells the company, the customer and the driver', async () => {
    const order = await approvedOrder(t, w);
    await assignOrder(t, w, order.id);
    await relay();
    const placed = (await list('', w.company.token)).data.find((n: Row) => n.type === 'order.placed' && n.data.order_id === order.id);
    expect(placed).toMatchObject({ title: `New order ${order.number}`, read_at: null, data: { order_id: order.id, customer_id: w.customer.id } });
    expect(placed.body).toContain(order.number);
    const mine = (await list('customer/', w.customer.token)).data.filter((n: Row) => n.data.order_id === order.id).map((n: Row) => n.type);
    // Newest first: scheduled (assignment) after approved.
    expect(mine).toEqual(['order.scheduled', 'order.approved']);
    const jobs = (await list('driver/', w.driver.token)).data.filter((n: Row) => n.data.order_id === order.id);
    expect(jobs).toEqual([expect.objectContaining({ type: 'job.assigned', title: 'New delivery job', data: { job_id: order.deliveryJobId, order_id: order.id } })]);
    // The company user who approved and assigned is not told of it; the other company is told nothing.
    expect((await list('', w.company.token)).data.filter((n: Row) => n.data.order_id === order.id).map((n: Row) => n.type)).toEqual(['order.placed']);
    expect((await list('', rival.token)).data).toEqual([]);
    // A job changed by dispatch tells the driver it is with now (read when the event is handled).
    const [changed] = await record({ type: 'job.updated', ...about('job', order.deliveryJobId), actorId: w.company.userId, payload: { order_id: order.id, fields: ['scheduled_date', 'notes'] } });
    expect((await toldAbout([changed])).map((r) => [r.user_id, r.title, r.body])).toEqual([[w.driver.id, 'Job changed', 'Dispatch changed a job of yours (scheduled date, notes).']]);
  });

  it('each event kind tells its recipients (recorded by other modules: payments, accountability, leave, chats, plan limits)', async () => {
    const customer = w.customer.id;
    const order = randomUUID();
    const money = { amount: 12999, currency: 'USD', customer_id: customer, order_id: order, method: 'card' };
    const ids = await record(
      { type: 'payment_transaction.recorded', ...about('payment_transaction'), payload: { kind: 'charge', status: 'succeeded', failure_code: null, ...money } },
      { type: 'payment_transaction.recorded', ...about('payment_transaction'), payload: { kind: 'charge', status: 'failed', failure_code: 'card_declined', ...money } },
      { type: 'payment_transaction.recorded', ...about('payment_transaction'), payload: { kind: 'refund', status: 'succeeded', failure_code: null, ...money } },
      { type: 'payment_transaction.recorded', ...about('payment_transaction'), payload: { kind: 'charge', status: 'pending', failure_code: null, ...money } },
      { type: 'policy_violation.recorded', ...about('policy_violation'), actorId: w.company.userId, payload: { order_id: order, number: 7, customer_id: customer, policy_id: randomUUID(), points: 2, fee_amount: 7500, currency: 'USD' } },
      { type: 'policy_violation.dispute_message_posted', ...about('policy_violation'), actorId: customer, payload: { order_id: order, customer_id: customer, message_id: randomUUID(), author_type: 'customer', opened: true } },
      { type: 'policy_violation.dispute_message_posted', ...about('policy_violation'), actorId: w.company.userId, payload: { order_id: order, customer_id: customer, message_id: randomUUID(), author_type: 'company', opened: false } },
      { type: 'policy_violation.resolved', ...about('policy_violation'), actorId: w.company.userId, payload: { order_id: order, customer_id: customer, resolution: 'waived', points: 2, fee_amount: 7500 } },
      { type: 'customer.demerit_threshold_reached', ...about('customer', customer), payload: { points: 5, threshold: 5, level: 'warning' } },
      { type: 'leave_request.dates_decided', ...about('leave_request'), actorId: w.company.userId, payload: { driver_id: w.driver.id, decision: 'approved', dates: ['2027-03-15'], note: 'Enjoy.', status: 'approved', leave_ids: [randomUUID()] } },
      { type: 'leave.revoked', ...about('leave'), actorId: w.company.userId, payload: { driver_id: w.driver.id, leave_request_id: randomUUID(), end_date: '2027-03-15', revoked_from: '2027-03-16', revoked_to: '2027-03-17', note: null } },
      { type: 'chat.message_posted', ...about('chat'), actorId: w.company.userId, payload: { chat_id: randomUUID(), order_id: order, message_id: randomUUID(), author_user_id: w.company.userId, recipient_user_ids: [customer, w.driver.id], preview: 'Your container arrives Tuesday.' } },
      { type: 'company.plan_limit_near', ...about('company', w.company.companyId), payload: { resource: 'drivers', used: 4, limit: 5, plan: 'starter' } },
      { type: 'order.overdue', ...about('order', order), payload: { number: 7, customer_id: customer, balance_amount: 5000, currency: 'USD', due_date: '2027-01-01', days_overdue: 3 } },
      { type: 'job.reassigned', ...about('job'), actorId: w.company.userId, payload: { order_id: order, from_driver_id: w.driver.id, to_driver_id: driver2.id } },
      { type: 'order.cancelled', ...about('order', randomUUID()), actorId: customer, payload: { number: 8, customer_id: customer, from: 'approved', to: 'cancelled', reason: null, late: false, fee_amount: 0 } },
    );
    expect(ids).toHaveLength(16);
    const told = await toldAbout(ids);
    const co = w.company.userId;
    const byEvent = await Promise.all(ids.map(async (id) => (await toldAbout([id])).map((r) => `${r.user_id === co ? 'company' : r.user_id === customer ? 'customer' : r.user_id === w.driver.id ? 'driver' : r.user_id === driver2.id ? 'driver2' : r.user_id}:${r.title}`).sort()));
    expect(byEvent).toEqual([
      ['company:Payment received', 'customer:Payment received'],
      ['company:Payment failed', 'customer:Payment failed'],
      ['company:Refund issued', 'customer:Refund issued'],
      [], // a pending charge tells nobody
      ['customer:Policy violation recorded'],
      ['company:Violation disputed'], // the customer's message: the company
      ['customer:New message on your dispute'], // the company's: the customer
      ['customer:Violation waived'],
      ['customer:Demerit points warning'],
      ['driver:Leave approved'],
      ['driver:Leave shortened'],
      ['customer:New message', 'driver:New message'], // the author is not told
      ['company:Plan limit near'],
      ['company:Payment overdue: ORD-000007', 'customer:Payment overdue: ORD-000007'],
      ['driver2:Job assigned to you', 'driver:Job moved to another driver'],
      ['company:Order ORD-000008 cancelled'], // cancelled by the customer: the company
    ]);
    const charge = told.find((r) => r.title === 'Payment failed' && r.user_id === customer)!;
    expect(charge.body).toBe('Your payment of 129.99 USD failed (card declined). Please try another card.');
    expect(charge.data).toEqual({ transaction_id: expect.any(String), order_id: order });
    expect(told.find((r) => r.type === 'chat.message_posted')!.body).toBe('Your container arrives Tuesday.');
  });

  it('pushes wait for the commit: nothing runs for a transaction or a savepoint that rolls back', async () => {
    const ran: string[] = [];
    await t.ds.transaction(async (m) => {
      afterCommit(m, () => ran.push('outer'));
      await m.transaction(async (sm) => afterCommit(sm, () => ran.push('savepoint kept')));
      await m
        .transaction(async (sm) => {
          afterCommit(sm, () => ran.push('savepoint rolled back'));
          throw new Error('handler failed');
        })
        .catch(() => undefined);
      expect(ran).toEqual([]); // not before the commit
    });
    expect(ran).toEqual(['outer', 'savepoint kept']);
    await t.ds
      .transaction(async (m) => {
        afterCommit(m, () => ran.push('rolled back'));
        throw new Error('failed');
      })
      .catch(() => undefined);
    expect(ran).toEqual(['outer', 'savepoint kept']);
  });

  it('an event delivered again (a replayed delivery) makes no second notification', async () => {
    const [id] = await record({ type: 'company.plan_limit_near', ...about('company', w.company.companyId), payload: { resource: 'assets', used: 9, limit: 10, plan: 'starter' } });
    expect(await toldAbout([id])).toHaveLength(1);
    // Replay the dead-letter way (README "Events"): the delivery pending again, the event unpublished.
    await t.ds.query(`UPDATE outbox_deliveries SET status = 'pending', attempts = 0 WHERE event_id = $1 AND subscriber = 'notifications'`, [id]);
    await t.ds.query(`UPDATE outbox_events SET published_at = NULL WHERE id = $1`, [id]);
    await relay();
    const [delivery] = await t.ds.query(`SELECT status, attempts FROM outbox_deliveries WHERE event_id = $1 AND subscriber = 'notifications'`, [id]);
    expect(delivery).toEqual({ status: 'processed', attempts: 1 });
    expect(await toldAbout([id])).toHaveLength(1);
  });

  it('list, unread filter and count, read, read all, delete — each caller only their own', async () => {
    // A fresh customer with three notifications.
    const cu = await memberActor(t, w.company, 'customer');
    for (const level of ['warning', 'block', 'warning'] as const) await record({ type: 'customer.demerit_threshold_reached', ...about('customer', cu.id), payload: { points: 5, threshold: 5, level } });
    let page = await list('customer/', cu.token);
    expect(page.meta).toEqual({ page: 1, per_page: 20, total: 3, last_page: 1, unread_count: 3 });
    expect(page.data.map((n: Row) => n.title)).toEqual(['Demerit points warning', 'Ordering blocked', 'Demerit points warning']);
    const [newest, middle, oldest] = page.data as Row[];
    expect(newest).toEqual({ id: expect.any(String), type: 'customer.demerit_threshold_reached', title: 'Demerit points warning', body: 'You have 5 demerit points (warning at 5).', data: { customer_id: cu.id }, read_at: null, created_at: expect.any(String) });

    // Read one: read_at set; reading again keeps it.
    const read = (await api('post', `customer/notifications/${middle.id}/read`, cu.token).expect(200)).body.data;
    expect(read.read_at).toEqual(expect.any(String));
    expect((await api('post', `customer/notifications/${middle.id}/read`, cu.token).expect(200)).body.data.read_at).toBe(read.read_at);
    expect((await list('customer/', cu.token, '?unread=true')).data.map((n: Row) => n.id)).toEqual([newest.id, oldest.id]);
    expect((await list('customer/', cu.token, '?unread=false')).data.map((n: Row) => n.id)).toEqual([middle.id]);
    page = await list('customer/', cu.token, '?unread=true&per_page=1&page=2');
    expect(page.data.map((n: Row) => n.id)).toEqual([oldest.id]);
    expect(page.meta).toEqual({ page: 2, per_page: 1, total: 2, last_page: 2, unread_count: 2 });

    // Someone else's notification is 404 for every kind of caller: another customer of the company, the company, another company's customer.
    const other = await memberActor(t, w.company, 'customer');
    await api('post', `customer/notifications/${newest.id}/read`, other.token).expect(404);
    await api('delete', `customer/notifications/${newest.id}`, rivalCustomer.token).expect(404);
    await api('post', `notifications/${newest.id}/read`, w.company.token).expect(404);
    await api('post', `customer/notifications/${ABSENT_ID}/read`, cu.token).expect(404);
    await api('delete', 'customer/notifications/not-a-uuid', cu.token).expect(404);
    expect((await list('customer/', other.token)).meta.unread_count).toBe(0);

    // Read all: the two unread ones; again: nothing.
    expect((await api('post', 'customer/notifications/mark-all-read', cu.token).expect(200)).body.data).toEqual({ updated: 2, unread_count: 0 });
    expect((await api('post', 'customer/notifications/mark-all-read', cu.token).expect(200)).body.data).toEqual({ updated: 0, unread_count: 0 });
    expect((await list('customer/', cu.token)).data.every((n: Row) => n.read_at)).toBe(true);

    // Delete: gone (404 after), the others stay.
    expect((await api('delete', `customer/notifications/${oldest.id}`, cu.token).expect(200)).body).toMatchObject({ success: true, data: null, message: 'Notification deleted.' });
    await api('delete', `customer/notifications/${oldest.id}`, cu.token).expect(404);
    expect((await list('customer/', cu.token)).meta).toMatchObject({ total: 2, unread_count: 0 });

    // Reads and deletions are events (pushed to the user's other devices).
    const sync: Row[] = await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 AND type LIKE 'notification.%' ORDER BY created_at, id`, [cu.id]);
    expect(sync).toEqual([
      { type: 'notification.read', payload: { notification_ids: [middle.id], all: false } },
      { type: 'notification.read', payload: { notification_ids: [], all: true } },
      { type: 'notification.deleted', payload: { notification_id: oldest.id } },
    ]);
  });

  it('the company and the driver have the same routes; each prefix is for its own kind of caller', async () => {
    const [id] = await record({ type: 'job.assigned', ...about('job'), payload: { order_id: randomUUID(), type: 'pickup', from: 'unassigned', to: 'assigned', driver_id: driver2.id, reason: null } });
    const mine = (await list('driver/', driver2.token)).data.find((n: Row) => n.type === 'job.assigned');
    expect(mine).toMatchObject({ title: 'New pickup job', body: 'A pickup job was assigned to you.' });
    expect((await toldAbout([id])).map((r) => r.user_id)).toEqual([driver2.id]);
    await api('post', `driver/notifications/${mine.id}/read`, driver2.token).expect(200);
    await api('post', `driver/notifications/${mine.id}/read`, w.driver.token).expect(404);
    await api('delete', `driver/notifications/${mine.id}`, driver2.token).expect(200);

    const co = await list('', w.company.token);
    expect(co.meta.unread_count).toBeGreaterThan(0);
    expect((await api('post', 'notifications/mark-all-read', w.company.token).expect(200)).body.data).toEqual({ updated: co.meta.unread_count, unread_count: 0 });
    await api('delete', `notifications/${co.data[0].id}`, w.company.token).expect(200);

    // Wrong actor: 403.
    expect((await api('get', 'notifications/get', w.customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    await api('get', 'customer/notifications/get', w.driver.token).expect(403);
    await api('post', 'driver/notifications/mark-all-read', w.company.token).expect(403);
    await t.req('get', '/api/v1/notifications/get').expect(401);
    // Bad input: 422.
    const bad = await api('get', 'customer/notifications/get?unread=maybe&per_page=500', w.customer.token).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['per_page', 'unread']);
    await api('get', 'driver/notifications/get?sort=title', w.driver.token).expect(422);
    await api('get', 'notifications/get?q=x', w.company.token).expect(422);
  });

  it('an order rejected by the company tells the customer why; a customer cancelling tells the company', async () => {
    const rejected = await placeOrder(t, w);
    await t.req('patch', `/api/v1/reject/order/${rejected.id}`, { token: w.company.token, body: { reason: 'No access for trucks' } }).expect(200);
    const cancelled = await placeOrder(t, w);
    await api('post', `customer/order/${cancelled.id}/cancel`, w.customer.token, {}).expect(200);
    await relay();
    const events: Row[] = await t.ds.query(`SELECT id, type FROM outbox_events WHERE aggregate_id = ANY($1::uuid[]) AND type IN ('order.rejected', 'order.cancelled') ORDER BY type`, [[rejected.id, cancelled.id]]);
    expect(events.map((e) => e.type)).toEqual(['order.cancelled', 'order.rejected']);
    expect((await toldAbout([events[1].id])).map((r) => [r.user_id, r.title, r.body])).toEqual([[w.customer.id, `Order ${rejected.number} rejected`, `Your order ${rejected.number} was rejected: No access for trucks`]]);
    expect((await toldAbout([events[0].id])).map((r) => [r.user_id, r.title])).toEqual([[w.company.userId, `Order ${cancelled.number} cancelled`]]);
  });

  it('contact form: kept, then mailed to the platform address by the relay (once); bad input 422; a token is needed', async () => {
    const res = await api('post', 'contact-us', w.driver.token, { subject: 'App crashes', message: 'The app closes when I scan a QR code.' }).expect(201);
    expect(res.body).toEqual({ success: true, message: 'Thank you: we will answer by e-mail.', data: { id: expect.any(String), subject: 'App crashes', message: 'The app closes when I scan a QR code.', created_at: expect.any(String) } });
    // Mailed by the relay's subscriber (at least once; a failed SMTP delivery is retried), not in the request.
    const mailed = () => t.ds.query(`SELECT to_address, subject, body FROM mail_messages WHERE subject = '[Contact] App crashes'`);
    expect(await mailed()).toEqual([]);
    await relayAll(t);
    await relayAll(t);
    const [mail, ...again] = await mailed();
    expect(again).toEqual([]);
    expect(mail.to_address).toBe('support@haulops.local');
    expect(mail.body).toContain('The app closes when I scan a QR code.');
    expect(mail.body).toContain(w.driver.email);
    expect(await t.ds.query(`SELECT user_id FROM contact_messages WHERE id = $1`, [res.body.data.id])).toEqual([{ user_id: w.driver.id }]);
    const bad = await api('post', 'contact-us', w.customer.token, { subject: '', extra: 1 }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['extra', 'message', 'subject']);
    await t.req('post', '/api/v1/contact-us', { body: { subject: 'x', message: 'y' } }).expect(401);
  });
});
