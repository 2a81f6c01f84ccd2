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

/**
 * A page whose items a statement rendered as JSON text (one document per item): the reply joins them
 * into the envelope as they are, so Node neither parses nor serialises the rows (issue #24, the order
 * lists). `toJSON` gives the same value to anything that serialises it as an object.
 */
export class RenderedPage {
  constructor(
    readonly docs: readonly string[],
    readonly meta: PageMeta,
  ) {}
  toJSON(): unknown {
    return { success: true, data: this.docs.map((d) => JSON.parse(d) as unknown), meta: this.meta };
  }
  /**
   * The envelope as UTF-8, each document written into one buffer of the exact size: the same bytes as the
   * joined text, without the page as one more string on the heap (and its copy into a buffer for the reply:
   * 46 kB of a list request's 184 kB).
   */
  get body(): Buffer {
    const head = '{"success":true,"data":[';
    const tail = `],"meta":${JSON.stringify(this.meta)}}`;
    let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, this.docs.length - 1);
    for (const doc of this.docs) size += Buffer.byteLength(doc);
    const body = Buffer.allocUnsafe(size);
    let at = body.write(head, 0);
    for (let i = 0; i < this.docs.length; i++) {
      if (i > 0) body[at++] = 0x2c; // ,
      at += body.write(this.docs[i], at);
    }
    at += body.write(tail, at);
    if (at !== size) throw new Error(`RenderedPage: wrote ${at} of ${size} bytes`);
    return body;
  }
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
    if (body instanceof RenderedPage) {
      const res = response as { status(code: number): void; getHeader(name: string): unknown; setHeader(name: string, value: string): void; send(body: Buffer): unknown };
      if (statusCode !== undefined) res.status(statusCode);
      // Before the send: Express would call a buffer application/octet-stream.
      if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return res.send(body.body);
    }
    return super.reply(response, envelope(body), statusCode);
  }
}

export function envelope(result: unknown): unknown {
  if (result instanceof StreamableFile) return result;
  if (result instanceof Enveloped) return result.body;
  if (result instanceof RenderedPage) return result.toJSON();
  if (result instanceof Page) return { success: true, data: result.items, meta: result.meta };
  if (result instanceof WithMessage) return { success: true, data: result.data ?? null, message: result.message };
  return { success: true, data: result ?? null };
}
