#!/usr/bin/env node
'use strict';
/**
 * `nest`: node_modules/.bin/nest is linked here (schematics/install.js, the root `postinstall`, so `npm ci`
 * sets it up). The Nest CLI's own `generate` admits two positional arguments and a fixed set of flags,
 * which cannot carry `--layer`, `--access` or a route's method and path; and it exits 0 when a schematic
 * fails. So:
 *
 * - `nest g|generate <a schematic of ours> …` (collection.json: module-feature, route, subscriber) runs
 *   it through schematics/cli.js (README "Adding a module"), exit code 1 when it fails;
 * - anything else goes to the Nest CLI (`nest build`, `nest info`, `nest g service …` from
 *   @nestjs/schematics). For `generate`, an error it reports (on stderr, where it then exits 0) makes the
 *   exit code 1.
 *
 * A `--collection` other than ours goes to the Nest CLI as well.
 */
const argv = process.argv.slice(2);
const generating = argv[0] === 'g' || argv[0] === 'generate';

function ours() {
  if (!generating || !argv[1] || argv[1].startsWith('-')) return false;
  if (argv.some((a, i) => (a === '-c' || a === '--collection') && argv[i + 1] && argv[i + 1] !== 'haulops-schematics') || argv.some((a) => a.startsWith('--collection=') && a !== '--collection=haulops-schematics')) return false;
  return require('./cli').schematicNames().has(argv[1]);
}

if (ours()) {
  require('./cli')
    .generate(argv.slice(1))
    .then((code) => {
      process.exitCode = code;
    });
} else {
  if (generating) {
    const error = console.error;
    console.error = (...args) => {
      process.exitCode = 1;
      error(...args);
    };
  }
  require(require.resolve('@nestjs/cli/bin/nest.js', { paths: [process.cwd(), __dirname] }));
}
