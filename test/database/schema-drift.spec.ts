import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { EntityMetadata, getMetadataArgsStorage, QueryRunner, TableCheck, TableForeignKey, TableIndex, TableUnique } from 'typeorm';
import { COMMON_ENTITIES } from '../../src/database/entities';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The entities must describe exactly what the migrations create: indexes (names, columns, uniqueness,
 * partial WHERE), foreign keys (names, ON DELETE), unique keys, checks and column defaults. Otherwise
 * `typeorm migration:generate` (or `synchronize`) would silently drop or rewrite constraints.
 *
 * The migrations are the truth: when this fails, fix the entity (or add a migration), guided by the
 * printed statements.
 */
describe('schema drift (entities vs migrations)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const tableMetadatas = () => t.ds.entityMetadatas.filter((m) => m.tableType === 'regular' && m.synchronize);

  it('every table of the migrated database has an entity (the migrations table excepted)', async () => {
    const tables: { name: string }[] = await t.ds.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    );
    const declared = new Set(t.ds.entityMetadatas.map((m) => m.tableName));
    expect(tables.map((r) => r.name).filter((name) => name !== 'migrations' && !declared.has(name))).toEqual([]);
  });

  /**
   * A module registers its entities in the `ENTITIES` of its `entities.ts` (src/app.entities.ts loads them);
   * common's are in src/database/entities.ts. An entity class defined in a module's `*.entity.ts` or
   * `*.entities.ts` file but left out of that list would be missing from every data source.
   */
  it("every entity class is in its module's ENTITIES (common's in COMMON_ENTITIES), and in the app's data source", () => {
    const src = join(__dirname, '../../src');
    const entityTables = new Set(getMetadataArgsStorage().tables.map((table) => table.target));
    const problems: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.entit(y|ies)\.ts$/.test(f))) {
      const [top, module] = file.split(sep);
      const list: Function[] = top === 'modules' ? require(join(src, 'modules', module, 'entities.ts')).ENTITIES : COMMON_ENTITIES;
      for (const exported of Object.values(require(join(src, file)) as Record<string, unknown>)) {
        if (typeof exported !== 'function' || !entityTables.has(exported)) continue;
        if (!list.includes(exported)) problems.push(`${exported.name} (src/${file}) is not in ${top === 'modules' ? `src/modules/${module}/entities.ts` : 'COMMON_ENTITIES'}`);
        if (!t.ds.hasMetadata(exported)) problems.push(`${exported.name} (src/${file}) is not in the app's data source`);
      }
    }
    expect(problems).toEqual([]);
  });

  /** A module's SQL API (src/database/sql-api.ts): what its `sql-api.ts` declares is what the migrations create, no more. */
  it("every module's declared SQL functions exist with their arguments and result, and every module function is declared", async () => {
    const declared = new Map<string, { args: string; returns: string }>();
    const src = join(__dirname, '../../src/modules');
    for (const module of readdirSync(src)) {
      const file = join(src, module, 'sql-api.ts');
      if (!existsSync(file)) continue;
      for (const [name, f] of Object.entries((require(file) as { SQL_API: Record<string, { args: string; returns: string }> }).SQL_API)) {
        expect(name.startsWith(`${module.replace(/-/g, '_')}_`)).toBe(true);
        declared.set(name, { args: f.args, returns: f.returns });
      }
    }
    const modules = readdirSync(src).map((m) => m.replace(/-/g, '_'));
    const rows: { name: string; args: string; returns: string }[] = await t.ds.query(
      `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args, pg_get_function_result(p.oid) AS returns
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' ORDER BY 1`,
    );
    const inDb = new Map(rows.filter((r) => modules.some((m) => r.name.startsWith(`${m}_`))).map((r) => [r.name, { args: r.args, returns: r.returns }]));
    expect(Object.fromEntries(inDb)).toEqual(Object.fromEntries(declared));
    expect(declared.size).toBeGreaterThan(0);
  });

  it('TypeORM would change nothing in a freshly migrated database (schema:log is empty)', async () => {
    const sql = await t.ds.driver.createSchemaBuilder().log();
    const statements = sql.upQueries.map((q) => q.query.replace(/\s+/g, ' ').trim());
    const report = statements.length
      ? `${statements.length} statement(s) would be run to make the ${t.db} database match the entities:\n` + statements.map((s) => `  ${s};`).join('\n')
      : '';
    expect(report).toBe('');
  });

  /**
   * TypeORM matches checks, foreign keys and indexes by name only (an index also by its set of
   * columns): it does not compare check expressions, index WHERE clauses, column order, or the columns
   * of a foreign key. So the entities' declarations are also applied, with TypeORM's own DDL, to empty
   * copies of their tables in a scratch schema (rolled back), and PostgreSQL's definitions of both
   * sides are compared. Expressions may thus be written as in the migrations: PostgreSQL normalises
   * both. Indexes TypeORM cannot express (on expressions such as lower(email)) are declared with
   * `synchronize: false`; for those only the name is checked.
   */
  it('every check, foreign key, unique key and index is declared with the same definition', async () => {
    const qr = t.ds.createQueryRunner();
    const problems: string[] = [];
    try {
      await qr.startTransaction();
      await qr.query(`CREATE SCHEMA drift_probe`);
      for (const m of tableMetadatas()) {
        await qr.query(`CREATE TABLE drift_probe."${m.tableName}" (LIKE public."${m.tableName}")`);
        const probe = (await qr.getTable(`drift_probe.${m.tableName}`))!;
        for (const c of m.checks) await qr.createCheckConstraint(probe, TableCheck.create(c));
        for (const u of m.uniques) await qr.createUniqueConstraint(probe, TableUnique.create(u));
        for (const fk of m.foreignKeys) await qr.createForeignKey(probe, TableForeignKey.create(fk, t.ds.driver));
        for (const i of m.indices.filter((i) => i.synchronize)) await qr.createIndex(probe, TableIndex.create(i));

        const declared = await definitions(qr, 'drift_probe', m.tableName);
        for (const i of m.indices.filter((i) => !i.synchronize)) declared.set(`index ${i.name}`, '(not synchronized: only its name is checked)');
        const actual = await definitions(qr, 'public', m.tableName);
        problems.push(...compare(m, declared, actual));
      }
    } finally {
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      await qr.release();
    }
    const report = problems.length ? `The entities and the ${t.db} database differ:\n` + problems.map((p) => `  ${p}`).join('\n') : '';
    expect(report).toBe('');
  });
});

