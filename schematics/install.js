#!/usr/bin/env node
'use strict';
/**
 * The root `postinstall` (package.json): points node_modules/.bin/nest at schematics/nest.js (through
 * node_modules/haulops-schematics, the `file:` devDependency), so that `npx nest g module-feature
 * invoices --layer 6` runs this project's generators right after `npm ci`. npm itself links that bin to
 * @nestjs/cli (both packages name a `nest` bin; npm keeps the first by path, and never clobbers a link it
 * did not make, so a later `npm install` leaves this one alone). Idempotent; does nothing when the
 * devDependencies are not installed (`npm ci --omit=dev`). `node schematics/install.js [node_modules]`.
 */
const fs = require('node:fs');
const path = require('node:path');

function install(nodeModules) {
  const bin = path.join(nodeModules, '.bin', 'nest');
  const target = path.join('..', 'haulops-schematics', 'nest.js');
  if (!fs.existsSync(path.join(nodeModules, 'haulops-schematics', 'nest.js')) || !fs.existsSync(path.join(nodeModules, '@nestjs', 'cli'))) return 'skipped (no devDependencies)';
  let current = null;
  try {
    current = fs.readlinkSync(bin);
  } catch {
    /* absent, or not a link */
  }
  if (current === target) return 'already linked';
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.rmSync(bin, { force: true });
  fs.symlinkSync(target, bin);
  fs.chmodSync(path.join(nodeModules, 'haulops-schematics', 'nest.js'), 0o755);
  return `linked ${path.relative(process.cwd(), bin) || bin} -> ${target}`;
}

module.exports = { install };

if (require.main === module) {
  const nodeModules = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'node_modules'));
  console.log(`nest: ${install(nodeModules)}`);
}
