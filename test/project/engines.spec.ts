import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * package.json `engines.node` says what the installed tree requires (issue #23): every package of
 * package-lock.json admits every Node version that `engines` admits (no EBADENGINE on a documented
 * version), and `engines` admits nothing more than their intersection. Checked on each minor of the
 * even majors from 18 to 26 (the ranges in the tree are written on minors).
 */
// semver: npm's own range semantics (a dependency of the tree; no types installed).
const semver = require('semver') as { satisfies: (version: string, range: string) => boolean };
const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

const ranges = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .flatMap(([path, meta]) => {
    const node = meta.engines && !Array.isArray(meta.engines) ? meta.engines.node : undefined;
    return node ? [{ name: `${path.replace(/^.*node_modules\//, '')}@${meta.version}`, node }] : [];
  });
const versions = [18, 20, 21, 22, 23, 24, 25, 26].flatMap((major) => Array.from({ length: 30 }, (_, minor) => `${major}.${minor}.0`));

describe('engines', () => {
  it('admits the Node running the tests (CI runs Node 20)', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it("is the intersection of the dependency tree's engines.node", () => {
    expect(ranges.length).toBeGreaterThan(50);
    for (const v of versions) {
      const refusedBy = ranges.filter((r) => !semver.satisfies(v, r.node)).map((r) => `${r.name} (${r.node})`);
      if (semver.satisfies(v, pkg.engines.node)) expect({ v, refusedBy }).toEqual({ v, refusedBy: [] });
      else expect({ v, refused: refusedBy.length > 0 }).toEqual({ v, refused: true });
    }
  });
});
