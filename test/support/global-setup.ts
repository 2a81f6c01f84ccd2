import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { previewOpenApiDocument } from '../../src/app.setup';
import { OPENAPI_DOCUMENT_ENV } from './openapi-validator';
import { loadConfig } from '../../src/config/app-config';
import { moduleEntities } from '../../src/app.entities';
import { databaseTarget, openDataSource } from '../../src/database/data-source-options';
import { adminClient, BUILD_LOCK, databaseUrl, ident, LOCK_NAMESPACE, TEMPLATE_DATABASE_ENV, TEMPLATE_PREFIX, TEST_DATABASE_PREFIX, templateDatabaseName } from './template-db';

/**
 * jest globalSetup: once per run, makes sure the migrated template database of the current migration
 * set exists (`haulops_template_<hash>`, built here with the app's own migration runner) and hands its
 * name to the workers (TEMPLATE_DATABASE_ENV); `startTestApp` clones it for each PostgreSQL test app.
 *
 * Concurrent runs on one server: building and cleaning up happen under an exclusive advisory lock
 * (BUILD); a template is built under a temporary name, marked as a template and renamed, so its final
 * name only ever names a complete one. Each run holds a shared advisory lock on its template until
 * globalTeardown (or until its process dies), and old templates are dropped only when that lock is
 * free. Also drops `haulops_test_*` databases leaked by crashed runs, alongside the tests (globalTeardown
 * waits for it). Cleanup never fails the run.
 *
 * Without PostgreSQL (or with TEST_DB=embedded) it does nothing: the tests use the embedded database.
 */

/** Test databases older than this, with no connection, are leaks of crashed runs. */
const LEAKED_AFTER_MS = 60 * 60 * 1000;

declare global {
  // The admin connection that holds this run's shared lock on its template; closed by globalTeardown.
  var __haulopsTemplateLock: Client | undefined;
  // The cleanup of leaked test databases, which runs alongside the tests; awaited by globalTeardown.
  var __haulopsCleanup: Promise<void> | undefined;
  // The folder of the prebuilt OpenAPI document; removed by globalTeardown.
  var __haulopsOpenApiDir: string | undefined;
}

export default async function globalSetup(): Promise<void> {
  await prebuildOpenApiDocument();
  if (process.env.TEST_DB === 'embedded') return;
  let admin: Client;
  try {
    admin = await adminClient();
  } catch {
    return; // PostgreSQL does not answer: embedded database (TEST_DB=postgres fails in startTestApp as before)
  }
  admin.on('error', () => undefined); // a dropped idle connection only loses the lock; never crash the run
  const name = templateDatabaseName();
  try {
    await admin.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, BUILD_LOCK]);
    try {
      const started = Date.now();
      if (await ensureTemplate(admin, name)) process.stderr.write(`\ntest template database ${name} built in ${Date.now() - started} ms\n`);
      await admin.query('SELECT pg_advisory_lock_shared($1, hashtext($2))', [LOCK_NAMESPACE, name]);
      await bestEffort('old templates', () => dropUnusedTemplates(admin, name));
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, BUILD_LOCK]);
    }
  } catch (e) {
    await admin.end().catch(() => undefined);
    throw e;
  }
  globalThis.__haulopsTemplateLock = admin;
  // Dropping dozens of databases takes a while: not worth delaying the tests for.
  globalThis.__haulopsCleanup = bestEffort('leaked test databases', () => dropLeakedTestDatabases(admin));
  process.env[TEMPLATE_DATABASE_ENV] = name; // inherited by the workers
}

/** Builds the template unless it exists; true when built. Runs under the BUILD lock. */
async function ensureTemplate(admin: Client, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
  if (rows[0]?.datistemplate) return false;
  if (rows.length) await dropDatabase(admin, name, true); // not marked as a template: not a finished build
  const building = `${name}_building`;
  await dropDatabase(admin, building, true); // left by a build that died (nobody else builds: we hold the lock)
  await admin.query(`CREATE DATABASE ${ident(building)}`);
  try {
    const config = loadConfig({ DATABASE_URL: databaseUrl(building), JWT_SECRET: 'template-build-'.padEnd(48, 'x'), LOG_LEVEL: 'error' });
    const ds = await openDataSource(await databaseTarget(config, { entities: moduleEntities() }));
    await ds.destroy();
    // No connections allowed: a stray session on the template would make every clone fail.
    await admin.query(`ALTER DATABASE ${ident(building)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    await admin.query(`ALTER DATABASE ${ident(building)} RENAME TO ${ident(name)}`);
  } catch (e) {
    await dropDatabase(admin, building, true).catch(() => undefined);
    throw e;
  }
  return true;
}

/** Other templates (other migration sets) that no run holds, and builds that died. Runs under the BUILD lock. */
async function dropUnusedTemplates(admin: Client, keep: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2`, [TEMPLATE_PREFIX, keep]);
  for (const { datname } of rows) {
    await bestEffort(datname, async () => {
      if (datname.endsWith('_building')) return dropDatabase(admin, datname, true);
      const { rows: got } = await admin.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LOCK_NAMESPACE, datname]);
      if (!got[0].ok) return; // a running jest run clones it
      try {
        await dropDatabase(admin, datname, false);
      } finally {
        await admin.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, datname]);
      }
    });
  }
}

/** `haulops_test_<pid>_<ms>_<n>` databases created over LEAKED_AFTER_MS ago that nobody is connected to. */
async function dropLeakedTestDatabases(admin: Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT d.datname FROM pg_database d
      WHERE starts_with(d.datname, $1) AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
    [TEST_DATABASE_PREFIX],
  );
  const cutoff = Date.now() - LEAKED_AFTER_MS;
  for (const { datname } of rows) {
    const createdAt = Number(/^haulops_test_\d+_(\d+)_\d+$/.exec(datname)?.[1]);
    if (!(createdAt < cutoff)) continue;
    await bestEffort(datname, () => dropDatabase(admin, datname, false));
  }
}

async function dropDatabase(admin: Client, name: string, force: boolean): Promise<void> {
  const { rows } = await admin.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
  if (!rows.length) return;
  if (rows[0].datistemplate) await admin.query(`ALTER DATABASE ${ident(name)} WITH IS_TEMPLATE false`);
  await admin.query(`DROP DATABASE IF EXISTS ${ident(name)}${force ? ' WITH (FORCE)' : ''}`);
}

async function bestEffort(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    process.stderr.write(`test database cleanup (${what}) skipped: ${(e as Error).message}\n`);
  }
}

/**
 * Builds the OpenAPI document of the app's routes once for the run (building it is most of a test app's
 * start) and hands its file to the workers (OPENAPI_DOCUMENT_ENV); `startTestApp` serves it instead of
 * building it again. test/common/http/conventions.e2e.spec.ts checks that it equals the one an app builds.
 */
async function prebuildOpenApiDocument(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'haulops-openapi-'));
  globalThis.__haulopsOpenApiDir = dir;
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(await previewOpenApiDocument(dir)));
  rmSync(join(dir, 'outbox'), { recursive: true, force: true });
  process.env[OPENAPI_DOCUMENT_ENV] = file;
}
