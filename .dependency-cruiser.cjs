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
const LAYERS = [
  ['users', 'auth', 'admin'],
  ['companies', 'customers', 'drivers', 'catalogue', 'fleet', 'sites', 'pricing', 'promotions', 'media', 'qr-codes', 'health', 'docs'],
  ['jobs'],
  ['orders'],
  ['dispatch', 'attendance', 'leaves'],
  ['payments', 'accountability'],
  ['communication', 'reports', 'platform'],
];

const alt = (names) => `(${names.join('|')})`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${i + 1}-imports-no-higher-layer`,
  comment: `Modules of layer ${i + 1} (${layer.join(', ')}) may not import a module of a higher layer.`,
  severity: 'error',
  from: { path: `^src/modules/${alt(layer)}/` },
  to: { path: `^src/modules/${alt(LAYERS.slice(i + 1).flat())}/` },
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
      comment: 'Every module folder is placed in a layer in .dependency-cruiser.cjs (architecture.md).',
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
