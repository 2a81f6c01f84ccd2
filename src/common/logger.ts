import { AsyncLocalStorage } from 'node:async_hooks';
import { LoggerService } from '@nestjs/common';
import type { LogLevel } from '../config/app-config';

/** Per-request context, available to every log line and to the error filter. */
export interface RequestContext {
  requestId: string;
}
export const requestContext = new AsyncLocalStorage<RequestContext>();
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Structured JSON logs, one object a line, carrying the request id when there is one. */
export class JsonLogger implements LoggerService {
  constructor(private readonly level: LogLevel = 'info') {}

  private write(level: Exclude<LogLevel, 'silent'>, message: unknown, context?: string, extra?: Record<string, unknown>) {
    if (RANK[level] < RANK[this.level]) return;
    const line: Record<string, unknown> = { time: new Date().toISOString(), level };
    if (context) line.context = context;
    const requestId = currentRequestId();
    if (requestId) line.request_id = requestId;
    if (message instanceof Error) {
      line.msg = message.message;
      line.stack = message.stack;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(line, message);
    } else {
      line.msg = String(message);
    }
    if (extra) Object.assign(line, extra);
    const out = JSON.stringify(line) + '\n';
    if (level === 'error' || level === 'warn') process.stderr.write(out);
    else process.stdout.write(out);
  }

  // Nest calls these with (message, ...optionalParams) where the last string is the context.
  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, ctx(rest));
  }
  error(message: unknown, ...rest: unknown[]) {
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? (rest[0] as string) : undefined;
    this.write('error', message, ctx(rest), stack ? { stack } : undefined);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, ctx(rest));
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, ctx(rest));
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, ctx(rest));
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('error', message, ctx(rest));
  }
}

function ctx(rest: unknown[]): string | undefined {
  const last = rest[rest.length - 1];
  return typeof last === 'string' ? last : undefined;
}
