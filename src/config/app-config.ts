import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Connector, Resolver } from '../common/http/outbound/outbound-client';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The validated configuration of one server instance. Built once, by `loadConfig`. */
export class AppConfig {
  port: number;
  databaseUrl?: string;
  redisUrl?: string;
  jwtSecret: string;
  adminRegistrationKey?: string;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Where the contact form (`POST /contact-us`) is mailed. */
  platformContactEmail: string;
  dataDir: string;
  trustProxy: boolean | number | string;
  logLevel: LogLevel;
  /** Where log lines go instead of stdout (tests read them); not an environment setting. */
  logStream?: { write(line: string): void };
  /** Where the embedded database lives (default DATA_DIR/pgdata); tests use `memory://`. */
  embeddedPath?: string;
  /** How long an opener of the embedded data folder waits for a previous holder that is closing (src/database/data-folder-lock.ts). */
  dataDirLockWaitMs = 15_000;
  /** Throttle window and limit of PUB-T / TOK-T routes (seed §8: 5 a minute). */
  throttleLimit = 5;
  throttleTtlMs = 60_000;
  /** Key prefix in Redis (REDIS_PREFIX): throttle counts and socket.io channels, so that deployments and test runs on one Redis stay apart. */
  redisPrefix = 'haulops:';
  /** Outbox relay (src/common/outbox/outbox-relay.ts): background polling on/off, poll interval, batch size. */
  outboxRelayEnabled = true;
  outboxRelayPollMs = 1000;
  outboxRelayBatchSize = 50;
  /** Tries per (event, subscriber) before the delivery is dead; the n-th retry waits base × 2^(n-1), at most an hour. */
  outboxRelayMaxAttempts = 8;
  outboxRelayRetryBaseMs = 1000;
  /** log2 of scrypt's N for new password hashes (15 ≈ 80 ms here); stored hashes keep their own. Lower only for tests. */
  passwordHashCost = 15;
  outboxRelayRetryMaxMs = 3_600_000;
  /** How long a claimed batch stays this relay's (OUTBOX_RELAY_LEASE_MS): renewed while the batch is delivered; a relay that died mid-batch is taken over after it. */
  outboxRelayLeaseMs = 60_000;
  /** Scheduled jobs (@nestjs/schedule: subscription renewals, overdue orders…) run on this instance; off in tests, which call the services with a chosen time. */
  schedulerEnabled = true;
  /** Payment provider (issue #13): `sandbox` (in-process, no network) or `stripe` (the Stripe adapter). */
  paymentProvider: PaymentProviderName = 'sandbox';
  /** With the sandbox: every company may take card payments without finishing merchant onboarding. */
  paymentSandboxMerchantReady = true;
  /** The secret the sandbox provider signs its inbound webhook events with (HMAC-SHA256); unset: every inbound event is refused (400). */
  paymentWebhookSecret?: string;
  /** Stripe (PAYMENT_PROVIDER=stripe): the secret API key (`sk_…`), required with stripe. */
  stripeSecretKey?: string;
  /** The signing secret of Stripe's webhook endpoint (`whsec_…`); unset: every Stripe event is refused (400). */
  stripeWebhookSecret?: string;
  /** Another Stripe API base URL (stripe-mock, a test stub): the SDK's protocol, host and port; unset: api.stripe.com. */
  stripeApiBase?: { protocol: 'http' | 'https'; host: string; port: number };
  /** The public URL of this API (scheme, host, optional path prefix), for URLs handed to the provider (Stripe Account Link return/refresh). */
  publicBaseUrl?: string;
  /** Where uploads live (docs/fleet.md): `local` (DATA_DIR/uploads) or `s3` (the S3_* bucket; required for a fleet). */
  mediaStorage: 'local' | 's3' = 'local';
  s3?: { bucket: string; region: string; endpoint?: string; forcePathStyle: boolean; accessKeyId?: string; secretAccessKey?: string };
  /**
   * Time limits (docs/time-limits.md): sized so that no request waits more than about 15 s.
   * PostgreSQL's pool size, how long a request waits for a pooled connection (also on the embedded
   * database's single connection), and the session's `statement_timeout`, `lock_timeout` and
   * `idle_in_transaction_session_timeout` (PostgreSQL only; 0 turns one off). Migrations run without them.
   */
  databasePoolSize = 10;
  databaseAcquireTimeoutMs = 5_000;
  databaseStatementTimeoutMs = 10_000;
  databaseLockTimeoutMs = 3_000;
  databaseIdleInTransactionTimeoutMs = 10_000;
  /** The payment provider's answer time per attempt, and how often a failed network call is retried (with the same idempotency key). */
  paymentProviderTimeoutMs = 6_000;
  paymentProviderMaxRetries = 1;
  /**
   * The outbound HTTP client for URLs users supply (src/common/http/outbound; docs/outbound-webhooks.md):
   * `http:` allowed beside `https:` (OUTBOUND_ALLOW_HTTP) and loopback targets allowed (OUTBOUND_ALLOW_LOOPBACK),
   * both for development and tests only (refused with NODE_ENV=production); connect and total timeouts; how
   * much of an answer is read.
   */
  outboundAllowHttp = false;
  outboundAllowLoopback = false;
  outboundConnectTimeoutMs = 3000;
  outboundTimeoutMs = 5000;
  outboundMaxResponseBytes = 64 * 1024;
  /** Tests' stand-ins for the outbound client's DNS resolver and connector (not environment settings). */
  outboundResolver?: Resolver;
  outboundConnector?: Connector;
}

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

