/* eslint-disable */
// npm run bench -- --reports [--report-orders 1000000 --report-main-orders 200000 --report-companies 20 --report-drivers 10]
//                 [--duration 5 --rounds 1 --connections 10 --skip-build --keep-db]
//
// The dashboards and reports (issue #15) at scale: companies seeded through the API as in the main
// benchmark (plus a station and drivers each), then by SQL (generate_series) `--report-orders` orders
// over two years (`--report-main-orders` of them for the measured company), three jobs each (delivery,
// relocation, pickup: 3M jobs at 1M orders), a station ticket per completed pickup, the measured
// company's assets and its drivers' attendance; then the rollups (`report_order_facts`,
// `report_daily_counters`, `report_monthly_counters`) by the Reports migration's backfill
// (`backfillReportRollups`, the subscribers' rules in SQL; the relay is off in the benchmark; no ledger
// rows are seeded, so `collected` is 0). `--save-world FILE` with `--keep-db` keeps what
// `--reuse-world FILE` needs to measure the same database again without seeding. Measures every dashboard and report route and the floor, counts
// statements per request, prints one table. See docs/reports.md.
'use strict';

module.exports = async function reportsBench(b) {
  const { log, flag, pool, call, seedCompany } = b;
  const TOTAL = b.opt('report-orders', 1_000_000);
  const MAIN = b.opt('report-main-orders', 200_000);
  const COMPANIES = b.opt('report-companies', 20);
  const DRIVERS = b.opt('report-drivers', 10);
  const SPAN = 744; // days of history (two years), delivery dates from today + 14 back
  const KEY = 'bench-admin-registration-key';

  const admin = await b.adminClient();
  let server = await b.startServer(b.APP_PORT, { ADMIN_REGISTRATION_KEY: KEY });
  // `--reuse-world FILE`: measure the database a `--keep-db --save-world FILE` run seeded (no seeding).
  const { main, adminToken } = b.reuseWorld ?? (await seed(b, server, { TOTAL, MAIN, COMPANIES, DRIVERS, SPAN, KEY }));
  const db = await b.openDb();
  const q = db.q;

  const n = (await q(`SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM station_tickets)::int AS tickets, (SELECT count(*) FROM report_daily_counters)::int AS cells,
                             (SELECT count(*) FROM orders WHERE company_id = $1)::int AS main`, [main.companyId])).rows[0];

  // Consistency: the rollups say what the rows say (one figure of each source, measured company, all time).
  const check = (await q(`SELECT (SELECT sum(amount) FROM report_daily_counters WHERE company_id = $1 AND metric = 'billed')::bigint AS billed,
                                 (SELECT sum(total_amount) FROM orders WHERE company_id = $1 AND status NOT IN ('pending', 'rejected'))::bigint AS totals,
                                 (SELECT sum(count) FROM report_daily_counters WHERE company_id = $1 AND metric = 'jobs')::bigint AS jobs_counted,
                                 (SELECT count(*) FROM jobs WHERE company_id = $1 AND status = 'completed')::bigint AS jobs_completed,
                                 (SELECT sum(amount) FROM report_daily_counters WHERE company_id = $1 AND metric = 'dues')::bigint AS dues_counted,
                                 (SELECT sum(total_amount - paid_amount) FROM orders WHERE company_id = $1 AND total_amount > paid_amount AND status <> 'rejected')::bigint AS dues`, [main.companyId])).rows[0];
  if (check.billed !== check.totals || check.jobs_counted !== check.jobs_completed || check.dues_counted !== check.dues) throw new Error(`rollups inconsistent: ${JSON.stringify(check)}`);

  const floorToken = b.floorToken(main.ownerId);
  const floor = b.startProcess('floor', 'dist/bench-floor/main.js', { PORT: String(b.FLOOR_PORT), DATABASE_URL: b.DB_URL, JWT_SECRET: b.JWT_SECRET });
  await b.waitFor(b.FLOOR_PORT, '/');
  const bearer = (t, extra = {}) => ({ authorization: `Bearer ${t}`, ...extra });
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const get = (name, path, token, headers) => ({ name, request: () => ({ path, headers: bearer(token, headers) }) });
  const k = (x) => `${Math.round(x / 1000)}k`;
  const routes = [
    { name: 'floor: JWT guard + findOne by id (key object)', floor: true, floorPid: () => floor.pid, request: () => ({ path: `/floor/users/${main.ownerId}`, headers: bearer(floorToken) }) },
    get(`GET /company/dashboard (30 days, ${k(n.main)} orders)`, '/api/v1/company/dashboard', main.token),
    get('GET /company/dashboard (366 days)', `/api/v1/company/dashboard?from=${yearAgo}&to=${today}`, main.token),
    get('GET /analytics (30 days)', '/api/v1/analytics', main.token),
    get('GET /reports (revenue, JSON)', '/api/v1/reports', main.token),
    get('GET /reports (drivers, CSV)', '/api/v1/reports?report=drivers&format=csv', main.token),
    get('GET /customer/dashboard', '/api/v1/customer/dashboard', main.customers[0].token),
    get('GET /driver/dashboard', '/api/v1/driver/dashboard', main.drivers[0].token),
    get('GET /driver/report/get (month)', '/api/v1/driver/report/get', main.drivers[0].token),
    get('GET /driver/report/download (month)', '/api/v1/driver/report/download', main.drivers[0].token),
    get('GET /admin/dashboard', '/api/v1/admin/dashboard', adminToken),
    get('GET /admin/get/companies/report', '/api/v1/admin/get/companies/report', adminToken),
    get('GET /admin/get/customers/report', '/api/v1/admin/get/customers/report', adminToken),
  ];
  const results = new Map();
  for (let round = 1; round <= b.ROUNDS; round++) {
    for (const route of routes) {
      const r = await b.measure(route, server);
      if (!results.has(route.name)) results.set(route.name, []);
      results.get(route.name).push(r);
      log(`round ${round} ${route.name}: ${r.rps.toFixed(0)} req/s p99 ${r.p99} ms${r.bad ? ` (${r.bad} non-2xx/errors of ${r.total})` : ''}`);
    }
  }
  const stmts = await b.countStatements(routes);
  const floorRps = b.median(results.get(routes[0].name).map((r) => r.rps));
  const fmt = (cells) => `| ${cells.join(' | ')} |`;
  const head = ['route', 'req/s', 'p50', 'p99', '× floor', 'statements/req', 'RSS peak', 'non-2xx'];
  console.log(`\nPostgreSQL; dashboards and reports at ${n.orders} orders and ${n.jobs} jobs (${n.main} orders of the measured company); ${b.CONNECTIONS} connections, median of ${b.ROUNDS} round(s) of ${b.DURATION} s; ${require('node:os').cpus().length} cores; node ${process.version}`);
  console.log(fmt(head));
  console.log(fmt(head.map(() => '---')));
  for (const [name, rs] of results) {
    const rps = b.median(rs.map((r) => r.rps));
    console.log(fmt([name, rps.toFixed(0), `${b.median(rs.map((r) => r.p50))} ms`, `${b.median(rs.map((r) => r.p99))} ms`, (rps / floorRps).toFixed(2), stmts[name] === undefined ? (name.startsWith('floor') ? '1' : '–') : String(+stmts[name].toFixed(1)), `${(Math.max(...rs.map((r) => r.rss)) / 2 ** 20).toFixed(0)} MB`, String(rs.reduce((a, r) => a + r.bad, 0))]));
  }

  await b.stopProcess(server);
  await b.stopProcess(floor);
  await db.close();
  if (!flag('keep-db')) await admin.query(`DROP DATABASE IF EXISTS ${b.DB_NAME} WITH (FORCE)`);
  await admin.end();
};

