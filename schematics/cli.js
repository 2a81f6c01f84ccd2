#!/usr/bin/env node
'use strict';
/**
 * This project's generators from the command line, with the argument shapes of README "Adding a module":
 *
 *   npx nest g module-feature invoices --layer 6
 *   npx nest g route invoices GET /invoices --access CO
 *   npx nest g subscriber invoices order.placed
 *
 * `nest` is schematics/nest.js (linked as node_modules/.bin/nest by schematics/install.js, the root
 * `postinstall`): it hands `nest g <one of ours> …` to `generate` below and everything else to the Nest CLI.
 * `npm run -s g -- <schematic> …` runs `generate` directly (same arguments).
 *
 * Positional arguments fill the schematic's options in the order of POSITIONAL (so `route invoices GET
 * /invoices CO` works too); `--flag value`, `--flag=value`, `-d`/`--dry-run`. An option the schematic's
 * schema does not have is refused. Exit code 1 when the schematic fails or would overwrite a file.
 */
const { join } = require('node:path');

const COLLECTION = join(__dirname, 'collection.json');
/** The positional arguments of each schematic, in order (after the schematic's name). */
const POSITIONAL = { 'module-feature': ['name', 'layer'], route: ['name', 'method', 'path', 'access'], subscriber: ['name', 'event'] };
const SHORT = { d: 'dryRun' };

/** Our schematics' names and aliases (collection.json), for schematics/nest.js. */
function schematicNames() {
  const { schematics } = require(COLLECTION);
  return new Set(Object.entries(schematics).flatMap(([name, s]) => [name, ...(s.aliases ?? [])]));
}

/** The schematic's canonical name (an alias resolved). */
function canonical(name) {
  const { schematics } = require(COLLECTION);
  return Object.entries(schematics).find(([n, s]) => n === name || (s.aliases ?? []).includes(name))?.[0];
}

function parse(argv) {
  const [given, ...rest] = argv;
  const schematic = canonical(given);
  if (!schematic) throw new Error(`usage: nest g <${Object.keys(POSITIONAL).join('|')}> …  (README "Adding a module"; stock kinds: nest g <kind> from @nestjs/schematics)`);
  const options = {};
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const long = /^--([a-z][\w-]*)(?:=(.*))?$/.exec(a);
    const short = /^-([a-z])$/.exec(a);
    if (short && SHORT[short[1]]) options[SHORT[short[1]]] = true;
    else if (!long) positional.push(a);
    else {
      const key = long[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase());
      if (long[2] !== undefined) options[key] = long[2];
      else if (key === 'dryRun') options[key] = true;
      else if (rest[i + 1] !== undefined && !rest[i + 1].startsWith('-')) options[key] = rest[++i];
      else options[key] = true;
    }
  }
  const names = POSITIONAL[schematic];
  if (positional.length > names.length) throw new Error(`too many arguments: ${positional.slice(names.length).join(' ')} (nest g ${schematic} ${names.map((n) => `<${n}>`).join(' ')})`);
  positional.forEach((v, i) => {
    if (options[names[i]] !== undefined) throw new Error(`${names[i]} given twice (as an argument and as --${names[i]})`);
    options[names[i]] = v;
  });
  return { schematic, options };
}

/** `nest g <schematic> --help`: its arguments and options, from its schema. */
function usage(schematic) {
  const { schematics } = require(COLLECTION);
  const schema = require(join(__dirname, schematics[schematic].schema));
  const positional = POSITIONAL[schematic];
  const lines = [`nest g ${schematic} ${positional.map((p) => `<${p}>`).join(' ')} [-d|--dry-run]   ${schematics[schematic].description}`];
  for (const [name, p] of Object.entries(schema.properties)) lines.push(`  ${positional.includes(name) ? `<${name}> or --${name}` : `--${name}`}: ${p.description}${p.default !== undefined ? ` (default ${p.default})` : ''}`);
  return lines.join('\n');
}

/** Runs one of our schematics on the project in the current directory; resolves to the exit code. */
async function generate(argv) {
  if (argv.slice(1).some((a) => a === '--help' || a === '-h') && canonical(argv[0])) {
    console.log(usage(canonical(argv[0])));
    return 0;
  }
  const { NodeWorkflow } = require('@angular-devkit/schematics/tools');
  const { createConsoleLogger } = require('@angular-devkit/core/node');
  const logger = createConsoleLogger(false, process.stdout, process.stderr);
  try {
    const { schematic, options } = parse(argv);
    const dryRun = options.dryRun === true;
    delete options.dryRun;
    const workflow = new NodeWorkflow(process.cwd(), { dryRun, force: false, schemaValidation: true });
    let failed = false;
    workflow.reporter.subscribe((e) => {
      if (e.kind === 'error') {
        failed = true;
        logger.error(`${e.path}: ${e.description === 'alreadyExist' ? 'exists already' : 'does not exist'}`);
      } else logger.info(`${e.kind.toUpperCase()} ${e.path.replace(/^\//, '')}`);
    });
    await workflow.execute({ collection: COLLECTION, schematic, options, allowPrivate: false, debug: false, logger }).toPromise();
    if (dryRun) logger.info('(dry run: nothing written)');
    return failed ? 1 : 0;
  } catch (e) {
    logger.error(e && e.message ? e.message : String(e));
    return 1;
  }
}

module.exports = { generate, schematicNames, parse };

if (require.main === module) {
  generate(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
