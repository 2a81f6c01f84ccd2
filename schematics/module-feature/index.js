'use strict';
const { names } = require('../names');
const { ensureImport, appendToOneLineArray, read } = require('../edit');
const { extensionLine, templates } = require('./templates');
const { addToSnapshot } = require('../sql-snapshot');

/**
 * `nest g module-feature <name> <layer>` (or `npm run -s g -- module-feature <name> --layer <n>`): a module
 * folder in this project's shape, its migration, its line in the layer list, the feature-module list and
 * the migration index, and its e2e test (README "Adding a module").
 */
function moduleFeature(options) {
  return (tree, context) => {
    const n = names(options.name);
    const layer = Number(options.layer ?? options.path);
    const dir = `src/modules/${n.module}`;
    if (tree.exists(`${dir}/index.ts`)) throw new Error(`${dir} exists already`);
    const cruiser = read(tree, '.dependency-cruiser.cjs');
    const rows = layerRows(cruiser);
    if (!Number.isInteger(layer) || layer < 1 || layer > rows.length) throw new Error(`--layer must be one of 1..${rows.length} (architecture.md), not ${options.layer ?? options.path}`);
    const access = options.access || 'CO';
    const stamp = Date.now();
    const migration = `${n.Module}${stamp}`;
    const files = templates(n, { access, migration, stamp, layer });
    for (const [path, text] of Object.entries(files)) tree.create(path, text);
    addToSnapshot(tree, n, 'create', 'create');
    addToSnapshot(tree, n, 'find', 'find');

    // The module's line in the layer list (one line of .dependency-cruiser.cjs).
    const lines = cruiser.split('\n');
    const row = rows[layer - 1];
    lines[row] = lines[row].replace(/\](,?)\s*$/, (_, comma) => `, '${n.module}']${comma}`);
    tree.overwrite('.dependency-cruiser.cjs', lines.join('\n'));

    // The feature-module list (its import and the one-line FEATURE_MODULES array).
    let app = read(tree, 'src/app.module.ts');
    app = ensureImport(app, `${n.Module}Module`, `./modules/${n.module}`);
    app = appendToOneLineArray(app, /^export const FEATURE_MODULES = \[/, `${n.Module}Module`, 'src/app.module.ts');
    tree.overwrite('src/app.module.ts', app);

    // The migration index (its import and the one-line MIGRATIONS array).
    let idx = read(tree, 'migrations/index.ts');
    idx = ensureImport(idx, migration, `./${stamp}-${n.Module}`);
    idx = appendToOneLineArray(idx, /^export const MIGRATIONS = \[/, migration, 'migrations/index.ts');
    tree.overwrite('migrations/index.ts', idx);

    // The generated routes in the extension list (they are not seed routes).
    const seed = seedRoutes(tree);
    let ext = read(tree, 'test/routes-extensions.txt');
    for (const [method, path] of [['POST', `/api/v1/${n.module}`], ['GET', `/api/v1/${n.module}/{${n.thingCamel}}`]]) {
      if (!seed.has(`${method} ${path}`)) ext = ext.replace(/\n*$/, '\n') + extensionLine(method, path, access, n) + '\n';
    }
    tree.overwrite('test/routes-extensions.txt', ext);
    context.logger.info(`module ${n.module} (layer ${layer}): ${Object.keys(files).length} files; edited .dependency-cruiser.cjs, src/app.module.ts, migrations/index.ts, test/routes-extensions.txt`);
    return tree;
  };
}

/** Line numbers of the rows of `const LAYERS = [` (one row per layer, in order). */
function layerRows(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^const LAYERS = \[/.test(l));
  if (start < 0) throw new Error('.dependency-cruiser.cjs: no `const LAYERS = [`');
  const rows = [];
  for (let i = start + 1; i < lines.length && !/^\];/.test(lines[i]); i++) if (/^\s*\[.*\],?\s*$/.test(lines[i])) rows.push(i);
  return rows;
}

/** The seed's routes (../shared/spec/routes.tsv, METHOD PATH), when the file is there. */
function seedRoutes(tree) {
  const fs = require('node:fs');
  const path = require('node:path');
  const file = path.resolve(process.cwd(), '..', 'shared', 'spec', 'routes.tsv');
  if (!fs.existsSync(file)) return new Set();
  return new Set(fs.readFileSync(file, 'utf8').split('\n').slice(1).map((l) => l.split('\t')).filter((c) => c.length > 1).map(([m, p]) => `${m} ${p}`));
}

module.exports = { moduleFeature, seedRoutes };
