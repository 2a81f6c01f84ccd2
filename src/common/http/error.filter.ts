import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import { currentRequestId } from '../logger';
import { ApiError } from './api-error';
import { Enveloped } from './envelope';
import { isDatabaseBusy, sqlState } from '../../database/pg-errors';

const DEFAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'THROTTLED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** body-parser / raw-body error types (`err.type`) and their answers. */
const PARSER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'MALFORMED_JSON', message: 'Malformed JSON body.' },
  'entity.too.large': { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large.' },
  'entity.verify.failed': { status: 400, code: 'BAD_REQUEST', message: 'The request body could not be read.' },
  'encoding.unsupported': { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported Content-Encoding.' },
  'charset.unsupported': { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported charset: JSON bodies are UTF-8.' },
  'request.aborted': { status: 400, code: 'BAD_REQUEST', message: 'The request body was not received completely.' },
  'request.size.invalid': { status: 400, code: 'BAD_REQUEST', message: 'The request body does not match its Content-Length.' },
};

interface ErrorBody {
  success: false;
  message: string;
  code: string;
  errors?: Record<string, string[]>;
  request_id?: string;
}

/** The single place where any failure becomes the error envelope. 500s are logged, never explained. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Error');
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const { httpAdapter } = this.adapterHost;
    const ctx = host.switchToHttp();
    const response = ctx.getResponse();
    const { status, body, headers } = this.describe(exception);
    body.request_id = currentRequestId();
    if (body.code === 'DATABASE_BUSY') {
      this.logger.warn(exception instanceof Error ? exception.message : String(exception));
    } else if (status >= 500) {
      this.logger.error(exception instanceof Error ? exception : String(exception), (exception as Error)?.stack);
    }
    for (const [k, v] of Object.entries(headers ?? {})) httpAdapter.setHeader(response, k, v);
    httpAdapter.reply(response, new Enveloped(body), status);
  }

  private describe(e: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
    if (e instanceof ApiError) {
      const body: ErrorBody = { success: false, message: e.message, code: e.code };
      if (e.errors) body.errors = e.errors;
      return { status: e.getStatus(), body, headers: e.headers };
    }
    if (e instanceof ThrottlerException) {
      return { status: 429, body: { success: false, message: 'Too many requests. Try again later.', code: 'THROTTLED' } };
    }
    // Body-parser failures (Nest wraps them in an HttpException with the parser's error as cause).
    const parser = (e instanceof HttpException ? e.cause : e) as { type?: unknown; status?: unknown; statusCode?: unknown } | undefined;
    const parserType = typeof parser?.type === 'string' ? parser.type : e instanceof HttpException && e.cause instanceof SyntaxError ? 'entity.parse.failed' : undefined;
    if (parserType) {
      const known = PARSER_ERRORS[parserType];
      if (known) return { status: known.status, body: { success: false, code: known.code, message: known.message } };
      // Any other client-side failure of a parser (its status is 4xx): the envelope, never its raw text.
      const status = Number(parser?.status ?? parser?.statusCode);
      if (status >= 400 && status < 500) {
        return { status, body: { success: false, message: 'The request body could not be read.', code: DEFAULT_CODES[status] ?? 'BAD_REQUEST' } };
      }
    }
    if (e instanceof HttpException) {
      const status = e.getStatus();
      const res = e.getResponse();
      let message = typeof res === 'string' ? res : ((res as { message?: unknown }).message ?? e.message);
      if (Array.isArray(message)) message = message.join('; ');
      if (status === 404 && /^Cannot \w+ /.test(String(message))) message = 'Route not found.';
      return { status, body: { success: false, message: String(message), code: DEFAULT_CODES[status] ?? 'ERROR' } };
    }
    const code = sqlState(e);
    // A unique constraint that a service did not pre-check (a race between two requests).
    if (code === '23505') {
      return { status: 409, body: { success: false, message: 'A record with these values already exists.', code: 'CONFLICT' } };
    }
    if (code === '40001' || code === '40P01') {
      return { status: 409, body: { success: false, message: 'Concurrent update; retry the request.', code: 'CONCURRENT_UPDATE' } };
    }
    // A time limit of docs/time-limits.md: nothing was changed; the same request may succeed in a moment.
    if (isDatabaseBusy(e)) {
      return { status: 503, body: { success: false, message: 'The database is busy; retry the request in a moment.', code: 'DATABASE_BUSY' }, headers: { 'Retry-After': '1' } };
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { success: false, message: 'Internal server error.', code: 'INTERNAL_ERROR' } };
  }
}
