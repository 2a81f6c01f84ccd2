import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import { recordEvents } from '../../src/common/outbox/outbox';
import { companyActor, CompanyActor, memberActor } from '../support/actors';
import { approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { placeOrder } from '../support/order-fixtures';
import { adminToken } from '../support/admin';
import { relayAll } from '../support/tenant-world';

const ADMIN_KEY = 'push-test-admin-key';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A socket.io client of an instance, with what it received (by event name) and a way to wait for the next one. */
interface Client {
  socket: Socket;
  /** What it received, with the time it arrived (ms). */
  got: { event: string; data: Row; at: number }[];
  next(event: string, match?: (data: Row) => boolean, withinMs?: number): Promise<Row>;
}

/**
 * Live push (issue #14): two server instances on ONE database and one Redis (a random key prefix per
 * run). A socket.io client connected to instance B receives, within a second, what a request to
 * instance A caused (the relay runs on A); another company's client receives nothing; bad tokens are
 * refused at the handshake with the API's codes; a revoked token's socket is disconnected.
 */
describe('Live push across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let w: DispatchWorld;
  let rival: CompanyActor;
  const clients: Socket[] = [];

  const instance = (databaseUrl?: string) =>
    startTestApp({ env: { REDIS_URL, ADMIN_REGISTRATION_KEY: ADMIN_KEY }, ...(databaseUrl ? { databaseUrl } : {}), configure: (c) => (c.redisPrefix = `haulops-test-${prefix}:`) });
  const prefix = randomUUID();
  const urlOf = (t: TestApp) => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  beforeAll(async () => {
    a = await instance();
    // The second instance on the first one's database (embedded: one instance only, the same rooms).
    b = a.db === 'postgres' ? await instance(a.config.databaseUrl) : a;
    await a.app.listen(0, '127.0.0.1');
    if (b !== a) await b.app.listen(0, '127.0.0.1');
    w = await dispatchWorld(a, { name: 'Push Co', assets: 3 }); // one container per order it places (the calendar refuses an order no container is free for)
    await a.req('post', '/api/v1/driver/check-in', { token: w.driver.token, body: { lat: 40.0, lng: -89.0, truck_id: w.truckId } }).expect(201);
    rival = await companyActor(a, 'Rival Push Co');
    await relay();
  }, 120_000);
  afterAll(async () => {
    for (const s of clients) s.disconnect();
    if (b && b !== a) await b.close();
    await a?.close();
  });

  const relay = () => relayAll(a); // instance A runs the relay

  /** Connects to instance `t` with `auth` (resolves on connect, rejects with the handshake error). */
  const connect = (t: TestApp, auth: Record<string, unknown> | undefined, headers?: Record<string, string>): Promise<Client> =>
    new Promise((resolve, reject) => {
      const socket = io(urlOf(t), { path: '/socket.io', auth, extraHeaders: headers, transports: ['websocket'], reconnection: false, forceNew: true });
      clients.push(socket);
      const got: Client['got'] = [];
      const waiters: { event: string; match: (d: Row) => boolean; resolve: (d: Row) => void }[] = [];
      socket.onAny((event: string, data: Row) => {
        got.push({ event, data, at: Date.now() });
        for (const wt of [...waiters]) if (wt.event === event && wt.match(data)) waiters.splice(waiters.indexOf(wt), 1) && wt.resolve(data);
      });
      const next: Client['next'] = (event, match = () => true, withinMs = 1000) => {
        const seen = got.find((g) => g.event === event && match(g.data));
        if (seen) return Promise.resolve(seen.data);
        return new Promise((res, rej) => {
          const timer = setTimeout(() => rej(new Error(`no ${event} within ${withinMs} ms; got ${JSON.stringify(got.map((g) => g.event))}`)), withinMs);
          waiters.push({ event, match, resolve: (d) => (clearTimeout(timer), res(d)) });
        });
      };
      socket.on('connect', () => resolve({ socket, got, next }));
      socket.on('connect_error', (e: Error & { data?: { code?: string } }) => reject(e));
    });
  const refusal = async (p: Promise<Client>) => {
    const e = (await p.then(
      () => {
        throw new Error('connected');
      },
      (err: Error & { data?: { code?: string } }) => err,
    )) as Error & { data?: { code?: string } };
    return { code: e.data?.code, message: e.message };
  };

  it('a notification caused by a request to instance A reaches the client on instance B within a second; another company gets nothing', async () => {
    const owner = await connect(b, { token: w.company.token });
    const stranger = await connect(b, { token: rival.token });
    const customer = await connect(b, undefined, { Authorization: `Bearer ${w.customer.token}` });

    const order = await placeOrder(a, w); // instance A
    await relay(); // instance A
    const pushed = await owner.next('notification', (n) => n.data.order_id === order.id);
    // Within a second of the notification's making (its transaction's time; the push follows its commit).
    const arrived = owner.got.find((g) => g.data === pushed)!.at;
    expect(arrived - Date.parse(pushed.created_at)).toBeLessThan(1000);
    expect(pushed).toEqual({ id: expect.any(String), type: 'order.placed', title: `New order ${order.number}`, body: expect.any(String), data: { order_id: order.id, customer_id: w.customer.id }, read_at: null, created_at: expect.any(String) });
    // The pushed notification is the one the API lists.
    const listed = (await b.req('get', '/api/v1/notifications/get', { token: w.company.token }).expect(200)).body.data;
    expect(listed[0]).toEqual(pushed);

    // Approval through A: the customer is told, the company's dispatch room gets the new jobs.
    await a.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }).expect(200);
    await relay();
    expect((await customer.next('notification', (n) => n.type === 'order.approved')).data).toEqual({ order_id: order.id });
    const job = await owner.next('job', (e) => e.type === 'job.created' && e.data.order_id === order.id);
    expect(job).toMatchObject({ event_id: expect.any(String), id: expect.any(String), data: { order_id: order.id, type: 'delivery' } });

    // The customer reads it through A: their other devices hear of it.
    const approvedId = customer.got.find((g) => g.event === 'notification' && g.data.type === 'order.approved')!.data.id;
    await a.req('post', `/api/v1/customer/notifications/${approvedId}/read`, { token: w.customer.token }).expect(200);
    await relay();
    expect((await customer.next('notification.read')).data).toEqual({ notification_ids: [approvedId], all: false });

    // A chat message (recorded as the chats module does): the recipients and the author's devices get it, then the recipient's notification.
    const chat = { chat_id: randomUUID(), order_id: order.id, message_id: randomUUID(), author_user_id: w.company.userId, recipient_user_ids: [w.customer.id], preview: 'Arriving at 9.' };
    await a.ds.transaction((m) => recordEvents(m, { type: 'chat.message_posted', aggregateType: 'chat', aggregateId: chat.chat_id, companyId: w.company.companyId, actorId: w.company.userId, payload: chat }));
    await relay();
    expect((await customer.next('chat')).data).toEqual(chat);
    expect((await owner.next('chat')).type).toBe('chat.message_posted');
    expect((await customer.next('notification', (n) => n.type === 'chat.message_posted')).body).toBe('Arriving at 9.');

    // The rival company's own event reaches it, after everything above: it received nothing of ours.
    await a.ds.transaction((m) => recordEvents(m, { type: 'company.plan_limit_near', aggregateType: 'company', aggregateId: rival.companyId, companyId: rival.companyId, payload: { resource: 'assets', used: 8, limit: 10, plan: 'starter' } }));
    await relay();
    await stranger.next('notification', (n) => n.type === 'company.plan_limit_near');
    expect(stranger.got.map((g) => `${g.event}:${g.data.type}`)).toEqual(['notification:company.plan_limit_near']);
    expect(customer.got.some((g) => g.event === 'job')).toBe(false); // jobs go to the dispatch room, not to customers
  });

  it('driver locations of a job in progress reach the company and the order\'s customer, live, from the other instance', async () => {
    const owner = await connect(b, { token: w.company.token });
    const customer = await connect(b, { token: w.customer.token });
    const driver = await connect(b, { token: w.driver.token });
    const order = await approvedOrder(a, w);
    await assignOrder(a, w, order.id, { date: inDays(0) });
    await relay();
    expect((await driver.next('notification', (n) => n.type === 'job.assigned' && n.data.job_id === order.deliveryJobId)).title).toBe('New delivery job');
    await a.req('post', `/api/v1/driver/jobs/${order.deliveryJobId}/start`, { token: w.driver.token, body: {} }).expect(200);
    const point = (await a.req('post', `/api/v1/driver/send-location/${order.deliveryJobId}`, { token: w.driver.token, body: { lat: 40.1, lng: -89.0 } }).expect(201)).body.data;
    const expected = { driver_id: w.driver.id, job_id: order.deliveryJobId, order_id: order.id, lat: 40.1, lng: -89.0, recorded_at: point.recorded_at };
    expect(await owner.next('driver.location')).toEqual(expected);
    expect(await customer.next('driver.location')).toEqual(expected);
  });

  it('the handshake takes the same tokens as the API: a bad, missing or revoked token or an inactive user is refused', async () => {
    expect(await refusal(connect(b, { token: 'not-a-jwt' }))).toEqual({ code: 'INVALID_TOKEN', message: 'Invalid token.' });
    expect((await refusal(connect(b, undefined))).code).toBe('UNAUTHENTICATED');
    expect((await refusal(connect(b, undefined, { Authorization: 'Bearer x.y.z' }))).code).toBe('INVALID_TOKEN');

    const gone = await memberActor(a, w.company, 'customer');
    await a.req('post', '/api/v1/auth/logout', { token: gone.token }).expect(200);
    expect((await refusal(connect(b, { token: gone.token }))).code).toBe('TOKEN_REVOKED');

    const inactive = await memberActor(a, w.company, 'customer');
    await a.req('post', `/api/v1/customer/${inactive.id}/deactivate`, { token: w.company.token }).expect((r) => expect([200, 201]).toContain(r.status));
    expect((await refusal(connect(b, { token: inactive.token }))).code).toBe('USER_INACTIVE');
  });

  it('a token revoked through instance A disconnects its socket on instance B; the user\'s other sockets stay', async () => {
    const phone = await memberActor(a, w.company, 'driver');
    const second = (await a.req('post', '/api/v1/auth/login', { body: { email: phone.email, password: 'secret-pass-1' } }).expect(200)).body.data.token as string;
    const revoked = await connect(b, { token: phone.token });
    const other = await connect(b, { token: second });
    const closed = new Promise<string>((resolve) => revoked.socket.on('disconnect', (reason) => resolve(reason)));
    await a.req('post', '/api/v1/auth/logout', { token: phone.token }).expect(200);
    const [event] = await a.ds.query(`SELECT payload FROM outbox_events WHERE type = 'auth.token_revoked' AND actor_id = $1`, [phone.id]);
    expect(event.payload).toEqual({ jti: expect.any(String), user_id: phone.id });
    await relay();
    // Disconnected within a second of the relay's pass (the revocation event's subscriber).
    const within = new Promise<string>((resolve) => setTimeout(() => resolve('still connected after 1 s'), 1000).unref());
    expect(await Promise.race([closed, within])).toBe('io server disconnect');
    expect(other.socket.connected).toBe(true);
  });

  it("a deactivated customer's sockets, and a deactivated company's people's sockets, are disconnected at once", async () => {
    const closedIn1s = (c: Client) =>
      Promise.race([new Promise<string>((resolve) => c.socket.on('disconnect', (reason) => resolve(reason))), new Promise<string>((resolve) => setTimeout(() => resolve('still connected after 1 s'), 1000).unref())]);
    const customer = await memberActor(a, w.company, 'customer');
    const customerSocket = await connect(b, { token: customer.token });
    const ownerSocket = await connect(b, { token: w.company.token });
    const closedCustomer = closedIn1s(customerSocket);
    await a.req('post', `/api/v1/customer/${customer.id}/deactivate`, { token: w.company.token }).expect((r) => expect([200, 201]).toContain(r.status));
    await relay();
    expect(await closedCustomer).toBe('io server disconnect');
    expect(ownerSocket.socket.connected).toBe(true);

    const doomed = await companyActor(a, 'Doomed Push Co');
    const doomedDriver = await memberActor(a, doomed, 'driver');
    const sockets = [await connect(b, { token: doomed.token }), await connect(b, { token: doomedDriver.token })];
    const closed = sockets.map(closedIn1s);
    const admin = await adminToken(a, ADMIN_KEY);
    await a.req('post', `/api/v1/admin/companies/${doomed.companyId}/deactivate`, { token: admin }).expect(200);
    await relay();
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(ownerSocket.socket.connected).toBe(true);
    expect((await refusal(connect(b, { token: doomed.token }))).code).toBe('COMPANY_INACTIVE');
  });
});
