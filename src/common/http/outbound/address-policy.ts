import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which URLs and addresses the server may call when a user gives it a URL (outbound webhooks now,
 * anything later): only public unicast addresses, reached over https. Address classes come from
 * `ipaddr.js` (its range names), never from parsing the forms by hand. docs/outbound-webhooks.md says why.
 */
export interface OutboundPolicy {
  /** `http:` allowed as well as `https:` (development only: OUTBOUND_ALLOW_HTTP, refused in production). */
  allowHttp: boolean;
  /** Loopback addresses (127.0.0.0/8, ::1) and the name `localhost` allowed (tests and development: OUTBOUND_ALLOW_LOOPBACK, refused in production). */
  allowLoopback: boolean;
}

export const STRICT_POLICY: OutboundPolicy = { allowHttp: false, allowLoopback: false };

/** Names that point into the server's own network whatever they resolve to: cloud metadata services, this machine. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);
const LOCAL_SUFFIXES = ['.internal', '.localhost', '.local', '.localdomain', '.home.arpa', '.in-addr.arpa', '.ip6.arpa'];

/** ipaddr.js range name → why it is refused (everything but `unicast` is refused; unknown names say so). */
const RANGE_TEXT: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
  reserved: 'a reserved or documentation address',
  uniqueLocal: 'a unique-local IPv6 address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  rfc6145: 'an IPv4-translated IPv6 address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  deprecatedSiteLocal: 'a site-local IPv6 address',
  discard: 'a discard-only IPv6 address',
};

/** The ipaddr.js range of an address, with IPv4-compatible IPv6 (::a.b.c.d, which ipaddr calls unicast) named apart. */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    if (range === 'unicast' && v6.parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
    return range;
  }
  return parsed.range();
}

/** The IPv4 address inside a mapped or compatible IPv6 address (for the reason's text), else null. */
function embeddedV4(address: string): string | null {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() !== 'ipv6') return null;
  const parts = (parsed as ipaddr.IPv6).parts;
  if (!parts.slice(0, 5).every((p) => p === 0) || (parts[5] !== 0 && parts[5] !== 0xffff)) return null;
  return [parts[6] >> 8, parts[6] & 255, parts[7] >> 8, parts[7] & 255].join('.');
}

/** Why the server must not connect to this IP address, or null when it may (public unicast; loopback when allowed). */
export function addressProblem(address: string, policy: OutboundPolicy): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = addressRange(address);
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy.allowLoopback) return null;
  const inner = embeddedV4(address);
  const innerText = inner && range !== 'unspecified' && range !== 'loopback' ? ` (embedding ${inner}, ${RANGE_TEXT[addressRange(inner)] ?? addressRange(inner)})` : '';
  return `${address} is ${RANGE_TEXT[range] ?? `in the special-purpose range ${range}`}${innerText}; only public addresses are allowed`;
}

/** Lower case, without one trailing dot and IPv6 brackets: the host as it is classified. */
export function normalHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** Why a host NAME (not an address) is refused before any lookup, or null. */
export function hostNameProblem(host: string, policy: OutboundPolicy): string | null {
  if (!host) return 'the URL has no host';
  if (host === 'localhost') return policy.allowLoopback ? null : 'localhost is this machine';
  if (host.endsWith('.localhost')) return `${host} is this machine (*.localhost)`;
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata service`;
  const suffix = LOCAL_SUFFIXES.find((s) => host.endsWith(s));
  if (suffix) return `${host} is an internal name (*${suffix})`;
  if (!host.includes('.')) return `${host} is not a fully qualified public name`;
  return null;
}

export type ParsedTarget = { ok: true; url: URL; host: string; literal: 4 | 6 | null } | { ok: false; reason: string };

/**
 * The checks that need no lookup: an absolute http(s) URL without credentials, a host that is not a
 * local or metadata name, and, when the host is an IP literal, a public address. WHATWG `new URL()`
 * has already turned the odd IPv4 forms (2130706433, 0x7f000001, 127.1, 0177.0.0.1) into dotted form.
 */
export function parseTarget(raw: string, policy: OutboundPolicy): ParsedTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return { ok: false, reason: policy.allowHttp ? 'must use https or http' : 'must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const host = normalHost(url.hostname);
  const literal = isIP(host);
  if (literal) {
    const problem = addressProblem(host, policy);
    return problem ? { ok: false, reason: problem } : { ok: true, url, host, literal: literal as 4 | 6 };
  }
  const problem = hostNameProblem(host, policy);
  return problem ? { ok: false, reason: problem } : { ok: true, url, host, literal: null };
}
