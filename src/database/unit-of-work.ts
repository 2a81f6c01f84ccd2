import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The unit of work: the one way to open a transaction. The transaction of a request, a relay batch or
 * a scheduled job is carried in `AsyncLocalStorage`, so a repository takes its manager from it
 * (`uow.manager`) instead of having one threaded through every call:
 *
 * ```ts
 * // service (rules): one transaction per use case
 * return this.uow.transaction(async () => {
 *   const order = await this.orders.lockForUpdate(scope, id); // repository: this.uow.manager
 *   ...
 * });
 * ```
 *
 * - `transaction(work)` opens a transaction, or joins the one already open: inside another unit's work
 *   it runs as a savepoint of it (a failure rolls back only the savepoint; an error that propagates
 *   then rolls back everything). Inside a guarded request (an `@Idempotent()` route called with an
 *   `Idempotency-Key`: `IdempotencyInterceptor` opens the request's transaction, claims the key in it
 *   and stores the answer in it) the request's `transaction` calls run one after the other as
 *   savepoints of its one connection, so the work and its key commit together or not at all.
 * - `manager` is the open transaction's manager (it sees the unit's own uncommitted writes), else the
 *   pool's (`ds.manager`): one code path reads inside and outside a transaction.
 * - Nothing outside the database (payment provider, outbound HTTP, mail) is called inside `work`:
 *   reserve (commit a pending row), call, settle in a new unit (docs/payments-provider-faults.md).
 *
 * Inside a guarded request every query must go through that transaction (the embedded database has a
 * single connection, which the transaction holds; on PostgreSQL a second connection would not see the
 * uncommitted work, or would wait on its locks): opening another connection there throws at once
 * instead of hanging (`guardConnections`).
 *
 * `test/project/data-layer.spec.ts` fails on any other way to open a transaction
 * (`DataSource#transaction`, `EntityManager#transaction`, `createQueryRunner`, `startTransaction`).
 */
interface OpenUnit {
  ds: DataSource;
  runner: QueryRunner;
  /** False once the unit's work has settled: later work started from it (timers) no longer joins. */
  open: boolean;
  /** A guarded request's transaction: a second connection while it is open throws (`guardConnections`). */
  request: boolean;
  /** Top-level `transaction` calls of one guarded request run one after the other (savepoints of one connection). */
  tail: Promise<unknown>;
}

const current = new AsyncLocalStorage<OpenUnit>();
/** Set while a `transaction` work of that unit runs (its nested calls are savepoints within it, at once). */
const insideWork = new AsyncLocalStorage<OpenUnit>();

function active(ds: DataSource): OpenUnit | undefined {
  const t = current.getStore();
  return t && t.open && t.ds === ds && !t.runner.isReleased ? t : undefined;
}

async function openNew<T>(ds: DataSource, work: (m: EntityManager) => Promise<T>): Promise<T> {
  let deferred: Deferred | undefined;
  const result = await ds.transaction(async (m) => {
    deferred = deferUntilCommit(ds, m.queryRunner!);
    const t: OpenUnit = { ds, runner: m.queryRunner!, open: true, request: false, tail: Promise.resolve() };
    try {
      return await current.run(t, () => insideWork.run(t, () => work(m)));
    } finally {
      t.open = false;
    }
  });
  // The deferral recognises TypeORM's COMMIT by its text: if it ever did not, say so loudly rather than lose events.
  if (deferred?.statements.length) throw new Error('A unit committed without the statements deferred to its COMMIT (src/database/unit-of-work.ts, deferUntilCommit)');
  return result;
}

const DEFERRED = Symbol('haulops.deferredToCommit');

/** Statements a transaction sends with its COMMIT, and where each open savepoint began among them. */
interface Deferred {
  statements: string[];
  marks: number[];
}

/**
 * Lets a transaction's runner send statements with its COMMIT, in the same round trip (`sendWithCommit`):
 * the outbox's INSERT of the events a use case recorded, one round trip fewer for every write (each round
 * trip is two system calls, the costliest part of a statement here: docs/performance.md). The deferred
 * statements follow the transaction: those deferred inside a savepoint are dropped when it rolls back, all
 * of them on ROLLBACK. PostgreSQL through `pg` only (a simple-protocol query of several statements); on the
 * embedded database nothing is deferred.
 */