function intOf(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer between ${min} and ${max} (got '${raw}')`);
  }
  return Number(raw);
}

function boolOf(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false (got '${raw}')`);
}

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
  c.platformContactEmail = env.PLATFORM_CONTACT_EMAIL?.trim() || 'support@haulops.local';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(c.platformContactEmail)) {
    throw new ConfigError('PLATFORM_CONTACT_EMAIL', `must be an e-mail address (got '${c.platformContactEmail}')`);
  }

  const dataDir = env.DATA_DIR?.trim() || './data';
  c.dataDir = isAbsolute(dataDir) ? dataDir : resolve(process.cwd(), dataDir);
  c.dataDirLockWaitMs = intOf(env, 'DATA_DIR_LOCK_WAIT_MS', c.dataDirLockWaitMs, 0, 600_000);

  const key = env.ADMIN_REGISTRATION_KEY?.trim();
  if (key !== undefined && key !== '' && key.length < 12) {
    throw new ConfigError('ADMIN_REGISTRATION_KEY', 'must be at least 12 characters long');
  }
  c.adminRegistrationKey = key || undefined;

  const metricsToken = env.METRICS_TOKEN?.trim();
  if (metricsToken !== undefined && metricsToken !== '' && metricsToken.length < 16) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters long');
  }
  c.metricsToken = metricsToken || undefined;

  const production = env.NODE_ENV?.trim() === 'production';
  const tp = env.TRUST_PROXY?.trim();
  if (!tp || tp === 'false') c.trustProxy = false;
  else if (tp === 'true' && production) throw new ConfigError('TRUST_PROXY', "must be the proxies' hop count or addresses in production, not true: with true any client can name its own address in X-Forwarded-For and step around the throttle");
  else if (tp === 'true') c.trustProxy = true;
  else if (/^\d+$/.test(tp)) c.trustProxy = Number(tp);
  else if (/^[\w.:/,\s-]+$/.test(tp)) c.trustProxy = tp;
  else throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or a list of addresses/subnets (got '${tp}')`);

  const level = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got '${level}')`);
  }
  c.logLevel = level as LogLevel;

  c.outboxRelayEnabled = boolOf(env, 'OUTBOX_RELAY_ENABLED', c.outboxRelayEnabled);
  c.outboxRelayPollMs = intOf(env, 'OUTBOX_RELAY_POLL_MS', c.outboxRelayPollMs, 10, 3_600_000);
  c.outboxRelayBatchSize = intOf(env, 'OUTBOX_RELAY_BATCH_SIZE', c.outboxRelayBatchSize, 1, 1000);
  c.outboxRelayMaxAttempts = intOf(env, 'OUTBOX_RELAY_MAX_ATTEMPTS', c.outboxRelayMaxAttempts, 1, 100);
  c.outboxRelayRetryBaseMs = intOf(env, 'OUTBOX_RELAY_RETRY_BASE_MS', c.outboxRelayRetryBaseMs, 1, 3_600_000);
  c.outboxRelayLeaseMs = intOf(env, 'OUTBOX_RELAY_LEASE_MS', c.outboxRelayLeaseMs, 1000, 3_600_000);
  c.schedulerEnabled = boolOf(env, 'SCHEDULER_ENABLED', c.schedulerEnabled);
  c.passwordHashCost = intOf(env, 'PASSWORD_HASH_COST', c.passwordHashCost, 10, 20);

  const provider = (env.PAYMENT_PROVIDER?.trim() || 'sandbox').toLowerCase();
  if (!PAYMENT_PROVIDERS.includes(provider as PaymentProviderName)) throw new ConfigError('PAYMENT_PROVIDER', `must be one of ${PAYMENT_PROVIDERS.join(', ')} (got '${provider}')`);
  c.paymentProvider = provider as PaymentProviderName;
  stripeConfig(env, c);
  c.paymentSandboxMerchantReady = boolOf(env, 'PAYMENT_SANDBOX_MERCHANT_READY', c.paymentSandboxMerchantReady);
  c.paymentWebhookSecret = env.PAYMENT_WEBHOOK_SECRET?.trim() || undefined;
  timeLimits(env, c);

  storageConfig(env, c);

  const prefix = env.REDIS_PREFIX?.trim();
  if (prefix !== undefined && prefix !== '') {
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) throw new ConfigError('REDIS_PREFIX', `must be 1 to 64 letters, digits or _ . : - (got '${prefix}')`);
    c.redisPrefix = prefix;
  }
  outboundConfig(env, c);

  const secret = env.JWT_SECRET?.trim();
  if (secret !== undefined && secret !== '') {
    if (secret.length < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
    c.jwtSecret = secret;
  } else if (c.databaseUrl) {
    // A secret generated into DATA_DIR is one instance's own: the others on the same database would refuse its tokens.
    throw new ConfigError('JWT_SECRET', 'is required with DATABASE_URL: every instance on one database must sign tokens with the same secret (only the embedded database generates one into DATA_DIR)');
  } else {
    c.jwtSecret = persistentSecret(c.dataDir);
  }
  return c;
}

