import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { addressProblem, OutboundHttpClient, OutboundPolicy, parseTarget, pinnedConnector, STRICT_POLICY } from '../../../src/common/http/outbound';
import { forbiddenConnector, ISSUE_FORMS, stubResolver } from '../../support/outbound-stubs';

jest.setTimeout(30_000);

/**
 * The outbound client for user-supplied URLs (issue #28). Only loopback listeners are ever connected
 * to; every other address is checked with a stub resolver and a connector that fails when called.
 */

/** More forms of the same ranges (and the ones refused before, which must stay refused). */
const MORE_FORMS = [
  'https://0177.0.0.1/',
  'https://127.0.0.2/',
  'https://[::]/',
  'https://[::7f00:1]/', // IPv4-compatible ::127.0.0.1
  'https://[::ffff:a00:5]/', // mapped 10.0.0.5
  'https://[::ffff:169.254.169.254]/',
  'https://[fc00::1]/',
  'https://[fd12:3456::1]/',
  'https://[fe80::1]/',
  'https://[ff02::1]/',
  'https://[2001:db8::1]/',
  'https://[64:ff9b::a00:1]/',
  'https://[2002:7f00:1::]/',
  'https://192.0.2.10/',
  'https://198.51.100.7/',
  'https://203.0.113.9/',
  'https://198.18.0.1/',
  'https://240.0.0.1/',
  'https://255.255.255.255/',
  'https://224.0.0.251/',
  'https://169.254.0.1/',
  'https://metadata/',
  'https://instance-data/',
  'https://metadata.goog/',
  'https://db.internal/',
  'https://api.localhost/',
  'https://LOCALHOST./',
  'https://printer.local/',
  'https://intranet/',
  'http://169.254.169.254/',
  'ftp://hooks.example.com/x',
  'file:///etc/passwd',
  'gopher://hooks.example.com/',
  'javascript:alert(1)',
  'https://user:pw@hooks.example.com/x',
  'not a url',
];

const DEV: OutboundPolicy = { allowHttp: true, allowLoopback: false };

