import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mountedRoutes } from '../../../src/common/access/route-inventory';
import { ACCESS_CODES } from '../../../src/common/access/access-codes';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Route conformance: the app's mounted routes against the seed's table (../shared/spec/routes.tsv).
 * A mounted seed route has exactly its seed code; every seed route not mounted is listed in
 * test/routes-pending.txt (which later issues shrink); any other mounted route is a documented
 * extension: `@Extension(why)` beside its controller method, or a line of test/routes-extensions.txt.
 * `UPDATE_PENDING=1` rewrites the pending list.
 */
const TEST_DIR = join(__dirname, '..', '..');
const SEED = join(TEST_DIR, '..', '..', 'shared', 'spec', 'routes.tsv');
const PENDING = join(TEST_DIR, 'routes-pending.txt');
const EXTENSIONS = join(TEST_DIR, 'routes-extensions.txt');

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

describe('route conformance with the seed', () => {
  let t: TestApp;
  let seed: Map<string, string>;
  let mounted: Map<string, string | undefined>;
  let declared: Map<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    seed = new Map(
      lines(SEED)
        .slice(1)
        .map((l) => l.split('\t'))
        .map(([m, p, a]) => [`${m} ${p}`, a]),
    );
    const routes = mountedRoutes(t.app);
    mounted = new Map(routes.map((r) => [`${r.method} ${r.path}`, r.access]));
    declared = new Map(routes.filter((r) => r.extension).map((r) => [`${r.method} ${r.path}`, r.extension!]));
  });
  afterAll(async () => t?.close());

  it('reads all 370 seed routes', () => {
    expect(seed.size).toBe(370);
    for (const code of seed.values()) expect(ACCESS_CODES).toContain(code);
  });

  it('declares an access code on every mounted route', () => {
    const undeclared = [...mounted].filter(([, a]) => !a).map(([k]) => k);
    expect(undeclared).toEqual([]);
  });

  it('gives each mounted seed route exactly its seed code', () => {
    const wrong = [...mounted].filter(([k, a]) => seed.has(k) && seed.get(k) !== a).map(([k, a]) => `${k}: declared ${a}, seed ${seed.get(k)}`);
    expect(wrong).toEqual([]);
  });

  it('lists every seed route not yet mounted in routes-pending.txt, and nothing else', () => {
    const notMounted = [...seed.keys()].filter((k) => !mounted.has(k));
    if (process.env.UPDATE_PENDING) {
      writeFileSync(PENDING, '# Seed routes not built yet (METHOD PATH); regenerate with UPDATE_PENDING=1 npx jest test/common/access/routes.spec.ts\n' + notMounted.join('\n') + '\n');
    }
    const pending = lines(PENDING);
    expect(pending.filter((k) => mounted.has(k))).toEqual([]); // built routes must leave the list
    expect(pending.filter((k) => !seed.has(k))).toEqual([]); // the list holds seed routes only
    expect([...pending].sort()).toEqual([...notMounted].sort());
  });

  it('mounts nothing outside the seed but documented extensions (@Extension or routes-extensions.txt)', () => {
    const listed = new Map(lines(EXTENSIONS).map((l) => l.split('\t')).map(([m, p, a]) => [`${m} ${p}`, a]));
    const extra = [...mounted].filter(([k]) => !seed.has(k));
    expect(extra.filter(([k]) => !listed.has(k) && !declared.has(k)).map(([k]) => k)).toEqual([]);
    for (const [k, a] of extra) if (listed.has(k)) expect(`${k} ${a}`).toBe(`${k} ${listed.get(k)}`);
    expect([...declared.keys()].filter((k) => seed.has(k) || listed.has(k))).toEqual([]); // a seed route is no extension; one declaration each
    expect([...declared.values()].filter((why) => !why.trim())).toEqual([]);
  });

  it('documents every mounted seed route in OpenAPI with a summary, responses and its access code', async () => {
    const doc = (await t.http.get('/api/documentation-json').expect(200)).body;
    const missing: string[] = [];
    for (const [k, code] of mounted) {
      const [method, path] = k.split(' ');
      if (path.startsWith('/api/documentation') || path === '/api/oauth2-callback') continue;
      const op = doc.paths?.[path]?.[method.toLowerCase()];
      if (!op || !op.summary || !op.responses || op['x-access-code'] !== code) missing.push(k);
      else if (!['PUB', 'PUB-T', 'NONE'].includes(code!) && !op.security?.some((s: object) => 'bearer' in s)) missing.push(`${k} (security)`);
    }
    expect(missing).toEqual([]);
  });
});
