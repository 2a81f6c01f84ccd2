import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * The generators (schematics/, README "Adding a module") on a throwaway copy of the tree: a module and a
 * route and a subscriber are generated with the commands the README gives, then the copy passes, unedited, the type check,
 * the dependency rules, the OpenAPI lint and, in ONE jest run, the generated e2e test, the schema-drift
 * test, the tenant-isolation sweep, the route conformance test (extension list), the statement snapshots
 * and the data-layer ratchet. Skipped when no PostgreSQL answers at TEST_DATABASE_URL (the e2e part needs one).
 */
const ROOT = join(__dirname, '..', '..');
const SKIP_TOP = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);

function run(cwd: string, cmd: string, args: string[]): { out: string; status: number | null } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  return { out: `${r.stdout ?? ''}${r.stderr ?? ''}`, status: r.status };
}
const ok = (cwd: string, cmd: string, args: string[]) => {
  const r = run(cwd, cmd, args);
  expect({ cmd: [cmd, ...args].join(' '), status: r.status, tail: r.status === 0 ? '' : r.out.slice(-4000) }).toEqual({ cmd: [cmd, ...args].join(' '), status: 0, tail: '' });
  return r.out;
};

const describeWithDb = process.env.TEST_DATABASE_URL ? describe : describe.skip;

describeWithDb('generators: nest g module-feature, route and subscriber on a copy of the tree', () => {
  let base: string;
  let repo: string;
  const started = Date.now();

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'haulops-gen-'));
    repo = join(base, 'repo');
    cpSync(ROOT, repo, { recursive: true, filter: (src) => !SKIP_TOP.has(relative(ROOT, src).split(/[\\/]/)[0]) });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(repo, 'node_modules'), 'dir');
    const shared = join(ROOT, '..', 'shared');
    if (existsSync(shared)) symlinkSync(realpathSync(shared), join(base, 'shared'), 'dir'); // the seed's routes (route conformance)
  });
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
    console.log(`generators: ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  });

  it('generates a module, a route and a subscriber with the README commands', () => {
    // `nest g` admits two positional arguments: the layer is the second; `npm run g` takes the README's flags.
    const mod = ok(repo, 'npx', ['nest', 'g', 'module-feature', 'invoices', '6']);
    expect(mod).toContain('src/modules/invoices/invoices.module.ts');
    const route = ok(repo, 'npm', ['run', '-s', 'g', '--', 'route', 'invoices', 'GET', '/invoices', '--access', 'CO']);
    expect(route).toContain('GET /api/v1/invoices (CO) → InvoicesController#list');
    expect(ok(repo, 'npx', ['nest', 'g', 'subscriber', 'invoices', 'order.placed'])).toContain('src/modules/invoices/order-placed.subscriber.ts');
    // A stock kind still comes from @nestjs/schematics (the collection extends it).
    expect(ok(repo, 'npx', ['nest', 'g', 'service', 'stock-probe', '--dry-run'])).toContain('stock-probe.service.ts');

    // Outside its folder, its migration and its e2e files, the module touched one line of each central list.
    const changed = (f: string) => readFileSync(join(repo, f), 'utf8').split('\n').filter((l) => l.includes('invoices') || l.includes('Invoices'));
    expect(changed('.dependency-cruiser.cjs')).toEqual([`  ['payments', 'accountability', 'invoices'],`]);
    expect(changed('test/routes-extensions.txt')).toHaveLength(3);
    expect(changed('src/app.module.ts')).toHaveLength(2); // its import and the FEATURE_MODULES line
    expect(changed('migrations/index.ts')).toHaveLength(2); // its import and the MIGRATIONS line
    // The same route again is refused (and writes nothing).
    expect(run(repo, 'npm', ['run', '-s', 'g', '--', 'route', 'invoices', 'GET', '/invoices', '--access', 'CO']).status).toBe(1);
  }, 120_000);

  it('type-checks, keeps the dependency rules and a valid OpenAPI document', () => {
    ok(repo, 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
    ok(repo, 'npm', ['run', '-s', 'lint:deps']);
    ok(repo, 'npm', ['run', '-s', 'lint:openapi']);
  }, 300_000);

  it('passes its generated tests, the drift test, the tenant sweep, route conformance, the SQL snapshots and the ratchet', () => {
    const specs = ['test/invoices', 'test/database/schema-drift.spec.ts', 'test/common/access/tenant-isolation.e2e.spec.ts', 'test/common/access/routes.spec.ts', 'test/database/sql-snapshots.spec.ts', 'test/project/data-layer.spec.ts'];
    const out = ok(repo, 'npx', ['jest', '--maxWorkers=1', '--ci', ...specs]);
    expect(out).toMatch(/Test Suites: 6 passed, 6 total/);
    expect(out).toContain('PASS test/invoices/invoices.e2e.spec.ts');
  }, 600_000);
});
