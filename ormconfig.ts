import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { moduleEntities } from './src/app.entities';
import { loadConfig } from './src/config/app-config';
import { databaseTarget, dataSourceOf } from './src/database/data-source-options';

/**
 * The TypeORM CLI's DataSource (`npm run migration:run`, `migration:revert`): DATABASE_URL when set,
 * else the embedded database in DATA_DIR, opened as the server would open it: its folder locked first
 * (docs/embedded-database.md). While a server (or anything else) holds the folder, the CLI is refused
 * with `DATA_DIR … is in use by process N …; stop it first` and touches nothing. The CLI awaits an
 * exported promise; destroying the DataSource (the CLI does when done) closes the embedded database and
 * releases the lock (so does the process's exit).
 */
// Migrations run without the request time limits (docs/time-limits.md): a backfill may take minutes.
const config = loadConfig({ ...process.env, DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_LOCK_TIMEOUT_MS: '0', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' });
const dataSource: Promise<DataSource> = databaseTarget(config, { opener: 'migration CLI', entities: moduleEntities() }).then(async (target) => {
  await target.embedded?.waitReady; // the engine's start-up is not a wait for a pooled connection
  return dataSourceOf(target);
});
// Handled here too, so that a refusal is the CLI's error (printed, exit 1), not an unhandled rejection first.
dataSource.catch(() => undefined);
export default dataSource;
