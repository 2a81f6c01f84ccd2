import ipaddr from 'ipaddr.js';
import type { Connector, ResolvedAddress, Resolver } from '../../src/common/http/outbound';
import { pinnedConnector } from '../../src/common/http/outbound';

/**
 * Stand-ins for the outbound client's resolver and connector (src/common/http/outbound): tests send
 * packets to loopback only (127.0.0.0/8, ::1), and every other address is only ever CHECKED.
 */

/** A resolver answering from a table (name → addresses, or a function for answers that change); any other name fails like ENOTFOUND. Records every name asked. */
export function stubResolver(table: Record<string, string[] | (() => string[])> = {}): Resolver & { asked: string[]; table: typeof table } {
  const asked: string[] = [];
  const resolver = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const entry = Object.hasOwn(table, host) ? table[host] : undefined;
    const list = typeof entry === 'function' ? entry() : entry;
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} (test resolver)`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked, table });
}

export const isLoopback = (address: string) => ipaddr.parse(address).range() === 'loopback';

/** The real pinned connector, for loopback addresses only: anything else fails the request (and is recorded in `refused`). */
export function loopbackConnector(): Connector & { refused: string[] } {
  const refused: string[] = [];
  const connector: Connector = (target) => {
    if (!isLoopback(target.address.address)) {
      refused.push(target.address.address);
      throw new Error(`test connector: ${target.address.address} is not loopback; tests never connect there`);
    }
    return pinnedConnector(target);
  };
  return Object.assign(connector, { refused });
}

/** A connector that must never be called: it records the call and throws (the test then asserts `calls` is empty). */
export function forbiddenConnector(): Connector & { calls: string[] } {
  const calls: string[] = [];
  const connector: Connector = (target) => {
    calls.push(`${target.url.href} → ${target.address.address}`);
    throw new Error(`forbidden connector called for ${target.url.href} (${target.address.address})`);
  };
  return Object.assign(connector, { calls });
}

/** Every form issue #28 lists as answered 201 before: each must be refused. */
export const ISSUE_FORMS = [
  'http://127.0.0.1:8080/hook',
  'http://localhost:8080/hook',
  'https://127.0.0.1',
  'https://localhost',
  'https://localhost.',
  'https://169.254.169.254/latest/meta-data/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://[::1]',
  'https://[::ffff:127.0.0.1]',
  'https://10.0.0.5',
  'https://192.168.1.10',
  'https://172.16.0.1',
  'https://100.64.0.1',
  'https://0.0.0.0',
  'https://2130706433',
  'https://0x7f000001',
  'https://127.1',
];
