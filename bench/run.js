#!/usr/bin/env node
/* eslint-disable */
// npm run bench [-- --duration 10 --rounds 3 --connections 50 --embedded --skip-build --keep-db --heap-mb 160 --semi-space-mb 16]
// npm run bench -- --reports […]: the dashboards and reports at 1M orders and 3M jobs (bench/reports.js)
//
// Builds, creates a fresh database, migrates it (the server runs its migrations at start), seeds reference
// data through the API (companies, owners, customers, lots, specifications, waste types, price books,
// taxes; one placed order per company) and orders by SQL (generate_series copies of each company's placed
// order with its lines and status history), then runs interleaved autocannon rounds against the built
// server and the floor app (bench/floor/). Prints one table (medians over the rounds). See
// docs/performance.md.
'use strict';
const { spawn, execSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { JwtService } = require('@nestjs/jwt');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : def;
};
const DURATION = opt('duration', 10);
const ROUNDS = opt('rounds', 3);
const CONNECTIONS = opt('connections', 50);
const MAIN_ORDERS = opt('orders', 10_000);
const GROWN_ORDERS = opt('grown-orders', 60_000);
// Pending orders for the approval route, in a company of their own (the second): one per request, never
// reused (a fast machine approved more than the measured company's 10k in three rounds, and the rest were 409s).
const APPROVE_ORDERS = opt('approve-orders', 30_000);
const OTHER_COMPANIES = opt('other-companies', 50);
const OTHER_ORDERS = opt('other-orders', 300_000);
const COUNT_SAMPLES = opt('count-samples', 10);
const EMBEDDED = flag('embedded');
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const APP_PORT = opt('port', 3901);
const FLOOR_PORT = APP_PORT + 1;
const COUNT_PORT = APP_PORT + 2;
const PROD_FLOOR_PORT = APP_PORT + 3;
// BENCH_JWT_SECRET: a fixed secret, to sign tokens for a kept database (--keep-db) when profiling by hand.
// `--reports --reuse-world FILE`: the database, secret and tokens a `--reports --keep-db` run saved in FILE (bench/reports.js).
const REUSE_WORLD = args.includes('--reuse-world') ? JSON.parse(fs.readFileSync(args[args.indexOf('--reuse-world') + 1], 'utf8')) : undefined;
const JWT_SECRET = REUSE_WORLD?.jwtSecret ?? process.env.BENCH_JWT_SECRET ?? randomBytes(32).toString('hex');
const DB_NAME = REUSE_WORLD?.db ?? `haulops_bench_${Date.now()}`;
const DB_URL = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
const DATA_DIR = EMBEDDED ? fs.mkdtempSync(path.join(os.tmpdir(), 'haulops-bench-')) : undefined;

// A list row's label: thousands when exact ("10k"), the count otherwise ("500", "1500"), so that two sizes never share one.
const ordersLabel = (n) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));
if (MAIN_ORDERS === GROWN_ORDERS) throw new Error('--orders and --grown-orders must differ: each names a row of its own');
const log = (...a) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const inDays = (d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);

// ------------------------------------------------------------------ processes

