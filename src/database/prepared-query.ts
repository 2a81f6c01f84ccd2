import { createHash } from 'node:crypto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * A hot read as a named prepared statement on the pool: PostgreSQL parses and plans it once per
 * connection instead of on every request (for the caller's query, planning took about three quarters
 * of the database's time: 0.21 ms of 0.28 ms). Logged through TypeORM's logger like any other query, so
 * statement counts stay honest. Not for use inside a transaction (it takes its own pooled connection);
 * `name` must be unique per SQL text.
 */
export async function preparedQuery<T>(ds: DataSource, name: string, text: string, params: unknown[]): Promise<T[]> {
  ds.logger.logQuery(text, params);
  const pool = (ds.driver as PostgresDriver).master as { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }> };
  try {
    return (await pool.query({ name, text, values: params })).rows;
  } catch (e) {
    ds.logger.logQueryError(e as Error, text, params);
    throw e;
  }
}

/** Names by SQL text (hashing the text on every call cost 1.5 % of a placement's CPU). */
const names = new Map<string, string>();

/** A prepared statement's name after its text: the prefix and a hash of the text (one name per shape). */
export function statementName(prefix: string, text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    // Shapes are few (fixed per builder); a text that embedded values would grow this without end, so it is bounded.
    if (names.size >= 2000) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * `preparedQuery` through a transaction: on the connection of `manager`'s unit when it has one (a named
 * statement is prepared per connection, and pg prepares it there the first time), else on the pool. For
 * the hot statements of a write (placement: PostgreSQL spent as much CPU per placement as Node, much of
 * it planning statements sent unnamed: docs/performance.md). `name` must be unique per SQL text.
 */
export async function preparedThrough<T>(ds: DataSource, manager: EntityManager, name: string, text: string, params: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner;
  if (!runner || runner.isReleased || !runner.isTransactionActive) return preparedQuery<T>(ds, name, text, params);
  ds.logger.logQuery(text, params, runner);
  const client = (await (runner as unknown as { connect(): Promise<{ query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }> }> }).connect());
  try {
    return (await client.query({ name, text, values: params })).rows;
  } catch (e) {
    ds.logger.logQueryError(e as Error, text, params, runner);
    throw new QueryFailedError(text, params, e as Error);
  }
}
