'use strict';
const { names } = require('../names');
const { ensureImport, appendToOneLineArray, read } = require('../edit');
const { templates } = require('./templates');
const { addToSnapshot } = require('../sql-snapshot');

/**
 * `nest g module-feature <name> --layer <n>`: a module folder in this project's shape (its layer in its
 * module.json), its migration, its e2e test and sweep kinds, and its one registration line in
 * src/app.module.ts (README "Adding a module").
 */
function moduleFeature(options) {
  return (tree, context) => {
    const n = names(options.name);
    const layer = Number(options.layer);
    const dir = `src/modules/${n.module}`;
    if (tree.exists(`${dir}/index.ts`)) throw new Error(`${dir} exists already`);
    const top = Math.max(...moduleLayers(tree));
    if (!Number.isInteger(layer) || layer < 1 || layer > top) throw new Error(`--layer must be one of 1..${top} (the layers of src/modules/*/module.json, architecture.md), not ${options.layer}`);
    const access = options.access || 'CO';
    const stamp = Date.now();
    const migration = `${n.Module}${stamp}`;
    const files = templates(n, { access, migration, stamp, layer, seed: seedRoutes() });
    for (const [path, text] of Object.entries(files)) tree.create(path, text);
    addToSnapshot(tree, n, 'create', 'create');
    addToSnapshot(tree, n, 'find', 'find');

    // The one registration outside its folder: the feature-module list (its import and its FEATURE_MODULES entry).
    let app = read(tree, 'src/app.module.ts');
    app = ensureImport(app, `${n.Module}Module`, `./modules/${n.module}`);
    app = appendToOneLineArray(app, /^export const FEATURE_MODULES = \[/, `${n.Module}Module`, 'src/app.module.ts');
    tree.overwrite('src/app.module.ts', app);
    context.logger.info(`module ${n.module} (layer ${layer}): ${Object.keys(files).length} files; registered in src/app.module.ts (FEATURE_MODULES)`);
    return tree;
  };
}

/** The layers the modules declare (src/modules/<module>/module.json). */
function moduleLayers(tree) {
  const layers = [];
  tree.getDir('src/modules').subdirs.forEach((d) => {
    const b = tree.read(`src/modules/${d}/module.json`);
    if (b) layers.push(JSON.parse(b.toString('utf8')).layer);
  });
  if (!layers.length) throw new Error('no src/modules/*/module.json (run the generator at the project root)');
  return layers;
}

/** The seed's routes (../shared/spec/routes.tsv, METHOD PATH), when the file is there. */
function seedRoutes() {
  const fs = require('node:fs');
  const path = require('node:path');
  const file = path.resolve(process.cwd(), '..', 'shared', 'spec', 'routes.tsv');
  if (!fs.existsSync(file)) return new Set();
  return new Set(fs.readFileSync(file, 'utf8').split('\n').slice(1).map((l) => l.split('\t')).filter((c) => c.length > 1).map(([m, p]) => `${m} ${p}`));
}

module.exports = { moduleFeature, seedRoutes };
