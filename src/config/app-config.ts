import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The validated configuration of one server instance. Built once, by `loadConfig`. */
export class AppConfig {
  port: number;
  databaseUrl?: string;
  redisUrl?: string;
  jwtSecret: string;
  adminRegistrationKey?: string;
  smtpUrl?: string;
  mailFrom: string;
  dataDir: string;
  trustProxy: boolean | number | string;
  logLevel: LogLevel;
  /** Where the embedded database lives (default DATA_DIR/pgdata); tests use `memory://`. */
  embeddedPath?: string;
  /** Throttle window and limit of PUB-T / TOK-T routes (seed §8: 5 a minute). */
  throttleLimit = 5;
  throttleTtlMs = 60_000;
  /** Key prefix in Redis, so that test runs and deployments do not share counters by accident. */
  redisPrefix = 'haulops:';
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

function urlOf(env: Record<string, string | undefined>, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (got '${raw.replace(/\/\/[^@]*@/, '//***@')}')`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(', ')} (got '${url.protocol}')`);
  }
  return raw;
}

/**
 * Reads and validates the environment. Throws `ConfigError` naming the first bad variable.
 * Without JWT_SECRET a random secret is generated once and kept in DATA_DIR/jwt-secret.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const c = new AppConfig();

  const port = env.PORT?.trim() || '3000';
  if (!/^\d+$/.test(port) || Number(port) < 0 || Number(port) > 65535) {
    throw new ConfigError('PORT', `must be an integer between 0 and 65535 (got '${port}')`);
  }
  c.port = Number(port);

  c.databaseUrl = urlOf(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  c.redisUrl = urlOf(env, 'REDIS_URL', ['redis:', 'rediss:']);
  c.smtpUrl = urlOf(env, 'SMTP_URL', ['smtp:', 'smtps:']);

  c.mailFrom = env.MAIL_FROM?.trim() || 'HaulOps <no-reply@haulops.local>';
  if (!/^(.*<)?[^\s@<>]+@[^\s@<>]+(>)?$/.test(c.mailFrom)) {
    throw new ConfigError('MAIL_FROM', `must be an e-mail address, optionally as 'Name <address>' (got '${c.mailFrom}')`);
  }

  const dataDir = env.DATA_DIR?.trim() || './data';
  c.dataDir = isAbsolute(dataDir) ? dataDir : resolve(process.cwd(), dataDir);

  const key = env.ADMIN_REGISTRATION_KEY?.trim();
  if (key !== undefined && key !== '' && key.length < 12) {
    throw new ConfigError('ADMIN_REGISTRATION_KEY', 'must be at least 12 characters long');
  }
  c.adminRegistrationKey = key || undefined;

  const tp = env.TRUST_PROXY?.trim();
  if (!tp || tp === 'false') c.trustProxy = false;
  else if (tp === 'true') c.trustProxy = true;
  else if (/^\d+$/.test(tp)) c.trustProxy = Number(tp);
  else if (/^[\w.:/,\s-]+$/.test(tp)) c.trustProxy = tp;
  else throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or a list of addresses/subnets (got '${tp}')`);

  const level = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got '${level}')`);
  }
  c.logLevel = level as LogLevel;

  const secret = env.JWT_SECRET?.trim();
  if (secret !== undefined && secret !== '') {
    if (secret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
    c.jwtSecret = secret;
  } else {
    c.jwtSecret = persistentSecret(c.dataDir);
  }
  return c;
}

function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  }
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(48).toString('base64url');
  writeFileSync(file, generated + '\n', { mode: 0o600 });
  return generated;
}
