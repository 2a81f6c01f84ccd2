import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ConfigError, loadConfig } from '../config/app-config';
import { acquireDataFolderLock, DataFolderLockError, EXIT_DATA_FOLDER_IN_USE } from './data-folder-lock';

/**
 * `npm run db:check` (docs/operations.md, "Checking a database"): verifies a database, PostgreSQL
 * (DATABASE_URL) or embedded (DATA_DIR/pgdata, through the data folder's lock: refused while a server
 * holds it), and says what it found:
 * - every b-tree index with `amcheck`: its structure, and every heap row present in it (`heapallindexed`);
 * - every foreign key: no row names a parent that does not exist;
 * - every unique key: no two rows share a value;
 * - every check constraint and NOT NULL column: no row breaks it.
 * On PostgreSQL it only takes the locks a reading query takes (`bt_index_check`), so it may run beside
 * the servers; on the embedded database nothing else can run (the lock), and the stricter
 * `bt_index_parent_check` is used. Exit 0 when clean, 1 with findings, 75 when the folder is in use, 78 for
 * a configuration error.
 */

/** The minimal SQL surface the checks need: PostgreSQL's client or the embedded engine. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface CheckReport {
  checked: { indexes: number; foreign_keys: number; unique_keys: number; checks: number; not_null_columns: number };
  findings: string[];
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`;
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * `amcheck` on every valid b-tree index. `parent`: `bt_index_parent_check` (also parent/child invariants;
 * takes a ShareLock, so only where nothing else runs); else `bt_index_check` (an AccessShareLock).
 */
export async function amcheckFindings(sql: Sql, parent = true): Promise<{ indexes: number; findings: string[] }> {
  await sql.query('CREATE EXTENSION IF NOT EXISTS amcheck');
  const indexes = await sql.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE am.amname = 'btree' AND ${USER_SCHEMAS} AND i.indisvalid AND c.relpersistence <> 't' ORDER BY 1`,
  );
  const findings: string[] = [];
  for (const { name } of indexes) {
    try {
      await sql.query(`SELECT ${parent ? 'bt_index_parent_check' : 'bt_index_check'}($1::regclass, true)`, [name]);
    } catch (e) {
      findings.push(`index ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { indexes: indexes.length, findings };
}

interface ConstraintRow {
  name: string;
  kind: 'f' | 'u' | 'p' | 'c';
  tbl: string;
  cols: string[];
  ref_tbl: string | null;
  ref_cols: string[] | null;
  def: string;
}

/** Foreign keys, unique keys (and primary keys), check constraints and NOT NULL columns, each re-checked by a query over the rows. */
export async function constraintFindings(sql: Sql): Promise<{ foreign_keys: number; unique_keys: number; checks: number; not_null_columns: number; findings: string[] }> {
  const constraints = await sql.query<ConstraintRow>(
    `SELECT con.conname AS name, con.contype AS kind, con.conrelid::regclass::text AS tbl,
            ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,
            con.confrelid::regclass::text AS ref_tbl,
            ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.o) AS ref_cols,
            pg_get_constraintdef(con.oid) AS def
       FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace
      WHERE con.contype IN ('f', 'u', 'p', 'c') AND con.conrelid <> 0 AND ${USER_SCHEMAS}
      ORDER BY tbl, name`,
  );
  // Unique indexes that are not constraints (CREATE UNIQUE INDEX), partial ones with their predicate.
  const uniqueIndexes = await sql.query<{ name: string; tbl: string; cols: string[]; predicate: string | null }>(
    `SELECT c.relname AS name, i.indrelid::regclass::text AS tbl,
            ARRAY(SELECT pg_get_indexdef(i.indexrelid, k + 1, true) FROM generate_subscripts(i.indkey, 1) k ORDER BY k) AS cols,
            pg_get_expr(i.indpred, i.indrelid) AS predicate
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid) AND ${USER_SCHEMAS}
      ORDER BY tbl, name`,
  );
  const notNull = await sql.query<{ tbl: string; cols: string[] }>(
    `SELECT c.oid::regclass::text AS tbl, array_agg(a.attname::text ORDER BY a.attnum) AS cols
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull AND ${USER_SCHEMAS}
      GROUP BY c.oid ORDER BY 1`,
  );
  const findings: string[] = [];
  const count = async (what: string, text: string) => {
    const [{ n }] = await sql.query<{ n: number }>(text);
    if (Number(n) > 0) findings.push(`${what}: ${n} row${Number(n) === 1 ? '' : 's'}`);
  };
  for (const c of constraints) {
    const cols = c.cols.map(q);
    if (c.kind === 'f') {
      const join = c.cols.map((col, i) => `p.${q(c.ref_cols![i])} = t.${q(col)}`).join(' AND ');
      await count(
        `foreign key ${c.name} on ${c.tbl} (${c.def})`,
        `SELECT count(*)::int AS n FROM ${c.tbl} t WHERE ${cols.map((col) => `t.${col} IS NOT NULL`).join(' AND ')} AND NOT EXISTS (SELECT 1 FROM ${c.ref_tbl} p WHERE ${join})`,
      );
    } else if (c.kind === 'u' || c.kind === 'p') {
      await count(
        `${c.kind === 'p' ? 'primary' : 'unique'} key ${c.name} on ${c.tbl} (${cols.join(', ')}) repeated`,
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${c.tbl} WHERE ${cols.map((col) => `${col} IS NOT NULL`).join(' AND ')} GROUP BY ${cols.join(', ')} HAVING count(*) > 1) d`,
      );
    } else {
      const expr = /^CHECK \((.*)\)( NOT VALID)?$/s.exec(c.def)?.[1];
      if (expr) await count(`check ${c.name} on ${c.tbl} (${c.def})`, `SELECT count(*)::int AS n FROM ${c.tbl} WHERE NOT (${expr})`);
    }
  }
  for (const u of uniqueIndexes) {
    await count(
      `unique index ${u.name} on ${u.tbl} (${u.cols.join(', ')}) repeated`,
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${u.tbl} WHERE ${u.cols.map((col) => `(${col}) IS NOT NULL`).join(' AND ')}${u.predicate ? ` AND (${u.predicate})` : ''} GROUP BY ${u.cols.map((col) => `(${col})`).join(', ')} HAVING count(*) > 1) d`,
    );
  }
  for (const t of notNull) {
    await count(`NOT NULL columns of ${t.tbl} (${t.cols.join(', ')}) empty`, `SELECT count(*)::int AS n FROM ${t.tbl} WHERE ${t.cols.map((col) => `${q(col)} IS NULL`).join(' OR ')}`);
  }
  return {
    foreign_keys: constraints.filter((c) => c.kind === 'f').length,
    unique_keys: constraints.filter((c) => c.kind === 'u' || c.kind === 'p').length + uniqueIndexes.length,
    checks: constraints.filter((c) => c.kind === 'c').length,
    not_null_columns: notNull.reduce((s, t) => s + t.cols.length, 0),
    findings,
  };
}

