import { createHash } from 'node:crypto';
import { DataSource, EntityManager, type ObjectLiteral, QueryFailedError, type SelectQueryBuilder } from 'typeorm';
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

/**
 * `select` (one row, many columns) as one JSON value in the column `json_row`: for a hot read, pg describes,
 * parses and builds every column of its row on each execution (`addFields`, `parseRow`, date parsing: 6 % of the
 * CPU of `/auth/me` and of the order read); one json column is one `JSON.parse`. Timestamps then come as ISO 8601
 * text. Read the row with `jsonRowOf`.
 */
export const asJsonRow = (select: string): string => `SELECT row_to_json(x) AS json_row FROM (${select}) x`;

/** The row of an `asJsonRow` statement (pg parses json; a driver that hands it over as text is parsed here), or undefined. */
export function jsonRowOf<T>(rows: readonly { json_row: unknown }[]): T | undefined {
  const v = rows[0]?.json_row;
  return (typeof v === 'string' ? JSON.parse(v) : v ?? undefined) as T | undefined;
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

/**
 * `qb.getQueryAndParameters()` with the text kept per call site (`prefix`) and shape (`hotQueryText`).
 *
 * A hot query builder's SQL text (`getQuery`, named parameters), kept per call site and shape: TypeORM
 * builds the text anew on every call, which was 10–11 % of a placement's Node CPU for its four entity reads
 * (docs/performance.md). The shape is what the text is built from (the query's aliases, selections, joins,
 * conditions, order, paging and locking, as the builder holds them); the parameters' values are not part
 * of the text (TypeORM puts them in positionally afterwards). A builder this cannot describe (common table
 * expressions, relation ids) is built every time. Under jest (or HOT_SQL_VERIFY=1) every kept text is
 * checked against a fresh build, so a shape this key missed fails a test instead of running another
 * query's text.
 */
export function hotQueryAndParameters(prefix: string, qb: SelectQueryBuilder<ObjectLiteral>): [string, unknown[]] {
  return qb.dataSource.driver.escapeQueryWithParameters(hotQueryText(prefix, qb), qb.getParameters());
}

function hotQueryText(prefix: string, qb: SelectQueryBuilder<ObjectLiteral>): string {
  const shape = shapeOf(qb);
  if (shape === null) return qb.getQuery();
  const key = `${prefix}\u0000${shape}`;
  const kept = hotTexts.get(key);
  if (kept === undefined) {
    const text = qb.getQuery();
    if (hotTexts.size >= 2000) hotTexts.clear();
    hotTexts.set(key, text);
    return text;
  }
  if (VERIFY_HOT_TEXTS) {
    const fresh = qb.getQuery();
    if (fresh !== kept) throw new Error(`hotQueryText(${prefix}): the kept text differs from the builder's (a shape the key does not describe):\n${kept}\n---\n${fresh}`);
  }
  return kept;
}

const hotTexts = new Map<string, string>();
const VERIFY_HOT_TEXTS = process.env.HOT_SQL_VERIFY === '1' || process.env.JEST_WORKER_ID !== undefined;

/** What a select builder's text is made of, as a string; null when it holds something this does not describe. */
function shapeOf(qb: SelectQueryBuilder<ObjectLiteral>): string | null {
  const em = qb.expressionMap;
  if (em.queryType !== 'select' || em.commonTableExpressions.length || em.relationIdAttributes.length || em.subQuery) return null;
  const nameOf = (x: unknown) => (typeof x === 'string' ? x : typeof x === 'function' ? x.name : null);
  const joins = em.joinAttributes.map((j) => [j.direction, j.alias.name, nameOf(j.entityOrProperty), j.condition ?? null, j.mapToProperty ?? null, j.isMappingMany ?? null, nameOf(j.mapAsEntity)]);
  if (joins.some((j) => j[2] === null)) return null;
  return JSON.stringify([
    em.mainAlias?.name,
    em.mainAlias?.hasMetadata ? em.mainAlias.metadata.tablePath : (em.mainAlias?.tablePath ?? null),
    em.selects,
    em.selectDistinct,
    em.selectDistinctOn,
    joins,
    em.wheres,
    em.havings,
    em.orderBys,
    em.groupBys,
    em.limit ?? null,
    em.offset ?? null,
    em.skip ?? null,
    em.take ?? null,
    em.lockMode ?? null,
    em.lockTables ?? null,
    em.onLocked ?? null,
    em.withDeleted,
    em.comment ?? null,
    em.useIndex ?? null,
    em.maxExecutionTime,
    em.aliasNamePrefixingEnabled,
    em.disableEscaping,
    em.extraAppendedAndWhereCondition,
    em.timeTravel ?? null,
    em.aliases.map((a) => [a.name, a.type, a.hasMetadata ? a.metadata.tablePath : (a.tablePath ?? null), a.subQuery ?? null]),
  ]);
}
