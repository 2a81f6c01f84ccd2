import { HttpStatus } from '@nestjs/common';
import { ApiError, FieldErrors } from './api-error';

/**
 * What a request may carry, checked once for every route before any handler, guard or pipe sees it
 * (issue #9: bad input is never a 500):
 *
 * - a body is JSON (`application/json` or `application/*+json`), else 415 `UNSUPPORTED_MEDIA_TYPE`;
 *   the only exceptions are the routes given to `jsonBodiesOnly` (multipart upload). A request without
 *   a body (no Content-Length / Transfer-Encoding, or Content-Length 0) is not affected;
 * - a JSON body is nested at most `MAX_JSON_DEPTH` levels, else 400 `JSON_TOO_DEEP`;
 * - every string of the body and of the query (keys too, at any depth, JSON columns included) is
 *   text PostgreSQL can store: no NUL character and no unpaired UTF-16 surrogate, else 422
 *   `VALIDATION_FAILED` naming the fields.
 */

/** Objects and arrays inside one another, the body itself counting as level 1. */
export const MAX_JSON_DEPTH = 32;

/** At most this many offending strings are named in one answer. */
const MAX_REPORTED = 20;

const JSON_TYPE = /^application\/(?:[\w!#$&^.-]+\+)?json$/;
/** The media types the JSON body parser reads (keep in step with `isJsonType`). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();
export const isJsonType = (header: string | undefined) => JSON_TYPE.test(mediaType(header));

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  query?: unknown;
}
type Next = (err?: unknown) => void;

/** Whether the request carries a body (the test `type-is` and body-parser use). */
export function hasBody(req: RawRequest): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return typeof length === 'string' && length.trim() !== '' && Number(length) > 0;
}

/** A route that also takes another media type (`multipart/form-data` for an upload). */
export interface NonJsonRoute {
  method: string;
  path: string;
  type: string;
}

const normalPath = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p).toLowerCase();

/** 415 for a body that is not JSON, except on the listed routes with their media type. */
function jsonBodiesOnly(exceptions: NonJsonRoute[] = []) {
  return (req: RawRequest, _res: unknown, next: Next) => {
    if (!hasBody(req) || isJsonType(req.headers['content-type'] as string | undefined)) return next();
    const type = mediaType(req.headers['content-type'] as string | undefined);
    const allowed = exceptions.some((e) => e.method === req.method && normalPath(e.path) === normalPath(req.path) && e.type === type);
    if (allowed) return next();
    next(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json).'));
  };
}

/** Why a string cannot be stored as text, or null. */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (!isWellFormed(s)) return 'must be valid Unicode text (no unpaired surrogate)';
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (s: string): boolean => {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(s) : !LONE_SURROGATE.test(s);
};

/** A key as it may appear in a reported field path (its bad characters replaced). */
const printable = (k: string) => k.replace(/\u0000/g, '\ufffd').replace(new RegExp(LONE_SURROGATE, 'g'), '\ufffd');

export interface InputProblems {
  /** The value is nested deeper than allowed. */
  tooDeep: boolean;
  /** Field path → message, for strings that cannot be stored. */
  errors: FieldErrors;
}

/**
 * Walks a parsed body or query without recursion (a hostile body may be nested 100 000 levels deep):
 * its depth and every string, key or value. `prefix` starts the reported field paths.
 */
export function inspectInput(root: unknown, maxDepth = MAX_JSON_DEPTH, prefix = ''): InputProblems {
  // No prototype: a field may be called `constructor` or `__proto__`.
  const errors: FieldErrors = Object.create(null);
  let reported = 0;
  const report = (path: string, message: string) => {
    if (reported >= MAX_REPORTED) return;
    const field = path || prefix || 'body';
    if (!errors[field]) {
      errors[field] = [];
      reported++;
    }
    if (!errors[field].includes(message)) errors[field].push(message);
  };
  const stack: [unknown, string, number][] = [[root, prefix, 0]];
  while (stack.length) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) report(path, problem);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth + 1 > maxDepth) return { tooDeep: true, errors };
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const keyProblem = Array.isArray(value) ? null : textProblem(key);
      const childPath = path ? `${path}.${printable(key)}` : printable(key);
      if (keyProblem) report(childPath, `name ${keyProblem}`);
      stack.push([child, childPath, depth + 1]);
    }
  }
  return { tooDeep: false, errors };
}

/** After the JSON parser: the depth of the body, then the strings of the body and the query. */
function checkRequestInput(maxDepth = MAX_JSON_DEPTH) {
  return (req: RawRequest, _res: unknown, next: Next) => {
    const body = inspectInput(req.body, maxDepth);
    if (body.tooDeep) {
      return next(new ApiError(HttpStatus.BAD_REQUEST, 'JSON_TOO_DEEP', `The JSON body is nested deeper than ${maxDepth} levels.`));
    }
    // The query parser makes strings, arrays and (extended) objects: the same walk.
    const query = inspectInput(req.query, maxDepth);
    const errors: FieldErrors = Object.assign(Object.create(null), query.errors, body.errors);
    if (query.tooDeep) errors.query = ['is nested too deeply'];
    if (Object.keys(errors).length) return next(ApiError.validation(errors));
    next();
  };
}

/**
 * The request's input, as one middleware: `jsonBodiesOnly`, the JSON body parser `parseJson`, then
 * `checkRequestInput`. A request that announces no body (neither Content-Length nor Transfer-Encoding:
 * what body-parser itself skips) and has no query string has nothing for any of them, and goes straight
 * on: most reads, which otherwise passed three middlewares (body-parser's checks, two walks of empty
 * input and the query string parsed again) for nothing, 5–7 % of a short read's CPU (docs/performance.md).
 */
export function requestInput(options: { parseJson: (req: never, res: never, next: Next) => void; exceptions?: NonJsonRoute[]; maxDepth?: number }) {
  const bodiesOnly = jsonBodiesOnly(options.exceptions);
  const check = checkRequestInput(options.maxDepth);
  const parse = options.parseJson as (req: RawRequest, res: unknown, next: Next) => void;
  return (req: RawRequest & { url?: string }, res: unknown, next: Next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      // As body-parser leaves it.
      if (!('body' in req)) req.body = undefined;
      return req.url?.includes('?') ? check(req, res, next) : next();
    }
    bodiesOnly(req, res, (err?: unknown) => (err ? next(err) : parse(req, res, (perr?: unknown) => (perr ? next(perr) : check(req, res, next)))));
  };
}