const children = new Set();
function startProcess(name, script, env, { capture = false } = {}) {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', capture ? 'pipe' : 'ignore', 'pipe'],
  });
  child.lines = [];
  let errTail = '';
  child.stderr.on('data', (d) => (errTail = (errTail + d).slice(-4000)));
  if (capture) {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        child.lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  }
  child.on('exit', (code, sig) => {
    children.delete(child);
    if (!child.stopping) log(`${name} exited (${code ?? sig}) ${errTail}`);
  });
  children.add(child);
  return child;
}
async function stopProcess(child) {
  if (!child || child.exitCode !== null) return;
  child.stopping = true;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 12_000);
  await done;
  clearTimeout(t);
}
async function waitFor(port, urlPath, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise((r) => {
      const req = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: 2000 }, (res) => {
        res.resume();
        r(res.statusCode !== undefined && res.statusCode < 500);
      });
      req.on('error', () => r(false));
      req.on('timeout', () => req.destroy());
    });
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`port ${port} did not answer ${urlPath}`);
}
// Like production (Dockerfile): the access log on (one line per request) and the same heap limit.
const HEAP_MB = opt('heap-mb', 160);
const SEMI_SPACE_MB = opt('semi-space-mb', 16);
const serverEnv = (port, extra = {}) => ({
  PORT: String(port),
  JWT_SECRET,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  // As the Docker image runs it (Dockerfile): the heap limit and the young generation's size.
  NODE_OPTIONS: HEAP_MB > 0 ? `--max-old-space-size=${HEAP_MB} --max-semi-space-size=${SEMI_SPACE_MB}` : '',
  OUTBOX_RELAY_ENABLED: 'false',
  TRUST_PROXY: 'true',
  ...(EMBEDDED ? { DATA_DIR, DATABASE_URL: '' } : { DATABASE_URL: DB_URL }),
  ...extra,
});
const startServer = async (port, extra = {}, capture = false) => {
  const child = startProcess(`server:${port}`, 'dist/src/main.js', serverEnv(port, extra), { capture });
  await waitFor(port, '/health');
  return child;
};

// ------------------------------------------------------------------ HTTP seeding

let ipSeq = 1;
function call(port, method, urlPath, body, token, expect) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  // A distinct client address per call (TRUST_PROXY=true) keeps the 5/min throttle of register/login out of the way.
  const ip = `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq++ & 255}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1/${urlPath}`,
        headers: {
          'x-forwarded-for': ip,
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          if (expect && res.statusCode !== expect) reject(new Error(`${method} ${urlPath} → ${res.statusCode} ${text.slice(0, 500)}`));
          else resolve(parsed && parsed.data !== undefined ? parsed.data : parsed);
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function seedCompany(port, i, customers) {
  const tag = `${i}.${Date.now()}`;
  const c = (m, p, b, t, s = 201) => call(port, m, p, b, t, s);
  const owner = await c('POST', 'auth/register', { name: `Owner ${i}`, email: `owner.${tag}@bench.test`, password: 'secret-pass-1', type: 'company' });
  const token = owner.token;
  const company = await c('POST', 'company/create', { name: `Bench Hauling ${i}`, timezone: 'America/Chicago', currency: 'USD' }, token);
  const co = (p, b, s = 201) => c('POST', p, b, token, s);
  await co('company/settings', { timezone: 'America/Chicago', order_lead_time_days: 1, free_cancellation_hours: 48, cancellation_fee_amount: 5000 }, 200);
  // The pro plan (20000 orders a month): the placement load goes beyond the free plan's 300 (403 PLAN_LIMIT).
  await co('psp/subscription/pro/create', { token: 'tok_visa' });
  await co('lot/create', { name: 'Main yard', latitude: 40.0, longitude: -89.0 });
  const category = await co('asset-categories', { name: 'Roll-off' });
  const spec = await co('asset-specifications', { name: '20 yd roll-off', asset_category_id: category.id, size: 20, size_unit: 'yd3', included_days: 7, included_weight_kg: 2000 });
  const waste = await co('waste-types', { name: 'General debris', code: 'GEN' });
  await co(`asset-specifications/${spec.id}/waste-types`, { waste_type_id: waste.id });
  await co('pricing-profiles', {
    name: 'Standard',
    is_default: true,
    delivery_free_radius_km: 10,
    delivery_price_per_km_amount: 200,
    items: [
      {
        asset_specification_id: spec.id,
        base_price_amount: 40000,
        included_days: 7,
        included_weight_kg: 2000,
        extra_day_amount: 1500,
        overage_per_tonne_amount: 9000,
        swap_fee_amount: 12000,
        dump_return_fee_amount: 14000,
        relocation_fee_amount: 8000,
        wasted_trip_fee_amount: 10000,
      },
    ],
  });
  await co('taxes', { name: 'Sales tax', rate_bps: 825, applies_to: 'all', is_default: true });
  await co('payment-terms', { name: 'Net 15', due_days: 15, is_default: true });
  const list = [];
  for (let k = 0; k < customers; k++) {
    const email = `customer${k}.${tag}@bench.test`;
    const created = await co('customer/create', { name: `Customer ${k} of ${i}`, email, password: 'secret-pass-1' });
    const login = await c('POST', 'auth/login', { email, password: 'secret-pass-1' }, undefined, 200);
    const address = await c('POST', 'customer/addresses', { line1: `${k} Site Rd`, city: 'Springfield', latitude: 40.18, longitude: -89.0 }, login.token);
    list.push({ id: created.id, token: login.token, addressId: address.id });
  }
  const w = { i, ownerId: owner.user?.id ?? owner.id, companyId: company.id, token, customers: list, specId: spec.id, wasteId: waste.id };
  // One order per company placed through the API: the template the SQL seed copies.
  w.templateOrderId = (await c('POST', 'customer/orders', placementBody(w, 0, 'bench template'), list[0].token)).id;
  if (!w.templateOrderId) throw new Error('placing the template order returned no id');
  return w;
}
const placementBody = (w, k, notes) => ({
  address_id: w.customers[k % w.customers.length].addressId,
  asset_specification_id: w.specId,
  waste_type_id: w.wasteId,
  delivery_date: inDays(3),
  notes,
});

async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const k = next++;
        out[k] = await fn(items[k], k);
      }
    }),
  );
  return out;
}

