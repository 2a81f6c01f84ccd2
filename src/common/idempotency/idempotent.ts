import { applyDecorators, CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { lastValueFrom, Observable, of } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../database/pg-errors';
import { ApiError } from '../http/api-error';
import { ApiErrors } from '../http/openapi';
import { Enveloped, envelope, type PageMeta } from '../http/envelope';
import { guardConnections, runInRequestUnit, runUnit } from '../../database/unit-of-work';

export const IDEMPOTENCY_TTL_HOURS = 24;
const HTTP_CODE_METADATA = '__httpCode__';

interface IdemRequest {
  method: string;
  originalUrl?: string;
  url: string;
  ip?: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  actor?: { id: string };
}

/** The stored first response (`idempotency_keys.response_body`): the JSON envelope of the success. */
interface StoredEnvelope {
  success: true;
  data: unknown;
  meta?: PageMeta;
  message?: string;
}

/** How long a row left `in_flight` by the previous interceptor (which committed its claim on its own) still counts as running; then it is taken over. */
export const LEGACY_IN_FLIGHT_SECONDS = 60;
/** Class id of the transaction-scoped advisory locks on keys (`pg_try_advisory_xact_lock(class, hashtext(scope, key))`). */
const KEY_LOCK_CLASS = 7640;

/**
 * How long a stepped request (`@Idempotent({ stepped: true })`) holds its key as `in_flight` before a
 * retry with the same key may run it afresh (a crash between its steps). Longer than any provider call
 * with its retries; a re-run finds the first run's committed steps (the ledger's pending row keyed by
 * the same request key) instead of doing them again.
 */
export const STEPPED_LEASE_SECONDS = 300;
const STEPPED_METADATA = 'haulops:idempotent-stepped';

/** On an answer that is the stored response of an earlier request with the same key (nothing was done again). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const inFlight = () =>
  new ApiError(409, 'IDEMPOTENCY_KEY_IN_FLIGHT', 'A request with this Idempotency-Key is still being processed; retry in a moment.', undefined, { 'Retry-After': '1' });

/**
 * `Idempotency-Key` on money and order-creating POSTs (domain.md §1). The key, the work and the
 * response commit in ONE transaction, so a key is never left half-done:
 *
 * 1. A transaction is opened and the key locked in it (`pg_try_advisory_xact_lock`, across instances;
 *    first a set of this process's keys, which refuses a duplicate before it takes a connection). Held
 *    by a running request: 409 IDEMPOTENCY_KEY_IN_FLIGHT (Retry-After: 1). On the embedded database a
 *    duplicate usually cannot even pass the access guard while the first holds the only connection:
 *    it waits, then is a replay.
 * 2. A stored response for the key: the same request gets it again, with `Idempotent-Replayed: true`
 *    (no work); another method, path or body is 422 IDEMPOTENCY_KEY_REUSED. Expired rows (24 h) are forgotten.
 * 3. Otherwise the handler runs inside that transaction (`runInRequestUnit`: services write
 *    with `UnitOfWork#transaction` and read through `UnitOfWork#manager`), the response is stored as
 *    `done` in the same transaction, and it commits before the answer is sent.
 *
 * A failed request, a cut connection or a crash rolls the work back with the key: nothing is stored
 * and the same key runs the request afresh. A crash after the commit but before the answer leaves
 * the stored response, which the replay returns. The lock dies with the transaction (and with a dead
 * process's connection), so no key is ever stuck.
 */
/**
 * **Stepped requests** (`@Idempotent({ stepped: true })`: card payments, which call the provider between
 * two short transactions and may hold no transaction while they wait). The key cannot live in one
 * transaction with the work, so:
 *
 * 1. A short transaction locks the key (as above), answers a stored response (replay, with its stored
 *    status), or writes the key `in_flight` with a lease (`expires_at` = now + STEPPED_LEASE_SECONDS) and commits.
 * 2. The handler runs with NO request transaction: each `UnitOfWork#transaction` commits on its own, and nothing
 *    holds a connection between them (so a slow provider stalls no other request, even on the one
 *    connection of the embedded database).
 * 3. Success: the key becomes `done` with the status the handler answered (it may set 202) and the
 *    body, kept 24 h. Failure: the `in_flight` row is deleted, as a failed request keeps nothing.
 *
 * Meanwhile the same key answers 409 IDEMPOTENCY_KEY_IN_FLIGHT. A crash between the steps leaves the
 * `in_flight` row until its lease ends; then the same key runs the handler again, which must find its
 * own committed steps by the request key (the ledger derives the provider's idempotency key and the
 * pending row's key from it) and answer them instead of doing them twice.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  /** `scope\nkey` of this process's requests in flight. */
  private readonly running = new Set<string>();

  constructor(private readonly ds: DataSource) {
    guardConnections(ds);
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<IdemRequest>();
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return next.handle();
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || key.length > 255) {
      throw ApiError.validation({ 'Idempotency-Key': ['must be 1 to 255 characters'] });
    }
    const scope = req.actor?.id ?? `ip:${req.ip ?? 'unknown'}`;
    const hash = createHash('sha256')
      .update(`${req.method} ${(req.originalUrl ?? req.url).split('?')[0]}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const id = `${scope}\n${key}`;
    if (this.running.has(id)) throw inFlight();
    this.running.add(id);
    if (Reflect.getMetadata(STEPPED_METADATA, context.getHandler()) === true) {
      try {
        return await this.stepped(context, next, req, scope, key, hash);
      } finally {
        this.running.delete(id);
      }
    }
    const runner = this.ds.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      const stored = await this.claim(runner.manager, scope, key, hash);
      if (stored) {
        await runner.commitTransaction();
        context.switchToHttp().getResponse<{ setHeader(name: string, value: string): void }>().setHeader(REPLAYED_HEADER, 'true');
        return of(new Enveloped(stored.body));
      }
      const status = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
      const result = await runInRequestUnit(this.ds, runner, () => lastValueFrom(next.handle(), { defaultValue: undefined }));
      try {
        await runner.manager.query(
          `INSERT INTO idempotency_keys (scope, key, request_hash, status, response_status, response_body, expires_at)
           VALUES ($1, $2, $3, 'done', $4, $5::jsonb, now() + make_interval(hours => $6))`,
          [scope, key, hash, status, JSON.stringify(envelope(result)), IDEMPOTENCY_TTL_HOURS],
        );
      } catch (e) {
        // Only possible against a previous version's instance that claimed the key meanwhile: its request wins.
        if (isUniqueViolation(e)) throw inFlight();
        throw e;
      }
      await runner.commitTransaction();
      return of(result);
    } catch (e) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw e;
    } finally {
      await runner.release().catch(() => undefined);
      this.running.delete(id);
    }
  }

  /** A stepped request (see the class comment): claim committed as `in_flight`, handler without a request transaction, response stored after. */
  private async stepped(context: ExecutionContext, next: CallHandler, req: IdemRequest, scope: string, key: string, hash: string): Promise<Observable<unknown>> {
    const res = context.switchToHttp().getResponse<{ statusCode: number; status(code: number): unknown; setHeader(name: string, value: string): void }>();
    const stored = await runUnit(this.ds, async (m) => {
      const first = await this.claim(m, scope, key, hash);
      if (first) return first;
      await m.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, status, expires_at) VALUES ($1, $2, $3, 'in_flight', now() + make_interval(secs => $4))`,
        [scope, key, hash, STEPPED_LEASE_SECONDS],
      );
      return null;
    });
    if (stored) {
      res.setHeader(REPLAYED_HEADER, 'true');
      if (stored.status) res.status(stored.status);
      return of(new Enveloped(stored.body));
    }
    // The route's own status first, so that what the handler sets (201 or 202) is the one read back below.
    res.status(Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? 201 : 200));
    let result: unknown;
    try {
      result = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (e) {
      await this.ds.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status = 'in_flight'`, [scope, key]).catch(() => undefined);
      throw e;
    }
    const status = res.statusCode;
    await this.ds.query(
      `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_body = $4::jsonb, expires_at = now() + make_interval(hours => $5)
        WHERE scope = $1 AND key = $2 AND status = 'in_flight'`,
      [scope, key, status, JSON.stringify(envelope(result)), IDEMPOTENCY_TTL_HOURS],
    );
    return of(result);
  }

  /** Locks the key for this transaction; returns the stored first response, or null when the request is to run. */
  private async claim(m: EntityManager, scope: string, key: string, hash: string): Promise<{ body: StoredEnvelope; status: number | null } | null> {
    const [{ locked }] = await m.query<{ locked: boolean }[]>(`SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked`, [KEY_LOCK_CLASS, `${scope}\n${key}`]);
    if (!locked) throw inFlight();
    // `recent`: a legacy in_flight row younger than LEGACY_IN_FLIGHT_SECONDS, or a stepped one (its lease, expires_at, within the hour).
    const [row] = await m.query<{ request_hash: string; status: 'in_flight' | 'done'; response_status: number | null; response_body: StoredEnvelope | null; expired: boolean; recent: boolean }[]>(
      `SELECT request_hash, status, response_status, response_body, expires_at <= now() AS expired,
              (created_at > now() - make_interval(secs => $3) OR expires_at < created_at + interval '1 hour') AS recent
         FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key, LEGACY_IN_FLIGHT_SECONDS],
    );
    if (!row) return null;
    if (row.expired || (row.status === 'in_flight' && !row.recent)) {
      if (!row.expired) this.logger.warn({ msg: 'idempotency key left in flight by an earlier version taken over', scope });
      await m.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2`, [scope, key]);
      return null;
    }
    if (row.request_hash !== hash) {
      throw ApiError.unprocessable('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request.');
    }
    if (row.status !== 'done' || !row.response_body) throw inFlight();
    return { body: row.response_body, status: row.response_status };
  }
}

/** The contract, as the OpenAPI document states it (README, Conventions, says the same). */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Optional; 1 to 255 characters, one per intended operation (a UUID, say), kept 24 h per caller. ' +
  'The key, the work and the response are committed in one database transaction, so a key is never left half-done. ' +
  '**While the first request runs**, the same key answers 409 `IDEMPOTENCY_KEY_IN_FLIGHT` with `Retry-After: 1`. ' +
  '**After it succeeded**, the same request returns the first response (same status and body, plus `Idempotent-Replayed: true`) without doing the work again; ' +
  'the same key with another method, path or body is 422 `IDEMPOTENCY_KEY_REUSED`. ' +
  '**After it failed** (any error response) nothing is kept: the same key runs the request again. ' +
  '**If the answer never arrived** (connection cut, timeout, server crash or restart), send the same request with the same key: ' +
  'it returns the first response if the work was committed, or does the work now if it was not; never twice, and never a lasting 409. ' +
  'Do not retry with a new key: that is a new operation. ' +
  '**Card payments** commit in steps (the provider is called with no transaction open): the answer, 201 or 202, is kept and replayed with its status; a retry after a crash between the steps answers the same payment.';

/**
 * Marks a route as accepting `Idempotency-Key` (its service writes and reads through the unit of work,
 * `src/database/unit-of-work.ts`). `stepped: true`: the handler commits in steps and may wait on something outside the
 * database between them, with no transaction open (see IdempotencyInterceptor, stepped requests).
 */
export const Idempotent = (options: { stepped?: boolean } = {}) =>
  applyDecorators(
    SetMetadata(STEPPED_METADATA, options.stepped === true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: IDEMPOTENCY_KEY_DESCRIPTION, schema: { type: 'string', minLength: 1, maxLength: 255 } }),
    ApiErrors({ 409: ['IDEMPOTENCY_KEY_IN_FLIGHT'], 422: ['IDEMPOTENCY_KEY_REUSED'] }),
  );
