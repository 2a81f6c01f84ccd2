#!/usr/bin/env node
/* eslint-disable */
// npm run bench:route [-- --skip-build --days 200 --runs 30 --reference-days 5]
//
// The route optimiser of PUT /order/jobs/route-collapse (src/modules/dispatch/route-optimiser.ts), on the
// built code (dist/src/modules/dispatch/route-optimiser.js; `npm run build` first unless --skip-build).
// No database, no server: `planRoute` is a pure function. Random days around Springfield (3 lots, 4
// stations taking two of three waste types each, jobs of every type; the same seeds on every run):
// - 10-job days (--days): planRoute with the exact order (Held–Karp) and with the heuristic forced
//   (exactLimit 0), time per day, and the heuristic's gap to the exact optimum (whole tour, unrounded);
// - a 12-job day (EXACT_LIMIT, the largest exact day): exact time;
// - 60- and 100-job days (--runs days each, after a warm-up): planRoute time (median, p95, max), the
//   shortening against the current sequence, and on --reference-days of them the gap to a long run of
//   the same search (2,000 kicks per start, no budget), the best known tour.
// Prints one table. See docs/performance.md ("Route optimisation").
'use strict';
const os = require('node:os');
const path = require('node:path');
const { ROOT, cli, requireBuilt } = require('./built');

const BUILT = path.join(ROOT, 'dist/src/modules/dispatch/route-optimiser.js');
const { flag, opt } = cli();
const DAYS = opt('days', 200);
const RUNS = opt('runs', 30);
const REFERENCE_DAYS = opt('reference-days', 5);
const log = (...a) => console.error(`[bench:route ${new Date().toISOString().slice(11, 19)}]`, ...a);

const { planRoute, orderCosts, EXACT_LIMIT, DEFAULT_KICKS, DEFAULT_BUDGET } = requireBuilt(BUILT, { skipBuild: flag('skip-build'), log });

// ------------------------------------------------------------------ days

/** mulberry32: the same days on every run (the generator of test/dispatch/route-optimiser.spec.ts). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const TYPES = ['delivery', 'pickup', 'swap', 'dump_return', 'relocate'];
const WASTES = ['gen', 'yard', 'cnd'];

/** Sites over about 65 × 70 km; lots and stations among them. */
function randomDay(seed, jobs) {
  const r = rng(seed);
  const place = (prefix, i) => ({ id: `${prefix}-${i}`, lat: 39.7 + r() * 0.6, lng: -89.9 + r() * 0.8 });
  const lots = [0, 1, 2].map((i) => place('lot', i));
  const stations = [0, 1, 2, 3].map((i) => ({ ...place('station', i), wasteTypeIds: [WASTES[i % 3], WASTES[(i + 1) % 3]] }));
  const list = [];
  for (let i = 0; i < jobs; i++) {
    const type = TYPES[Math.floor(r() * TYPES.length)];
    list.push({
      id: `job-${i}`,
      type,
      orderId: `order-${i}`,
      specificationId: `spec-${i}`,
      wasteTypeId: WASTES[Math.floor(r() * 3)],
      site: place('site', i),
      destination: type === 'relocate' ? place('dest', i) : null,
    });
  }
  return { driverId: 'driver-1', date: '2026-12-01', homeLot: lots[0], jobs: list, lots, stations };
}

// ------------------------------------------------------------------ measuring

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const timed = (fn) => {
  const t = process.hrtime.bigint();
  const out = fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, out];
};
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const pct = (x) => `${(Math.abs(x) < 5e-8 ? 0 : x * 100).toFixed(3)} %`;

const rows = [];

// Warm-up (JIT): a few days of each kind, not measured.
for (let s = 0; s < 10; s++) {
  planRoute(randomDay(90_000 + s, 10));
  planRoute(randomDay(90_000 + s, 10), { exactLimit: 0 });
  planRoute(randomDay(90_000 + s, 60));
}

{
  log(`${DAYS} ten-job days`);
  const exactMs = [];
  const heuristicMs = [];
  const gaps = [];
  for (let s = 0; s < DAYS; s++) {
    const day = randomDay(1000 + s, 10);
    exactMs.push(timed(() => planRoute(day))[0]);
    heuristicMs.push(timed(() => planRoute(day, { exactLimit: 0 }))[0]);
    const costs = orderCosts(day);
    const exact = costs.exact();
    gaps.push((costs.heuristic() - exact) / exact);
  }
  const optimal = gaps.filter((g) => g < 1e-9).length;
  rows.push([`10 jobs, exact (Held–Karp), ${DAYS} days`, ms(quantile(exactMs, 0.5)), ms(quantile(exactMs, 0.95)), ms(Math.max(...exactMs)), 'optimum', '']);
  rows.push([
    `10 jobs, heuristic forced, ${DAYS} days`,
    ms(quantile(heuristicMs, 0.5)),
    ms(quantile(heuristicMs, 0.95)),
    ms(Math.max(...heuristicMs)),
    `gap mean ${pct(mean(gaps))}, max ${pct(Math.max(...gaps))}`,
    `optimal on ${optimal}/${DAYS}`,
  ]);
}

{
  log(`${EXACT_LIMIT}-job days (exact limit)`);
  const times = [];
  for (let s = 0; s < Math.min(RUNS, 20); s++) times.push(timed(() => planRoute(randomDay(3000 + s, EXACT_LIMIT)))[0]);
  rows.push([`${EXACT_LIMIT} jobs, exact, ${times.length} days`, ms(quantile(times, 0.5)), ms(quantile(times, 0.95)), ms(Math.max(...times)), 'optimum', '']);
}

for (const [n, base] of [
  [60, 5000],
  [100, 7000],
]) {
  log(`${RUNS} days of ${n} jobs`);
  const times = [];
  const shorter = [];
  for (let s = 0; s < RUNS; s++) {
    const day = randomDay(base + s, n);
    const [t, plan] = timed(() => planRoute(day));
    times.push(t);
    shorter.push(1 - plan.distance_after_km / plan.distance_before_km);
  }
  const refGaps = [];
  for (let s = 0; s < Math.min(REFERENCE_DAYS, RUNS); s++) {
    const day = randomDay(base + s, n);
    const found = orderCosts(day).heuristic();
    const reference = orderCosts(day, { kicks: 2000, budget: Infinity }).heuristic();
    refGaps.push((found - reference) / reference);
  }
  rows.push([
    `${n} jobs, heuristic, ${RUNS} days`,
    ms(quantile(times, 0.5)),
    ms(quantile(times, 0.95)),
    ms(Math.max(...times)),
    refGaps.length ? `vs 2000-kick run (${refGaps.length} days): mean ${pct(mean(refGaps))}, max ${pct(Math.max(...refGaps))}` : '',
    `${(mean(shorter) * 100).toFixed(1)} % shorter than as given`,
  ]);
}

// ------------------------------------------------------------------ table

const header = ['days', 'median', 'p95', 'max', 'quality', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
console.log(`route optimiser, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ` + `exact up to ${EXACT_LIMIT} blocks, heuristic ${DEFAULT_KICKS} kicks per start within a budget of ${DEFAULT_BUDGET} priced moves`);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
