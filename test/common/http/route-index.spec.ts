import express from 'express';
import request from 'supertest';
import fc from 'fast-check';
import { indexRoutes, keyBySegments, keyOf } from '../../../src/common/http/route-index';

/**
 * The route index (src/common/http/route-index.ts) answers every request as the plain router does:
 * the same app built twice, once indexed, must give the same answers to the same requests.
 */
function build(indexed: boolean) {
  const app = express();
  // A first run of routes (as the documentation's) whose groups an API path is in none of.
  app.get('/docs', (_req, res) => res.json({ what: 'docs' }));
  app.get('/docs/page.json', (_req, res) => res.json({ what: 'docs page' }));
  app.use((req, res, next) => {
    res.setHeader('x-before', '1');
    next();
  });
  const say = (what: string) => (req: express.Request, res: express.Response) => res.json({ what, params: req.params, route: req.route?.path });
  app.get('/api/v1/orders', say('orders'));
  app.post('/api/v1/orders', say('place'));
  app.get('/api/v1/order/:order', say('order'));
  app.get('/api/v1/order/export', say('unreachable: after the parameter'));
  app.get('/api/v1/:kind/special', say('wild'));
  app.get('/api/v1/customer/profile', say('profile'));
  app.get('/api/v1/customer/:customerId', say('customer'));
  app.delete('/api/v1/customer/:customerId', say('delete customer'));
  app.options('/api/v1/orders', say('options of orders'));
  app.get('/health', say('health'));
  app.get('/', say('root'));
  app.get('/api/v1/next/:n', (req, _res, next) => next());
  app.get('/api/v1/next/:n', say('second of two'));
  app.get('/api/v1/boom', () => {
    throw new Error('boom');
  });
  app.use((_req, res) => res.status(404).json({ what: 'not found' }));
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ what: err.message }));
  if (indexed) {
    const r = (app as unknown as { router: Parameters<typeof indexRoutes>[0] }).router;
    const before = r.stack.length;
    const { groups, routes } = indexRoutes(r);
    expect(routes).toBe(16);
    expect(groups).toBeGreaterThan(3);
    expect(r.stack.length).toBeLessThan(before);
  }
  return app;
}

const requests: [string, string][] = [
  ['get', '/api/v1/orders'],
  ['post', '/api/v1/orders'],
  ['get', '/api/v1/orders/'],
  ['get', '/API/V1/Orders'],
  ['get', '/api/v1/order/abc'],
  ['get', '/api/v1/order/export'],
  ['get', '/api/v1/order/abc/def'],
  ['get', '/api/v1/anything/special'],
  ['get', '/api/v1/order/special'],
  ['get', '/api/v1/customer/special'],
  ['get', '/api/v1/customer/profile'],
  ['get', '/api/v1/customer/c-1'],
  ['delete', '/api/v1/customer/c-1'],
  ['put', '/api/v1/customer/c-1'],
  ['options', '/api/v1/customer/c-1'],
  ['options', '/api/v1/orders'],
  ['head', '/api/v1/orders'],
  ['get', '/health'],
  ['get', '/health/'],
  ['get', '/'],
  ['get', '/api/v1/next/7'],
  ['get', '/api/v1/boom'],
  ['get', '/api/v1/nothing'],
  ['get', '/api/v1/ord(er/x'],
  ['get', '//api/v1/orders'],
  ['get', '/api/v1/%6Frders'],
  ['get', '/api/v1/orders?x=1'],
  ['get', '/api//v1/orders'],
  ['get', '/api/v1//orders'],
  ['get', '/api/v1/orders//'],
  ['get', '/docs'],
  ['get', '/docs/'],
  ['get', '/DOCS/page.json'],
  ['options', '/docs'],
];

describe('route index', () => {
  const plain = build(false);
  const indexed = build(true);

  it.each(requests)('%s %s answers as without the index', async (method, path) => {
    const send = (app: express.Express) => (request(app) as unknown as Record<string, (p: string) => request.Test>)[method](path);
    const [a, b] = await Promise.all([send(plain), send(indexed)]);
    expect({ status: b.status, body: b.body, allow: b.headers.allow, before: b.headers['x-before'] }).toEqual({ status: a.status, body: a.body, allow: a.headers.allow, before: a.headers['x-before'] });
  });

  it('a path\'s key is the same read either way (keyOf, keyBySegments)', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9:*?(){}\\%.-]{0,4}$/);
    const path = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 })).map(([lead, s]) => (lead ? '/' : '') + s.join('/'));
    fc.assert(fc.property(path, fc.boolean(), (p, cs) => keyOf(p, cs) === keyBySegments(p, cs)), { numRuns: 5000 });
  });

  it('a request tests only the routes of its group (and those with a parameter among the first segments)', async () => {
    const app = build(false);
    const router = (app as unknown as { router: Parameters<typeof indexRoutes>[0] & { stack: { route?: { path: string }; match: (p: string) => unknown }[] } }).router;
    const tested: string[] = [];
    for (const layer of router.stack) {
      if (!layer.route) continue;
      const match = layer.match.bind(layer);
      layer.match = (p: string) => (tested.push(layer.route!.path), match(p));
    }
    indexRoutes(router);
    await request(app).get('/health').expect(200);
    expect(tested).toEqual(['/api/v1/:kind/special', '/health']);
    tested.length = 0;
    await request(app).get('/api/v1/customer/c-1').expect(200);
    expect(tested).toEqual(['/api/v1/:kind/special', '/api/v1/customer/profile', '/api/v1/customer/:customerId']);
  });
});
