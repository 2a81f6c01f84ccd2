import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `npm start`'s build (scripts/build-fast.js): swc with the test run's options, only what changed. */
const { buildFast } = require('../../scripts/build-fast.js') as { buildFast: (outDir?: string) => Promise<{ transpiled: number; removed: number; total: number }> };

describe('build-fast', () => {
  const out = mkdtempSync(join(tmpdir(), 'haulops-build-fast-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('transpiles every source once, then nothing while the sources are unchanged', async () => {
    const first = await buildFast(out);
    expect(first.total).toBeGreaterThan(300);
    expect(first.transpiled).toBe(first.total);
    expect(existsSync(join(out, 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(out, 'migrations', 'index.js'))).toBe(true);
    expect(existsSync(join(out, 'ormconfig.js'))).toBe(true);
    // Nest's injection needs the constructor parameter types (emitDecoratorMetadata).
    expect(readFileSync(join(out, 'src', 'modules', 'health', 'health.controller.js'), 'utf8')).toContain('design:paramtypes');
    expect((await buildFast(out)).transpiled).toBe(0);
  });

  it('transpiles again an output that is missing or whose manifest entry no longer matches', async () => {
    rmSync(join(out, 'src', 'main.js'));
    const manifest = JSON.parse(readFileSync(join(out, '.build-fast.json'), 'utf8'));
    manifest.files['src/app.setup.ts'] = 'changed';
    manifest.files['src/gone.ts'] = 'removed since';
    writeFileSync(join(out, 'src', 'gone.js'), '');
    writeFileSync(join(out, '.build-fast.json'), JSON.stringify(manifest));
    const again = await buildFast(out);
    expect(again).toMatchObject({ transpiled: 2, removed: 1 });
    expect(existsSync(join(out, 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(out, 'src', 'gone.js'))).toBe(false);
  });
});