/** `check|foreign key|unique|index <name>` → PostgreSQL's definition, for one table (primary keys left out). */
async function definitions(qr: QueryRunner, schema: string, table: string): Promise<Map<string, string>> {
  const kinds: Record<string, string> = { c: 'check', f: 'foreign key', u: 'unique' };
  const constraints: { name: string; type: string; def: string }[] = await qr.query(
    `SELECT c.conname AS name, c.contype AS type, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = $2 AND c.contype IN ('c', 'f', 'u')`,
    [schema, table],
  );
  // Indexes that back no constraint (unique and primary keys are compared as constraints, or not at all).
  const indexes: { name: string; def: string }[] = await qr.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = $2
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conrelid = t.oid AND c.conindid = i.oid AND c.contype IN ('p', 'u', 'x'))`,
    [schema, table],
  );
  const defs = new Map<string, string>();
  for (const c of constraints) defs.set(`${kinds[c.type]} ${c.name}`, c.def);
  for (const i of indexes) defs.set(`index ${i.name}`, i.def.replace(/ ON \S+\.\S+ USING /, ' USING '));
  return defs;
}

function compare(m: EntityMetadata, declared: Map<string, string>, actual: Map<string, string>): string[] {
  const problems: string[] = [];
  const entity = `${m.targetName} (${m.tableName})`;
  for (const [key, def] of actual) {
    const mine = declared.get(key);
    if (mine === undefined) problems.push(`${entity}: ${key} is in the database but not declared by the entity: ${def}`);
    else if (!mine.startsWith('(not synchronized') && mine !== def) problems.push(`${entity}: ${key} differs:\n      database: ${def}\n      entity:   ${mine}`);
  }
  for (const [key, def] of declared) {
    if (!actual.has(key)) problems.push(`${entity}: ${key} is declared by the entity but not in the database: ${def}`);
  }
  return problems;
}
