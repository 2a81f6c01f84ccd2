#!/usr/bin/env node
/* eslint-disable */
// npm run bench:plan [-- --skip-build --long-seconds 60 --seeds 1]
//
// The fleet planner of POST /dispatch/plan (src/modules/dispatch/fleet-planner.ts), on the built code
// (dist/src/modules/dispatch/fleet-planner.js; `npm run build` first unless --skip-build). No database, no
// server: `planFleet` is a pure function. Seeded days around Springfield (3 lots, 4 stations taking two of
// three waste types each, two specifications, one truck type in three carrying only the first; jobs of
// every type, about one in six pinned to a driver) of 30 jobs / 3 drivers, 80 / 7 and 150 / 12:
// - planFleet with its default budget: time (wall ms and CPU ms: on a shared machine the CPU time is the
//   planner's own), jobs planned, km;
// - the same search with a budget scaled to --long-seconds (default 60) of work, measured from the
//   default run's CPU rate: its km, and the gap of the default plan to it (km, when both plan the same jobs).
// Prints one table. See docs/dispatch.md ("Planning the whole day").
'use strict';
const os = require('node:os');
const path = require('node:path');
const { ROOT, cli, requireBuilt } = require('./built');

const BUILT = process.env.FLEET_PLANNER_JS || path.join(ROOT, 'dist/src/modules/dispatch/fleet-planner.js');
const { flag, opt } = cli();
const LONG_SECONDS = opt('long-seconds', 60);
const SEEDS = opt('seeds', 1);
const SIZES = [
  [30, 3],
  [80, 7],
  [150, 12],
];
const log = (...a) => console.error(`[bench:plan ${new Date().toISOString().slice(11, 19)}]`, ...a);

const { planFleet, budgetFor, BUDGET_PER_JOB } = requireBuilt(BUILT, { skipBuild: flag('skip-build') || !!process.env.FLEET_PLANNER_JS, log });
/** mulberry32 (route-optimiser.ts): the same days on every run. */
const { prng: rng } = require(path.join(path.dirname(BUILT), 'route-optimiser.js'));

const TYPES = ['delivery', 'delivery', 'pickup', 'pickup', 'swap', 'dump_return', 'relocate'];
const SETTINGS = { shiftMinutes: 600, averageSpeedKmh: 40, serviceMinutes: { delivery: 15, pickup: 15, swap: 25, dump_return: 20, relocate: 20 }, stationMinutes: 20 };

/** A seeded day: `jobs` jobs, `drivers` drivers (about one job in six pinned to one of them). */
function dayOf(jobs, drivers, seed) {
  const r = rng(seed * 1000 + jobs);
  const at = (id, spread = 0.15) => ({ id, lat: 39.8 + (r() - 0.5) * spread, lng: -89.65 + (r() - 0.5) * spread * 1.3 });
  const lots = [at('lot-0', 0.2), at('lot-1', 0.2), at('lot-2', 0.2)];
  const wastes = ['w0', 'w1', 'w2'];
  const stations = [0, 1, 2, 3].map((k) => ({ ...at(`st-${k}`, 0.3), wasteTypeIds: [wastes[k % 3], wastes[(k + 1) % 3]] }));
  const vehicles = Array.from({ length: drivers }, (_, k) => ({
    driverId: `d-${String(k).padStart(2, '0')}`,
    truckId: `t-${k}`,
    home: lots[k % 3],
    specificationIds: k % 3 === 2 ? ['s0'] : ['s0', 's1'],
  }));
  const out = [];
  const sequence = new Map();
  for (let k = 0; k < jobs; k++) {
    const type = TYPES[Math.floor(r() * TYPES.length)];
    const site = at(`site-${k}`);
    const pinned = r() < 1 / 6 ? vehicles[Math.floor(r() * drivers)].driverId : null;
    const seq = pinned ? (sequence.get(pinned) ?? 0) + 1 : null;
    if (pinned) sequence.set(pinned, seq);
    out.push({
      id: `job-${String(k).padStart(3, '0')}`,
      type,
      specificationId: r() < 0.7 ? 's0' : 's1',
      wasteTypeId: wastes[Math.floor(r() * 3)],
      orderId: `order-${k}`,
      site,
      destination: type === 'relocate' ? at(`dest-${k}`) : null,
      driverId: pinned,
      sequence: seq,
    });
  }
  return { date: '2027-03-15', vehicles, jobs: out, lots, stations, settings: SETTINGS };
}

const cpuMs = (u) => (u.user + u.system) / 1000;
const planned = (plan) => plan.routes.reduce((s, r) => s + r.stops.length, 0);
const rows = [];
for (const [jobs, drivers] of SIZES) {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const day = dayOf(jobs, drivers, seed);
    planFleet(dayOf(jobs, drivers, seed + 100), { exactJobs: 0, budget: budgetFor(jobs) / 10 }); // warm-up
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const plan = planFleet(day, { exactJobs: 0 });
    const cpu = cpuMs(process.cpuUsage(c0));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    // The long run's budget: the default one scaled to --long-seconds of this process's CPU time (wall time lies on a shared machine).
    const longBudget = Math.round(budgetFor(jobs) * ((LONG_SECONDS * 1000) / cpu));
    log(`${jobs} jobs / ${drivers} drivers (seed ${seed}): ${ms.toFixed(0)} ms (${cpu.toFixed(0)} ms CPU); the long run (${longBudget} units of work, ~${LONG_SECONDS} s CPU)`);
    const c1 = process.cpuUsage();
    const long = planFleet(day, { exactJobs: 0, budget: longBudget });
    const longCpu = cpuMs(process.cpuUsage(c1));
    const same = planned(plan) === planned(long);
    rows.push({
      jobs,
      drivers,
      seed,
      ms: Math.round(ms),
      cpu_ms: Math.round(cpu),
      planned: `${planned(plan)}/${jobs}`,
      km: plan.distance_after_km,
      long_cpu_s: +(longCpu / 1000).toFixed(1),
      long_planned: `${planned(long)}/${jobs}`,
      long_km: long.distance_after_km,
      gap_pct: same ? +((100 * (plan.distance_after_km - long.distance_after_km)) / long.distance_after_km).toFixed(2) : 'jobs differ',
    });
  }
}
console.log(`fleet planner, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; budget ${BUDGET_PER_JOB} units of work per job`);
console.table(rows);
