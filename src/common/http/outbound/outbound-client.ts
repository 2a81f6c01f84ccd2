import { promises as dns } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { Agent, Dispatcher } from 'undici';
import { addressProblem, OutboundPolicy, parseTarget } from './address-policy';

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to ALL its addresses (every one is checked). Default: `dns.promises.lookup(host, { all: true })`. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** What a connector is given: the URL, and the one address that was checked (the connection must go there and nowhere else). */
export interface ConnectTarget {
  url: URL;
  address: ResolvedAddress;
  connectTimeoutMs: number;
}

/**
 * Makes the undici dispatcher for one request, pinned to the checked address. The default pins an
 * `Agent` whose `connect.lookup` answers that address only, so no second DNS lookup happens between
 * the check and the connection (no DNS rebinding); Host and the TLS server name stay the URL's host.
 * Tests pass their own (one that fails the test when called, for addresses that must never be reached).
 */
export type Connector = (target: ConnectTarget) => Dispatcher;

export interface OutboundLimits {
  /** TCP (and TLS) connection, ms. */
  connectTimeoutMs: number;
  /** The whole request (lookup, connection, answer and body), ms. */
  timeoutMs: number;
  /** At most this many bytes of the answer are read (and thrown away); the rest is cut off. */
  maxResponseBytes: number;
}

export const DEFAULT_LIMITS: OutboundLimits = { connectTimeoutMs: 3000, timeoutMs: 5000, maxResponseBytes: 64 * 1024 };

/** A URL that may be called now, with the addresses it resolved to (all checked). */
export type CheckedUrl = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string; unresolved?: boolean };

/**
 * What a request came to:
 * - `blocked`: the URL or an address it resolved to is not allowed; nothing was sent (never retry);
 * - `answered`: the server answered `status` (a 3xx too: redirects are never followed);
 * - `failed`: no answer (name not found, refused, timeout, reset).
 */
export type OutboundResult =
  | { outcome: 'blocked'; reason: string; durationMs: number }
  | { outcome: 'answered'; status: number; durationMs: number; bytesRead: number; truncated: boolean }
  | { outcome: 'failed'; error: string; durationMs: number };

export const systemResolver: Resolver = async (hostname) => {
  const found: LookupAddress[] = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The default connector: a one-request undici Agent that can only reach `target.address`. */
export const pinnedConnector: Connector = ({ address, connectTimeoutMs }) => {
  // net/tls call `lookup` for a host name; it answers the checked address whatever the name (Node's
  // `autoSelectFamily` asks with `all: true`).
  const lookup = (_host: string, options: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
    if (typeof options === 'object' && options?.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  return new Agent({ connect: { timeout: connectTimeoutMs, lookup: lookup as never }, connections: 1, pipelining: 0, keepAliveTimeout: 1 });
};

const errorText = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: string }).code;
  const cause = (e as { cause?: unknown }).cause;
  const causeCode = cause instanceof Error ? (cause as { code?: string }).code : undefined;
  return `${e.name}${code ? ` ${code}` : ''}${causeCode && causeCode !== code ? ` (${causeCode})` : ''}: ${e.message}`.slice(0, 500);
};

const withTimeout = <T>(p: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

/**
 * The one HTTP client for URLs that users supply (src/common, layer 0): it refuses every address that
 * is not public (loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, IPv4-mapped and
 * -compatible IPv6, unique-local, documentation and other reserved ranges) and local or metadata names;
 * it resolves the host once, checks every address, and connects to the checked one; it follows no
 * redirects and caps connect time, total time and the answer's size. Its resolver and connector are
 * parameters, so tests stub both (docs/outbound-webhooks.md).
 */
export class OutboundHttpClient {
  constructor(
    readonly policy: OutboundPolicy,
    readonly limits: OutboundLimits = DEFAULT_LIMITS,
    private readonly resolver: Resolver = systemResolver,
    private readonly connector: Connector = pinnedConnector,
  ) {}

  /** Checks a URL (scheme, credentials, host name, every address it resolves to) without connecting. */
  async check(raw: string, signal?: AbortSignal): Promise<CheckedUrl> {
    const target = parseTarget(raw, this.policy);
    if (!target.ok) return target;
    if (target.literal) return { ok: true, url: target.url, addresses: [{ address: target.host, family: target.literal }] };
    let addresses: ResolvedAddress[];
    try {
      const lookup = this.resolver(target.host);
      addresses = await (signal ? withTimeout(lookup, signal) : lookup);
    } catch (e) {
      return { ok: false, unresolved: true, reason: `${target.host} could not be resolved (${errorText(e)})` };
    }
    if (!addresses.length) return { ok: false, unresolved: true, reason: `${target.host} resolved to no address` };
    for (const a of addresses) {
      const problem = addressProblem(a.address, this.policy);
      if (problem) return { ok: false, reason: `${target.host} resolves to ${problem}` };
    }
    return { ok: true, url: target.url, addresses };
  }

  /** POSTs `body` to `raw` after the checks (see the class); never throws. */
  async post(raw: string, request: { headers: Record<string, string>; body: string }): Promise<OutboundResult> {
    const started = Date.now();
    const took = () => Date.now() - started;
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    const checked = await this.check(raw, signal);
    if (!checked.ok) return checked.unresolved ? { outcome: 'failed', error: checked.reason, durationMs: took() } : { outcome: 'blocked', reason: checked.reason, durationMs: took() };
    const { url } = checked;
    let dispatcher: Dispatcher | undefined;
    try {
      dispatcher = this.connector({ url, address: checked.addresses[0], connectTimeoutMs: this.limits.connectTimeoutMs });
      const res = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal,
        headersTimeout: this.limits.timeoutMs,
        bodyTimeout: this.limits.timeoutMs,
      });
      let bytesRead = 0;
      let truncated = false;
      for await (const chunk of res.body) {
        bytesRead += (chunk as Buffer).length;
        if (bytesRead >= this.limits.maxResponseBytes) {
          truncated = true;
          bytesRead = this.limits.maxResponseBytes;
          res.body.destroy();
          break;
        }
      }
      return { outcome: 'answered', status: res.statusCode, durationMs: took(), bytesRead, truncated };
    } catch (e) {
      return { outcome: 'failed', error: signal.aborted ? `timeout: no complete answer within ${this.limits.timeoutMs} ms` : errorText(e), durationMs: took() };
    } finally {
      // The one-request agent goes with its connection (a stub dispatcher may not implement destroy).
      await Promise.resolve()
        .then(() => dispatcher?.destroy())
        .catch(() => undefined);
    }
  }
}
