import type { Logger as Pino } from 'pino';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's logs through the application's pino logger, as JSON lines. Statements and failed
 * statements only at debug (`LOG_LEVEL=debug`; one `query` line each, without parameters: they may
 * hold secrets; a failure that matters reaches the error filter, which logs it), slow statements (over
 * 1 s) always. `npm run bench` counts the `query` lines.
 */
export class PinoTypeOrmLogger implements TypeOrmLogger {
  private readonly logger: Pino;

  constructor(root: Pino) {
    this.logger = root.child({ context: 'TypeORM' });
  }

  logQuery(query: string, parameters?: unknown[]): void {
    if (this.logger.isLevelEnabled('debug')) this.logger.debug({ query, parameters: parameters?.length ?? 0 }, 'query');
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    if (this.logger.isLevelEnabled('debug')) this.logger.debug({ query, parameters: parameters?.length ?? 0, error: error instanceof Error ? error.message : error }, 'query failed');
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[]): void {
    this.logger.warn({ query, parameters: parameters?.length ?? 0, duration_ms: time }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.info(message);
  }

  logMigration(message: string): void {
    this.logger.info(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    this.logger[level === 'warn' ? 'warn' : 'info']({ message }, 'typeorm');
  }
}
