#!/usr/bin/env node
'use strict';
/**
 * `npm run -s g -- <schematic> <args…> [--option value…]`: runs this project's schematics (collection.json)
 * with the argument shapes of README "Adding a module", which `nest g` cannot pass (it admits two
 * positional arguments and a fixed set of flags):
 *
 *   npm run -s g -- module-feature invoices --layer 6
 *   npm run -s g -- route invoices GET /invoices --access CO
 *   npm run -s g -- subscriber invoices order.placed
 *
 * Same schematics as `npx nest g module-feature invoices 6` and `npx nest g route invoices 'GET /invoices CO'`.
 */
const { join } = require('node:path');
const { NodeWorkflow } = require('@angular-devkit/schematics/tools');
const { createConsoleLogger } = require('@angular-devkit/core/node');

const POSITIONAL = { 'module-feature': ['name', 'layer'], route: ['name', 'method', 'routePath', 'access'], subscriber: ['name', 'event'] };

function parse(argv) {
  const [schematic, ...rest] = argv;
  if (!POSITIONAL[schematic]) throw new Error(`usage: npm run -s g -- <${Object.keys(POSITIONAL).join('|')}> …  (other kinds: npx nest g <kind>)`);
  const options = {};
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const m = /^--([a-z][\w-]*)(?:=(.*))?$/.exec(a);
    if (!m) positional.push(a);
    else {
      const key = m[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase());
      if (m[2] !== undefined) options[key] = m[2];
      else if (rest[i + 1] !== undefined && !rest[i + 1].startsWith('--')) options[key] = rest[++i];
      else options[key] = true;
    }
  }
  POSITIONAL[schematic].forEach((k, i) => { if (positional[i] !== undefined && options[k] === undefined) options[k] = positional[i]; });
  if (positional.length > POSITIONAL[schematic].length) throw new Error(`too many arguments: ${positional.slice(POSITIONAL[schematic].length).join(' ')}`);
  if (options.routePath !== undefined) { options.path = options.routePath; delete options.routePath; }
  return { schematic, options };
}

async function main() {
  const { schematic, options } = parse(process.argv.slice(2));
  const dryRun = options.dryRun === true;
  delete options.dryRun;
  const logger = createConsoleLogger(false, process.stdout, process.stderr);
  const workflow = new NodeWorkflow(process.cwd(), { dryRun, force: false });
  let failed = false;
  workflow.reporter.subscribe((e) => {
    if (e.kind === 'error') { failed = true; logger.error(`${e.path}: ${e.description === 'alreadyExist' ? 'exists already' : 'does not exist'}`); }
    else logger.info(`${e.kind.toUpperCase()} ${e.path.replace(/^\//, '')}`);
  });
  await workflow.execute({ collection: join(__dirname, 'collection.json'), schematic, options, allowPrivate: false, debug: false, logger }).toPromise();
  if (failed) process.exitCode = 1;
  if (dryRun) logger.info('(dry run: nothing written)');
}

main().catch((e) => {
  console.error(e && e.message ? e.message : e);
  process.exit(1);
});