function deferUntilCommit(ds: DataSource, runner: QueryRunner): Deferred | undefined {
  if (!(ds.options as { url?: string }).url) return undefined;
  const d: Deferred = { statements: [], marks: [] };
  const query = runner.query.bind(runner) as (text: string, params?: unknown[], structured?: boolean) => Promise<unknown>;
  const deferring = (text: string, params?: unknown[], structured?: boolean): Promise<unknown> => {
    if (text.startsWith('SAVEPOINT ')) d.marks.push(d.statements.length);
    else if (text.startsWith('RELEASE SAVEPOINT ')) d.marks.pop();
    else if (text.startsWith('ROLLBACK TO SAVEPOINT ')) d.statements.length = d.marks.pop() ?? 0;
    else if (text === 'ROLLBACK') d.statements.length = d.marks.length = 0;
    else if (text === 'COMMIT' && d.statements.length) {
      const sent = `${d.statements.join(';\n')};\nCOMMIT`;
      d.statements.length = 0;
      return query(sent, undefined, structured);
    }
    return query(text, params, structured);
  };
  Object.assign(runner, { query: deferring, [DEFERRED]: d });
  return d;
}

/**
 * Sends `sql` (SQL text without parameters: its values as literals) with the COMMIT of the transaction
 * `manager` belongs to, in the same round trip; dropped if its savepoint or the transaction rolls back.
 * False when that transaction cannot defer (the embedded database, or a transaction the unit of work did
 * not open): the caller runs `sql` now.
 */
export function sendWithCommit(manager: EntityManager, sql: string): boolean {
  const d = (manager.queryRunner as (QueryRunner & { [DEFERRED]?: Deferred }) | undefined)?.[DEFERRED];
  if (!d || !manager.queryRunner?.isTransactionActive) return false;
  d.statements.push(sql);
  return true;
}

/** `UnitOfWork#transaction` for code that holds a DataSource rather than the injectable (common's relay and interceptor). */
export function runUnit<T>(ds: DataSource, work: (m: EntityManager) => Promise<T>): Promise<T> {
  const t = active(ds);
  if (!t) return openNew(ds, work);
  // Called from inside a work of this unit: a savepoint within it, at once.
  if (insideWork.getStore() === t) return t.runner.manager.transaction(work);
  // A guarded request's top-level call: after the request's other calls (one connection: savepoints do not interleave).
  const run = t.tail.catch(() => undefined).then(() => insideWork.run(t, () => t.runner.manager.transaction(work)));
  t.tail = run;
  return run;
}

/** `UnitOfWork#manager` for code that holds a DataSource. */
export function unitManager(ds: DataSource): EntityManager {
  return active(ds)?.runner.manager ?? ds.manager;
}

/** Whether the caller runs inside a unit of work on `ds` (a guarded request's, or one `transaction` opened). */
export function inUnit(ds: DataSource): boolean {
  return active(ds) !== undefined;
}

/** Whether the caller runs inside a guarded request's transaction on `ds`. */
export function inRequestUnit(ds: DataSource): boolean {
  return active(ds)?.request === true;
}

/** Runs `fn` (and everything it starts) inside the guarded request transaction of `runner`; closes it for joiners when `fn` settles. */
export async function runInRequestUnit<T>(ds: DataSource, runner: QueryRunner, fn: () => Promise<T>): Promise<T> {
  const t: OpenUnit = { ds, runner, open: true, request: true, tail: Promise.resolve() };
  try {
    return await current.run(t, fn);
  } finally {
    await t.tail.catch(() => undefined);
    t.open = false;
  }
}

const GUARDED = Symbol('haulops.requestTransactionGuard');

/**
 * Makes `ds.createQueryRunner()` throw inside a guarded request: `ds.query`, `ds.manager` reads and
 * query builders without a runner all open a second connection, which on the embedded database would
 * wait forever for the one the transaction holds. Installed once per DataSource by the interceptor.
 */
export function guardConnections(ds: DataSource): void {
  const marked = ds as DataSource & { [GUARDED]?: true };
  if (marked[GUARDED]) return;
  marked[GUARDED] = true;
  const create = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>) => {
    if (active(ds)?.request) {
      throw new Error(
        'A second database connection inside an Idempotency-Key transaction: read and write through the unit of work ' +
          '(UnitOfWork#manager and #transaction, src/database/unit-of-work.ts).',
      );
    }
    return create(...args);
  };
}

/** The injectable unit of work (provided once, globally): services open transactions with it, repositories read `manager`. */
@Injectable()
export class UnitOfWork {
  constructor(readonly ds: DataSource) {}

  /** Runs `work` in the open unit (a savepoint of it) or in a new transaction. */
  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return runUnit(this.ds, work);
  }

  /** The open unit's manager, else the pool's. */
  get manager(): EntityManager {
    return unitManager(this.ds);
  }

  /** Whether a unit is open (a repository method that must lock asserts it). */
  get active(): boolean {
    return inUnit(this.ds);
  }
}
