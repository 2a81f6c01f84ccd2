import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { io, Socket } from 'socket.io-client';
import { webhookEventTypes } from '../../src/common/outbox/webhook-events';
import '../../src/modules/orders/events'; // the events the orders and payments modules offer to webhooks, registered
import '../../src/modules/payments/events';
import { ADMIN_DATABASE_URL, Attempt, Load, openSql, prng, request, RequestOptions, seedWorld, ServerProcess, sleep, Sql, World } from '../crash/harness';
import { S3Stub } from '../support/s3-stub';
import { RoundRobinProxy } from './round-robin-proxy';

/** Every event a webhook endpoint may subscribe to (the two modules that offer any). */
const WEBHOOK_EVENTS = webhookEventTypes();

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The fleet test (issue #29 part 4, docs/fleet.md "Fleet test"; `npm run test:fleet`): three instances of
 * the built server (`dist/src/main.js`, test/crash/harness.ts `ServerProcess`) started together on one
 * fresh PostgreSQL database and one Redis (a REDIS_PREFIX of its own), one JWT secret, uploads in an S3
 * stub, each with its outbox relay on (short poll and lease), behind a round-robin proxy written here
 * (round-robin-proxy.ts; `TRUST_PROXY=1`). Everything on loopback.
 *
 * 1. A business day through the proxy, every call on the next instance: company, customer, driver, an
 *    order placed, approved, assigned, delivered with a photo (uploaded through one instance, served by
 *    all three), picked up, completed. Exactly once with three relays: one notification per (event,
 *    user), one webhook delivery per event (by X-Event-Id), every outbox delivery processed at its first
 *    attempt; pushes to sockets on one instance caused by requests on another.
 * 2. The shared throttle: six logins from one client address spread over the instances: the sixth is 429.
 * 3. Idempotency across instances: one placement with one Idempotency-Key sent to the three at once: one order.
 * 4. kill -9 of one instance under keyed placements through the proxy: no acknowledged write lost, the
 *    events its relay had claimed delivered by the others once the lease ran out (the recovery time),
 *    sockets that were connected to it reconnect (through the proxy) to another and get pushes there.
 *
 * Prints its figures at the end. Knobs: FLEET_CLIENTS (6), FLEET_SEED.
 */

const CLIENTS = Number(process.env.FLEET_CLIENTS ?? 6);
const SEED = Number(process.env.FLEET_SEED ?? Math.floor(Math.random() * 1e9));
const LEASE_MS = 5000;
const POLL_MS = 100;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-fleet-test-drop-off-photo')]);
const today = () => new Date().toISOString().slice(0, 10);

interface Pushed {
  event: string;
  data: any;
  at: number;
}
interface LiveClient {
  socket: Socket;
  got: Pushed[];
  connects: number[];
  next(event: string, match: (d: any) => boolean, withinMs?: number): Promise<Pushed>;
}

/** A socket.io client (websocket only) on `port`; resolves on its first connect. */
function live(port: number, token: string, reconnection = false): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const socket = io(`http://127.0.0.1:${port}`, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection, reconnectionDelay: 200, reconnectionDelayMax: 1000, forceNew: true });
    const c: LiveClient = {
      socket,
      got: [],
      connects: [],
      next: (event, match, withinMs = 15_000) => {
        const seen = c.got.find((g) => g.event === event && match(g.data));
        if (seen) return Promise.resolve(seen);
        return new Promise((res, rej) => {
          const timer = setTimeout(() => {
            clearInterval(poll);
            rej(new Error(`no ${event} within ${withinMs} ms; got ${JSON.stringify(c.got.map((g) => `${g.event}:${g.data?.type}`))}`));
          }, withinMs);
          const poll = setInterval(() => {
            const g = c.got.find((x) => x.event === event && match(x.data));
            if (g) {
              clearTimeout(timer);
              clearInterval(poll);
              res(g);
            }
          }, 20);
        });
      },
    };
    socket.onAny((event: string, data: any) => c.got.push({ event, data, at: Date.now() }));
    socket.on('connect', () => {
      c.connects.push(Date.now());
      if (c.connects.length === 1) resolve(c);
    });
    socket.on('connect_error', (e) => {
      if (!c.connects.length && !reconnection) reject(e);
    });
  });
}

