/**
 * Module boundaries (../shared/spec/architecture.md), checked by `npm run lint:deps` (part of `npm test`).
 *
 * - A module is a folder under src/modules. Another module may import only its `index.ts` (its public
 *   API: services, module class, DTO and view types; never entities).
 * - Layers: a module may import modules of its own or a lower layer, never a higher one.
 * - src/common, src/config and src/database (layer 0) import no module, without exception. A module
 *   registers its own entities (its `entities.ts`, loaded by the composition root src/app.entities.ts) and
 *   declares its own events (its `events.ts`, merged into common's event catalogue by declaration merging).
 * - No circular dependency between files, nor between modules (checked on the graph collapsed to
 *   one node per module: `npm run lint:deps` runs both passes).
 */
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The layers, from the modules themselves: each module folder declares its layer (1 = lowest) in its
 * `module.json` (`{ "layer": 4 }`); no list here names a module. A folder without one, or with a layer
 * that is not a whole number from 1, breaks the rule `module-in-a-layer` (the error names it).
 */
function moduleLayers(root = join(__dirname, 'src', 'modules')) {
  const layers = [];
  for (const d of readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const file = join(root, d, 'module.json');
    if (!existsSync(file)) continue;
    const { layer } = JSON.parse(readFileSync(file, 'utf8'));
    if (!Number.isInteger(layer) || layer < 1) continue;
    (layers[layer - 1] ??= []).push(d);
  }
  return Array.from(layers, (l) => l ?? []);
}

const LAYERS = moduleLayers();

const alt = (names) => `(${names.join('|')})`;

const layerRules = LAYERS.map((layer, i) => ({ layer, i, higher: LAYERS.slice(i + 1).flat() }))
  .filter(({ layer, higher }) => layer.length && higher.length)
  .map(({ layer, i, higher }) => ({
    name: `layer-${i + 1}-imports-no-higher-layer`,
    comment: `Modules of layer ${i + 1} (${layer.join(', ')}) may not import a module of a higher layer.`,
    severity: 'error',
    from: { path: `^src/modules/${alt(layer)}/` },
    to: { path: `^src/modules/${alt(higher)}/` },
  }));

const known = LAYERS.flat();

module.exports = {
  forbidden: [
    {
      name: 'module-public-api-only',
      comment: 'Another module is used only through its index.ts (services and types; never its entities or internal files).',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'module-index-exports-no-entity',
      comment: "A module's index.ts exports no entity: other modules read its tables through its services.",
      severity: 'error',
      from: { path: '^src/modules/[^/]+/index\\.ts$' },
      to: { path: '\\.entit(y|ies)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'common-imports-no-module',
      comment: 'src/common, src/config and src/database are layer 0: they import no module.',
      severity: 'error',
      from: { path: '^src/(common|config|database)/' },
      to: { path: '^src/(modules|app)' },
    },
    {
      name: 'module-in-a-layer',
      comment: 'Every module folder declares its layer in its module.json ({ "layer": <n> }, architecture.md).',
      severity: 'error',
      from: { path: `^src/modules/(?!${alt(known)}/)` },
      to: {},
    },
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'No import cycle (between files; with --collapse, between modules).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
