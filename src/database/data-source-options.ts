import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from 'pino';
import { DataSource, DataSourceOptions, LoggerOptions, MigrationExecutor, QueryRunner } from 'typeorm';
import { appLogger } from '../common/logger';
import { PinoTypeOrmLogger } from './typeorm-logger';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { COMMON_ENTITIES } from './entities';
import { acquireDataFolderLock, DataFolderLock } from './data-folder-lock';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DatabaseTarget {
  options: DataSourceOptions;
  /** The embedded database, when there is no DATABASE_URL; closed after the pool. */
  embedded?: PGlite;
  /** Where the migrations say what they did and whom they waited for. */
  logger: Logger;
  /** The lock on the embedded data folder, taken before PGlite opened it; released once PGlite has closed. */
  lock?: DataFolderLock;
}

export interface TargetOptions {
  /** Named in the lock's holder file and in the message a refused opener gets (default: the script's name). */
  opener?: string;
  /**
   * The modules' entities, added to common's own (src/database imports no module): every caller passes
   * `moduleEntities()` (src/app.entities.ts). Required: common's entities alone do not build (their
   * foreign keys name the modules' tables).
   */
  entities: Function[];
}

/**
 * PostgreSQL through `pg` when DATABASE_URL is set; otherwise embedded PGlite persisted in
 * DATA_DIR/pgdata (or `config.embeddedPath`), reached through PGlite's own node-postgres adapter
 * with a pool of exactly one connection: PGlite is single-session, and one connection keeps
 * transactions and `FOR UPDATE` locks correct (see test/embedded-concurrency.e2e-spec.ts).
 *
 * With one connection, code inside a transaction must use that transaction's EntityManager only;
 * a query through the DataSource would wait for the connection the transaction holds.
 *
 * The embedded folder is locked first (src/database/data-folder-lock.ts; docs/embedded-database.md): one
 * process per folder. Held by another live process: `DataFolderLockError` (waits up to
 * `config.dataDirLockWaitMs` for one that is closing), before PGlite touches anything.
 */
export async function databaseTarget(config: AppConfig, targetOptions: TargetOptions): Promise<DatabaseTarget> {
  const logger = appLogger(config).child({ context: 'Migrations' });
  const common = {
    type: 'postgres' as const,
    entities: [...COMMON_ENTITIES, ...targetOptions.entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    installExtensions: false,
    // Through pino (src/database/typeorm-logger.ts): statements at debug; failed and slow (over 1 s) ones always.
    logging: ['query', 'error', 'warn', 'migration'] as LoggerOptions,
    logger: new PinoTypeOrmLogger(appLogger(config)),
    maxQueryExecutionTime: 1000,
  };
  if (config.databaseUrl) {
    // node-postgres sends the three timeouts as startup parameters: every pooled session has them (RESET returns to them).
    const extra = {
      max: config.databasePoolSize,
      connectionTimeoutMillis: config.databaseAcquireTimeoutMs,
      statement_timeout: config.databaseStatementTimeoutMs,
      lock_timeout: config.databaseLockTimeoutMs,
      idle_in_transaction_session_timeout: config.databaseIdleInTransactionTimeoutMs,
    };
    return { logger, options: { ...common, url: config.databaseUrl, extra } as DataSourceOptions };
  }
  const path = config.embeddedPath ?? join(config.dataDir, 'pgdata');
  let lock: DataFolderLock | undefined;
  if (!path.startsWith('memory://')) {
    const log = appLogger(config);
    lock = await acquireDataFolderLock(path, {
      waitMs: config.dataDirLockWaitMs,
      opener: targetOptions.opener,
      onWait: (h, reason) =>
        reason === 'closing'
          ? log.warn({ msg: 'data folder in use by a process that is closing; waiting', folder: path, holder_pid: h.pid, since: h.since, wait_ms: config.dataDirLockWaitMs })
          : log.warn({ msg: 'data folder held by a process on another host; watching its heartbeat', folder: path, holder_pid: h.pid, holder_host: h.hostname, since: h.since }),
      onTakeover: (h, why) => log.warn({ msg: 'data folder lock taken over from a process that is gone', folder: path, holder_pid: h?.pid, since: h?.since, why }),
      onLost: (found) => log.error({ msg: 'data folder lock lost: its lock directory no longer names this process', folder: path, found_pid: found?.pid }),
    });
    mkdirSync(path, { recursive: true });
  }
  // PGlite's defaults (shared_buffers 128 MB, maintenance_work_mem 64 MB) live in the process's own
  // WebAssembly memory, which never shrinks: smaller settings keep the embedded server's RSS in
  // bounds (measured on an existing data folder: 310 MB at start with the defaults, 175 MB with 16 MB buffers).
  let embedded: PGlite;
  try {
    embedded = new PGlite(path, { postgresqlconf: ['shared_buffers = 32MB', 'maintenance_work_mem = 16MB', 'temp_buffers = 4MB'] });
  } catch (e) {
    lock?.release();
    throw e;
  }
  const pg = createPgConfig(embedded);
  // PGlite runs each query on the main thread and answers at once: under load, queued queries would
  // run back to back and the server would stop accepting connections and reading signals. Handing
  // "ready for the next query" over through setImmediate lets pending I/O in between.
  const emit = pg.connection.emit.bind(pg.connection);
  pg.connection.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'readyForQuery') return emit(event, ...args);
    setImmediate(() => emit(event, ...args));
    return true;
  }) as typeof pg.connection.emit;
  return {
    embedded,
    logger,
    lock,
    options: {
      ...common,
      host: pg.host,
      port: pg.port,
      username: pg.user,
      password: pg.password,
      database: pg.database,
      // One session: a request waits for it at most DATABASE_ACQUIRE_TIMEOUT_MS (then 503 DATABASE_BUSY), never without end.
      extra: { connection: pg.connection, max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: config.databaseAcquireTimeoutMs },
    } as DataSourceOptions,
  };
}

