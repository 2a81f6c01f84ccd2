import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * The generators (schematics/, README "Adding a module") on a throwaway copy of the tree: the README's
 * literal commands (`npx nest g module-feature invoices --layer 6`, `npx nest g route invoices GET
 * /invoices --access CO`, `npx nest g subscriber invoices order.placed`) and routes with several path
 * parameters and other access codes (CU, DR-IN, AD, PUB) are generated, then the copy passes, unedited,
 * the type check, the dependency rules and the OpenAPI lint (one after another; the document it lints
 * offers the generated module's events to outbound webhooks), and in ONE jest run the generated e2e test
 * (its events accepted by the webhook registration), the schema-drift test, the tenant-isolation sweep of
 * the generated controller's routes (the suite's own run sweeps the rest), route conformance, the statement
 * snapshots, the data-layer ratchet and the migrations check. Each step's time is logged (`generators: …`).
 * Also: `npm ci` links node_modules/.bin/nest to schematics/nest.js (the postinstall schematics/install.js),
 * and `nest g` exits 1 when a schematic fails.
 * The copy's part is skipped when no PostgreSQL answers at TEST_DATABASE_URL (the e2e part needs one).
 */
const ROOT = join(__dirname, '..', '..');
const SKIP_TOP = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);

/** Seconds each step took, and the CPU seconds of its processes where Linux says (logged at the end: where the file's time goes). */
const timings: string[] = [];
/** CPU seconds (user + system) of the finished child processes of this one, from /proc/self/stat (cutime, cstime; 100 ticks a second). */
const childCpu = (): number => {
  if (!existsSync('/proc/self/stat')) return NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};
function run(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): { out: string; status: number | null } {
  const [started, cpu] = [Date.now(), childCpu()];
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 });
  timings.push(`${((Date.now() - started) / 1000).toFixed(1)} s (cpu ${(childCpu() - cpu).toFixed(1)} s) ${[cmd, ...args].join(' ').replace(/^.*\/node_modules\/\.bin\//, '').slice(0, 80)}`);
  return { out: `${r.stdout ?? ''}${r.stderr ?? ''}`, status: r.status };
}
const outcome = (cmd: string, args: string[], r: { out: string; status: number | null }) => ({ cmd: [cmd, ...args].join(' '), status: r.status, tail: r.status === 0 ? '' : r.out.slice(-4000) });
const ok = (cwd: string, cmd: string, args: string[], env?: Record<string, string>) => {
  const r = run(cwd, cmd, args, env);
  expect(outcome(cmd, args, r)).toEqual({ cmd: [cmd, ...args].join(' '), status: 0, tail: '' });
  return r.out;
};
/** Every file of the tree (but node_modules) with a hash of its content. */
function files(dir: string, base = dir, acc = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, base, acc);
    else if (e.isFile()) acc.set(relative(base, p), createHash('sha1').update(readFileSync(p)).digest('hex'));
  }
  return acc;
}
/** The files added or changed since `before`. */
const touched = (before: Map<string, string>, dir: string) => [...files(dir)].filter(([f, h]) => before.get(f) !== h).map(([f]) => f).sort();