/** Every check on one database. `exclusive`: nothing else uses it (the embedded folder under its lock). */
export async function checkDatabase(sql: Sql, exclusive: boolean): Promise<CheckReport> {
  const indexes = await amcheckFindings(sql, exclusive);
  const { findings, ...checked } = await constraintFindings(sql);
  return { checked: { indexes: indexes.indexes, ...checked }, findings: [...indexes.findings, ...findings] };
}

/** PostgreSQL at `url`. */
export async function openPostgres(url: string): Promise<Sql> {
  const c = new Client({ connectionString: url, application_name: 'haulops db:check' });
  await c.connect();
  return { query: async (text, params) => (await c.query(text, params as unknown[])).rows, close: () => c.end() };
}

/** The embedded folder, under its lock (refused with DataFolderLockError while another process holds it), with amcheck loaded. */
export async function openEmbedded(folder: string, opener = 'db:check', waitMs = 0): Promise<Sql> {
  const lock = await acquireDataFolderLock(folder, { opener, waitMs });
  try {
    const db = new PGlite(folder, { extensions: { amcheck } });
    await db.waitReady;
    return {
      query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params)).rows,
      close: async () => {
        try {
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function main(): Promise<number> {
  let config;
  try {
    // No secret is generated for this: the check signs nothing.
    config = loadConfig({ JWT_SECRET: 'db-check-signs-nothing-'.padEnd(40, 'x'), ...process.env });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 78;
    }
    throw e;
  }
  const folder = config.embeddedPath ?? join(config.dataDir, 'pgdata');
  const where = config.databaseUrl ? `PostgreSQL ${new URL(config.databaseUrl).pathname.slice(1)}` : `embedded database ${folder}`;
  if (!config.databaseUrl && !existsSync(join(folder, 'PG_VERSION'))) {
    process.stderr.write(`${where}: there is no database in this folder (set DATA_DIR, or DATABASE_URL for PostgreSQL)\n`);
    return 1;
  }
  let sql: Sql;
  try {
    sql = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openEmbedded(folder);
  } catch (e) {
    if (e instanceof DataFolderLockError) {
      process.stderr.write(`${e.message}\n`);
      return EXIT_DATA_FOLDER_IN_USE;
    }
    throw e;
  }
  try {
    const started = Date.now();
    const report = await checkDatabase(sql, !config.databaseUrl);
    const c = report.checked;
    const summary = `${c.indexes} indexes (amcheck), ${c.foreign_keys} foreign keys, ${c.unique_keys} unique keys, ${c.checks} checks, ${c.not_null_columns} NOT NULL columns in ${Date.now() - started} ms`;
    if (!report.findings.length) {
      process.stdout.write(`${where}: clean. Checked ${summary}.\n`);
      return 0;
    }
    process.stdout.write(`${where}: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}. Checked ${summary}.\n`);
    for (const f of report.findings) process.stdout.write(`- ${f}\n`);
    return 1;
  } finally {
    await sql.close();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`db:check failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