describe('outbound client: addresses and names', () => {
  it('WHATWG URL parsing turns the odd IPv4 forms into dotted form (the checks rely on it)', () => {
    expect(['https://2130706433', 'https://0x7f000001', 'https://127.1', 'https://0177.0.0.1', 'https://0x7f.1'].map((u) => new URL(u).hostname)).toEqual(Array(5).fill('127.0.0.1'));
    expect(new URL('https://[::ffff:127.0.0.1]').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([...ISSUE_FORMS, ...MORE_FORMS, 'http://hooks.example.com/x'])('refuses %s (checked only: no lookup of an address, no connection)', async (url) => {
    // With OUTBOUND_ALLOW_HTTP (development) too, except plain http to a public name, which it allows.
    for (const policy of url === 'http://hooks.example.com/x' ? [STRICT_POLICY] : [STRICT_POLICY, DEV]) {
      const resolver = stubResolver();
      const connector = forbiddenConnector();
      const client = new OutboundHttpClient(policy, undefined, resolver, connector);
      const checked = await client.check(url);
      expect(checked).toMatchObject({ ok: false, reason: expect.any(String) });
      const sent = await client.post(url, { headers: {}, body: '{}' });
      expect(sent.outcome).toBe('blocked');
      expect(connector.calls).toEqual([]);
      expect(resolver.asked).toEqual([]); // literal addresses and refused names are never looked up
    }
  });

  it('says why', () => {
    expect(parseTarget('https://10.0.0.5', STRICT_POLICY)).toEqual({ ok: false, reason: expect.stringMatching(/10\.0\.0\.5 is a private address/) });
    expect(parseTarget('https://[::ffff:127.0.0.1]', STRICT_POLICY)).toEqual({ ok: false, reason: expect.stringMatching(/IPv4-mapped.*127\.0\.0\.1/) });
    expect(parseTarget('https://[::ffff:a00:5]', STRICT_POLICY)).toEqual({ ok: false, reason: expect.stringMatching(/embedding 10\.0\.0\.5, a private address/) });
    expect(parseTarget('https://metadata.google.internal/x', STRICT_POLICY)).toEqual({ ok: false, reason: expect.stringMatching(/cloud metadata/) });
    expect(parseTarget('http://hooks.example.com', STRICT_POLICY)).toEqual({ ok: false, reason: 'must use https' });
    expect(addressProblem('100.64.0.1', STRICT_POLICY)).toMatch(/carrier-grade NAT/);
    expect(addressProblem('93.184.216.34', STRICT_POLICY)).toBeNull();
    expect(addressProblem('2606:4700::1111', STRICT_POLICY)).toBeNull();
  });

  it('allows loopback only with allowLoopback, and never the mapped or compatible forms of it', () => {
    const loop: OutboundPolicy = { allowHttp: true, allowLoopback: true };
    expect(parseTarget('http://127.0.0.1:9/x', loop).ok).toBe(true);
    expect(parseTarget('http://[::1]:9/x', loop).ok).toBe(true);
    expect(parseTarget('http://localhost:9/x', loop).ok).toBe(true);
    expect(parseTarget('http://[::ffff:127.0.0.1]/x', loop).ok).toBe(false);
    expect(parseTarget('http://10.0.0.5/x', loop).ok).toBe(false);
    expect(parseTarget('http://169.254.169.254/x', loop).ok).toBe(false);
  });

  it('refuses a name that resolves to loopback or a private address, even one address among public ones', async () => {
    const resolver = stubResolver({
      'loop.example.com': ['127.0.0.1'],
      'mixed.example.com': ['93.184.216.34', '10.1.2.3'],
      'v6.example.com': ['2606:4700::1111', 'fd00::5'],
      'mapped.example.com': ['::ffff:169.254.169.254'],
      'public.example.com': ['93.184.216.34', '2606:4700::1111'],
    });
    const connector = forbiddenConnector();
    const client = new OutboundHttpClient(STRICT_POLICY, undefined, resolver, connector);
    expect(await client.check('https://loop.example.com/hook')).toEqual({ ok: false, reason: expect.stringMatching(/loop\.example\.com resolves to 127\.0\.0\.1 is a loopback address/) });
    expect(await client.check('https://mixed.example.com/hook')).toMatchObject({ ok: false, reason: expect.stringMatching(/10\.1\.2\.3/) });
    expect(await client.check('https://v6.example.com/hook')).toMatchObject({ ok: false, reason: expect.stringMatching(/unique-local/) });
    expect(await client.check('https://mapped.example.com/hook')).toMatchObject({ ok: false });
    expect(await client.check('https://public.example.com/hook')).toMatchObject({ ok: true, addresses: [{ address: '93.184.216.34', family: 4 }, { address: '2606:4700::1111', family: 6 }] });
    expect(await client.check('https://nowhere.example.com/hook')).toMatchObject({ ok: false, unresolved: true });
    expect((await client.post('https://loop.example.com/hook', { headers: {}, body: '' })).outcome).toBe('blocked');
    // A name that does not resolve is a failure (retried), not a refusal.
    expect((await client.post('https://nowhere.example.com/hook', { headers: {}, body: '' })).outcome).toBe('failed');
    expect(connector.calls).toEqual([]);
  });

  it('DNS rebinding: a name that turns private between check and send is blocked; the connector is never called', async () => {
    let answer = ['93.184.216.34'];
    const resolver = stubResolver({ 'rebind.example.com': () => answer });
    const connector = forbiddenConnector();
    const client = new OutboundHttpClient(STRICT_POLICY, undefined, resolver, connector);
    expect((await client.check('https://rebind.example.com/hook')).ok).toBe(true);
    answer = ['10.0.0.5'];
    const sent = await client.post('https://rebind.example.com/hook', { headers: {}, body: '{}' });
    expect(sent).toMatchObject({ outcome: 'blocked', reason: expect.stringMatching(/10\.0\.0\.5 is a private address/) });
    expect(connector.calls).toEqual([]);
  });

  it('hands the connector the address it checked (a public one answered by an in-memory mock: no packet leaves)', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock.get('https://hooks.example.com').intercept({ path: '/hook', method: 'POST' }).reply(204, '');
    const targets: string[] = [];
    const client = new OutboundHttpClient(STRICT_POLICY, undefined, stubResolver({ 'hooks.example.com': ['93.184.216.34'] }), (t) => {
      targets.push(`${t.url.host} ${t.address.address}`);
      return mock;
    });
    expect(await client.post('https://hooks.example.com/hook', { headers: { 'content-type': 'application/json' }, body: '{}' })).toMatchObject({ outcome: 'answered', status: 204 });
    expect(targets).toEqual(['hooks.example.com 93.184.216.34']);
    await mock.close();
  });

  it('production refuses the development switches', () => {
    const base = { DATA_DIR: '/tmp/haulops-outbound-config', JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...base }).outboundAllowHttp).toBe(false);
    expect(loadConfig({ ...base }).outboundAllowLoopback).toBe(false);
    expect(loadConfig({ ...base, OUTBOUND_ALLOW_HTTP: 'true' }).outboundAllowHttp).toBe(true);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', OUTBOUND_ALLOW_HTTP: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', OUTBOUND_ALLOW_LOOPBACK: 'true' })).toThrow(/OUTBOUND_ALLOW_LOOPBACK/);
    expect(loadConfig({ ...base, OUTBOUND_MAX_RESPONSE_KB: '8' }).outboundMaxResponseBytes).toBe(8192);
  });
});