describe('nest (node_modules/.bin/nest)', () => {
  it('is schematics/nest.js after npm ci (the postinstall links it)', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.postinstall).toBe('node schematics/install.js');
    expect(realpathSync(join(ROOT, 'node_modules', '.bin', 'nest'))).toBe(realpathSync(join(ROOT, 'schematics', 'nest.js')));
  });

  it('schematics/install.js links the bin, idempotently, and leaves a tree without devDependencies alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haulops-bin-'));
    try {
      const nm = join(dir, 'node_modules');
      mkdirSync(join(nm, '@nestjs', 'cli', 'bin'), { recursive: true });
      mkdirSync(join(nm, '.bin'));
      writeFileSync(join(nm, '@nestjs', 'cli', 'bin', 'nest.js'), '');
      symlinkSync('../@nestjs/cli/bin/nest.js', join(nm, '.bin', 'nest'));
      const install = (m: string) => ok(ROOT, 'node', ['schematics/install.js', m]).trim();
      expect(install(join(dir, 'none'))).toBe('nest: skipped (no devDependencies)');
      expect(install(nm)).toBe('nest: skipped (no devDependencies)'); // haulops-schematics not installed
      symlinkSync(join(ROOT, 'schematics'), join(nm, 'haulops-schematics'));
      expect(install(nm)).toMatch(/^nest: linked .*node_modules\/\.bin\/nest -> \.\.\/haulops-schematics\/nest\.js$/);
      expect(readlinkSync(join(nm, '.bin', 'nest'))).toBe('../haulops-schematics/nest.js');
      expect(install(nm)).toBe('nest: already linked');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const describeWithDb = process.env.TEST_DATABASE_URL ? describe : describe.skip;

describeWithDb('generators: nest g module-feature, route and subscriber on a copy of the tree', () => {
  let base: string;
  let repo: string;
  let nest: string; // what `npx nest` runs, called directly past the README's three commands (no npm start-up each time)
  const started = Date.now();

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'haulops-gen-'));
    repo = join(base, 'repo');
    const copying = Date.now();
    cpSync(ROOT, repo, { recursive: true, filter: (src) => !SKIP_TOP.has(relative(ROOT, src).split(/[\\/]/)[0]) });
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(repo, 'node_modules'), 'dir');
    timings.push(`${((Date.now() - copying) / 1000).toFixed(1)} s copy of the tree`);
    nest = join(repo, 'node_modules', '.bin', 'nest');
    const shared = join(ROOT, '..', 'shared');
    if (existsSync(shared)) symlinkSync(realpathSync(shared), join(base, 'shared'), 'dir'); // the seed's routes (route conformance)
  });
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
    console.log(`generators: ${((Date.now() - started) / 1000).toFixed(0)} s in all\n${timings.join('\n')}`);
  });

  it("generates with the README's literal commands, touching only the module's own files and one registration", () => {
    const before = files(repo);
    const mod = ok(repo, 'npx', ['nest', 'g', 'module-feature', 'invoices', '--layer', '6']);
    expect(mod).toContain('CREATE src/modules/invoices/module.json');
    const added = touched(before, repo);
    const stamp = added.find((f) => f.startsWith('migrations/'))!.slice('migrations/'.length, -'-Invoices.ts'.length);
    expect(added).toEqual(
      [
        `migrations/${stamp}-Invoices.ts`,
        'src/app.module.ts',
        ...['entities.ts', 'events.ts', 'index.ts', 'invoice.entity.ts', 'invoice.repository.ts', 'invoices.controller.ts', 'invoices.dto.ts', 'invoices.module.ts', 'invoices.service.ts', 'module.json', 'notifications.ts'].map((f) => `src/modules/invoices/${f}`),
        'test/database/sql/InvoiceRepository.sql',
        'test/invoices/invoices.e2e.spec.ts',
        'test/invoices/tenant-kinds.ts',
      ].sort(),
    );
    // The one registration: its import and its FEATURE_MODULES entry in src/app.module.ts.
    const app = readFileSync(join(repo, 'src/app.module.ts'), 'utf8').split('\n');
    expect(app.filter((l) => l.includes('Invoices'))).toEqual(["import { InvoicesModule } from './modules/invoices';", expect.stringMatching(/^export const FEATURE_MODULES = \[.*, InvoicesModule\];$/)]);
    expect(readFileSync(join(repo, 'src/modules/invoices/module.json'), 'utf8')).toBe('{ "layer": 6 }\n');

    const afterModule = files(repo);
    expect(ok(repo, 'npx', ['nest', 'g', 'route', 'invoices', 'GET', '/invoices', '--access', 'CO'])).toContain('GET /api/v1/invoices (CO) → InvoicesController#list');
    expect(ok(repo, 'npx', ['nest', 'g', 'subscriber', 'invoices', 'order.placed'])).toContain('CREATE src/modules/invoices/order-placed.subscriber.ts');
    // Several path parameters, and access codes other than CO.
    for (const [method, path, access] of [
      ['GET', '/invoices/{invoice}/lines/{line}', 'CU'],
      ['PATCH', '/invoices/{invoice}/lines/{line}', 'DR-IN'],
      ['GET', '/admin/invoices', 'AD'],
      ['GET', '/admin/invoices/{invoice}', 'AD'],
      ['GET', '/invoices-about', 'PUB'],
      ['DELETE', '/invoices/{invoice}', 'CO'],
      ['POST', '/invoices/{invoice}/copies', 'CO'],
    ]) {
      expect(ok(repo, nest, ['g', 'route', 'invoices', method, path, '--access', access])).toContain(`${method} /api/v1${path} (${access})`);
    }
    // Routes and subscribers stay in the module's files (and its statement snapshot).
    expect(touched(afterModule, repo).filter((f) => !f.startsWith('src/modules/invoices/') && !f.startsWith('test/invoices/') && f !== 'test/database/sql/InvoiceRepository.sql')).toEqual([]);

    // A failing schematic exits 1 and writes nothing: the same route again, an unknown option, a bad code, an open route with an id.
    const unchanged = files(repo);
    for (const args of [
      ['route', 'invoices', 'GET', '/invoices', '--access', 'CO'],
      ['module-feature', 'bills', '--lyer', '6'],
      ['module-feature', 'bills', '--layer', '99'],
      ['route', 'invoices', 'GET', '/invoices/{invoice}/x', '--access', 'XX'],
      ['route', 'invoices', 'GET', '/invoices/{invoice}/public', '--access', 'PUB'],
    ]) {
      expect({ args, status: run(repo, nest, ['g', ...args]).status }).toEqual({ args, status: 1 });
    }
    expect(touched(unchanged, repo)).toEqual([]);
    // Stock kinds still come from @nestjs/schematics (the collection extends it), with the Nest CLI's exit code made honest.
    expect(ok(repo, nest, ['g', 'service', 'stock-probe', '--dry-run'])).toContain('stock-probe.service.ts');
    expect(run(repo, nest, ['g', 'no-such-kind', 'x']).status).toBe(1);
  }, 180_000);

  it('type-checks, keeps the dependency rules and a valid OpenAPI document', () => {
    // One after another: at once, the three took both cores from the suite's other jest worker (a test app's start there timed out).
    const commands: [string, string[]][] = [
      ['npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
      ['npm', ['run', '-s', 'lint:deps']],
      ['node', ['scripts/lint-openapi.js', '--out', join(base, 'openapi.json')]], // npm run lint:openapi, keeping the document
    ];
    const results = commands.map(([cmd, args]) => outcome(cmd, args, run(repo, cmd, args)));
    expect(results).toEqual(results.map((r) => ({ ...r, status: 0, tail: '' })));
    // The generated module's events are offered to outbound webhooks (its events.ts), beside the older modules', with no edit in payments.
    const doc = JSON.parse(readFileSync(join(base, 'openapi.json'), 'utf8'));
    for (const schema of ['CreateWebhookDto', 'UpdateWebhookDto', 'WebhookEndpointDto']) {
      expect({ schema, events: doc.components.schemas[schema].properties.events.items.enum }).toEqual({ schema, events: expect.arrayContaining(['order.placed', 'payment_transaction.recorded', 'invoice.created', 'invoice.updated', 'invoice.deleted']) });
    }
  }, 400_000);

  it('passes its generated tests, the drift test, the tenant sweep, route conformance, the SQL snapshots, the ratchet and the migrations check', () => {
    const specs = ['test/invoices', 'test/database/schema-drift.spec.ts', 'test/common/access/tenant-isolation.e2e.spec.ts', 'test/common/access/routes.spec.ts', 'test/database/sql-snapshots.spec.ts', 'test/project/data-layer.spec.ts', 'test/database/migrations.spec.ts'];
    // The sweep of the generated controller's routes (the worlds still make every kind): the suite's own run sweeps every other route.
    const out = ok(repo, 'npx', ['jest', '--maxWorkers=1', '--ci', '--verbose', ...specs], { TENANT_SWEEP_CONTROLLERS: 'InvoicesController' });
    expect(out).toMatch(/Test Suites: 7 passed, 7 total/);
    expect(out).toContain('PASS test/invoices/invoices.e2e.spec.ts');
    expect(out).toContain('✓ offers its events to outbound webhooks (events.ts)');
    expect(out).toMatch(/tenant-isolation: (\d+) routes with ids covered \(0 unfillable\)/);
    expect(Number(/tenant-isolation: (\d+) routes with ids covered/.exec(out)![1])).toBeGreaterThanOrEqual(6); // the generated routes with ids
  }, 900_000);
});
