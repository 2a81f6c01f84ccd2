import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.setup';
import { shutdownOnSignals } from './common/shutdown/graceful-shutdown';
import { ConfigError, loadConfig } from './config/app-config';
import { DataFolderLockError, EXIT_DATA_FOLDER_IN_USE } from './database/data-folder-lock';

async function bootstrap() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  let app;
  try {
    app = await createApp(config);
    await app.listen(config.port, '0.0.0.0');
  } catch (e) {
    if (e instanceof DataFolderLockError) {
      // Nothing of the folder was touched (the lock is taken before the embedded database opens it).
      process.stderr.write(`${e.message}\n`);
      process.exit(EXIT_DATA_FOLDER_IN_USE);
    }
    new Logger('Bootstrap').error({ msg: 'start failed', error: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  // SIGTERM/SIGINT: stop accepting, answer what was received, close kept-alive connections, stop the relay, close the database; exit within 10 s.
  shutdownOnSignals(app);
  new Logger('Bootstrap').log({
    msg: 'listening',
    port: config.port,
    database: config.databaseUrl ? 'postgres' : `embedded (${config.dataDir}/pgdata)`,
    ...(config.databaseUrl ? {} : { data_folder_lock: `${config.dataDir}/pgdata.lock` }),
    throttle_store: config.redisUrl ? 'redis' : 'memory',
    // From the process's start: the start script's build check, loading the code, the database (opened and migrated), the routes.
    startup_ms: Math.round(process.uptime() * 1000),
    docs: `/api/documentation`,
  });
}

void bootstrap();
