#!/usr/bin/env node
// Summarises a V8 CPU profile (node --cpu-prof) as shares of self time: by package (node_modules/<pkg>,
// our src/, node: internals, GC/idle/program) and the top functions. Used to show where a route's time
// goes when the benchmark's goal is not met (docs/performance.md).
//   node bench/cpuprofile-summary.js <file.cpuprofile> [--top 25] [--skip 8]   (--skip: seconds of start-up left out)
'use strict';
const fs = require('fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/cpuprofile-summary.js <file.cpuprofile> [--top N]');
  process.exit(2);
}
const topIdx = process.argv.indexOf('--top');
const TOP = topIdx > 0 ? Number(process.argv[topIdx + 1]) : 25;
const skipIdx = process.argv.indexOf('--skip');
const SKIP_US = skipIdx > 0 ? Number(process.argv[skipIdx + 1]) * 1e6 : 0;

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
// Sample intervals: timeDeltas[i] is the time before sample i.
let elapsed = 0;
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed >= SKIP_US) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
// Idle time is the process waiting (for the database, for the client): shares are of busy time.
for (const [id] of self) if (byId.get(id).callFrame.functionName === '(idle)') self.delete(id);
const total = [...self.values()].reduce((a, b) => a + b, 0);

function packageOf(url, fn) {
  if (!url) return fn === '(garbage collector)' ? '(gc)' : fn === '(idle)' ? '(idle)' : fn === '(program)' ? '(program: native, I/O)' : '(native)';
  if (url.startsWith('node:')) return 'node: ' + url.slice(5).split('/')[0];
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = url.indexOf('/dist/src/');
  if (src >= 0) return 'ours: ' + url.slice(src + '/dist/'.length).split('/').slice(0, 3).join('/');
  return url.replace(/^file:\/\//, '');
}

const byPkg = new Map();
const byFn = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const { functionName, url, lineNumber } = n.callFrame;
  const pkg = packageOf(url, functionName);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  const key = `${functionName || '(anonymous)'} ${pkg}${url ? `:${lineNumber + 1}` : ''}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
const pct = (us) => ((100 * us) / total).toFixed(1).padStart(5) + ' %';
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(us)}  ${k}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(2)} s of samples`);
print('self time by package', byPkg);
print('self time by function', byFn);
