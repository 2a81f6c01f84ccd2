#!/usr/bin/env node
// Usage: node scripts/lint-openapi.js [--out FILE]   (npm run lint:openapi; part of npm test)
//
// Builds the OpenAPI document exactly as the server serves it (buildOpenApiDocument over AppModule),
// without a database: Nest's preview mode builds the module graph and reads the routes' metadata but
// instantiates no provider, so nothing connects. Writes it to a temporary file (or FILE) and runs
// `redocly lint` on it with ./redocly.yaml. The TypeScript sources are compiled in memory by @swc/core,
// as jest does, so no build is needed (a few seconds in all).
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '..');
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

async function main() {
  const outArg = process.argv.indexOf('--out');
  require('reflect-metadata');
  const { previewOpenApiDocument } = require(join(root, 'src/app.setup.ts'));

  const dir = mkdtempSync(join(tmpdir(), 'haulops-openapi-'));
  try {
    const doc = await previewOpenApiDocument(dir);
    const file = outArg > 0 ? process.argv[outArg + 1] : join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const redocly = require.resolve('@redocly/cli/bin/cli.js', { paths: [root] });
    const res = spawnSync(process.execPath, [redocly, 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'codeframe'], {
      stdio: 'inherit',
      cwd: root,
      // No telemetry, no update check: the lint runs offline and says only what it found.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_CLI_NODE_VERSION_WARNING: 'off' },
    });
    process.exitCode = res.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
