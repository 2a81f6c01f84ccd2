import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The modules' entities, for every data source (the server's, the migration CLI's; src/database adds
 * common's own). A module registers its entities itself, in the `ENTITIES` array of its
 * `src/modules/<module>/entities.ts`; this composition root (like app.module.ts, outside src/database,
 * which imports no module) loads that file of every module folder, so no central list names a module's
 * entities. test/database/schema-drift.spec.ts checks that every entity class is in its module's list
 * and that every table has an entity.
 */
export function moduleEntities(): Function[] {
  const modules = join(__dirname, 'modules');
  // `.ts` when run from the sources (jest), `.js` from dist/.
  const file = `entities${extname(__filename)}`;
  return readdirSync(modules, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(modules, d.name, file)))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) => (require(join(modules, d.name, file)) as { ENTITIES: Function[] }).ENTITIES);
}
