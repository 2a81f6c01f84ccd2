import { ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { amcheckFindings as amcheckOf, openEmbedded, openPostgres, Sql } from '../../src/database/db-check';
import { priceBookItem } from '../support/price-book';

/**
 * What the crash test (crash-safety.crash.ts) needs around the built server: a child process on a
 * given database, an HTTP client that tells a refused request (never sent) from a cut one (sent, no
 * answer), a company seeded through HTTP, concurrent clients placing and approving orders, and SQL on
 * the database once the server is gone.
 */

export const ROOT = join(__dirname, '..', '..');
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A small seeded PRNG (mulberry32), so that a failing run can be replayed with CRASH_SEED. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------ the server as a child process

export interface LogLine {
  level?: string;
  msg?: string;
  [k: string]: unknown;
}

export class ServerProcess {
  readonly logs: LogLine[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
    const collect = (stream: NodeJS.ReadableStream | null) => {
      let rest = '';
      stream?.on('data', (d: Buffer) => {
        const lines = (rest + d.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) {
          if (!l.trim()) continue;
          try {
            this.logs.push(JSON.parse(l));
          } catch {
            this.logs.push({ level: 'raw', msg: l });
          }
        }
      });
    };
    collect(child.stdout);
    collect(child.stderr);
  }

  /** Starts `node dist/src/main.js` and waits for its `listening` line (or its death); `spawned` gets the process at once. */
  static async start(env: Record<string, string>, timeoutMs = 90_000, spawned?: (s: ServerProcess) => void): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', TRUST_PROXY: 'true', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(child, port);
    spawned?.(server);
    const deadline = Date.now() + timeoutMs;
    let dead = false;
    void server.exited.then(() => (dead = true));
    while (!server.logs.some((l) => l.msg === 'listening')) {
      if (dead) throw new Error(`server died while starting:\n${server.tail()}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server not listening after ${timeoutMs} ms:\n${server.tail()}`);
      }
      await sleep(50);
    }
    return server;
  }

  tail(n = 30): string {
    return this.logs
      .slice(-n)
      .map((l) => JSON.stringify(l))
      .join('\n');
  }

  kill(signal: NodeJS.Signals): number {
    const at = Date.now();
    this.child.kill(signal);
    return at;
  }
}

// ------------------------------------------------------------------ HTTP

export interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: http.IncomingHttpHeaders;
}

/** A request that got no answer: `refused` never reached the server; `cut` was sent and may have been processed. */
export class NoAnswer extends Error {
  constructor(
    readonly code: string,
    readonly kind: 'refused' | 'cut',
    readonly reusedSocket: boolean,
  ) {
    super(`${kind}: ${code}`);
  }
}

let ipSeq = 0;
export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: http.Agent;
  /** The client gives up this long after sending (closes its connection): the server goes on with the request. */
  abandonAfterMs?: number;
}

export function request(port: number, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const data = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  ipSeq++;
  const headers: Record<string, string> = {
    // A client address per request: the seed's register and login calls are throttled per address.
    'X-Forwarded-For': `10.77.${(ipSeq >> 8) & 255}.${ipSeq & 255}`,
    ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(data)) } : {}),
    ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
    ...opts.headers,
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      const code = e.code ?? e.message;
      reject(new NoAnswer(code, code === 'ECONNREFUSED' ? 'refused' : 'cut', req.reusedSocket));
    };
    const req = http.request({ host: '127.0.0.1', port, method, path: path.startsWith('/') ? path : `/api/v1/${path}`, headers, agent: opts.agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ABORTED' })));
      res.on('end', () => {
        if (settled) return;
        if (!res.complete) return fail(Object.assign(new Error('incomplete'), { code: 'INCOMPLETE' }));
        settled = true;
        const text = Buffer.concat(chunks).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.on('error', fail);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    if (opts.abandonAfterMs !== undefined) {
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('abandoned'), { code: 'ABANDONED' })), opts.abandonAfterMs);
      req.once('close', () => clearTimeout(timer));
    }
    req.end(data);
  });
}

// ------------------------------------------------------------------ the company, through HTTP (as test/support/order-fixtures.ts orderWorld)