describe('a fleet of three built servers on one PostgreSQL and one Redis behind a round-robin proxy', () => {
  const startedAt = Date.now();
  const random = prng(SEED);
  const dbName = `haulops_fleet_${process.pid}_${Date.now()}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `haulops-fleet:${process.pid}:${Date.now()}:`;
  const dataDirs: string[] = [];
  const s3 = new S3Stub('haulops-fleet');
  const servers: ServerProcess[] = [];
  let proxy: RoundRobinProxy;
  let sql: Sql;
  let world: World;
  const sockets: LiveClient[] = [];

  // The webhook listener on 127.0.0.1: every request recorded (its X-Event-Id) and answered 200, at once
  // or, while `holding`, when released (a relay sends one webhook at a time: three held = three relays mid-batch).
  const hooks: { eventId: string; type: string; at: number }[] = [];
  let holding = false;
  const held: { eventId: string; answer: () => void }[] = [];
  const listener = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      hooks.push({ eventId: String(req.headers['x-event-id']), type: body.type ?? body.event ?? '?', at: Date.now() });
      res.on('error', () => undefined);
      const answer = () => void res.writeHead(200).end('ok');
      if (holding) held.push({ eventId: String(req.headers['x-event-id']), answer });
      else answer();
    });
  });

  const figures: Record<string, unknown> = { seed: SEED, instances: 3, lease_ms: LEASE_MS, poll_ms: POLL_MS };

  /** Through the proxy (each call on the next instance); status asserted; returns `data` (and the instance that served it). */
  const call = async (method: string, path: string, body: unknown, token: string | undefined, status: number, opts: RequestOptions = {}) => {
    const r = await request(proxy.port, method, path, { token, body, ...opts });
    if (r.status !== status) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)} (instance ${r.headers['x-served-by']})`);
    return r.body.data;
  };
  /** Waits until the relays have published every event. */
  const drained = async (withinMs = 30_000) => {
    for (const until = Date.now() + withinMs; Date.now() < until; await sleep(100)) {
      const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL`);
      if (n === 0) return;
    }
    throw new Error('the outbox did not drain');
  };

  beforeAll(async () => {
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 3000 });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${dbName}`);
    } finally {
      await admin.end();
    }
    await s3.start();
    await new Promise<void>((ok) => listener.listen(0, '127.0.0.1', ok));
    const env = (i: number): Record<string, string> => {
      const dir = mkdtempSync(join(tmpdir(), `haulops-fleet-${i}-`));
      dataDirs.push(dir);
      return {
        DATA_DIR: dir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        JWT_SECRET: 'fleet-test-secret-'.padEnd(48, 'x'),
        MEDIA_STORAGE: 's3',
        S3_BUCKET: 'haulops-fleet',
        S3_ENDPOINT: s3.url,
        S3_ACCESS_KEY_ID: 'fleet',
        S3_SECRET_ACCESS_KEY: 'fleet-secret',
        OUTBOX_RELAY_ENABLED: 'true',
        OUTBOX_RELAY_POLL_MS: String(POLL_MS),
        OUTBOX_RELAY_LEASE_MS: String(LEASE_MS),
        OUTBOX_RELAY_BATCH_SIZE: '10',
        TRUST_PROXY: '1',
        OUTBOUND_ALLOW_HTTP: 'true',
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        SCHEDULER_ENABLED: 'false', // the scheduled jobs with three schedulers: test/database/fleet-scheduler.e2e.spec.ts
        PASSWORD_HASH_COST: '10',
      };
    };
    const t0 = Date.now();
    // Started together on the empty database: the migrations run once, under the advisory lock.
    servers.push(...(await Promise.all([0, 1, 2].map((i) => ServerProcess.start(env(i))))));
    figures.start_all_ms = Date.now() - t0;
    proxy = await new RoundRobinProxy(servers.map((s) => s.port)).start();
    sql = await openSql({ databaseUrl });
  }, 180_000);

  afterAll(async () => {
    figures.whole_test_ms = Date.now() - startedAt;
    process.stdout.write(`\nfleet test figures (FLEET_SEED=${SEED}):\n${JSON.stringify(figures, null, 2).replace(/\[\s+([^\]{}]*?)\s+\]/g, (_, inner: string) => `[${inner.split(/,\s+/).join(', ')}]`)}\n`);
    for (const s of sockets) s.socket.disconnect();
    await proxy?.stop();
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await sql?.close();
    await new Promise<void>((ok) => listener.close(() => ok()));
    await s3.stop();
    const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const r = new Redis(redisUrl);
    const keys = await r.keys(`${redisPrefix}*`);
    if (keys.length) await r.del(...keys);
    await r.quit();
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  });

  it('three instances started at once migrate once and log no error', async () => {
    const ran = servers.flatMap((s) => s.logs.filter((l) => typeof l.msg === 'string' && /^ran \d+ migrations?$/.test(l.msg)));
    const [{ n, distinct }] = await sql.query<{ n: number; distinct: number }>(`SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct FROM migrations`);
    expect(n).toBe(distinct);
    expect(ran.length).toBeLessThanOrEqual(1);
    expect(servers.flatMap((s) => s.logs.filter((l) => l.level === 'error' || l.level === 'fatal'))).toEqual([]);
  });

  let customer: World['customers'][number];
  let driver: { id: string; token: string };
  let orderId: string;
  let hookEndpoint: string;

  it('a business day through the proxy, every call on the next instance; the photo served by every instance; pushes across instances', async () => {
    const dayStarted = Date.now();
    const before = proxy.served.length;
    world = await seedWorld(proxy.port, 2);
    customer = world.customers[0];
    const co = (path: string, body: unknown, status = 201, method = 'POST') => call(method, path, body, world.companyToken, status);
    await co('company/settings', { timezone: 'UTC', order_lead_time_days: 0 }, 200);
    const hook = await co('psp/create/webhook', { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`, events: [...WEBHOOK_EVENTS] });
    hookEndpoint = hook.id;
    const truckType = await co('truck-types', { name: 'Roll-off hoist', capacity_kg: 15000, asset_specification_ids: [world.specId] });
    const truck = await co('trucks', { plate: `FLEET-${process.pid % 1000}`, truck_type_id: truckType.id, home_lot_id: world.lotId });
    await co('assets', { code: 'RO20-F01', asset_specification_id: world.specId, home_lot_id: world.lotId });
    // The fleet, not the container calendar: the load's placements are taken whatever it says (held, never refused).
    await co(`asset-specifications/${world.specId}`, { check_availability: false }, 200, 'PUT');
    const station = await co('station/create', { name: 'Transfer station', latitude: 40.05, longitude: -89.05, dump_cost_per_tonne_amount: 6500, waste_type_ids: [world.wasteId] });
    const driverEmail = `driver.${process.pid}.${Date.now()}@fleet.test`;
    const created = await co('driver/create', { name: 'Cy', email: driverEmail, password: 'secret-pass-1' });
    const login = await call('POST', 'auth/login', { email: driverEmail, password: 'secret-pass-1' }, undefined, 200);
    driver = { id: created.id, token: login.token };

    // Sockets straight on the instances: the company on 0, the customer on 1, the driver on 2.
    const [owner, cust, drv] = await Promise.all([live(servers[0].port, world.companyToken), live(servers[1].port, customer.token), live(servers[2].port, driver.token)]);
    sockets.push(owner, cust, drv);

    // The order, placed for today with a pickup today, and approved.
    const placed = await call('POST', 'customer/orders', { address_id: customer.addressId, asset_specification_id: world.specId, waste_type_id: world.wasteId, delivery_date: today(), pickup_date: today(), notes: 'fleet day' }, customer.token, 201);
    orderId = placed.id;
    // The company's socket (instance 0) is told of the placement, whichever instance served it and relayed its event.
    await owner.next('notification', (d) => d.type === 'order.placed' && d.data?.order_id === orderId);
    await co(`approve/order/${orderId}`, undefined, 200, 'PATCH');
    // A push to the customer's socket (instance 1) caused by the approval (served by another instance, delivered by any relay).
    const approvedAt = Date.now();
    await cust.next('notification', (d) => d.type === 'order.approved' && d.data?.order_id === orderId);
    const pushLatencies: number[] = [];
    pushLatencies.push(cust.got.find((g) => g.data?.type === 'order.approved')!.at - approvedAt);

    // Assigned (→ scheduled), the driver's socket (instance 2) is told.
    const assignedAt = Date.now();
    await co(`driver/assign/${orderId}`, { driver_id: driver.id, truck_id: truck.id }, 200);
    const job = await drv.next('job', (d) => d.type === 'job.assigned');
    pushLatencies.push(job.at - assignedAt);
    const full = await call('GET', `order/${orderId}/full`, undefined, world.companyToken, 200);
    const deliveryJob = full.jobs.find((j: any) => j.type === 'delivery').id;
    const pickupJob = full.jobs.find((j: any) => j.type === 'pickup').id;

    const dr = (path: string, body: unknown, status = 200) => call('POST', path, body, driver.token, status);
    await dr('driver/check-in', { lat: 40.0, lng: -89.0, truck_id: truck.id }, 201);
    await dr(`driver/jobs/${deliveryJob}/start`, undefined);

    // The photo: uploaded through the proxy (so one instance), read straight from each of the three.
    const upload = await fetch(`http://127.0.0.1:${proxy.port}/api/v1/upload-media`, { method: 'POST', body: (() => {
      const f = new FormData();
      f.append('file', new Blob([PNG], { type: 'image/png' }), 'drop.png');
      return f;
    })() });
    expect(upload.status).toBe(201);
    const media = ((await upload.json()) as any).data;
    const uploadedOn = Number(upload.headers.get('x-served-by'));
    const reads: { instance: number; status: number; same: boolean }[] = [];
    for (const [i, s] of servers.entries()) {
      const r = await fetch(`http://127.0.0.1:${s.port}${media.url}`);
      reads.push({ instance: i, status: r.status, same: Buffer.from(await r.arrayBuffer()).equals(PNG) });
    }
    expect(reads).toEqual([0, 1, 2].map((i) => ({ instance: i, status: 200, same: true })));
    figures.photo = { uploaded_on_instance: uploadedOn, cross_instance_reads_ok: `${reads.filter((r) => r.instance !== uploadedOn && r.status === 200).length} of 2` };

    await dr(`driver/jobs/${deliveryJob}/evidence`, { kind: 'photo', media_id: media.id, note: 'Driveway, left side', lat: 40.18, lng: -89.0 }, 201);
    await dr(`driver/jobs/${deliveryJob}/complete`, undefined);
    expect((await call('GET', `order/${orderId}`, undefined, world.companyToken, 200)).status).toBe('delivered');

    // The pickup: assigned, weighed at the station, completed.
    await co(`driver/assign/${orderId}`, { driver_id: driver.id, truck_id: truck.id }, 200);
    await dr(`driver/jobs/${pickupJob}/start`, undefined);
    await dr(`driver/jobs/${pickupJob}/evidence`, { kind: 'ticket', station_id: station.id, ticket_number: 'T-F01', gross_kg: 10400, tare_kg: 8900 }, 201);
    await dr(`driver/jobs/${pickupJob}/complete`, undefined);
    expect((await call('GET', `order/${orderId}`, undefined, world.companyToken, 200)).status).toBe('completed');
    await cust.next('notification', (d) => d.type === 'order.completed' && d.data?.order_id === orderId);

    // Every call went to the next instance.
    const served = proxy.served.slice(before);
    expect(served.every((s, k) => k === 0 || s === (served[k - 1] + 1) % 3)).toBe(true);
    expect(new Set(served).size).toBe(3);

    // Exactly once with three relays.
    await drained();
    await sleep(500); // the last webhook answers and pushes
    const [{ events }] = await sql.query<{ events: number }>(`SELECT count(*)::int AS events FROM outbox_events`);
    const notes = await sql.query<{ event_id: string; user_id: string; id: string }>(`SELECT id, event_id, user_id FROM notifications`);
    const perEventUser = new Map<string, number>();
    for (const n of notes) perEventUser.set(`${n.event_id}:${n.user_id}`, (perEventUser.get(`${n.event_id}:${n.user_id}`) ?? 0) + 1);
    expect([...perEventUser.values()].filter((n) => n > 1)).toEqual([]);
    const deliveries = await sql.query<{ status: string; attempts: number; n: number }>(`SELECT status, attempts, count(*)::int AS n FROM outbox_deliveries GROUP BY 1, 2`);
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([['processed', 1]]);
    const subscribed = await sql.query<{ id: string; type: string }>(`SELECT id, type FROM outbox_events WHERE company_id = $1 AND type = ANY($2::text[]) ORDER BY created_at, id`, [world.companyId, [...WEBHOOK_EVENTS]]);
    const byId = new Map<string, number>();
    for (const h of hooks) byId.set(h.eventId, (byId.get(h.eventId) ?? 0) + 1);
    const ofTheOrder = await sql.query<{ type: string }>(`SELECT type FROM outbox_events WHERE aggregate_id = $1 AND type = ANY($2::text[]) ORDER BY created_at, id`, [orderId, [...WEBHOOK_EVENTS]]);
    expect(ofTheOrder.map((e) => e.type)).toEqual(['order.placed', 'order.approved', 'order.scheduled', 'order.delivered', 'order.completed']);
    expect(subscribed.map((e) => [e.id, byId.get(e.id) ?? 0])).toEqual(subscribed.map((e) => [e.id, 1]));
    const hooksLogged = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'succeeded'`, [hookEndpoint]);
    expect(hooksLogged[0].n).toBe(subscribed.length);

    // Every notification of the three users reached their socket (on its own instance), once.
    const mine = await sql.query<{ id: string; user_id: string }>(`SELECT id, user_id FROM notifications WHERE user_id = ANY($1::uuid[])`, [[customer.id, driver.id]]);
    const pushedNotes = [cust, drv].flatMap((c) => c.got.filter((g) => g.event === 'notification').map((g) => g.data.id as string));
    expect(mine.map((n) => n.id).sort()).toEqual([...new Set(pushedNotes)].sort());
    const pushes = sockets.reduce((s, c) => s + c.got.length, 0);
    const duplicatePushes = sockets.reduce((s, c) => {
      const ids = c.got.filter((g) => g.event === 'notification').map((g) => g.data.id);
      return s + ids.length - new Set(ids).size;
    }, 0);
    expect(duplicatePushes).toBe(0);
    figures.business_day = {
      requests: served.length,
      per_instance: [0, 1, 2].map((i) => served.filter((s) => s === i).length),
      events: events,
      notifications: notes.length,
      notification_duplicates: [...perEventUser.values()].filter((n) => n > 1).length,
      webhook_events: subscribed.length,
      webhook_deliveries: hooks.length,
      webhook_duplicates: [...byId.values()].filter((n) => n > 1).length,
      outbox_deliveries: deliveries.reduce((s, d) => s + d.n, 0),
      outbox_deliveries_not_first_attempt: 0,
      pushes,
      push_duplicates: duplicatePushes,
      cross_instance_push_ms: pushLatencies,
      duration_ms: Date.now() - dayStarted,
    };
  });

  it('the throttle is shared: six logins from one address spread over the instances, the sixth is 429', async () => {
    // Its own loopback source address: the proxy appends it, the instances (TRUST_PROXY=1) count it.
    const agent = new http.Agent({ localAddress: '127.0.0.2', keepAlive: false });
    try {
      const replies = [];
      for (let k = 0; k < 6; k++) replies.push(await request(proxy.port, 'POST', 'auth/login', { agent, body: { email: 'nobody@fleet.test', password: 'whatever-1' } }));
      expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
      expect(new Set(replies.map((r) => r.headers['x-served-by'])).size).toBe(3);
      figures.throttle = { statuses: replies.map((r) => r.status), instances: replies.map((r) => Number(r.headers['x-served-by'])) };
    } finally {
      agent.destroy();
    }
  });

  it('idempotency across instances: one keyed placement sent to the three at once makes one order', async () => {
    const key = `fleet-idem-${SEED}`;
    const body = { address_id: customer.addressId, asset_specification_id: world.specId, waste_type_id: world.wasteId, delivery_date: today(), notes: key };
    // Straight to each instance (what a proxy would do with three tries of one request), again on 409 in flight.
    const inFlight409 = [0, 0, 0];
    const send = async (i: number) => {
      for (;;) {
        const r = await request(servers[i].port, 'POST', 'customer/orders', { token: customer.token, body, headers: { 'Idempotency-Key': key } });
        if (r.status === 409 && r.body?.code === 'IDEMPOTENCY_KEY_IN_FLIGHT') {
          inFlight409[i]++;
          await sleep(50);
          continue;
        }
        return r;
      }
    };
    const replies = await Promise.all([send(0), send(1), send(2)]);
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE notes = $1`, [key]);
    expect(n).toBe(1);
    // The first answer, and the same answer replayed by the two other instances.
    expect(replies.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(replies.map((r) => r.body)).toEqual([replies[0].body, replies[0].body, replies[0].body]);
    figures.idempotency = { statuses: replies.map((r) => r.status), replayed: replies.map((r) => r.headers['idempotent-replayed'] === 'true'), in_flight_409: inFlight409, orders: n };
  });

  it('kill -9 of one instance under keyed placements: no acknowledged write lost, its claimed events delivered by the others after the lease, its sockets reconnect elsewhere', async () => {
    const victim = 1;
    // Sockets through the proxy, one after another (the upgrades go round robin): note those on the victim.
    const viaProxy: LiveClient[] = [];
    const firstUpgrade = proxy.upgrades.length;
    for (let k = 0; k < 3; k++) viaProxy.push(await live(proxy.port, world.companyToken, true));
    sockets.push(...viaProxy);
    const onVictim = viaProxy.filter((_, k) => proxy.upgrades[firstUpgrade + k].instance === victim);
    expect(onVictim.length).toBeGreaterThan(0);

    const hooksBefore = hooks.length;
    const load = new Load(proxy.port, world, 'fleet', CLIENTS, random).start();
    for (const until = Date.now() + 60_000; load.attempts.filter((a) => a.outcome === 'ack').length < 30 && Date.now() < until; ) await sleep(20);
    await sleep(300 + Math.floor(random() * 700));
    // The kill comes while every relay, the victim's included, is mid-batch: each waits on a webhook answer
    // the listener holds (so each holds the lease of its batch). Then the held answers are given.
    // Never longer than 2 s at a time (the outbound client gives up after 5 s: a timed-out send would be retried).
    for (let round = 0; round < 10 && held.length < 3; round++) {
      for (const h of held.splice(0)) h.answer();
      holding = true;
      for (const until = Date.now() + 2000; held.length < 3 && Date.now() < until; ) await sleep(10);
      if (held.length < 3) holding = false;
    }
    expect(held.length).toBe(3);
    const killedAt = servers[victim].kill('SIGKILL');
    const [{ db_now }] = await sql.query<{ db_now: Date }>(`SELECT now() AS db_now`);
    const claimed = await sql.query<{ id: string; claimed_until: Date }>(`SELECT id, claimed_until FROM outbox_events WHERE published_at IS NULL AND claimed_until > now()`);
    await servers[victim].exited;
    const heldAtKill = held.map((h) => h.eventId);
    holding = false;
    for (const h of held.splice(0)) h.answer();
    await sleep(1500); // the load goes on through the two others
    const attempts: Attempt[] = await load.stop();

    // Every acknowledged write is there; a cut keyed placement, replayed with its key, makes at most one order.
    const problems: string[] = [];
    expect(attempts.filter((a) => a.outcome === 'rejected').map((a) => `${a.op} ${a.marker} → ${a.reply?.status} ${JSON.stringify(a.reply?.body)}`)).toEqual([]);
    const cut = attempts.filter((a) => a.op === 'place' && a.outcome === 'cut' && a.keyed);
    for (const a of cut) {
      const r = await request(proxy.port, 'POST', 'customer/orders', { token: world.customers[a.customer].token, body: a.body, headers: { 'Idempotency-Key': a.marker } });
      if (r.status !== 201) problems.push(`${a.marker}: replay → ${r.status} ${JSON.stringify(r.body)}`);
    }
    const acked = attempts.filter((a) => a.outcome === 'ack');
    const orders = new Map((await sql.query<{ id: string; status: string; notes: string }>(`SELECT id, status, notes FROM orders WHERE company_id = $1`, [world.companyId])).map((o) => [o.id, o]));
    for (const a of acked) {
      if (a.op === 'place' && orders.get(a.reply!.body.data.id)?.notes !== a.marker) problems.push(`${a.marker}: acknowledged order ${a.reply!.body.data.id} missing`);
      if (a.op === 'approve' && orders.get(a.orderId!)?.status !== 'approved') problems.push(`${a.marker}: acknowledged approval of ${a.orderId} not kept`);
    }
    const perMarker = new Map<string, number>();
    for (const o of orders.values()) perMarker.set(o.notes, (perMarker.get(o.notes) ?? 0) + 1);
    for (const [m, n] of perMarker) if (n > 1) problems.push(`${m}: ${n} orders`);
    expect(await sql.query(`SELECT key, status FROM idempotency_keys WHERE status <> 'done'`)).toEqual([]);
    expect(problems).toEqual([]);

    // The victim's leased events: claimed at the kill and published only after their lease ran out.
    await drained(60_000);
    const published = new Map(
      (await sql.query<{ id: string; published_at: Date }>(`SELECT id, published_at FROM outbox_events WHERE id = ANY($1::uuid[])`, [claimed.map((c) => c.id)])).map((r) => [r.id, new Date(r.published_at).getTime()]),
    );
    const orphans = claimed.filter((c) => published.get(c.id)! >= new Date(c.claimed_until).getTime());
    expect(orphans.length).toBeGreaterThan(0);
    const recoveryMs = Math.max(...orphans.map((c) => published.get(c.id)! - new Date(db_now).getTime()));
    expect(recoveryMs).toBeGreaterThanOrEqual(0);
    expect(recoveryMs).toBeLessThan(LEASE_MS + 10_000);

    // Exactly once after the kill too: notifications per (event, user) and outbox deliveries; webhooks by X-Event-Id.
    await sleep(500);
    const [{ dup }] = await sql.query<{ dup: number }>(`SELECT count(*)::int AS dup FROM (SELECT 1 FROM notifications GROUP BY event_id, user_id HAVING count(*) > 1) d`);
    expect(dup).toBe(0);
    const deliveries = await sql.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM outbox_deliveries GROUP BY 1`);
    expect(deliveries.map((d) => d.status)).toEqual(['processed']);
    const subscribed = await sql.query<{ id: string }>(`SELECT id FROM outbox_events WHERE company_id = $1 AND type = ANY($2::text[])`, [world.companyId, [...WEBHOOK_EVENTS]]);
    const byId = new Map<string, number>();
    for (const h of hooks) byId.set(h.eventId, (byId.get(h.eventId) ?? 0) + 1);
    expect(subscribed.filter((e) => !byId.has(e.id))).toEqual([]);
    // A webhook the victim had sent when it died is sent again by the relay that takes the event over (at
    // least once over HTTP: receivers de-duplicate by X-Event-Id): at most the one it was sending.
    // Here exactly one: the victim was waiting for the answer to one of the held webhooks when it died; its
    // delivery never committed, so the relay that took the event over sent it again (after the lease).
    const repeated = [...byId.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    expect(repeated).toHaveLength(1);
    expect(heldAtKill).toContain(repeated[0]);
    const repeats = repeated.map((id) => hooks.filter((h) => h.eventId === id).map((h) => h.at - killedAt));
    for (const [first, ...later] of repeats) {
      expect(first).toBeLessThanOrEqual(0);
      expect(later).toEqual([expect.any(Number)]);
      expect(later[0]).toBeGreaterThan(0);
    }

    // Sockets that were on the victim reconnected through the proxy to a live instance, and get pushes there.
    for (const c of onVictim) {
      for (const until = Date.now() + 15_000; c.connects.length < 2 && Date.now() < until; ) await sleep(50);
      expect(c.connects.length).toBeGreaterThanOrEqual(2);
    }
    const reconnectMs = onVictim.map((c) => c.connects[1] - killedAt);
    const reconnectedTo = proxy.upgrades.slice(firstUpgrade + 3).map((u) => u.instance);
    expect(reconnectedTo.every((i) => i !== victim)).toBe(true);
    const after = await request(proxy.port, 'POST', 'customer/orders', { token: customer.token, body: { address_id: customer.addressId, asset_specification_id: world.specId, waste_type_id: world.wasteId, delivery_date: today(), notes: 'after the kill' } });
    expect(after.status).toBe(201);
    for (const c of onVictim) await c.next('notification', (d) => d.type === 'order.placed' && d.data?.order_id === after.body.data.id);

    figures.kill = {
      clients: CLIENTS,
      attempts: attempts.length,
      acknowledged_writes: acked.length,
      acknowledged_placements: acked.filter((a) => a.op === 'place').length,
      cut_requests: attempts.filter((a) => a.outcome === 'cut').length,
      cut_keyed_placements_replayed: cut.length,
      acknowledged_writes_lost: 0,
      events_claimed_at_kill: claimed.length,
      events_taken_over_after_lease: orphans.length,
      lease_left_at_kill_ms: orphans.map((c) => new Date(c.claimed_until).getTime() - new Date(db_now).getTime()).sort((x, y) => x - y),
      recovery_ms_after_kill: recoveryMs,
      webhook_deliveries: hooks.length - hooksBefore,
      webhook_events_received_twice: repeated.length,
      webhook_repeat_copies_ms_from_kill: repeats.map((r) => r.join(' / ')),
      notification_duplicates: dup,
      sockets_on_victim: onVictim.length,
      socket_reconnect_ms: reconnectMs,
      reconnected_to_instances: reconnectedTo,
    };
  });
});
