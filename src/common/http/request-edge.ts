import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { requestContext, routeOf } from '../logger';

type Req = Parameters<typeof routeOf>[0] & { path?: string; actor?: { id: string } };
type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** A header a middleware set, in the order it set it. */
export type Header = readonly [name: string, value: string];

/**
 * The headers a middleware that only sets fixed response headers (helmet with fixed directives: no nonce)
 * sets, read once by running it on a recording response. Applying the list per request is then a loop of
 * `setHeader` instead of a dozen chained middlewares (docs/performance.md). Throws when the middleware
 * does anything else (reads the request, ends the response, or calls next with an error), so a future
 * option that makes the headers depend on the request cannot be frozen by mistake.
 */
export function fixedHeadersOf(middleware: Middleware): Header[] {
  return headersSetBy(middleware);
}

/**
 * The headers the CORS middleware sets on a response to any request but OPTIONS (an actual request, not a
 * preflight): with a fixed origin policy they do not depend on the request, which is checked here by
 * running it on two different requests (with and without an Origin). The request edge sets them; the
 * middleware itself then runs on OPTIONS requests only (preflights), and the 4 % of the CPU of a request
 * it cost goes (docs/performance.md).
 */
export function corsHeadersOfActualRequests(middleware: Middleware): Header[] {
  const without = headersSetBy(middleware, { method: 'GET', headers: {} });
  const withOrigin = headersSetBy(middleware, { method: 'POST', headers: { origin: 'https://app.example.com' } });
  if (JSON.stringify(without) !== JSON.stringify(withOrigin)) {
    throw new Error('corsHeadersOfActualRequests: the CORS headers depend on the request; they cannot be set as fixed headers');
  }
  return without;
}

function headersSetBy(middleware: Middleware, sample?: { method: string; headers: Record<string, string> }): Header[] {
  const headers: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers.push([name, String(value)]);
      return recorder;
    },
    getHeader: (name: string) => headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
    removeHeader: () => undefined,
  };
  const request = sample
    ? (Object.freeze({ ...sample, headers: Object.freeze({ ...sample.headers }) }) as unknown as IncomingMessage)
    : new Proxy({} as IncomingMessage, {
        get: (_t, key) => {
          throw new Error(`fixedHeadersOf: the middleware reads the request (${String(key)}); its headers are not fixed`);
        },
      });
  let called = false;
  middleware(request, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    called = true;
  });
  if (!called) throw new Error('fixedHeadersOf: the middleware did not call next synchronously; its headers are not fixed');
  return headers;
}

const REQUEST_ID = /^[\w.-]{1,100}$/;

export interface RequestEdgeOptions {
  /** The access log's logger (one line per request, at info; error for a 5xx). */
  accessLog: Logger;
  /** Observes a finished request (the metrics' histogram). */
  observe: (method: string, route: string, status: number, seconds: number) => void;
  /** The security headers of a path (fixed lists, from `fixedHeadersOf`). */
  headersFor: (path: string) => readonly Header[];
}

/**
 * What every request passes first, in one middleware and one listener: the request id (from
 * `X-Request-Id` when sane, else generated; echoed back) carried to every log line of the request
 * (`requestContext`), the security headers, and, when the response ends, one access-log line (method,
 * route pattern, status, duration, request id, actor; no URL, headers, bodies, tokens or e-mails) and
 * the request metrics. An aborted response is logged too (`aborted: true`) but not observed.
 */
export function requestEdge(options: RequestEdgeOptions): Middleware {
  const { accessLog, observe, headersFor } = options;
  return (request, res, next) => {
    const req = request as Req;
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    for (const [name, value] of headersFor(req.path ?? req.url ?? '/')) res.setHeader(name, value);
    // 'close' follows 'finish' on every response (and comes alone when the client went away first).
    res.once('close', () => {
      const ms = performance.now() - started;
      const route = routeOf(req);
      const status = res.statusCode;
      const method = req.method ?? 'GET';
      const finished = res.writableFinished;
      if (finished) observe(method, route, status, ms / 1000);
      const line = { request_id: requestId, method, route, status, duration_ms: Math.round(ms), actor_id: req.actor?.id ?? null, ...(finished ? {} : { aborted: true }) };
      if (status >= 500) accessLog.error(line, 'request failed');
      else accessLog.info(line, 'request');
    });
    requestContext.run({ requestId }, next);
  };
}
