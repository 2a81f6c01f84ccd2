import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * Reads the source of src/ for the data-layer rules of issue #24 (docs/data-layer.md), file by file:
 *
 * - `transactions`: a transaction opened any other way than through the unit of work
 *   (`UnitOfWork#transaction`; `runUnit` in src/common and src/database, which hold a DataSource):
 *   `.transaction(` on a DataSource or manager, `createQueryRunner`, `startTransaction`, and in a
 *   module `runUnit(`/`unitManager(` (the function forms are for layer 0).
 * - `connections`: a module file other than a repository that names `DataSource` or `EntityManager`
 *   (injects the pool, or has a manager threaded through its calls).
 * - `sql`: a module file other than a repository that runs SQL (`.query(`, a query builder, a prepared
 *   statement, `findScoped`/`reachQuery` and other manager reads are counted under `connections`).
 * - `foreign`: the tables of another module that SQL text in the file names (after FROM, JOIN, INTO,
 *   UPDATE, TABLE, or as a query builder's table name), and the SQL fragments it takes from another
 *   module (`users:userNameSql`, `companies:CompanySummaries`: exported SQL text naming that module's tables), imported or
 *   called: a `…Sql(` method, static or function defined in another module (`jobs:unassignedExistsSql`,
 *   reached through its service or class). A module's tables are those its entities
 *   declare (`@Entity('name')` in its folder); src/common and src/database are module `common`.
 * - `companyId`: parameters typed `companyId: string` (the bare tenant id that a `Scope` replaces) in
 *   services and repositories (controllers' route parameters, entities' and DTOs' fields are not counted).
 * - `unscoped`: a repository's public methods that reach a tenant table (an entity with a `companyId`
 *   column, by its class or its table name in SQL) without a `Scope`, a `PlatformReach` or a
 *   `SystemReach` parameter: "a repository refuses a tenant table query without a scope".
 */
export interface FileDebt {
  transactions: number;
  connections: number;
  sql: number;
  foreign: string[];
  companyId: number;
  unscoped: number;
}

/**
 * Where transactions are opened by the mechanism itself: the unit of work; the interceptor that opens a
 * guarded request's unit (its runner claims the key, then `runInRequestUnit`); the migrations' session.
 */
const UNIT_FILES = ['/database/unit-of-work.ts', '/common/idempotency/idempotent.ts', '/database/data-source-options.ts'];

export const SRC = join(__dirname, '../../src');
const ROOT = join(__dirname, '../..');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The module a file belongs to: `orders` for src/modules/orders/…, `common` for src/common, src/database, src/config. */
export function moduleOf(file: string): string | null {
  const rel = relative(SRC, file).split('/');
  if (rel[0] === 'modules') return rel[1];
  if (rel[0] === 'common' || rel[0] === 'database' || rel[0] === 'config') return 'common';
  return null;
}

/** Strips block comments and whole-line `//` comments (text that names tables in prose is not SQL). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** Table → owning module, from the entities' `@Entity('table')` declarations. */
export function tableOwners(files: string[] = walk(SRC)): Map<string, string> {
  const owners = new Map<string, string>();
  for (const f of files) {
    const mod = moduleOf(f);
    if (!mod) continue;
    for (const m of readFileSync(f, 'utf8').matchAll(/@Entity\(\s*'([a-z_][a-z0-9_]*)'/g)) owners.set(m[1], mod);
  }
  return owners;
}

/** Each module's declared SQL functions (its `sql-api.ts`), by module folder name; every module is a key. */
export const SQL_APIS: Map<string, Set<string>> = new Map(
  readdirSync(join(SRC, 'modules')).map((m) => {
    const file = join(SRC, 'modules', m, 'sql-api.ts');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const api = existsSync(file) ? (require(file) as { SQL_API: Record<string, unknown> }).SQL_API : {};
    return [m, new Set(Object.keys(api))];
  }),
);

/** Tenant entities (a `companyId` property, declared or inherited from a class of src/): class names and tables. */
export function tenantEntities(files: string[] = walk(SRC)): { classes: Set<string>; tables: Set<string> } {
  const classes = new Map<string, { table: string | null; base: string | null; company: boolean }>();
  for (const f of files) {
    const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const st of sf.statements) {
      if (!ts.isClassDeclaration(st) || !st.name) continue;
      const decorators = ts.canHaveDecorators(st) ? (ts.getDecorators(st) ?? []) : [];
      const entity = decorators.map((d) => /^Entity\(\s*'([a-z_][a-z0-9_]*)'/.exec(d.expression.getText())).find(Boolean);
      const base = st.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText() ?? null;
      const company = st.members.some((m) => ts.isPropertyDeclaration(m) && m.name.getText() === 'companyId');
      classes.set(st.name.text, { table: entity ? entity[1] : null, base, company });
    }
  }
  const hasCompany = (name: string, seen = 0): boolean => {
    const c = classes.get(name);
    return !!c && (c.company || (!!c.base && seen < 5 && hasCompany(c.base, seen + 1)));
  };
  const out = { classes: new Set<string>(), tables: new Set<string>() };
  for (const [name, c] of classes) {
    if (c.table && hasCompany(name)) {
      out.classes.add(name);
      out.tables.add(c.table);
    }
  }
  return out;
}

/** A repository's public methods that reach a tenant table without a Scope, PlatformReach or SystemReach parameter. */
export function unscopedMethods(file: string, tenants: { classes: Set<string>; tables: Set<string> }): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const classRe = tenants.classes.size ? new RegExp(`\\b(?:${[...tenants.classes].join('|')})\\b`) : null;
  const tableRe = tenants.tables.size ? new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE)\\s+(?:ONLY\\s+)?"?(?:${[...tenants.tables].join('|')})\\b`, 'i') : null;
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isMethodDeclaration(n) && n.body) {
      const flags = ts.getCombinedModifierFlags(n);
      const isPublic = !(flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !n.name.getText().startsWith('#');
      if (isPublic) {
        const body = code(n.body.getText());
        const reaches = (classRe && classRe.test(body)) || (tableRe && tableRe.test(body));
        const scoped = n.parameters.some((p) => /\b(?:Scope|PlatformReach|SystemReach)\b/.test(p.type?.getText() ?? ''));
        if (reaches && !scoped) out.push(n.name.getText());
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * The SQL text builders of the modules: name → the modules that define a method, static, function or
 * constant of that name ending in `Sql` (`static unassignedExistsSql(…)`, `export const billedOnSql = …`; not a
 * property of an object literal, `unassignedExistsSql: () => …`, a stand-in for another module's).
 * Layer 0's (`GenerateSql`, `registerCallerSql`) are the mechanism, not a module's SQL.
 */
const SQL_BUILDER_DEFINITION = /^[ \t]*(?:export\s+)?(?:(?:public|private|protected|static|async|function|const|let|readonly)\s+)*([A-Za-z_$][\w$]*Sql)\s*[(<=]/gm;
export const SQL_BUILDERS: Map<string, Set<string>> = (() => {
  const out = new Map<string, Set<string>>();
  for (const f of walk(join(SRC, 'modules'))) {
    const mod = moduleOf(f)!;
    for (const m of code(readFileSync(f, 'utf8')).matchAll(SQL_BUILDER_DEFINITION)) {
      if (!out.has(m[1])) out.set(m[1], new Set());
      out.get(m[1])!.add(mod);
    }
  }
  return out;
})();

/** A call of a `…Sql(` builder: bare, or on a class, service or object (`JobsService.upcomingOfOrdersSql(`, `this.jobs.driverOnOrderSql(`). */
const SQL_BUILDER_CALL = /(?<![\w$])([A-Za-z_$][\w$]*Sql)\s*\(/g;

const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)"?/g;
const BUILDER_TABLE = /\.(?:from|innerJoin|leftJoin|innerJoinAndSelect|leftJoinAndSelect|into|update|delete|insert)\(\s*'([a-z_][a-z0-9_]*)'/g;

export function scanFile(file: string, owners: Map<string, string>, tenants: { classes: Set<string>; tables: Set<string> } = { classes: new Set(), tables: new Set() }): FileDebt {
  const mod = moduleOf(file);
  const text = code(readFileSync(file, 'utf8'));
  const isRepository = file.endsWith('.repository.ts');
  const layer0 = mod === 'common';
  const isUnit = UNIT_FILES.some((u) => file.endsWith(u));
  const count = (re: RegExp) => (text.match(re) ?? []).length;

  // A transaction is opened with a function: `.transaction(async (m) => …)`, `.transaction(work)` (not `ledger.transaction(scope, id)`, a read).
  const transactions = isUnit
    ? 0
    : count(/(?<!\buow)\.transaction\(\s*(?:async\b|\(|work\b|\w+\s*=>)|\bcreateQueryRunner\(|\bstartTransaction\(/g) + (layer0 ? 0 : count(/\b(?:runUnit|unitManager)\(/g));
  const connections = layer0 || isRepository ? 0 : count(/\b(?:DataSource|EntityManager)\b/g);
  const sql = layer0 || isRepository ? 0 : count(/\.query\s*[<(]|\bcreateQueryBuilder\(|\bprepared(?:Query|ByText)\s*[<(]/g);
  const foreign = new Set<string>();
  if (mod) {
    for (const re of [SQL_TABLE, BUILDER_TABLE]) {
      for (const m of text.matchAll(re)) {
        const owner = owners.get(m[1]);
        if (owner && owner !== mod) foreign.add(m[1]);
      }
    }
  }
  // Another module's SQL functions (`users_name(…)`): only those its owner declares in its `sql-api.ts` (src/database/sql-api.ts).
  if (mod && mod !== 'common') {
    for (const m of text.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*\(/g)) {
      const owner = [...SQL_APIS.keys()].find((o) => o !== mod && m[1].startsWith(`${o.replace(/-/g, '_')}_`));
      if (owner && !SQL_APIS.get(owner)!.has(m[1])) foreign.add(`${owner}:${m[1]}() (not in its sql-api.ts)`);
    }
  }
  // A `…Sql(` builder another module defines, called here (its SQL text names that module's tables in this file's statement).
  // Not a registration (`this.actors.registerCallerSql(…)`, `register…({ columns: () => this.users.profileColumnsSql('u') })`):
  // there a module hands SQL to layer 0's statement of the caller, it composes none of its own.
  if (mod) {
    for (const line of text.split('\n')) {
      for (const m of line.matchAll(SQL_BUILDER_CALL)) {
        const name = m[1];
        const definers = SQL_BUILDERS.get(name);
        if (!definers || definers.has(mod) || /^register/.test(name) || /\bregister\w*\s*\(/.test(line.slice(0, m.index))) continue;
        foreign.add(`${[...definers].sort()[0]}:${name}`);
      }
    }
  }
  // SQL text another module exports (`userNameSql(…)`, `CompanySummaries.sql`): it names that module's tables here.
  for (const imp of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'((?:\.\.\/)+)(?:modules\/)?([a-z-]+)(?:\/index)?'/g)) {
    const from = imp[3];
    if (!mod || from === mod || !imp[2]) continue;
    for (const raw of imp[1].split(',')) {
      const name = raw.trim().split(/\s+as\s+/).pop()!.replace(/^type\s+/, '');
      if (!name) continue;
      if (/(?:Sql|Matches|_SQL)$/.test(name) || new RegExp(`\\b${name}\\.sql\\b`).test(text)) foreign.add(`${from}:${name}`);
    }
  }
  // Parameters of services and repositories (a controller's route parameter, an entity's or a DTO's field is not one).
  const edge = /\.(?:controllers?|entity|entities|dto|types)\.ts$/.test(file);
  const companyId = layer0 || edge ? 0 : count(/\bcompanyId\??\s*:\s*string\b(?!\s*(?:\|\s*null\s*)?[;}])/g);
  const unscoped = isRepository ? unscopedMethods(file, tenants).length : 0;
  return { transactions, connections, sql, foreign: [...foreign].sort(), companyId, unscoped };
}

/** Every file of src/ with any debt, by path relative to the repository root. */
export function scanSource(): Record<string, FileDebt> {
  const files = walk(SRC).sort();
  const owners = tableOwners(files);
  const tenants = tenantEntities(files);
  const out: Record<string, FileDebt> = {};
  for (const f of files) {
    const d = scanFile(f, owners, tenants);
    if (d.transactions || d.connections || d.sql || d.foreign.length || d.companyId || d.unscoped) out[relative(ROOT, f)] = d;
  }
  return out;
}

export function totals(debt: Record<string, FileDebt>): { files: number; transactions: number; connections: number; sql: number; foreign: number; companyId: number; unscoped: number } {
  const v = Object.values(debt);
  const sum = (k: 'transactions' | 'connections' | 'sql' | 'companyId' | 'unscoped') => v.reduce((s, d) => s + (d[k] ?? 0), 0);
  return { files: v.length, transactions: sum('transactions'), connections: sum('connections'), sql: sum('sql'), foreign: v.reduce((s, d) => s + d.foreign.length, 0), companyId: sum('companyId'), unscoped: sum('unscoped') };
}
