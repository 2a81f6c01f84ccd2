import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS } from '../../migrations';

/**
 * The migrated template database that every PostgreSQL test app clones (`CREATE DATABASE … TEMPLATE …`).
 * Built once per jest run by `global-setup.ts`, which passes its name to the workers in
 * TEMPLATE_DATABASE_ENV. Without that variable (PostgreSQL down at setup, TEST_DB=embedded, or jest
 * run without the global setup) a test app migrates its own database as before.
 */

/** The admin connection: creates and drops the test databases and the template. */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Set by the global setup for the workers. */
export const TEMPLATE_DATABASE_ENV = 'HAULOPS_TEST_TEMPLATE_DATABASE';

export const TEMPLATE_PREFIX = 'haulops_template_';
export const TEST_DATABASE_PREFIX = 'haulops_test_';

/**
 * Advisory lock keys (two-int form, first int = this namespace). BUILD (exclusive) serialises building
 * and cleaning up templates between concurrent runs on one server; USE(name) is held shared by every
 * run for the template it clones, so a template is dropped only when no run holds it.
 */
export const LOCK_NAMESPACE = 0x4a0105; // arbitrary, "haulops"
export const BUILD_LOCK = 1;

const MIGRATIONS_DIR = join(__dirname, '..', '..', 'migrations');

/**
 * A hash of the migration set: each class's name and source, in order, and every file of the migrations
 * folder whole (SQL kept in a constant beside a class is part of its migration too). Any change builds a
 * new template.
 */
export function migrationsHash(): string {
  const h = createHash('sha256');
  for (const m of MIGRATIONS) h.update(m.name).update('\0').update(String(m)).update('\0');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) h.update(f).update('\0').update(readFileSync(join(MIGRATIONS_DIR, f))).update('\0');
  return h.digest('hex').slice(0, 16);
}

export const templateDatabaseName = () => TEMPLATE_PREFIX + migrationsHash();

/**
 * A test database's URL. Its sessions commit without waiting for the WAL flush (`synchronous_commit=off`,
 * a startup option): a test never survives a crash of PostgreSQL itself (the crash tests kill the app),
 * and the suite's thousands of commits stop queueing behind the disk.
 */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = '/' + name;
  url.searchParams.set('options', '-c synchronous_commit=off');
  return url.toString();
}

/** A unique name for a test database; its creation time (ms) lets the global setup drop leaked ones. */
export const newTestDatabaseName = () => `${TEST_DATABASE_PREFIX}${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;

/** PostgreSQL identifiers used here are generated ([a-z0-9_]); quoted anyway. */
export const ident = (name: string) => '"' + name.replace(/"/g, '""') + '"';

export async function adminClient(timeoutMs = 2000): Promise<Client> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
  return c;
}

/**
 * Creates an empty test database: a clone of the template when the global setup built one (the app's
 * start-up migration run then finds nothing pending), else an empty database the app migrates.
 * Cloning needs no connection to the template, and this opens none.
 */
export async function createTestDatabase(name: string): Promise<void> {
  const template = process.env[TEMPLATE_DATABASE_ENV];
  const c = await adminClient(10_000);
  try {
    if (template) {
      try {
        await c.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(template)}`);
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== '3D000') throw e; // template gone (dropped by hand): migrate instead
      }
    }
    await c.query(`CREATE DATABASE ${ident(name)}`);
  } finally {
    await c.end();
  }
}
