import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from '../../migrations';

/** migrations/index.ts finds the migrations by their files (no list to edit): one class per file, in timestamp order. */
describe('migrations/index.ts', () => {
  const dir = join(__dirname, '..', '..', 'migrations');
  const files = readdirSync(dir).filter((f) => f !== 'index.ts').sort();

  it('has every file of migrations/ as one class named after its timestamp, in timestamp order', () => {
    for (const f of files) expect(f).toMatch(/^\d{13}-[\w-]+\.ts$/);
    const declared = files.map((f) => {
      const classes = [...readFileSync(join(dir, f), 'utf8').matchAll(/^export class (\w+)/gm)].map((m) => m[1]);
      expect({ f, classes: classes.length }).toEqual({ f, classes: 1 });
      expect(classes[0].endsWith(f.slice(0, 13))).toBe(true);
      return classes[0];
    });
    expect(MIGRATIONS.map((m) => m.name)).toEqual(declared);
  });
});
