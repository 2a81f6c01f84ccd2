import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import { DataSource } from 'typeorm';
import { ApiError } from '../http/api-error';
import { Enveloped, envelope, type PageMeta } from '../http/envelope';

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

/**
 * `Idempotency-Key` on money and order-creating POSTs (domain.md §1): a replay returns the first
 * success; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED; one still in flight is 409.
 * A failed request forgets its key so the client can retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly ds: DataSource) {}

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

    await this.ds.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND expires_at < now()`, [scope, key]);
    const inserted = await this.ds.query<{ id: string }[]>(
      `INSERT INTO idempotency_keys (scope, key, request_hash, status, expires_at)
       VALUES ($1, $2, $3, 'in_flight', now() + make_interval(hours => $4))
       ON CONFLICT (scope, key) DO NOTHING RETURNING id`,
      [scope, key, hash, IDEMPOTENCY_TTL_HOURS],
    );
    if (inserted.length === 0) {
      const [row] = await this.ds.query<{ request_hash: string; status: 'in_flight' | 'done'; response_body: StoredEnvelope | null }[]>(
        `SELECT request_hash, status, response_body FROM idempotency_keys WHERE scope = $1 AND key = $2`,
        [scope, key],
      );
      if (!row) throw ApiError.conflict('IDEMPOTENCY_KEY_IN_FLIGHT', 'A request with this Idempotency-Key is still being processed.');
      if (row.request_hash !== hash) {
        throw ApiError.unprocessable('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request.');
      }
      if (row.status !== 'done') {
        throw ApiError.conflict('IDEMPOTENCY_KEY_IN_FLIGHT', 'A request with this Idempotency-Key is still being processed.');
      }
      return of(new Enveloped(row.response_body));
    }

    const status = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? (req.method === 'POST' ? 201 : 200);
    return next.handle().pipe(
      mergeMap((result) =>
        from(
          this.ds
            .query(
              `UPDATE idempotency_keys SET status = 'done', response_status = $3, response_body = $4::jsonb WHERE scope = $1 AND key = $2`,
              [scope, key, status, JSON.stringify(envelope(result))],
            )
            .then(() => result),
        ),
      ),
      catchError((err) =>
        from(
          this.ds.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2`, [scope, key]).then(() => {
            throw err;
          }),
        ),
      ),
    );
  }
}

/** Marks a route as accepting `Idempotency-Key`. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Up to 255 characters; a replay within 24 h returns the first response.' }),
  );