/** Companies through the API, the history by SQL, the rollups from the rows; `--save-world FILE` keeps what a `--reuse-world` run needs. */
async function seed(b, server, { TOTAL, MAIN, COMPANIES, DRIVERS, SPAN, KEY }) {
  const { log, pool, call, seedCompany } = b;
  const t0 = Date.now();
  const worlds = await pool(Array.from({ length: 1 + COMPANIES }, (_, i) => i), 4, async (i) => {
    const w = await seedCompany(b.APP_PORT, i, i === 0 ? 20 : 3);
    const co = (p, body, s = 201) => call(b.APP_PORT, 'POST', p, body, w.token, s);
    w.stationId = (await co('station/create', { name: 'Transfer station', latitude: 40.05, longitude: -89.05, dump_cost_per_tonne_amount: 6500, waste_type_ids: [w.wasteId] })).id;
    w.drivers = [];
    for (let k = 0; k < (i === 0 ? DRIVERS : 1); k++) {
      const email = `driver${k}.${i}.${Date.now()}@bench.test`;
      const d = await co('driver/create', { name: `Driver ${k} of ${i}`, email, password: 'secret-pass-1' });
      const login = await call(b.APP_PORT, 'POST', 'auth/login', { email, password: 'secret-pass-1' }, undefined, 200);
      w.drivers.push({ id: d.id, token: login.token });
    }
    return w;
  });
  const adminToken = (await call(b.APP_PORT, 'POST', 'admin/auth/register', { name: 'Bench admin', email: `admin.${Date.now()}@bench.test`, password: 'secret-pass-1', registration_key: KEY }, undefined, 201)).token;
  const main = worlds[0];
  log(`seeded ${worlds.length} companies (station, drivers) through the API in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const db = await b.openDb();
  const q = db.q;
  const t1 = Date.now();
  const others = worlds.slice(1);
  for (const [i, w] of worlds.entries()) await seedHistory(q, b.columns, w, i === 0 ? MAIN : Math.floor((TOTAL - MAIN) / others.length));
  await q(`INSERT INTO assets (company_id, code, asset_specification_id, status, created_at, updated_at)
           SELECT $1, 'RO20-' || lpad(g::text, 4, '0'), $2, 'available', now() - interval '800 days', now() FROM generate_series(1, 60) g`, [main.companyId, main.specId]);
  await q(`INSERT INTO attendances (company_id, driver_id, work_date, status, checked_in_at, checked_out_at)
           SELECT $1, d, current_date - g, 'checked_out', ((current_date - g) + time '07:00') AT TIME ZONE 'America/Chicago', ((current_date - g) + time '15:30') AT TIME ZONE 'America/Chicago'
             FROM unnest($2::uuid[]) d CROSS JOIN generate_series(1, ${SPAN}) g`, [main.companyId, main.drivers.map((d) => d.id)]);
  log(`seeded the history by SQL in ${((Date.now() - t1) / 1000).toFixed(1)} s; deriving the rollups`);
  const t2 = Date.now();
  // The rollups from the rows by the Reports migration's backfill (what an existing install runs).
  await require('../dist/migrations/1764400006000-Reports.js').backfillReportRollups({ query: (sql, params) => q(sql, params) });
  await q('VACUUM (ANALYZE)');
  const n = (await q(`SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM station_tickets)::int AS tickets, (SELECT count(*) FROM report_daily_counters)::int AS cells,
                             (SELECT count(*) FROM orders WHERE company_id = $1)::int AS main`, [main.companyId])).rows[0];
  log(`${n.orders} orders (${n.main} of the measured company), ${n.jobs} jobs, ${n.tickets} tickets, ${n.cells} rollup cells; rollups derived in ${((Date.now() - t2) / 1000).toFixed(1)} s`);

  await db.close();
  const world = { db: b.DB_NAME, jwtSecret: b.JWT_SECRET, adminToken, main: { companyId: main.companyId, ownerId: main.ownerId, token: main.token, customers: [{ token: main.customers[0].token }], drivers: [{ token: main.drivers[0].token }] } };
  const at = process.argv.indexOf('--save-world');
  if (at >= 0) require('node:fs').writeFileSync(process.argv[at + 1], JSON.stringify(world, null, 2));
  return world;
}

/**
 * `count` orders of the company over two years, copied from its placed template order (lines and
 * history), shaped by their delivery date d: future → approved; the last 7 days → delivered; older →
 * completed on d + 7 and paid. Three jobs each (delivery on d, relocation on d + 3, pickup on d + 7),
 * completed when their date is past and the order was served (one delivery in ten a day late), spread
 * over the company's drivers; a station ticket for each completed pickup.
 */
async function seedHistory(q, columns, w, count) {
  if (count <= 0) return;
  const cols = await columns(q, 'orders', ['id', 'number', 'notes', 'created_at', 'updated_at', 'delivery_date', 'pickup_date', 'due_date', 'customer_id', 'address_id', 'address', 'status', 'payment_status', 'paid_amount', 'delivered_on', 'approved_at', 'completed_at']);
  const lineCols = await columns(q, 'order_lines', ['id', 'order_id', 'created_at', 'updated_at']);
  const start = (await q(`SELECT last_number FROM order_counters WHERE company_id = $1`, [w.companyId])).rows[0].last_number;
  const tz = `'America/Chicago'`;
  await q(`SET session_replication_role = replica`);
  await q(
    `WITH o AS (
       INSERT INTO orders (${cols.join(', ')}, number, notes, created_at, updated_at, delivery_date, pickup_date, due_date, customer_id, address_id, address,
                           status, payment_status, paid_amount, delivered_on, approved_at, completed_at)
       SELECT ${cols.map((c) => `t.${c}`).join(', ')}, $2::int + g, 'bench history #' || g, s.created, s.created, s.d, s.d + 7, s.d + 15,
              ($4::uuid[])[1 + (g % $6::int)], ($5::uuid[])[1 + (g % $6::int)], t.address,
              s.status, CASE WHEN s.status = 'completed' THEN 'paid' ELSE 'unpaid' END, CASE WHEN s.status = 'completed' THEN t.total_amount ELSE 0 END,
              CASE WHEN s.status <> 'approved' THEN s.d END, s.created, CASE WHEN s.status = 'completed' THEN ((s.d + 7) + time '14:00') AT TIME ZONE ${tz} END
         FROM orders t CROSS JOIN generate_series(1, $3::int) g
        CROSS JOIN LATERAL (SELECT current_date + 14 - (g % ${744}) AS d) dd
        CROSS JOIN LATERAL (SELECT dd.d, ((dd.d - 3) + time '09:00') AT TIME ZONE ${tz} AS created,
                                   CASE WHEN dd.d >= current_date THEN 'approved' WHEN dd.d >= current_date - 7 THEN 'delivered' ELSE 'completed' END AS status) s
        WHERE t.id = $1
       RETURNING id, created_at, delivery_date, status, number),
     l AS (
       INSERT INTO order_lines (${lineCols.join(', ')}, order_id, created_at, updated_at)
       SELECT ${lineCols.map((c) => `l.${c}`).join(', ')}, o.id, o.created_at, o.created_at FROM o CROSS JOIN order_lines l WHERE l.order_id = $1),
     j AS (
       INSERT INTO jobs (company_id, order_id, type, status, scheduled_date, driver_id, lot_id, assigned_at, completed_at, created_at, updated_at)
       SELECT $7, o.id, k.type, CASE WHEN k.done THEN 'completed' ELSE 'assigned' END, o.delivery_date + k.offs, ($8::uuid[])[1 + ((o.number + k.offs) % $9::int)], NULL,
              o.created_at, CASE WHEN k.done THEN ((o.delivery_date + k.offs + CASE WHEN k.type = 'delivery' AND o.number % 10 = 0 THEN 1 ELSE 0 END) + time '10:00') AT TIME ZONE ${tz} END,
              o.created_at, o.created_at
         FROM o CROSS JOIN LATERAL (VALUES ('delivery', 0), ('relocate', 3), ('pickup', 7)) AS v(type, offs)
        CROSS JOIN LATERAL (SELECT v.type, v.offs, (o.status <> 'approved' AND o.delivery_date + v.offs < current_date) AS done) k
       RETURNING id, type, status, driver_id, completed_at)
     INSERT INTO station_tickets (company_id, job_id, station_id, driver_id, ticket_number, gross_kg, tare_kg, net_kg, weighed_at)
     SELECT $7, j.id, $10, j.driver_id, 'T-' || left(j.id::text, 8), 8900 + 1000 + (abs(hashtext(j.id::text)) % 3000), 8900, 1000 + (abs(hashtext(j.id::text)) % 3000), j.completed_at - interval '30 minutes'
       FROM j WHERE j.type = 'pickup' AND j.status = 'completed'`,
    [w.templateOrderId, start, count, w.customers.map((c) => c.id), w.customers.map((c) => c.addressId), w.customers.length, w.companyId, w.drivers.map((d) => d.id), w.drivers.length, w.stationId],
  );
  await q(`SET session_replication_role = DEFAULT`);
  await q(`UPDATE order_counters SET last_number = $2 WHERE company_id = $1`, [w.companyId, start + count]);
  await q(`DELETE FROM order_status_counts WHERE company_id = $1`, [w.companyId]);
  await q(`INSERT INTO order_status_counts (company_id, customer_id, status, n) SELECT company_id, customer_id, status, count(*) FROM orders WHERE company_id = $1 GROUP BY 1, 2, 3`, [w.companyId]);
}
