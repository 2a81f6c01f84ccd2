/* eslint-disable */
// npm run bench -- --reports [--report-orders 1000000 --report-main-orders 200000 --report-companies 20 --report-drivers 10]
//                 [--duration 5 --rounds 1 --connections 10 --skip-build --keep-db]
//
// The dashboards and reports (issue #15) at scale: companies seeded through the API as in the main
// benchmark (plus a station and drivers each), then by SQL (generate_series) `--report-orders` orders
// over two years (`--report-main-orders` of them for the measured company), three jobs each (delivery,
// relocation, pickup: 3M jobs at 1M orders), a station ticket per completed pickup, the measured
// company's assets and its drivers' attendance; then the rollups (`report_order_facts`,
// `report_daily_counters`) derived from those rows by the same rules as the reports' event subscribers
// (the relay is off in the benchmark). Measures every dashboard and report route and the floor, counts
// statements per request, prints one table. See README "Dashboards, analytics and reports".
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
  await deriveRollups(q);
  await q('VACUUM (ANALYZE)');
  const n = (await q(`SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM jobs)::int AS jobs, (SELECT count(*) FROM station_tickets)::int AS tickets, (SELECT count(*) FROM report_daily_counters)::int AS cells,
                             (SELECT count(*) FROM orders WHERE company_id = $1)::int AS main`, [main.companyId])).rows[0];
  log(`${n.orders} orders (${n.main} of the measured company), ${n.jobs} jobs, ${n.tickets} tickets, ${n.cells} rollup cells; rollups derived in ${((Date.now() - t2) / 1000).toFixed(1)} s`);

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

/**
 * The rollups from the rows, by the subscribers' rules (src/modules/reports/report-subscribers.ts):
 * per order (its delivery date) `orders` by status, `billed` and `customer_billed` unless pending or
 * rejected, `dues` and `customer_dues` by due date while it has a balance, `rent` +1 on its delivery and −1 the day after
 * its completion; `collected` = paid amounts on the completion day (the seeded orders were paid then; no
 * ledger rows are seeded: no dashboard reads them); per completed job (its local completion date)
 * `jobs` by type, `driver_jobs` (no location points: 0 m), `deliveries` on time or late; per ticket
 * `tonnage` by the order's waste type and `driver_tonnage`; per day checked out `worked` (no breaks are
 * seeded: check-out − check-in).
 */
async function deriveRollups(q) {
  const tz = `coalesce((SELECT c.timezone FROM companies c WHERE c.id = x.company_id), 'UTC')`;
  await q(`TRUNCATE report_daily_counters, report_order_facts`);
  await q(`INSERT INTO report_order_facts (order_id, company_id, customer_id, day, status, billed_amount, balance_amount, due_date, asset_specification_id, delivered_on, ended_on)
           SELECT x.id, x.company_id, x.customer_id, x.delivery_date, x.status, CASE WHEN x.status IN ('pending', 'rejected') THEN 0 ELSE x.total_amount END,
                  x.total_amount - x.paid_amount, x.due_date, x.asset_specification_id, x.delivered_on, (x.completed_at AT TIME ZONE ${tz})::date
             FROM orders x`);
  await q(`INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
           SELECT company_id, 'orders', day, status, count(*), 0 FROM report_order_facts GROUP BY company_id, day, status
           UNION ALL SELECT company_id, 'billed', day, '', count(*), sum(billed_amount) FROM report_order_facts WHERE status NOT IN ('pending', 'rejected') GROUP BY company_id, day
           UNION ALL SELECT company_id, 'customer_billed', day, customer_id::text, count(*), sum(billed_amount) FROM report_order_facts WHERE status NOT IN ('pending', 'rejected') GROUP BY company_id, day, customer_id
           UNION ALL SELECT company_id, 'dues', due_date, '', count(*), sum(balance_amount) FROM report_order_facts WHERE balance_amount > 0 AND status <> 'rejected' GROUP BY company_id, due_date
           UNION ALL SELECT company_id, 'customer_dues', due_date, customer_id::text, count(*), sum(balance_amount) FROM report_order_facts WHERE balance_amount > 0 AND status <> 'rejected' GROUP BY company_id, due_date, customer_id
           UNION ALL SELECT company_id, 'rent', day, dim, sum(n)::int, 0 FROM (
             SELECT company_id, delivered_on AS day, asset_specification_id::text AS dim, 1 AS n FROM report_order_facts WHERE delivered_on IS NOT NULL
             UNION ALL SELECT company_id, ended_on + 1, asset_specification_id::text, -1 FROM report_order_facts WHERE delivered_on IS NOT NULL AND ended_on IS NOT NULL) r
             GROUP BY company_id, day, dim`);
  await q(`INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
           SELECT x.company_id, 'collected', (x.completed_at AT TIME ZONE ${tz})::date AS day, '', count(*), sum(x.paid_amount)
             FROM orders x WHERE x.paid_amount > 0 AND x.completed_at IS NOT NULL GROUP BY 1, 3`);
  await q(`INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
           SELECT company_id, 'jobs', day, type, count(*), 0 FROM (SELECT x.company_id, x.type, (x.completed_at AT TIME ZONE ${tz})::date AS day FROM jobs x WHERE x.status = 'completed') s GROUP BY 1, 3, 4
           UNION ALL
           SELECT company_id, 'driver_jobs', day, driver_id::text, count(*), 0 FROM (SELECT x.company_id, x.driver_id, (x.completed_at AT TIME ZONE ${tz})::date AS day FROM jobs x WHERE x.status = 'completed' AND x.driver_id IS NOT NULL) s GROUP BY 1, 3, 4
           UNION ALL
           SELECT company_id, 'deliveries', day, CASE WHEN day <= scheduled_date THEN 'on_time' ELSE 'late' END, count(*), 0
             FROM (SELECT x.company_id, x.scheduled_date, (x.completed_at AT TIME ZONE ${tz})::date AS day FROM jobs x WHERE x.status = 'completed' AND x.type = 'delivery') s GROUP BY 1, 3, 4`);
  await q(`INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
           SELECT company_id, 'worked', work_date, driver_id::text, 1, floor(extract(epoch FROM checked_out_at - checked_in_at) / 60)
             FROM attendances WHERE status = 'checked_out'`);
  await q(`INSERT INTO report_daily_counters (company_id, metric, day, dim, count, amount)
           SELECT company_id, 'tonnage', day, waste_type_id::text, count(*), sum(net_kg) FROM (
             SELECT x.company_id, o.waste_type_id, t.net_kg, (x.completed_at AT TIME ZONE ${tz})::date AS day
               FROM station_tickets t JOIN jobs x ON x.id = t.job_id JOIN orders o ON o.id = x.order_id WHERE x.status = 'completed') s GROUP BY 1, 3, 4
           UNION ALL
           SELECT company_id, 'driver_tonnage', day, driver_id::text, count(*), sum(net_kg) FROM (
             SELECT x.company_id, x.driver_id, t.net_kg, (x.completed_at AT TIME ZONE ${tz})::date AS day
               FROM station_tickets t JOIN jobs x ON x.id = t.job_id WHERE x.status = 'completed' AND x.driver_id IS NOT NULL) s GROUP BY 1, 3, 4`);
}
