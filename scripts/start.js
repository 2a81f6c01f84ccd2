#!/usr/bin/env node
'use strict';
/**
 * `npm start`: brings dist/ up to date with the sources through scripts/build-fast.js (swc, only the
 * files that changed, no type check), then runs the server (dist/src/main.js) in this same process, so
 * that signals (SIGTERM, SIGINT) reach the server's own handlers. The type check is `npm test`'s and
 * `npm run build`'s (tsc); `npm run start:prod` runs an existing dist/ as it is.
 */
const path = require('node:path');
const { buildFast } = require('./build-fast');

// Node 22.1+ keeps V8's compiled code of loaded modules between starts (about a tenth of a second start's
// CPU is compiling); Node 20 has no such cache and goes on without it.
try {
  require('node:module').enableCompileCache?.(path.join(__dirname, '..', 'dist', '.node-compile-cache'));
} catch {
  // an unwritable folder only costs the cache
}

buildFast().then(
  (r) => {
    if (r.transpiled || r.removed) process.stdout.write(`build-fast: ${r.transpiled} of ${r.total} files transpiled, ${r.removed} removed, ${r.ms} ms\n`);
    require('../dist/src/main.js');
  },
  (e) => {
    process.stderr.write(`build-fast failed: ${e?.stack ?? e}\n`);
    process.exit(1);
  },
);
