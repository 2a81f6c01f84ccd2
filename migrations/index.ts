import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

/** A migration file: `<13-digit timestamp>-<Name>` (`npm run migration:create -- migrations/<Name>` makes one). */
const MIGRATION_FILE = /^(\d{13})-[\w-]+$/;

/**
 * Every migration, in timestamp order: from each `<timestamp>-<Name>` file of this folder (`.ts` when run
 * from the sources, `.js` from dist/), the exported class whose name ends with that timestamp (as TypeORM
 * requires; the file may export helpers beside it). No list to edit: a new file is a new migration
 * (README "Adding a migration"); test/database/migrations.spec.ts checks the files.
 */
export function migrationClasses(dir = __dirname): Function[] {
  const ext = extname(__filename);
  return readdirSync(dir)
    .filter((f) => extname(f) === ext && MIGRATION_FILE.test(f.slice(0, -ext.length)))
    .sort()
    .map((f) => {
      const stamp = f.slice(0, 13);
      const classes = Object.values(require(join(dir, f)) as Record<string, unknown>).filter((v): v is Function => typeof v === 'function' && v.name.endsWith(stamp));
      if (classes.length !== 1) throw new Error(`migrations/${f}: exports ${classes.length} classes named …${stamp} (one migration class per file)`);
      return classes[0];
    });
}

export const MIGRATIONS: Function[] = migrationClasses();
