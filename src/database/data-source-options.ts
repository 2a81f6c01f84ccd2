import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, DataSourceOptions, LoggerOptions } from 'typeorm';
import { appLogger } from '../common/logger';
import { PinoTypeOrmLogger } from './typeorm-logger';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { acquireDataFolderLock, DataFolderLock } from './data-folder-lock';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DatabaseTarget {
  options: DataSourceOptions;
  /** The embedded database, when there is no DATABASE_URL; closed after the pool. */
  embedded?: PGlite;
  /** The lock on the embedded data folder, taken before PGlite opened it; released once PGlite has closed. */
  lock?: DataFolderLock;
}

export interface TargetOptions {
  /** Named in the lock's holder file and in the message a refused opener gets (default: the script's name). */
  opener?: string;
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
export async function databaseTarget(config: AppConfig, targetOptions: TargetOptions = {}): Promise<DatabaseTarget> {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
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
    return { options: { ...common, url: config.databaseUrl, extra: { max: 10 } } as DataSourceOptions };
  }
  const path = config.embeddedPath ?? join(config.dataDir, 'pgdata');
  let lock: DataFolderLock | undefined;
  if (!path.startsWith('memory://')) {
    const logger = appLogger(config);
    lock = await acquireDataFolderLock(path, {
      waitMs: config.dataDirLockWaitMs,
      opener: targetOptions.opener,
      onWait: (h, reason) =>
        reason === 'closing'
          ? logger.warn({ msg: 'data folder in use by a process that is closing; waiting', folder: path, holder_pid: h.pid, since: h.since, wait_ms: config.dataDirLockWaitMs })
          : logger.warn({ msg: 'data folder held by a process on another host; watching its heartbeat', folder: path, holder_pid: h.pid, holder_host: h.hostname, since: h.since }),
      onTakeover: (h, why) => logger.warn({ msg: 'data folder lock taken over from a process that is gone', folder: path, holder_pid: h?.pid, since: h?.since, why }),
      onLost: (found) => logger.error({ msg: 'data folder lock lost: its lock directory no longer names this process', folder: path, found_pid: found?.pid }),
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
    lock,
    options: {
      ...common,
      host: pg.host,
      port: pg.port,
      username: pg.user,
      password: pg.password,
      database: pg.database,
      extra: { connection: pg.connection, max: 1, idleTimeoutMillis: 0 },
    } as DataSourceOptions,
  };
}

/** Closes the embedded database (if any), then releases its folder's lock, whatever happened. */
export async function closeEmbedded(target: DatabaseTarget): Promise<void> {
  try {
    if (target.embedded && !target.embedded.closed) await target.embedded.close();
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
  await ds.initialize();
  if (runMigrations) await ds.runMigrations({ transaction: 'each' });
  return ds;
}