export interface World {
  companyId: string;
  companyToken: string;
  customers: { id: string; token: string; addressId: string }[];
  specId: string;
  wasteId: string;
  lotId: string;
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function seedWorld(port: number, customers: number): Promise<World> {
  const call = async (method: string, path: string, body: unknown, token?: string, status = 201) => {
    const r = await request(port, method, path, { token, body });
    if (r.status !== status) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const tag = `${process.pid}.${Date.now()}`;
  const owner = await call('POST', 'auth/register', { name: 'Owner', email: `owner.${tag}@crash.test`, password: 'secret-pass-1', type: 'company' });
  const token: string = owner.token;
  const company = await call('POST', 'company/create', { name: 'Crash Hauling', timezone: 'UTC', currency: 'USD' }, token);
  const co = (path: string, body: unknown, status = 201) => call('POST', path, body, token, status);
  await co('company/settings', { timezone: 'UTC', order_lead_time_days: 1, free_cancellation_hours: 48, cancellation_fee_amount: 5000 }, 200);
  // The pro plan: the load places more orders than the free plan's 300 a month (403 PLAN_LIMIT beyond).
  await co('psp/subscription/pro/create', { token: 'tok_visa' });
  const lot = await co('lot/create', { name: 'Main yard', latitude: 40.0, longitude: -89.0 });
  const category = await co('asset-categories', { name: 'Roll-off' });
  const spec = await co('asset-specifications', { name: '20 yd roll-off', asset_category_id: category.id, size: 20, size_unit: 'yd3', included_days: 7, included_weight_kg: 2000 });
  const waste = await co('waste-types', { name: 'General debris', code: 'GEN' });
  await co(`asset-specifications/${spec.id}/waste-types`, { waste_type_id: waste.id });
  await co('pricing-profiles', {
    name: 'Standard',
    is_default: true,
    delivery_free_radius_km: 10,
    delivery_price_per_km_amount: 200,
    items: [priceBookItem(spec.id, 40000)],
  });
  await co('taxes', { name: 'Sales tax', rate_bps: 825, applies_to: 'all', is_default: true });
  await co('payment-terms', { name: 'Net 15', due_days: 15, is_default: true });
  const list: World['customers'] = [];
  for (let i = 0; i < customers; i++) {
    const email = `customer${i}.${tag}@crash.test`;
    const created = await co('customer/create', { name: `Customer ${i}`, email, password: 'secret-pass-1' });
    const login = await call('POST', 'auth/login', { email, password: 'secret-pass-1' }, undefined, 200);
    const address = await call('POST', 'customer/addresses', { line1: `${i} Site Rd`, city: 'Springfield', latitude: 40.18, longitude: -89.0 }, login.token);
    list.push({ id: created.id, token: login.token, addressId: address.id });
  }
  return { companyId: company.id, companyToken: token, customers: list, specId: spec.id, wasteId: waste.id, lotId: lot.id };
}

// ------------------------------------------------------------------ load

export interface Attempt {
  op: 'place' | 'approve';
  phase: string;
  client: number;
  customer: number;
  /** In the order's notes (and the Idempotency-Key when `keyed`): `[m:<phase>-c<client>-<seq>]`. */
  marker: string;
  keyed: boolean;
  body?: unknown;
  orderId?: string;
  outcome: 'ack' | 'rejected' | 'refused' | 'cut';
  reply?: Reply;
  /** The client gave up on it and sent it again with its key until it was no longer in flight (`reply` is the replay's). */
  abandoned?: boolean;
  /** 409 IDEMPOTENCY_KEY_IN_FLIGHT answers to those replays. */
  inFlight409?: number;
  replaySentAt?: number;
  error?: string;
  reusedSocket?: boolean;
  sentAt: number;
  endedAt: number;
}

export const placementBody = (w: World, customer: number, marker: string) => ({
  address_id: w.customers[customer].addressId,
  asset_specification_id: w.specId,
  waste_type_id: w.wasteId,
  delivery_date: inDays(3),
  notes: marker,
});

/**
 * `clients` concurrent clients, each on its own kept-alive connection: place an order (even-numbered
 * clients with an Idempotency-Key), and approve every other one they placed, until stopped.
 */
export class Load {
  readonly attempts: Attempt[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly port: number,
    private readonly world: World,
    private readonly phase: string,
    private readonly clients: number,
    private readonly random: () => number,
    /** Share of the placements with a key that the client abandons after a few ms, then replays. */
    private readonly abandonRate = 0,
  ) {}

  start(): this {
    for (let i = 0; i < this.clients; i++) this.loops.push(this.client(i));
    return this;
  }

  async stop(): Promise<Attempt[]> {
    this.stopped = true;
    await Promise.all(this.loops);
    return this.attempts;
  }

  private async send(a: Omit<Attempt, 'outcome' | 'sentAt' | 'endedAt'>, method: string, path: string, opts: RequestOptions): Promise<Attempt> {
    const attempt: Attempt = { ...a, outcome: 'cut', sentAt: Date.now(), endedAt: 0 };
    this.attempts.push(attempt);
    try {
      attempt.reply = await request(this.port, method, path, opts);
      attempt.outcome = attempt.reply.status >= 200 && attempt.reply.status < 300 ? 'ack' : 'rejected';
    } catch (e) {
      if (!(e instanceof NoAnswer)) throw e;
      attempt.outcome = e.kind;
      attempt.error = e.code;
      attempt.reusedSocket = e.reusedSocket;
    }
    attempt.endedAt = Date.now();
    return attempt;
  }

  /** Sends an abandoned placement again with its key until it is no longer in flight (or the server goes). */
  private async replayAbandoned(a: Attempt, token: string, agent: http.Agent): Promise<void> {
    a.abandoned = true;
    a.inFlight409 = 0;
    a.replaySentAt = Date.now();
    while (!this.stopped) {
      try {
        const r = await request(this.port, 'POST', 'customer/orders', { token, body: a.body, agent, headers: { 'Idempotency-Key': a.marker } });
        if (r.status === 409 && r.body?.code === 'IDEMPOTENCY_KEY_IN_FLIGHT') {
          a.inFlight409++;
          await sleep(50);
          continue;
        }
        a.reply = r;
        a.outcome = r.status >= 200 && r.status < 300 ? 'ack' : 'rejected';
        a.error = undefined;
      } catch (e) {
        if (!(e instanceof NoAnswer)) throw e;
        a.error = e.code; // the server went: 'cut', replayed after the restart
      }
      break;
    }
    a.endedAt = Date.now();
  }

  private async client(i: number): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const customer = i % this.world.customers.length;
    const token = this.world.customers[customer].token;
    const keyed = i % 2 === 0;
    let seq = 0;
    try {
      while (!this.stopped) {
        const marker = `[m:${this.phase}-c${String(i).padStart(2, '0')}-${String(++seq).padStart(4, '0')}]`;
        const body = placementBody(this.world, customer, marker);
        const abandon = keyed && this.random() < this.abandonRate;
        const placed = await this.send({ op: 'place', phase: this.phase, client: i, customer, marker, keyed, body }, 'POST', 'customer/orders', {
          token,
          body,
          agent,
          headers: keyed ? { 'Idempotency-Key': marker } : {},
          abandonAfterMs: abandon ? 2 + Math.floor(this.random() * 40) : undefined,
        });
        if (abandon && placed.error === 'ABANDONED') await this.replayAbandoned(placed, token, agent);
        if (placed.outcome === 'refused') {
          await sleep(20);
          continue;
        }
        if (placed.outcome === 'ack') placed.orderId = placed.reply!.body.data.id;
        if (placed.outcome === 'ack' && this.random() < 0.5) {
          await this.send({ op: 'approve', phase: this.phase, client: i, customer, marker, keyed: false, orderId: placed.orderId }, 'PATCH', `approve/order/${placed.orderId}`, {
            token: this.world.companyToken,
            agent,
          });
        }
      }
    } finally {
      agent.destroy();
    }
  }
}

// ------------------------------------------------------------------ SQL once the server is gone

export type { Sql };

export async function openSql(target: { databaseUrl?: string; dataDir?: string }): Promise<Sql> {
  // The embedded folder under its lock, as every opener (docs/embedded-database.md): refused while a server holds it.
  return target.databaseUrl ? openPostgres(target.databaseUrl) : openEmbedded(join(target.dataDir!, 'pgdata'), 'crash test', 15_000);
}

/** `amcheck` on every b-tree index with its heap (src/database/db-check.ts); the findings, none when sound. */
export async function amcheckFindings(sql: Sql): Promise<string[]> {
  return (await amcheckOf(sql)).findings;
}
