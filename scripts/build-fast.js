#!/usr/bin/env node
'use strict';
/**
 * The start path's build: transpiles src/, migrations/ and ormconfig.ts into dist/ with @swc/core, the
 * same compiler and options as the test run (package.json `jest.transform`: decorators and their
 * metadata, class names kept), without a type check. The type check stays in `npm test`
 * (`tsc --noEmit`) and in `npm run build` (tsc, what the Dockerfile ships).
 *
 * Only the files whose content changed since the last run are transpiled again (a SHA-1 per source in
 * dist/.build-fast.json); a file removed from the sources has its output removed. With unchanged sources
 * the check reads the 360 sources and writes nothing (about 30 ms on an idle machine).
 *
 * Used by `npm start` (scripts/start.js); `node scripts/build-fast.js` runs it alone and prints what it did.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
/** What tsconfig.build.json compiles (its `include`, without `test`). */
const INPUTS = ['src', 'migrations', 'ormconfig.ts'];

/** The test run's swc options for TypeScript, with source maps written next to the output as tsc does. */
function swcOptions() {
  const pkg = require(path.join(ROOT, 'package.json'));
  const entry = Object.entries(pkg.jest.transform).find(([pattern]) => pattern.includes('.ts'));
  if (!entry) throw new Error('package.json jest.transform has no TypeScript entry to take the swc options from');
  const { sourceMaps: _inline, ...options } = entry[1][1];
  return { ...options, sourceMaps: true, swcrc: false, configFile: false };
}

/** @swc/core (or one of its files), with what to do when it is not installed (`npm ci --omit=dev`). */
function swcCore(file = '') {
  try {
    return require(file ? `@swc/core/${file}` : '@swc/core');
  } catch (e) {
    if (e?.code !== 'MODULE_NOT_FOUND') throw e;
    throw new Error('npm start transpiles with @swc/core, a devDependency: install with `npm ci` (without --omit=dev), or run `npm run build && npm run start:prod`.');
  }
}

function sources() {
  const files = [];
  const walk = (rel) => {
    const abs = path.join(ROOT, rel);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) walk(path.join(rel, name));
    } else if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) {
      files.push(rel);
    }
  };
  INPUTS.forEach(walk);
  return files;
}

/** Written aside, then renamed: a server starting from the same dist/ never reads half a file. */
function writeAtomically(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function readManifest(file, key) {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    return m.key === key ? m.files : {};
  } catch {
    return {};
  }
}

/**
 * Brings dist/ (or `outDir`) up to date with the sources. Returns `{ transpiled, removed, total, ms }`.
 * @swc/core is loaded only when something has to be transpiled.
 */
async function buildFast(outDir = DIST) {
  const started = performance.now();
  const MANIFEST = path.join(outDir, '.build-fast.json');
  const outputOf = (rel) => path.join(outDir, rel.replace(/\.ts$/, '.js'));
  const options = swcOptions();
  const swcVersion = swcCore('package.json').version;
  const key = createHash('sha1').update(JSON.stringify({ swcVersion, options, script: fs.readFileSync(__filename, 'utf8') })).digest('hex');
  const previous = readManifest(MANIFEST, key);
  const files = {};
  const stale = [];
  for (const rel of sources()) {
    const code = fs.readFileSync(path.join(ROOT, rel));
    files[rel] = createHash('sha1').update(code).digest('hex');
    if (previous[rel] !== files[rel] || !fs.existsSync(outputOf(rel))) stale.push([rel, code.toString('utf8')]);
  }
  const removed = Object.keys(previous).filter((rel) => !(rel in files));
  for (const rel of removed) {
    fs.rmSync(outputOf(rel), { force: true });
    fs.rmSync(`${outputOf(rel)}.map`, { force: true });
  }
  if (stale.length) {
    const swc = swcCore();
    // The manifest is rewritten only after every output is written: an interrupted run redoes its files.
    fs.rmSync(MANIFEST, { force: true });
    await Promise.all(
      stale.map(async ([rel, code]) => {
        const out = outputOf(rel);
        const result = await swc.transform(code, { ...options, filename: path.join(ROOT, rel), sourceFileName: path.relative(path.dirname(out), path.join(ROOT, rel)) });
        fs.mkdirSync(path.dirname(out), { recursive: true });
        if (result.map) writeAtomically(`${out}.map`, result.map);
        writeAtomically(out, `${result.code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
      }),
    );
  }
  if (stale.length || removed.length || !fs.existsSync(MANIFEST)) {
    fs.mkdirSync(outDir, { recursive: true });
    writeAtomically(MANIFEST, JSON.stringify({ key, files }));
  }
  return { transpiled: stale.length, removed: removed.length, total: Object.keys(files).length, ms: Math.round(performance.now() - started) };
}

module.exports = { buildFast };

if (require.main === module) {
  buildFast().then(
    (r) => console.log(`build-fast: ${r.transpiled} of ${r.total} files transpiled, ${r.removed} removed, ${r.ms} ms`),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
