import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { join as joinPath } from 'node:path';
import { type FileDebt, scanSource, SRC, tenantEntities, totals, unscopedMethods } from '../support/data-layer-scan';

/**
 * The data-layer rules of issue #24 (docs/data-layer.md), as a ratchet: `data-layer-debt.json` lists,
 * per file, what still breaks them (transactions opened another way than the unit of work, services
 * holding a DataSource or manager, SQL outside a repository, SQL naming another module's table, bare
 * `companyId` parameters). A file may not get worse, a file not listed may have none, and a file
 * that got better must be lowered in the list in the same change, so the list only shrinks:
 *
 *   UPDATE_DATA_LAYER_DEBT=1 npx jest test/project/data-layer.spec.ts   # rewrites the list after a fix
 *
 * (never to accept new debt: review the diff of the list).
 */
const LIST = join(__dirname, 'data-layer-debt.json');

describe('data layer: one unit of work, SQL in repositories, no foreign tables (ratchet)', () => {
  const actual = scanSource();

  if (process.env.UPDATE_DATA_LAYER_DEBT === '1') {
    it('rewrites the list', () => {
      const lines = Object.entries(actual).map(([f, d]) => `  ${JSON.stringify(f)}: ${JSON.stringify(d)}`);
      writeFileSync(LIST, `{\n${lines.join(',\n')}\n}\n`);
      expect(existsSync(LIST)).toBe(true);
    });
    return;
  }

  const listed = JSON.parse(readFileSync(LIST, 'utf8')) as Record<string, FileDebt>;
  const none: FileDebt = { transactions: 0, connections: 0, sql: 0, foreign: [], companyId: 0, unscoped: 0 };

  it('no file is worse than the list says', () => {
    const worse: string[] = [];
    for (const [file, d] of Object.entries(actual)) {
      const l = listed[file] ?? none;
      for (const k of ['transactions', 'connections', 'sql', 'companyId', 'unscoped'] as const) if (d[k] > (l[k] ?? 0)) worse.push(`${file}: ${k} ${l[k]} → ${d[k]}`);
      const added = d.foreign.filter((t) => !l.foreign.includes(t));
      if (added.length) worse.push(`${file}: SQL names another module's table(s) ${added.join(', ')}`);
    }
    expect(worse).toEqual([]);
  });

  it('the list is not higher than the source (lower it when a file gets better)', () => {
    const stale: string[] = [];
    for (const [file, l] of Object.entries(listed)) {
      const d = actual[file] ?? none;
      for (const k of ['transactions', 'connections', 'sql', 'companyId', 'unscoped'] as const) if ((l[k] ?? 0) > d[k]) stale.push(`${file}: ${k} listed ${l[k]}, now ${d[k]}`);
      const gone = l.foreign.filter((t) => !d.foreign.includes(t));
      if (gone.length) stale.push(`${file}: no longer names ${gone.join(', ')}`);
    }
    expect(stale).toEqual([]);
  });

  it('prints the totals (for the issue note)', () => {
    const t = totals(actual);
    // eslint-disable-next-line no-console
    console.log(`data-layer debt: ${JSON.stringify(t)}`);
    expect(t.files).toBe(Object.keys(actual).length);
  });

  // LIST_UNSCOPED=1 npx jest test/project/data-layer.spec.ts -t unscoped: the methods behind the `unscoped` counts, by file.
  it('names the unscoped repository methods (LIST_UNSCOPED=1)', () => {
    const files = Object.keys(actual).filter((f) => actual[f].unscoped > 0);
    const tenants = tenantEntities();
    const named = files.map((f) => `${f}: ${unscopedMethods(joinPath(SRC, '..', f), tenants).join(', ')}`);
    // eslint-disable-next-line no-console
    if (process.env.LIST_UNSCOPED === '1') console.log(named.join('\n'));
    expect(named).toHaveLength(files.length);
  });
});
