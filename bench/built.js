/* eslint-disable */
// The benchmarks of pure modules (bench:route, bench:plan) run on the built code: `npm run build` first
// unless --skip-build, then the module is required from dist/.
'use strict';
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** The command line's `--name` flags and `--name value` numbers. */
function cli(args = process.argv.slice(2)) {
  const flag = (name) => args.includes(`--${name}`);
  const opt = (name, def) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : def;
  };
  return { flag, opt };
}

/** Builds (unless `skipBuild`) and requires `file` (absolute, under dist/), exiting with a message when it cannot. */
function requireBuilt(file, { skipBuild, log }) {
  if (!skipBuild) {
    log('building');
    try {
      execSync('npm run -s build', { cwd: ROOT, stdio: 'inherit' });
    } catch {
      console.error('npm run build failed (see above); fix it, or run with --skip-build on an existing dist/.');
      process.exit(1);
    }
  }
  if (!fs.existsSync(file)) {
    console.error(`${path.relative(ROOT, file)} is missing: run npm run build first (or drop --skip-build).`);
    process.exit(1);
  }
  return require(file);
}

module.exports = { ROOT, cli, requireBuilt };
