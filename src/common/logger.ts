import { LoggerService } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { AppConfig, LogLevel } from '../config/app-config';

/** Per-request context, available to every log line and to the error filter. */
export interface RequestContext {
  requestId: string;
}
export const requestContext = new AsyncLocalStorage<RequestContext>();
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

/**
 * What a log line may never show, whoever logs it: credentials, tokens and personal data are
 * replaced by "[redacted]" at the top level and one level down (pino's fast-redact paths).
 */
export const REDACTED_FIELDS = ['password', 'password_hash', 'passwordHash', 'token', 'access_token', 'refresh_token', 'authorization', 'cookie', 'email', 'secret', 'otp'];
const REDACT_PATHS = [...REDACTED_FIELDS, ...REDACTED_FIELDS.map((f) => `*.${f}`), 'req.headers.authorization', 'req.headers.cookie'];

/**
 * A pino logger: JSON lines (`time` ISO, `level` as a word, the request id of the current request on
 * every line), with the fields of REDACTED_FIELDS redacted.
 */
export function createLogger(level: LogLevel, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
    },
    destination,
  );
}

/**
 * The access log's logger (`requestEdge`): the same lines format and destination as `createLogger`'s, without
 * the redaction and the request-id mixin, which its fixed fields (method, route pattern, status, duration, request
 * id, actor id) never need: they cost 2 % of a request's CPU under load (docs/performance.md).
 */
function createAccessLogger(level: LogLevel, destination: DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);
}

const roots = new Map<LogLevel, { app: Logger; access: Logger }>();
const byConfig = new WeakMap<AppConfig, { app: Logger; access: Logger }>();

/**
 * The application's logger: on stdout, written asynchronously in batches of up to 4 kB (or every 250 ms),
 * flushed when the process exits; one per
 * level in a process. `config.logStream` (tests) sends the lines there instead.
 */
export function appLogger(config: AppConfig): Logger {
  return loggersOf(config).app;
}

/** The access log's logger of `appLogger(config)`: the same destination. */
export function accessLogger(config: AppConfig): Logger {
  return loggersOf(config).access;
}

function loggersOf(config: AppConfig): { app: Logger; access: Logger } {
  let loggers = byConfig.get(config);
  if (loggers) return loggers;
  if (config.logStream) {
    loggers = { app: createLogger(config.logLevel, config.logStream), access: createAccessLogger(config.logLevel, config.logStream) };
  } else {
    loggers = roots.get(config.logLevel);
    if (!loggers) {
      // Lines are gathered up to 4 kB before a write (one system call for a dozen access-log lines under load,
      // where a write per line cost 4 % of the CPU), and written at least every 250 ms when fewer come.
      const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });
      process.once('exit', () => destination.flushSync());
      loggers = { app: createLogger(config.logLevel, destination), access: createAccessLogger(config.logLevel, destination) };
      roots.set(config.logLevel, loggers);
    }
  }
  byConfig.set(config, loggers);
  return loggers;
}

/** Nest's logger interface over pino: `new Logger('Context').log({ msg, ... })` or `.log('text')`. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'debug' | 'info' | 'warn' | 'error', message: unknown, context: string | undefined, stack?: string) {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message });
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>), ...(stack ? { stack } : {}) });
    } else {
      this.logger[level]({ ...fields, ...(stack ? { stack } : {}) }, String(message));
    }
  }

  // Nest calls these with (message, ...optionalParams) where the last string is the context.
  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, ctx(rest));
  }
  error(message: unknown, ...rest: unknown[]) {
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? (rest[0] as string) : undefined;
    this.write('error', message, ctx(rest), stack);
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

type Req = IncomingMessage & { route?: { path?: string }; baseUrl?: string };

/** The route pattern that answered (`/api/v1/order/:order`), never the raw URL (ids, query strings). */
export function routeOf(req: Req): string {
  return req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
}