// ------------------------------------------------------------------ SQL seeding

async function columns(q, table, skip) {
  const r = await q(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`, [table]);
  return r.rows.map((x) => x.column_name).filter((c) => !skip.includes(c));
}

/** `count` copies of the company's template order (all its columns), numbered after the counter, with lines and status history. */
async function seedOrders(q, w, count) {
  if (count <= 0) return;
  const cols = await columns(q, 'orders', ['id', 'number', 'notes', 'created_at', 'updated_at', 'delivery_date', 'pickup_date', 'due_date', 'customer_id', 'address_id', 'address']);
  const lineCols = await columns(q, 'order_lines', ['id', 'order_id', 'created_at', 'updated_at']);
  const histCols = await columns(q, 'order_status_history', ['id', 'order_id', 'created_at']);
  const customers = w.customers.map((c) => c.id);
  const addresses = w.customers.map((c) => c.addressId);
  const start = (await q(`SELECT last_number FROM order_counters WHERE company_id = $1`, [w.companyId])).rows[0].last_number;
  // One statement: the orders (spread over the customers, each with their own address, 6 months of creation
  // times and delivery dates), then the template's lines and status history for each new order.
  // The rows are consistent by construction: skip the foreign-key triggers while copying (superuser).
  await q(`SET session_replication_role = replica`);
  await q(
    `WITH o AS (
       INSERT INTO orders (${cols.join(', ')}, number, notes, created_at, updated_at, delivery_date, pickup_date, due_date, customer_id, address_id, address)
       SELECT ${cols.map((c) => `t.${c}`).join(', ')}, $2::int + g, 'bench seed #' || g,
              now() - (g * interval '263 seconds'), now() - (g * interval '263 seconds'),
              (current_date + 3 - (g % 180)), NULL, (current_date + 18 - (g % 180)),
              ($4::uuid[])[1 + (g % $6::int)], ($5::uuid[])[1 + (g % $6::int)], t.address
         FROM orders t CROSS JOIN generate_series(1, $3::int) g
        WHERE t.id = $1
       RETURNING id, created_at),
     l AS (
       INSERT INTO order_lines (${lineCols.join(', ')}, order_id, created_at, updated_at)
       SELECT ${lineCols.map((c) => `l.${c}`).join(', ')}, o.id, o.created_at, o.created_at
         FROM o CROSS JOIN order_lines l WHERE l.order_id = $1)
     INSERT INTO order_status_history (${histCols.join(', ')}, order_id, created_at)
     SELECT ${histCols.map((c) => `h.${c}`).join(', ')}, o.id, o.created_at
       FROM o CROSS JOIN order_status_history h WHERE h.order_id = $1`,
    [w.templateOrderId, start, count, customers, addresses, customers.length],
  );
  await q(`SET session_replication_role = DEFAULT`);
  await q(`UPDATE order_counters SET last_number = $2 WHERE company_id = $1`, [w.companyId, start + count]);
  // The triggers were off: the company's list counters (order_status_counts) are recounted.
  await q(`DELETE FROM order_status_counts WHERE company_id = $1`, [w.companyId]);
  await q(`INSERT INTO order_status_counts (company_id, customer_id, status, n) SELECT company_id, customer_id, status, count(*) FROM orders WHERE company_id = $1 GROUP BY 1, 2, 3`, [w.companyId]);
}

/**
 * The embedded folder's lock, taken as the server takes it (dist/src/database/data-folder-lock.js;
 * docs/embedded-database.md): the benchmark never opens a folder a server holds (refused: it stops).
 */
function lockEmbedded(dataDir) {
  const { acquireDataFolderLock } = require(path.join(ROOT, 'dist/src/database/data-folder-lock'));
  return acquireDataFolderLock(path.join(dataDir, 'pgdata'), { opener: 'bench', waitMs: 15_000 });
}

/** The seed's dirty pages written now, not by a checkpoint during the measured rounds (a user without the right: skipped). */
async function checkpoint(db) {
  await db.q('CHECKPOINT').catch((e) => log(`CHECKPOINT skipped: ${e.message}`));
}

/** A query function on the benchmark database: PostgreSQL through pg, or the embedded files through PGlite (server stopped; folder locked). */
async function openDb() {
  if (!EMBEDDED) {
    const c = new Client({ connectionString: DB_URL });
    await c.connect();
    return { q: (s, p) => c.query(s, p), close: () => c.end() };
  }
  const { PGlite } = require('@electric-sql/pglite');
  const lock = await lockEmbedded(DATA_DIR);
  const db = new PGlite(path.join(DATA_DIR, 'pgdata'));
  await db.waitReady;
  return {
    q: (s, p) => db.query(s, p),
    close: async () => {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * A copy of the embedded folder in a DATA_DIR of its own, for the statement-counting server: one server
 * per folder (two on one folder corrupt it). Copied under the folder's lock, so while no server runs on it.
 */
async function copyForCounting() {
  const lock = await lockEmbedded(DATA_DIR);
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haulops-bench-count-'));
    fs.cpSync(path.join(DATA_DIR, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
    return dir;
  } finally {
    lock.release();
  }
}

// ------------------------------------------------------------------ measuring

/** A process's peak RSS so far (VmHWM), in bytes; NaN once it is gone. */
function vmHwm(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  } catch {
    return NaN;
  }
}

function rssSampler(pid) {
  let peak = 0;
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {}
  };
  read();
  const t = setInterval(read, 100);
  return { stop: () => (clearInterval(t), read(), peak) };
}

function cannon(port, route) {
  return new Promise((resolve, reject) => {
    let n = 0;
    const inst = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req) => {
              const r = route.request(n++);
              return { ...req, method: r.method ?? 'GET', path: r.path, headers: { ...req.headers, ...r.headers }, body: r.body };
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    inst.on('error', () => {});
  });
}

async function measure(route, server) {
  const port = route.port ?? (route.floor ? FLOOR_PORT : APP_PORT);
  const sampler = rssSampler(route.floor ? route.floorPid() : server.pid);
  const res = await cannon(port, route);
  const rss = sampler.stop();
  const ok = res['2xx'];
  const bad = res.non2xx + res.errors + res.timeouts;
  if (!res.requests.total) {
    const r = route.request(0);
    const t = Date.now();
    const status = await new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers: r.headers }, (x) => (x.resume(), x.on('end', () => resolve(x.statusCode))));
      req.on('error', (e) => resolve(e.message));
      req.end(r.body);
    });
    log(`${route.name}: no answer within the run; one request alone afterwards: ${status} in ${Date.now() - t} ms`);
  }
  if (res.errors || res.timeouts || !res.requests.total) log(`${route.name}: ${res.requests.total} requests, ${res.non2xx} non-2xx, ${res.errors} errors, ${res.timeouts} timeouts${Object.keys(res.errorCounts || {}).length ? ` ${JSON.stringify(res.errorCounts)}` : ''}`);
  return { rps: ok / res.duration, p50: res.latency.p50, p99: res.latency.p99, rss, bad, total: res.requests.total };
}

/**
 * Statements per request, counted: a second server with LOG_LEVEL=debug logs each statement TypeORM sends (one JSON line each).
 * Embedded: `dataDir`, a copy of the folder (copyForCounting), removed afterwards; never the measured server's folder.
 */
async function countStatements(routes, dataDir) {
  if (EMBEDDED && !dataDir) throw new Error('countStatements: the embedded database is counted on a copy of its folder (copyForCounting)');
  const server = await startServer(COUNT_PORT, { LOG_LEVEL: 'debug', ...(dataDir ? { DATA_DIR: dataDir } : {}) }, true);
  const out = {};
  try {
    for (const route of routes) {
      if (route.floor || route.noCount) continue;
      const sample = (i) => {
        const r = route.request(1_000_000 + i);
        return new Promise((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: COUNT_PORT, method: r.method ?? 'GET', path: r.path, headers: r.headers }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
          });
          req.on('error', reject);
          req.end(r.body);
        });
      };
      await sample(-1); // warm-up (metadata, prepared plans)
      await sleep(200);
      // Two passes, the smaller count: a pass that met a background statement of the server (a scheduled job's, say) counts it too.
      const passes = [];
      for (let pass = 0; pass < 2; pass++) {
        const before = server.lines.length;
        for (let i = 0; i < COUNT_SAMPLES; i++) await sample(pass * COUNT_SAMPLES + i);
        await sleep(300);
        passes.push(server.lines.slice(before).filter(isQueryLine).length / COUNT_SAMPLES);
      }
      out[route.name] = Math.min(...passes);
    }
  } finally {
    await stopProcess(server);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}
function isQueryLine(line) {
  // TypeORM's console logger (LOG_LEVEL=debug turns on ['query', 'error']): "query: SELECT …" / "query failed: …",
  // possibly coloured; a multi-line statement continues on lines without the prefix. A JSON logger line counts too.
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  if (/^query( failed)?:?\s/.test(plain)) return true;
  if (plain.startsWith('{')) {
    try {
      const o = JSON.parse(plain);
      return typeof o.query === 'string' || /^query( failed)?\b/.test(o.msg ?? '');
    } catch {}
  }
  return false;
}

// ------------------------------------------------------------------ main

async function main() {
  if (!flag('skip-build')) {
    log('building');
    execSync('npm run -s build', { cwd: ROOT, stdio: 'inherit' });
  }
  for (const dir of ['floor', 'floor-production']) execSync(`${process.execPath} ${require.resolve('typescript/bin/tsc')} -p bench/${dir}/tsconfig.json`, { cwd: ROOT, stdio: 'inherit' });

  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  if (!REUSE_WORLD) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  // `--reports`: the dashboards and reports at 1M orders and 3M jobs instead (bench/reports.js).
  if (flag('reports')) {
    if (EMBEDDED) throw new Error('--reports runs on PostgreSQL only');
    const floorToken = (sub) => new JwtService({ secret: JWT_SECRET }).sign({ sub, typ: 'company', jti: randomBytes(8).toString('hex') }, { algorithm: 'HS256', expiresIn: '1d' });
    return require('./reports')({
      log, opt, flag, pool, call, seedCompany, columns, startServer, startProcess, stopProcess, waitFor, openDb, measure, countStatements, median, floorToken,
      adminClient: async () => admin, reuseWorld: REUSE_WORLD, APP_PORT, FLOOR_PORT, DB_URL, DB_NAME, JWT_SECRET, ROUNDS, DURATION, CONNECTIONS,
    });
  }
  log(`database ${EMBEDDED ? `(embedded in ${DATA_DIR}; floor on PostgreSQL ${DB_NAME})` : DB_NAME}`);
  if (EMBEDDED) {
    const f = new Client({ connectionString: DB_URL });
    await f.connect();
    await f.query(`CREATE TABLE users (id uuid PRIMARY KEY, type text NOT NULL, name text NOT NULL, email text NOT NULL)`);
    await f.end();
  }

  // 1. Migrate (at the server's start) and seed the reference data through the API.
  let server = await startServer(APP_PORT);
  const t0 = Date.now();
  const worlds = await pool(Array.from({ length: 1 + 4 + OTHER_COMPANIES }, (_, i) => i), 4, (i) => seedCompany(APP_PORT, i, i === 0 ? 20 : i < 5 ? 3 : 2));
  const main = worlds[0];
  const five = worlds.slice(0, 5);
  const others = worlds.slice(5);
  log(`seeded ${worlds.length} companies through the API in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // The peak the API seeding reached (hashing every password), to tell it from the peak under the load.
  const seeded = { pid: server.pid, hwm: vmHwm(server.pid) };

  // 2. Orders by SQL (the embedded database is reachable only while its server is stopped).
  if (EMBEDDED) await stopProcess(server);
  let db = await openDb();
  const t1 = Date.now();
  await seedOrders(db.q, main, MAIN_ORDERS - 1);
  const approver = worlds[1];
  await seedOrders(db.q, approver, APPROVE_ORDERS - 1);
  for (const w of others) await seedOrders(db.q, w, Math.floor(OTHER_ORDERS / others.length) - 1);
  // A settled database (hint bits set, visibility map for index-only scans, statistics), as in production.
  await db.q('VACUUM (ANALYZE)');
  await checkpoint(db);
  const counts = (await db.q(`SELECT count(*)::int AS n, count(*) FILTER (WHERE company_id = $1)::int AS main FROM orders`, [main.companyId])).rows[0];
  log(`seeded ${counts.n} orders by SQL (${counts.main} for the measured company) in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  // Orders to approve: pending ones of the approving company, one per request. The order read: a pending order of the measured company.
  const pending = (await db.q(`SELECT id FROM orders WHERE company_id = $1 AND status = 'pending' ORDER BY number DESC`, [approver.companyId])).rows.map((r) => r.id);
  const mainPending = (await db.q(`SELECT id FROM orders WHERE company_id = $1 AND status = 'pending' ORDER BY number DESC`, [main.companyId])).rows.map((r) => r.id);
  const ownerId = (await db.q(`SELECT id FROM users WHERE company_id = $1 AND type = 'company' LIMIT 1`, [main.companyId])).rows[0]?.id;
  // The statement-counting server's folder (embedded): a copy, taken now that no server holds the folder.
  let countDir;
  if (EMBEDDED) {
    await db.close();
    countDir = await copyForCounting();
    server = await startServer(APP_PORT);
  }

  // The floor: its own token, signed with the same secret (sub = a user row of its database).
  if (EMBEDDED) {
    const f = new Client({ connectionString: DB_URL });
    await f.connect();
    await f.query(`INSERT INTO users (id, type, name, email) VALUES ($1, 'company', 'Floor', 'floor@bench.test')`, [ownerId]);
    await f.end();
  }
  const floor = startProcess('floor', 'dist/bench-floor/main.js', { PORT: String(FLOOR_PORT), DATABASE_URL: DB_URL, JWT_SECRET });
  await waitFor(FLOOR_PORT, '/');
  // The production floor (bench/floor-production/): the Nest floor plus a production service's per-request stack and the seed's routes.
  const prodFloor = startProcess('production floor', 'dist/bench-floor-production/main.js', {
    PORT: String(PROD_FLOOR_PORT),
    DATABASE_URL: DB_URL,
    JWT_SECRET,
    LOG_LEVEL: serverEnv(PROD_FLOOR_PORT).LOG_LEVEL,
    NODE_OPTIONS: serverEnv(PROD_FLOOR_PORT).NODE_OPTIONS,
  });
  await waitFor(PROD_FLOOR_PORT, '/');
  const floorToken = new JwtService({ secret: JWT_SECRET }).sign({ sub: ownerId, typ: 'company', jti: randomBytes(8).toString('hex') }, { algorithm: 'HS256', expiresIn: '1d' });

  const json = { 'content-type': 'application/json' };
  const bearer = (t) => ({ authorization: `Bearer ${t}` });
  const readId = mainPending[Math.floor(mainPending.length / 2)];
  let approveNext = 0;
  const placement = (ws) => (n) => {
    const w = ws[n % ws.length];
    const k = Math.floor(n / ws.length) % w.customers.length;
    return { method: 'POST', path: '/api/v1/customer/orders', headers: { ...json, ...bearer(w.customers[k].token) }, body: JSON.stringify(placementBody(w, k, `bench ${n}`)) };
  };
  const routes = [
    { name: 'Nest floor: JWT guard + findOne by id (key object)', floor: true, floorPid: () => floor.pid, request: () => ({ path: `/floor/users/${ownerId}`, headers: bearer(floorToken) }) },
    {
      name: 'production floor: Nest floor + throttler, validation, envelope, helmet, CORS, pino-http, prom-client, 370 routes',
      floor: true,
      port: PROD_FLOOR_PORT,
      floorPid: () => prodFloor.pid,
      request: () => ({ path: `/floor/users/${ownerId}`, headers: bearer(floorToken) }),
    },
    { name: 'GET /api/v1/auth/me', request: () => ({ path: '/api/v1/auth/me', headers: bearer(main.token) }) },
    { name: 'GET /api/v1/order/{order}', request: () => ({ path: `/api/v1/order/${readId}`, headers: bearer(main.token) }) },
    { name: `GET /api/v1/orders (${ordersLabel(MAIN_ORDERS)})`, request: () => ({ path: '/api/v1/orders', headers: bearer(main.token) }) },
    { name: 'POST /api/v1/customer/orders (1 company)', request: placement([main]) },
    { name: 'POST /api/v1/customer/orders (5 companies)', request: placement(five) },
    {
      name: 'PATCH /api/v1/approve/order/{orderId}',
      request: () => ({ method: 'PATCH', path: `/api/v1/approve/order/${pending[approveNext++ % pending.length]}`, headers: { ...json, ...bearer(approver.token) }, body: '{}' }),
    },
  ];
  const grown = { name: `GET /api/v1/orders (${ordersLabel(GROWN_ORDERS)})`, request: routes[4].request };

  // Each phase (before and after the growth) has its own floor rows. The machine is shared and its speed moves
  // within a minute (the Nest floor at 944-1885 req/s within one run), so a route's ratio to the production
  // floor is taken per round, against a production floor slice measured just before it (paired), and the
  // table gives the median of those ratios (and each round's); its ratio to the Nest floor is to the Nest
  // floor of the same round. A floor row's req/s is the median of all its slices.
  // Each table row: its route, its phase and its measurements (one per slice).
  const results = new Map();
  const rowName = (route, phase) => (route.floor && phase > 1 ? `${route.name} (with the ${ordersLabel(GROWN_ORDERS)} list)` : route.name);
  const record = (route, r, phase) => {
    const name = rowName(route, phase);
    if (!results.has(name)) results.set(name, { route, phase, rs: [] });
    results.get(name).rs.push(r);
  };
  const [nestFloor, prodFloorRoute] = routes;
  const measured = async (route, round, phase) => {
    const r = await measure(route, server);
    record(route, r, phase);
    log(`round ${round} ${route.name}: ${r.rps.toFixed(0)} req/s p99 ${r.p99} ms${r.bad ? ` (${r.bad} non-2xx/errors of ${r.total})` : ''}`);
    return r;
  };
  const runRounds = async (list, phase = 1) => {
    for (let round = 1; round <= ROUNDS; round++) {
      const nest = await measured(nestFloor, round, phase);
      for (const route of list) {
        if (route.floor) continue;
        const prod = await measured(prodFloorRoute, round, phase);
        prod.nestRps = nest.rps;
        const r = await measured(route, round, phase);
        r.nestRps = nest.rps;
        r.prodRps = prod.rps;
      }
    }
  };

  log(`rounds: ${ROUNDS} × ${DURATION} s, ${CONNECTIONS} connections`);
  await runRounds(routes);
  // The approval count must be taken on orders still pending.
  const approveCountStart = approveNext + 1000;
  approveNext = approveCountStart;
  const stmts = await countStatements(routes, countDir);

  // 3. Grow the measured company to GROWN_ORDERS and measure the list again (interleaved with the floor).
  if (EMBEDDED) {
    await stopProcess(server);
    db = await openDb();
  }
  const have = (await db.q(`SELECT count(*)::int AS n FROM orders WHERE company_id = $1`, [main.companyId])).rows[0].n;
  await seedOrders(db.q, main, GROWN_ORDERS - have);
  await db.q('VACUUM (ANALYZE) orders, order_lines, order_status_history');
  await checkpoint(db);
  log(`grew the measured company from ${have} to ${GROWN_ORDERS} orders`);
  if (EMBEDDED) {
    await db.close();
    countDir = await copyForCounting();
    server = await startServer(APP_PORT);
  }
  await runRounds([grown], 2);
  Object.assign(stmts, await countStatements([grown], countDir));
  const hwm = vmHwm(server.pid);

  // 4. The table.
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
  const ratio = (rs, key) => median(rs.map((r) => r.rps / r[key]));
  const rows = [...results.entries()].map(([name, { route, phase, rs }]) => {
    const rps = median(rs.map((r) => r.rps));
    const isNest = route === nestFloor;
    const isProd = route === prodFloorRoute;
    return [
      name,
      rps.toFixed(0),
      `${median(rs.map((r) => r.p50))} ms`,
      `${median(rs.map((r) => r.p99))} ms`,
      isNest ? '1.00' : ratio(rs, 'nestRps').toFixed(2),
      isNest ? (1 / ratio(results.get(rowName(prodFloorRoute, phase)).rs, 'nestRps')).toFixed(2) : isProd ? '1.00' : ratio(rs, 'prodRps').toFixed(2),
      route.floor ? '' : rs.map((r) => (r.rps / r.prodRps).toFixed(2)).join(', '),
      stmts[name] === undefined ? (route.floor ? '1' : '–') : String(+stmts[name].toFixed(1)),
      mb(Math.max(...rs.map((r) => r.rss))),
      String(rs.reduce((a, r) => a + r.bad, 0)),
    ];
  });
  const head = ['route', 'req/s', 'p50', 'p99', '× Nest floor', '× prod floor', '× prod floor, per round', 'statements/req', 'RSS peak', 'non-2xx'];
  const fmt = (cells) => `| ${cells.join(' | ')} |`;
  console.log(`\n${EMBEDDED ? 'embedded database (PGlite)' : 'PostgreSQL'}; ${CONNECTIONS} connections, median of ${ROUNDS} interleaved round(s) of ${DURATION} s (each route paired with a production floor slice just before it); ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  console.log(fmt(head));
  console.log(fmt(head.map(() => '---')));
  for (const r of rows) console.log(fmt(r));
  const afterSeeding = seeded.pid === server.pid ? `; ${mb(seeded.hwm)} when the API seeding ended, before any load` : '';
  console.log(`\nserver VmHWM (peak RSS of the server process measured last, over its whole life): ${mb(hwm)}${afterSeeding}`);

  await stopProcess(server);
  await stopProcess(floor);
  await stopProcess(prodFloor);
  if (!EMBEDDED) await db.close();
  if (!flag('keep-db')) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  if (DATA_DIR && !flag('keep-db')) fs.rmSync(DATA_DIR, { recursive: true, force: true });
}

main().catch(async (e) => {
  console.error(e);
  for (const c of children) await stopProcess(c);
  process.exit(1);
});