/** Closes the embedded database (if any), then releases its folder's lock, whatever happened. */
export async function closeEmbedded(target: DatabaseTarget): Promise<void> {
  try {
    if (target.embedded && !target.embedded.closed) {
      await target.embedded.close();
      // Before the lock goes: a server waiting for the folder opens it only after this line.
      target.logger.info({ msg: 'embedded database closed; releasing its data folder' });
    }
  } finally {
    target.lock?.release();
  }
}

/** The DataSource of a target (not initialised); destroying it also closes the embedded database and releases its lock. */
export function dataSourceOf(target: DatabaseTarget): DataSource {
  const ds = new DataSource(target.options);
  const destroy = ds.destroy.bind(ds);
  ds.destroy = async () => {
    try {
      if (ds.isInitialized) await destroy();
    } finally {
      await closeEmbedded(target);
    }
  };
  return ds;
}

/** Builds, initialises and migrates the DataSource; destroying it also closes the embedded database. */
export async function openDataSource(target: DatabaseTarget, runMigrations = true): Promise<DataSource> {
  const ds = dataSourceOf(target);
  // The pool's first connect must not wait for the engine's start-up: DATABASE_ACQUIRE_TIMEOUT_MS would count it.
  await target.embedded?.waitReady;
  await ds.initialize();
  if (runMigrations) await migrate(ds, target.embedded ? undefined : target.logger);
  return ds;
}

/** The session advisory lock (two int keys: 'haul', 'migr') that serialises the migrations of instances starting together. */
const MIGRATION_LOCK = [0x68617531, 0x6d696772];

async function lockMigrations(runner: QueryRunner, logger: Logger): Promise<void> {
  const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1, $2) AS locked', MIGRATION_LOCK);
  if (locked) return;
  const started = Date.now();
  logger.info('another instance is running the migrations: waiting for it');
  await runner.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK);
  logger.info({ waited_ms: Date.now() - started }, 'the other instance finished its migrations');
}

/** Session limits a migration must not be held to: a backfill may run for minutes, and waits for the locks it needs. */
const MIGRATION_SESSION = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];

/**
 * Runs the pending migrations (each in its own transaction) on one session with the request time limits
 * off, then gives the session back with them as the pool set them (RESET returns to the startup values).
 */
export async function migrate(ds: DataSource, exclusive?: Logger): Promise<void> {
  const runner = ds.createQueryRunner();
  try {
    for (const name of MIGRATION_SESSION) await runner.query(`SET ${name} = 0`);
    // Many instances starting at once on one PostgreSQL: one migrates, the others wait here and then find nothing to do.
    if (exclusive) await lockMigrations(runner, exclusive);
    const executor = new MigrationExecutor(ds, runner);
    executor.transaction = 'each';
    const done = await executor.executePendingMigrations();
    if (exclusive) exclusive.info({ migrations_run: done.length }, done.length ? `ran ${done.length} migrations` : 'no migration to run');
  } finally {
    if (exclusive) await runner.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK).catch(() => undefined);
    try {
      for (const name of MIGRATION_SESSION) await runner.query(`RESET ${name}`);
    } finally {
      await runner.release();
    }
  }
}