describe('outbound client: against loopback listeners', () => {
  const servers: Server[] = [];
  const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  };
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  const LOOP: OutboundPolicy = { allowHttp: true, allowLoopback: true };

  it('connects to the address it checked, once resolved: Host stays the name (no second lookup would find it)', async () => {
    const seen: { host?: string; body: string }[] = [];
    const port = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        res.end('ok');
      });
    });
    const resolver = stubResolver({ 'hooks.test.example': ['127.0.0.1'] });
    const client = new OutboundHttpClient(LOOP, undefined, resolver, pinnedConnector);
    const sent = await client.post(`http://hooks.test.example:${port}/hook`, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(sent).toMatchObject({ outcome: 'answered', status: 200, bytesRead: 2 });
    expect(seen).toEqual([{ host: `hooks.test.example:${port}`, body: '{"a":1}' }]);
    expect(resolver.asked).toEqual(['hooks.test.example']);
  });

  it('follows no redirect (a 302 to 127.0.0.1 is the answer, the target never hears of it)', async () => {
    let targetHits = 0;
    const target = await listen((_req, res) => {
      targetHits++;
      res.end('secret');
    });
    const port = await listen((_req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:${target}/admin` });
      res.end();
    });
    const client = new OutboundHttpClient(LOOP, undefined, stubResolver(), pinnedConnector);
    expect(await client.post(`http://127.0.0.1:${port}/hook`, { headers: {}, body: '{}' })).toMatchObject({ outcome: 'answered', status: 302 });
    expect(targetHits).toBe(0);
  });

  it('reads at most maxResponseBytes of an answer', async () => {
    const port = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let n = 0;
      const write = () => {
        while (n < 64 && res.write(chunk)) n++;
        if (n < 64) res.once('drain', write);
        else res.end();
      };
      write();
    });
    const client = new OutboundHttpClient(LOOP, { connectTimeoutMs: 1000, timeoutMs: 5000, maxResponseBytes: 4096 }, stubResolver(), pinnedConnector);
    expect(await client.post(`http://127.0.0.1:${port}/big`, { headers: {}, body: '' })).toMatchObject({ outcome: 'answered', status: 200, bytesRead: 4096, truncated: true });
  });

  it('gives up after the total timeout', async () => {
    const port = await listen(() => undefined); // never answers
    const client = new OutboundHttpClient(LOOP, { connectTimeoutMs: 1000, timeoutMs: 300, maxResponseBytes: 1024 }, stubResolver(), pinnedConnector);
    const started = Date.now();
    const sent = await client.post(`http://127.0.0.1:${port}/slow`, { headers: {}, body: '' });
    expect(sent).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/timeout/) });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