/** DATABASE_POOL_SIZE, DATABASE_*_TIMEOUT_MS and PAYMENT_PROVIDER_TIMEOUT_MS / _MAX_RETRIES. */
function timeLimits(env: Record<string, string | undefined>, c: AppConfig): void {
  c.databasePoolSize = intOf(env, 'DATABASE_POOL_SIZE', c.databasePoolSize, 1, 500);
  c.databaseAcquireTimeoutMs = intOf(env, 'DATABASE_ACQUIRE_TIMEOUT_MS', c.databaseAcquireTimeoutMs, 100, 600_000);
  c.databaseStatementTimeoutMs = intOf(env, 'DATABASE_STATEMENT_TIMEOUT_MS', c.databaseStatementTimeoutMs, 0, 3_600_000);
  c.databaseLockTimeoutMs = intOf(env, 'DATABASE_LOCK_TIMEOUT_MS', c.databaseLockTimeoutMs, 0, 3_600_000);
  c.databaseIdleInTransactionTimeoutMs = intOf(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', c.databaseIdleInTransactionTimeoutMs, 0, 3_600_000);
  c.paymentProviderTimeoutMs = intOf(env, 'PAYMENT_PROVIDER_TIMEOUT_MS', c.paymentProviderTimeoutMs, 100, 120_000);
  c.paymentProviderMaxRetries = intOf(env, 'PAYMENT_PROVIDER_MAX_RETRIES', c.paymentProviderMaxRetries, 0, 5);
  const lockBelowStatement = c.databaseLockTimeoutMs > 0 && (c.databaseStatementTimeoutMs === 0 || c.databaseLockTimeoutMs < c.databaseStatementTimeoutMs);
  if (c.databaseLockTimeoutMs > 0 && !lockBelowStatement) {
    throw new ConfigError('DATABASE_LOCK_TIMEOUT_MS', `must be below DATABASE_STATEMENT_TIMEOUT_MS (${c.databaseStatementTimeoutMs}), or a wait for a lock ends as a cancelled statement`);
  }
}

/** MEDIA_STORAGE and S3_*: the bucket is required with `s3`; S3_ENDPOINT names an S3-compatible server (MinIO), path-style by default. */
function storageConfig(env: Record<string, string | undefined>, c: AppConfig): void {
  const kind = (env.MEDIA_STORAGE?.trim() || 'local').toLowerCase();
  if (kind !== 'local' && kind !== 's3') throw new ConfigError('MEDIA_STORAGE', `must be local or s3 (got '${kind}')`);
  c.mediaStorage = kind;
  if (kind === 'local') return;
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) throw new ConfigError('S3_BUCKET', 'is required with MEDIA_STORAGE=s3');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError('S3_BUCKET', `must be a bucket name (3-63 of a-z 0-9 . -; got '${bucket}')`);
  const endpoint = urlOf(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError(accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID', 'is required with the other (or set neither to use the AWS default credential chain)');
  const region = env.S3_REGION?.trim() || 'us-east-1';
  c.s3 = { bucket, region, endpoint, forcePathStyle: boolOf(env, 'S3_FORCE_PATH_STYLE', Boolean(endpoint)), accessKeyId, secretAccessKey };
}

/** STRIPE_* and PUBLIC_BASE_URL: checked whatever the provider; the key and the public URL are required with `stripe`. */
function stripeConfig(env: Record<string, string | undefined>, c: AppConfig): void {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (key && !/^(sk|rk)_(test|live)_\w+$/.test(key)) throw new ConfigError('STRIPE_SECRET_KEY', "must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…)");
  c.stripeSecretKey = key || undefined;
  const hook = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (hook && !hook.startsWith('whsec_')) throw new ConfigError('STRIPE_WEBHOOK_SECRET', "must be a webhook signing secret (whsec_…)");
  c.stripeWebhookSecret = hook || undefined;
  const base = urlOf(env, 'STRIPE_API_BASE', ['http:', 'https:']);
  if (base) {
    const u = new URL(base);
    if (u.pathname !== '/' || u.search || u.username) throw new ConfigError('STRIPE_API_BASE', `must be a scheme, host and optional port only (got '${base}')`);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    c.stripeApiBase = { protocol, host: u.hostname, port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443 };
  }
  const pub = urlOf(env, 'PUBLIC_BASE_URL', ['http:', 'https:']);
  c.publicBaseUrl = pub?.replace(/\/+$/, '');
  if (c.paymentProvider === 'stripe') {
    if (!c.stripeSecretKey) throw new ConfigError('STRIPE_SECRET_KEY', 'is required with PAYMENT_PROVIDER=stripe');
    if (!c.publicBaseUrl) throw new ConfigError('PUBLIC_BASE_URL', 'is required with PAYMENT_PROVIDER=stripe (the Account Link return and refresh URLs)');
  }
}

/** OUTBOUND_*: the two development switches are refused in production; the limits are bounded. */
function outboundConfig(env: Record<string, string | undefined>, c: AppConfig): void {
  const production = env.NODE_ENV?.trim() === 'production';
  for (const [name, key] of [['OUTBOUND_ALLOW_HTTP', 'outboundAllowHttp'], ['OUTBOUND_ALLOW_LOOPBACK', 'outboundAllowLoopback']] as const) {
    const on = boolOf(env, name, false);
    if (on && production) throw new ConfigError(name, 'must not be true with NODE_ENV=production (development and tests only)');
    c[key] = on;
  }
  c.outboundConnectTimeoutMs = intOf(env, 'OUTBOUND_CONNECT_TIMEOUT_MS', c.outboundConnectTimeoutMs, 100, 30_000);
  c.outboundTimeoutMs = intOf(env, 'OUTBOUND_TIMEOUT_MS', c.outboundTimeoutMs, 100, 60_000);
  c.outboundMaxResponseBytes = intOf(env, 'OUTBOUND_MAX_RESPONSE_KB', c.outboundMaxResponseBytes / 1024, 1, 1024) * 1024;
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
