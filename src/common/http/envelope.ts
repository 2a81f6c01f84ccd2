import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/** A page of a list; the envelope renders it as `data` plus `meta`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly meta: PageMeta,
  ) {}
}

/** Data with a human message (`{"success": true, "data": ..., "message": "..."}`). */
export class WithMessage<T> {
  constructor(
    readonly data: T,
    readonly message: string,
  ) {}
}
export const withMessage = <T>(data: T, message: string) => new WithMessage(data, message);

/** A body that is already an envelope (an idempotent replay); passed through untouched. */
export class Enveloped {
  constructor(readonly body: unknown) {}
}

/**
 * The HTTP adapter (app.setup.ts) wraps every JSON success in `{success: true, data, meta?, message?}`
 * (domain.md §1) as it replies. The error filter replies with `Enveloped` error bodies, which pass through.
 * Done at the reply rather than in a global interceptor: a route without interceptors of its own then
 * runs no RxJS at all (4 % of the CPU of a short request; docs/performance.md).
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    return super.reply(response, envelope(body), statusCode);
  }
}

export function envelope(result: unknown): unknown {
  if (result instanceof StreamableFile) return result;
  if (result instanceof Enveloped) return result.body;
  if (result instanceof Page) return { success: true, data: result.items, meta: result.meta };
  if (result instanceof WithMessage) return { success: true, data: result.data ?? null, message: result.message };
  return { success: true, data: result ?? null };
}
