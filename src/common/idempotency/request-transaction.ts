import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The transaction of a guarded request: an `@Idempotent()` route called with an `Idempotency-Key`.
 * `IdempotencyInterceptor` opens it, claims the key in it, runs the handler inside it, stores the
 * response in it and commits: the work and its idempotency record commit together, or neither does
 * (a crash rolls both back). Services reach it through the two functions below, which fall back to
 * the DataSource when there is no guarded request, so one code path serves both cases:
 *
 * ```ts
 * const id = await inTransaction(this.ds, async (m) => { ...writes through m... });
 * return this.render(id, currentManager(this.ds)); // reads its own writes, before the commit
 * ```
 *
 * Inside a guarded request every query must go through that transaction's manager (the embedded
 * database has a single connection, which the transaction holds; on PostgreSQL a second connection
 * would not see the uncommitted work, or would wait on its locks). Opening another connection there
 * throws at once instead of hanging (see `guardConnections`).
 */
interface RequestTransaction {
  ds: DataSource;
  runner: QueryRunner;
  /** False once the handler has returned: later work started from the request (timers) no longer joins. */
  open: boolean;
  /** `inTransaction` calls of one request run one after the other (savepoints of one connection). */
  tail: Promise<unknown>;
}

const current = new AsyncLocalStorage<RequestTransaction>();
/** Set while an `inTransaction` work of that request transaction runs. */
const insideWork = new AsyncLocalStorage<RequestTransaction>();

function active(ds: DataSource): RequestTransaction | undefined {
  const t = current.getStore();
  return t && t.open && t.ds === ds && !t.runner.isReleased ? t : undefined;
}

/**
 * Runs `work` in a transaction: a savepoint of the guarded request's transaction when there is one
 * (its failure rolls back only the savepoint; the request's error then rolls back everything), else a
 * transaction of its own. Every write of a service that an `@Idempotent()` route calls goes through it.
 */
export function inTransaction<T>(ds: DataSource, work: (m: EntityManager) => Promise<T>): Promise<T> {
  const t = active(ds);
  if (!t) return ds.transaction(work);
  // Called from inside another inTransaction of this request: a savepoint within it, at once.
  if (insideWork.getStore() === t) return t.runner.manager.transaction(work);
  // Otherwise after the request's other inTransaction calls (one connection: savepoints do not interleave).
  const run = t.tail.catch(() => undefined).then(() => insideWork.run(t, () => t.runner.manager.transaction(work)));
  t.tail = run;
  return run;
}

/** The manager to read through: the guarded request's (it sees the request's own uncommitted writes), else `ds.manager`. */
export function currentManager(ds: DataSource): EntityManager {
  return active(ds)?.runner.manager ?? ds.manager;
}

/** Whether the caller runs inside a guarded request's transaction on `ds`. */
export function inRequestTransaction(ds: DataSource): boolean {
  return active(ds) !== undefined;
}

/** Runs `fn` (and everything it starts) inside the guarded request transaction of `runner`; closes it for joiners when `fn` settles. */
export async function runInRequestTransaction<T>(ds: DataSource, runner: QueryRunner, fn: () => Promise<T>): Promise<T> {
  const t: RequestTransaction = { ds, runner, open: true, tail: Promise.resolve() };
  try {
    return await current.run(t, fn);
  } finally {
    await t.tail.catch(() => undefined);
    t.open = false;
  }
}

const GUARDED = Symbol('haulops.requestTransactionGuard');

/**
 * Makes `ds.createQueryRunner()` throw inside a guarded request: `ds.query`, `ds.transaction`,
 * `ds.manager`/`ds.getRepository(...)` reads and query builders without a runner all open a second
 * connection, which on the embedded database would wait forever for the one the transaction holds.
 * Installed once per DataSource by the interceptor.
 */
export function guardConnections(ds: DataSource): void {
  const marked = ds as DataSource & { [GUARDED]?: true };
  if (marked[GUARDED]) return;
  marked[GUARDED] = true;
  const create = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>) => {
    if (active(ds)) {
      throw new Error(
        'A second database connection inside an Idempotency-Key transaction: use inTransaction(ds, …) and currentManager(ds) ' +
          '(src/common/idempotency/request-transaction.ts), or pass the manager down.',
      );
    }
    return create(...args);
  };
}
