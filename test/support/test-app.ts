import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { OpenAPIObject } from '@nestjs/swagger';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { loopbackConnector, stubResolver } from './outbound-stubs';
import { prebuiltOpenApiDocument, reportValidationStats, validatedHttp } from './openapi-validator';
import { ADMIN_DATABASE_URL, createTestDatabase, databaseUrl, newTestDatabaseName } from './template-db';

/**
 * Which database the e2e tests use: TEST_DB=postgres (default when the server answers) or
 * TEST_DB=embedded. Every test app gets a fresh database: a new PostgreSQL database, cloned from the
 * migrated template built by the global setup (test/support/global-setup.ts) and dropped afterwards,
 * or an in-memory PGlite.
 */
export { ADMIN_DATABASE_URL };

let postgresAvailable: boolean | undefined;
export async function testDatabaseKind(): Promise<'postgres' | 'embedded'> {
  const wanted = process.env.TEST_DB;
  if (wanted === 'embedded') return 'embedded';
  if (postgresAvailable === undefined) {
    const c = new Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      postgresAvailable = true;
    } catch {
      postgresAvailable = false;
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  if (!postgresAvailable && wanted === 'postgres') throw new Error(`TEST_DB=postgres but ${ADMIN_DATABASE_URL} does not answer`);
  return postgresAvailable ? 'postgres' : 'embedded';
}

async function adminQuery(sql: string): Promise<void> {
  const c = new Client({ connectionString: ADMIN_DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  ds: DataSource;
  db: 'postgres' | 'embedded';
  /** supertest against the app; each request comes from its own client address unless `ip` is given. */
  http: ReturnType<typeof request>;
  req(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, opts?: { token?: string; body?: unknown; ip?: string; headers?: Record<string, string> }): request.Test;
  close(): Promise<void>;
}

/**
 * The database time limits of the test apps (docs/time-limits.md): wider than production's, because the tests'
 * bursts (50 concurrent placements of one company serialise on its numbering lock) run on a shared, loaded
 * machine where a production-sized limit would turn a slow wait into 503. test/database/time-limits.e2e.spec.ts
 * tests the limits themselves with its own values.
 */
const TEST_TIME_LIMITS = { DATABASE_ACQUIRE_TIMEOUT_MS: '60000', DATABASE_STATEMENT_TIMEOUT_MS: '60000', DATABASE_LOCK_TIMEOUT_MS: '45000', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000' };

let ipCounter = 0;
/** A distinct client address per call, so that tests not about the throttle never hit it. */
export const freshIp = () => {
  ipCounter++;
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/**
 * The app serves the OpenAPI document the global setup built for the run (when it adds no `modules`),
 * unless `buildOpenApiDocument` asks it to build its own (as the server does).
 * `databaseUrl`: run over an existing PostgreSQL database (another test app's `config.databaseUrl`),
 * which is then neither created nor dropped here. The outbox relay's background polling is off unless
 * `env` sets `OUTBOX_RELAY_ENABLED=true` (tests drive it with `app.get(OutboxRelay).runOnce()`); so are the
 * scheduled jobs (`SCHEDULER_ENABLED=false`: tests call the jobs' service methods with a chosen `now`).
 * Outbound HTTP to user-supplied URLs may reach loopback over http (`OUTBOUND_ALLOW_HTTP`, `OUTBOUND_ALLOW_LOOPBACK`;
 * set them to 'false' to test the production policy) through a table resolver and a loopback-only connector.
 */
export async function startTestApp(
  options: { env?: Record<string, string>; modules?: Type[]; db?: 'postgres' | 'embedded'; databaseUrl?: string; configure?: (c: AppConfig) => void; buildOpenApiDocument?: boolean } = {},
): Promise<TestApp> {
  const db = options.db ?? (await testDatabaseKind());
  const dataDir = mkdtempSync(join(tmpdir(), 'haulops-test-'));
  let dbName: string | undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: 'true', JWT_SECRET: 'test-secret-'.padEnd(48, 'x'), OUTBOX_RELAY_ENABLED: 'false', SCHEDULER_ENABLED: 'false', PASSWORD_HASH_COST: '10', OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_LOOPBACK: 'true', ...TEST_TIME_LIMITS, ...options.env };
  if (db === 'postgres' && options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl;
  } else if (db === 'postgres') {
    dbName = newTestDatabaseName();
    await createTestDatabase(dbName);
    env.DATABASE_URL = databaseUrl(dbName);
  }
  const config = loadConfig(env);
  if (db === 'embedded') config.embeddedPath = 'memory://';
  options.configure?.(config);
  // Outbound HTTP (user-supplied URLs): no DNS query ever leaves the test (a table resolver: `localhost` only,
  // unless the test gives its own) and no connection but to loopback (the OUTBOUND_ALLOW_* defaults above let tests' endpoints
  // point at listeners on 127.0.0.1).
  config.outboundResolver ??= stubResolver({ localhost: ['127.0.0.1'] });
  config.outboundConnector ??= loopbackConnector();
  const modules = options.modules ?? [];
  const openApiDocument = modules.length || options.buildOpenApiDocument ? undefined : (prebuiltOpenApiDocument() as OpenAPIObject | undefined);
  const app = await createApp(config, modules, { openApiDocument });
  await app.init();
  // Every response is checked against the served OpenAPI document (test/support/openapi-validator.ts).
  const http = await validatedHttp(request(app.getHttpServer()));
  const ds = app.get(DataSource);
  return {
    app,
    config,
    ds,
    db,
    http,
    req(method, path, opts = {}) {
      let r = http[method](path).set('X-Forwarded-For', opts.ip ?? freshIp());
      if (opts.token) r = r.set('Authorization', `Bearer ${opts.token}`);
      for (const [k, v] of Object.entries(opts.headers ?? {})) r = r.set(k, v);
      if (opts.body !== undefined) r = r.send(opts.body as object);
      return r;
    },
    async close() {
      await app.close();
      reportValidationStats();
      // Dropped behind the next test file rather than before it (a drop takes 0.5–4 s on a busy server):
      // the database is this app's alone and closed. One the worker's exit cuts short is a leak the next
      // run's global setup drops (test/support/global-setup.ts).
      if (dbName) void adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
