import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AccessCode } from '../../../src/common/access/access-codes';
import { ADAPTER_ROUTES, MountedRoute, mountedRoutes } from '../../../src/common/access/route-inventory';
import { MAX_JSON_DEPTH } from '../../../src/common/http/request-input';
import { PASSWORD, uniqueEmail } from '../../support/actors';
import { inDays } from '../../support/order-fixtures';
import { freshIp, startTestApp, TestApp } from '../../support/test-app';
import { BODY_ID_KINDS, paramKind, RecordKind, tenantWorld, TenantWorld } from '../../support/tenant-world';

/**
 * Bad input is never a 500 (issue #9), as a property over the whole API.
 *
 * The app starts once with a company that has one record of every kind (test/support/tenant-world.ts)
 * and an administrator. For every mounted route (the route inventory) that takes a body or query
 * parameters in the served OpenAPI document, or that is a write (a body can be sent to any write),
 * fast-check generates a bounded number of requests from the route's schemas, with a fixed seed per
 * route: valid-ish values mixed with hostile ones (wrong types, nulls, huge and fractional numbers,
 * long strings, NUL and unpaired surrogates, dates of year 0, arrays of wrong elements, extra fields,
 * deep nesting up to 10 000 levels, bodies that are not JSON, malformed JSON, hostile path ids and
 * query strings). Each is sent as an actor the route's `x-access-code` admits, with its own records (or
 * random or malformed ids) in the path. Every answer must be below 500, and every 4xx the JSON error
 * envelope `{success: false, message, code, request_id}`.
 *
 * Requests go through a plain supertest client (not the OpenAPI-validating one of test-app.ts): hostile
 * input earns statuses (400, 415, 422) that single operations do not all document.
 *
 * `BAD_INPUT_SEED` changes the seed, `BAD_INPUT_RUNS` the requests per route (default 16),
 * `BAD_INPUT_VERBOSE=1` prints every request that failed the property with its answer.
 */

const SEED = Number(process.env.BAD_INPUT_SEED ?? 909);
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 16);
/** Requests for a write route that documents neither body nor query (bodies sent anyway). */
const RUNS_BODILESS = Math.max(4, Math.round(RUNS / 3));

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;
type OpenApi = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

// ------------------------------------------------------------------ actors and ids

type Who = 'owner' | 'customer' | 'driver' | 'admin' | 'anonymous';
const ACTORS: Record<AccessCode, readonly Who[]> = {
  PUB: ['anonymous'],
  'PUB-T': ['anonymous'],
  NONE: ['anonymous'],
  TOK: ['owner', 'customer', 'driver'],
  'TOK-ACT': ['owner', 'customer', 'driver'],
  'TOK-T': ['owner', 'customer', 'driver'],
  CO: ['owner'],
  'CO-B': ['owner'],
  CU: ['customer'],
  'CU-B': ['customer'],
  DR: ['driver'],
  'DR-B': ['driver'],
  'DR-IN': ['driver'],
  AD: ['admin'],
};

// ------------------------------------------------------------------ hostile values

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800@x.com';
const HOSTILE_STRINGS = [
  '',
  '   ',
  NUL,
  '\u0000',
  LONE_SURROGATE,
  '\udc00',
  'x'.repeat(5_000),
  "'; DROP TABLE users; --",
  '%_\\',
  '0000-01-01',
  '9999-12-31',
  '1899-12-31',
  '2024-02-30',
  '2031-13-01',
  '-1',
  '99999999999999999999',
  'NaN',
  'null',
  'true',
  '<a>b</a>',
  '\u202e\u200b💩',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
];
const HOSTILE_NUMBERS = [-1, 0.5, -0.0001, 2_147_483_647, 2_147_483_648, -2_147_483_649, 9_007_199_254_740_993, 1e20, -1e20, 1e308, Number.MIN_VALUE];
const WRONG_TYPES: unknown[] = [null, true, false, {}, [], [[]], [null], ['x'], [1], { a: 1 }, 'string', 123];

/** A value nested `n` levels (objects or arrays); small enough for JSON.stringify. */
const nested = (n: number, arrays: boolean): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = arrays ? [v] : { a: v };
  return v;
};
/** JSON text nested `n` levels, built as text (JSON.stringify would overflow the stack). */
const deepText = (n: number, arrays: boolean) => (arrays ? '['.repeat(n) + '1' + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n));

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 2 },
  { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
  { arbitrary: fc.constantFrom(nested(MAX_JSON_DEPTH + 5, false), nested(40, true)), weight: 1 },
);

// ------------------------------------------------------------------ generators from the OpenAPI document

interface Ctx {
  ids: Record<RecordKind, string>;
  /** 0: plausible values only; 1: now and then a hostile one; 2: often. */
  hostility: 0 | 1 | 2;
}

class Generator {
  constructor(private readonly doc: OpenApi) {}

  operation(r: MountedRoute): any | undefined {
    return this.doc.paths[r.path]?.[r.method.toLowerCase()];
  }

  private resolve(schema: Schema): Schema {
    let s = schema;
    for (let i = 0; i < 20; i++) {
      if (s.$ref) s = this.doc.components.schemas[String(s.$ref).split('/').pop()!] ?? {};
      else if (s.allOf?.length === 1 && !s.properties) s = { ...s, ...s.allOf[0], allOf: undefined };
      else if ((s.oneOf ?? s.anyOf)?.length) s = (s.oneOf ?? s.anyOf)[0];
      else return s;
    }
    return s;
  }

  /** A plausible value for the schema (valid most of the time). */
  private valid(schema: Schema, field: string, ctx: Ctx, depth: number): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    if (s.type === 'object' || s.properties) return this.object(s, ctx, depth + 1);
    if (s.type === 'array') {
      const itemField = field.endsWith('_ids') ? field.slice(0, -1) : field;
      const item = this.value(s.items ?? {}, itemField, ctx, depth + 1);
      if (ctx.hostility === 0) return fc.array(item, { maxLength: 3 });
      return fc.oneof(
        { arbitrary: fc.array(item, { maxLength: 3 }), weight: 4 },
        { arbitrary: fc.constantFrom<unknown>([[]], [null], ['x'], [1], [{}], [[{}]]), weight: 2 },
        { arbitrary: fc.constant(Array.from({ length: 1_200 }, () => randomUUID())), weight: 1 },
      );
    }
    if (s.enum?.length) return fc.constantFrom(...(s.enum as unknown[]));
    if (s.format === 'uuid' || /_id$/.test(field)) {
      const kind = BODY_ID_KINDS[field];
      return kind ? fc.oneof({ arbitrary: fc.constant(ctx.ids[kind]), weight: 3 }, { arbitrary: fc.uuid(), weight: 1 }) : fc.uuid();
    }
    switch (s.type) {
      case 'integer':
      case 'number': {
        const min = typeof s.minimum === 'number' ? s.minimum : -1000;
        const max = typeof s.maximum === 'number' ? Math.min(s.maximum, 2_147_483_647) : 1_000_000;
        const int = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
        return s.type === 'integer' ? int : fc.oneof(int, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
      }
      case 'boolean':
        return fc.boolean();
      default: {
        if (s.format === 'date') return fc.oneof({ arbitrary: fc.integer({ min: 1, max: 90 }).map((d) => inDays(d)), weight: 4 }, { arbitrary: fc.constantFrom('0000-01-01', '1899-12-31', '1900-01-01', '9999-12-31', '2031-02-29'), weight: 1 });
        if (s.format === 'date-time') return fc.integer({ min: 1, max: 90 }).map((d) => new Date(Date.now() + d * 86_400_000).toISOString());
        if (s.format === 'email') return fc.nat().map(() => uniqueEmail('bad-input'));
        if (s.format === 'uri' || s.format === 'url' || /url$/.test(field)) return fc.constant('https://files.example.test/doc.pdf');
        if (/password/.test(field)) return fc.constant(PASSWORD);
        const max = typeof s.maxLength === 'number' ? s.maxLength : 40;
        const example = typeof s.example === 'string' ? [s.example] : [];
        const plausible = fc.oneof({ arbitrary: fc.constantFrom(...example, 'Plain text', 'Ünïcødé 😀'), weight: 3 }, { arbitrary: fc.string({ minLength: 1, maxLength: Math.min(max, 30) }), weight: 2 });
        return ctx.hostility ? fc.oneof({ arbitrary: plausible, weight: 5 }, { arbitrary: fc.string({ minLength: max + 1, maxLength: max + 3 }), weight: 1 }) : plausible;
      }
    }
  }

  /** A value for a field: valid-ish most of the time, hostile otherwise. */
  private value(schema: Schema, field: string, ctx: Ctx, depth: number): fc.Arbitrary<unknown> {
    if (depth > 6) return hostileScalar;
    if (ctx.hostility === 0) return this.valid(schema, field, ctx, depth);
    return fc.oneof({ arbitrary: this.valid(schema, field, ctx, depth), weight: ctx.hostility === 1 ? 14 : 6 }, { arbitrary: hostileScalar, weight: 2 }, { arbitrary: fc.constant(null), weight: 1 });
  }

  private object(s: Schema, ctx: Ctx, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const props = Object.entries<Schema>(s.properties ?? {});
    const required = new Set<string>(s.required ?? []);
    const model = Object.fromEntries(props.map(([p, ps]) => [p, this.value(ps, p, ctx, depth)]));
    // Required fields are usually there, optional ones half the time; sometimes a field not in the schema.
    const keep = fc.tuple(...props.map(([p]) => fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < (required.has(p) ? 0.9 : 0.5))));
    const extra: fc.Arbitrary<[string, unknown] | null> = ctx.hostility
      ? fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: fc.tuple(fc.constantFrom('extra', 'id', '__proto__', 'company_id', 'a\u0000', 'constructor'), hostileScalar), weight: 1 })
      : fc.constant(null);
    return fc.tuple(props.length ? fc.record(model) : fc.constant({} as Record<string, unknown>), props.length ? keep : fc.constant([] as boolean[]), extra).map(([values, kept, ex]) => {
      const out: Record<string, unknown> = {};
      props.forEach(([p], i) => {
        if (kept[i]) out[p] = values[p];
      });
      if (ex) Object.defineProperty(out, ex[0], { value: ex[1], enumerable: true, writable: true, configurable: true });
      return out;
    });
  }

  /** The JSON body of the route from its request schema (`{}` when it documents none). */
  jsonBody(r: MountedRoute, ctx: Ctx): fc.Arbitrary<unknown> {
    const schema = this.operation(r)?.requestBody?.content?.['application/json']?.schema;
    return schema ? fc.constantFrom<Ctx['hostility']>(0, 1, 2).chain((hostility) => this.valid(schema, 'body', { ...ctx, hostility }, 0)) : fc.constant({});
  }

  queryParams(r: MountedRoute): { name: string; schema: Schema }[] {
    return ((this.operation(r)?.parameters ?? []) as { name: string; in: string; schema: Schema }[]).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} }));
  }

  /** Query string pairs: the route's parameters (valid-ish or hostile), sometimes repeated or unknown ones. */
  query(r: MountedRoute, ctx: Ctx): fc.Arbitrary<[string, string][]> {
    const params = this.queryParams(r);
    const hostileText = fc.constantFrom('\u0000', NUL, '99999999999999999999', '-1', '0', '1.5', '', 'abc', '0000-01-01', '1e400', 'true', 'x'.repeat(3000), '%', '\\', "'");
    const one = (p: { name: string; schema: Schema }): fc.Arbitrary<[string, string][]> =>
      fc.oneof(
        { arbitrary: this.valid(p.schema, p.name, ctx, 0).map((v): [string, string][] => [[p.name, typeof v === 'string' ? v : JSON.stringify(v)]]), weight: 3 },
        { arbitrary: hostileText.map((v): [string, string][] => [[p.name, v]]), weight: 2 },
        { arbitrary: fc.tuple(hostileText, hostileText).map(([a, b]): [string, string][] => [[p.name, a], [p.name, b]]), weight: 1 },
      );
    const special = fc.constantFrom<[string, string][]>([['page', '99999999999999999999']], [['q', 'a\u0000b']], [['per_page', '1000']], [['sort', 'created_at;drop']], [['unknown', 'x']], []);
    const chosen = params.length ? fc.subarray(params).chain((ps) => (ps.length ? fc.tuple(...ps.map(one)).map((l) => l.flat()) : fc.constant([] as [string, string][]))) : fc.constant([] as [string, string][]);
    return fc.tuple(chosen, special).map(([a, b]) => [...a, ...b]);
  }
}

// ------------------------------------------------------------------ requests

type Body = { json: unknown } | { raw: string; type: string } | undefined;
interface Call {
  who: Who;
  path: string;
  query: [string, string][];
  body: Body;
}

const OTHER_BODIES: fc.Arbitrary<Body>[] = [
  // Nested deeper than the limit, up to 10 000 levels (as text: JSON.stringify would overflow).
  fc.constantFrom(MAX_JSON_DEPTH + 1, 100, 10_000).chain((n) => fc.boolean().map((arrays): Body => ({ raw: deepText(n, arrays), type: 'application/json' }))),
  // Not JSON: forms, text, XML, multipart, binary.
  fc.constantFrom<Body>(
    { raw: 'name=changed&reason=x', type: 'application/x-www-form-urlencoded' },
    { raw: 'cancel please', type: 'text/plain' },
    { raw: '<order><reason>x</reason></order>', type: 'application/xml' },
    { raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nchanged\r\n--b--\r\n', type: 'multipart/form-data; boundary=b' },
    { raw: '\u0000\u0001', type: 'application/octet-stream' },
    { raw: '{"name":"x"}', type: 'text/json' },
  ),
  // Malformed or non-object JSON.
  fc.constantFrom<Body>(
    { raw: '{"name":', type: 'application/json' },
    { raw: '{"a":1}}', type: 'application/json' },
    { raw: '"text"', type: 'application/json' },
    { raw: 'null', type: 'application/json' },
    { raw: '[]', type: 'application/json' },
    { raw: '[[]]', type: 'application/json' },
    { raw: '{"name":"\\u0000"}', type: 'application/json' },
    { raw: '{"email":"a\\ud800@x.com","password":"x"}', type: 'application/json; charset=utf-8' },
    { raw: '{"a":1}', type: 'application/json; charset=latin1' },
    { raw: '{"a":1}', type: 'application/merge-patch+json' },
  ),
];

/** Everything a request of the route can be. */
function callArbitrary(r: MountedRoute, gen: Generator, ctx: Ctx): fc.Arbitrary<Call> {
  const whos = ACTORS[r.access ?? 'NONE'];
  const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const idFor = (p: string) => {
    const kind = paramKind(r.path, p);
    return fc.oneof(
      { arbitrary: kind ? fc.constant(ctx.ids[kind]) : fc.uuid(), weight: 6 },
      { arbitrary: fc.uuid(), weight: 1 },
      { arbitrary: fc.constantFrom('not-a-uuid', '%00', '%FF', 'a%00b', '..', '99999999999999999999'), weight: 1 },
    );
  };
  const path = params.length ? fc.tuple(...params.map(idFor)).map((vals) => params.reduce((p, name, i) => p.replace(`{${name}}`, vals[i]), r.path)) : fc.constant(r.path);
  const json: fc.Arbitrary<Body> = gen.jsonBody(r, ctx).map((v) => ({ json: v }));
  const body: fc.Arbitrary<Body> = fc.oneof(
    { arbitrary: json, weight: 8 },
    { arbitrary: fc.oneof(...OTHER_BODIES), weight: 3 },
    { arbitrary: hostileScalar.filter((v) => typeof v === 'object' && v !== null).map((v): Body => ({ json: v })), weight: 1 },
    { arbitrary: fc.constant<Body>(undefined), weight: 1 },
  );
  const query = fc.oneof({ arbitrary: gen.query(r, ctx), weight: 4 }, { arbitrary: fc.constant<[string, string][]>([]), weight: 1 });
  return fc.record({ who: fc.constantFrom(...whos), path, query, body: r.method === 'GET' ? fc.oneof({ arbitrary: fc.constant<Body>(undefined), weight: 4 }, { arbitrary: body, weight: 1 }) : body });
}

/**
 * Route order, so that one route's successes take as little as possible from the next: reads, writes,
 * state moves that close a record, deletions, deactivations, and last the routes that end sessions.
 */
function rank(r: MountedRoute): number {
  if (/\/logout$/.test(r.path)) return 8;
  if (/\/refresh-token$/.test(r.path)) return 7;
  if (/\/(update-password|reset-password)$|\/company\/user\/update$/.test(r.path)) return 6;
  if (/\/deactivate$/.test(r.path)) return 5;
  if (r.method === 'DELETE' || /\/delete$/.test(r.path)) return 4;
  if (r.method === 'PUT' && /\/holidays$/.test(r.path)) return 3;
  if (/\/(cancel|reject)$/.test(r.path) || /^\/api\/v1\/reject\//.test(r.path) || /\/settings\/reset$/.test(r.path)) return 2;
  return r.method === 'GET' ? 0 : 1;
}

/** A stable 31-bit hash of the route, mixed into the seed. */
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7) & 0x7fffffff;

// ------------------------------------------------------------------ the test

describe('bad input is never a 500 (property over every route with a body or query)', () => {
  let t: TestApp;
  let world: TenantWorld;
  let adminToken: string;
  let http: ReturnType<typeof request>;
  const KEY = 'admin-registration-key-bad-input';

  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_REGISTRATION_KEY: KEY } });
    http = request(t.app.getHttpServer());
    world = await tenantWorld(t, 'Bad Input Hauling');
    const admin = await http
      .post('/api/v1/admin/auth/register')
      .set('X-Forwarded-For', freshIp())
      .send({ name: 'Root', email: uniqueEmail('admin'), password: PASSWORD, registration_key: KEY });
    if (admin.status !== 201) throw new Error(`admin register → ${admin.status} ${JSON.stringify(admin.body)}`);
    adminToken = admin.body.data.token;
  }, 120_000);

  afterAll(async () => t?.close());

  /** A request through the plain client, as `who`, with a JSON body or raw text of a content type. */
  const send = (method: 'get' | 'post' | 'put' | 'patch', url: string, token: string | undefined, body?: unknown, type = 'application/json') => {
    let req = http[method](url).set('X-Forwarded-For', freshIp());
    if (token) req = req.set('Authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.set('Content-Type', type).send(typeof body === 'string' ? body : JSON.stringify(body));
    return req;
  };
  const envelope = { success: false, message: expect.any(String), code: expect.any(String), request_id: expect.any(String) };

  it('refuses the inputs of issue #9 with 4xx envelopes (examples)', async () => {
    const owner = world.owner.token;
    const deep = await send('post', '/api/v1/taxes', owner, deepText(10_000, false));
    expect([deep.status, deep.body]).toEqual([400, { ...envelope, code: 'JSON_TOO_DEEP' }]);
    const deepArrays = await send('post', '/api/v1/taxes', owner, deepText(MAX_JSON_DEPTH + 1, true));
    expect(deepArrays.status).toBe(400);
    // At the limit the body is parsed and validated as usual.
    const atLimit = await send('post', '/api/v1/taxes', owner, { name: 'x', rate_bps: 1, extra: nested(MAX_JSON_DEPTH - 2, false) });
    expect([atLimit.status, atLimit.body.errors]).toEqual([422, { extra: ['is not allowed'] }]);

    const nul = await send('post', '/api/v1/waste-types', owner, { name: 'A\u0000B', code: 'nul' });
    expect([nul.status, nul.body]).toEqual([422, { ...envelope, code: 'VALIDATION_FAILED', errors: { name: [expect.stringMatching(/NUL/)] } }]);
    const hours = await send('put', `/api/v1/lot/${world.ids.lot}/update`, owner, { opening_hours: { mon: { open: '07:00\u0000', close: '17:00' } } });
    expect([hours.status, Object.keys(hours.body.errors ?? {})]).toEqual([422, ['opening_hours.mon.open']]);
    const q = await send('get', '/api/v1/waste-types?q=a%00b', owner);
    expect([q.status, Object.keys(q.body.errors ?? {})]).toEqual([422, ['q']]);
    const surrogate = await send('post', '/api/v1/auth/login', undefined, { email: 'a\ud800@x.com', password: 'x' });
    expect([surrogate.status, surrogate.body]).toEqual([422, { ...envelope, code: 'VALIDATION_FAILED', errors: { email: [expect.stringMatching(/surrogate/)] } }]);

    const year0 = await send('post', `/api/v1/lot/${world.ids.lot}/holidays`, owner, { date: '0000-01-01', name: 'Year zero' });
    expect([year0.status, Object.keys(year0.body.errors ?? {})]).toEqual([422, ['date']]);
    const holidays = await send('put', `/api/v1/lot/${world.ids.lot}/holidays`, owner, { holidays: [[]] });
    expect([holidays.status, holidays.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    const documents = await send('post', '/api/v1/company/documents', owner, { documents: [[]] });
    expect([documents.status, documents.body.code]).toEqual([422, 'VALIDATION_FAILED']);

    for (const [url, field] of [
      [`/api/v1/taxes/${world.ids.tax}`, 'is_default'],
      [`/api/v1/taxes/${world.ids.tax}`, 'applies_to'],
      [`/api/v1/payment-terms/${world.ids.paymentTerm}`, 'is_default'],
      [`/api/v1/pricing-profiles/${world.ids.pricingProfile}`, 'is_default'],
      [`/api/v1/policies/${world.ids.policy}`, 'demerit_points'],
      [`/api/v1/truck-types/${world.ids.truckType}`, 'capacity_kg'],
      [`/api/v1/waste-types/${world.ids.wasteType}`, 'name'],
    ]) {
      const res = await send('put', url, owner, { [field]: null });
      expect({ url, field, status: res.status, errors: Object.keys(res.body.errors ?? {}) }).toEqual({ url, field, status: 422, errors: [field] });
    }
    const created = await send('post', '/api/v1/taxes', owner, { name: 'Null default', rate_bps: 100, is_default: null });
    expect([created.status, Object.keys(created.body.errors ?? {})]).toEqual([422, ['is_default']]);

    const page = await send('get', '/api/v1/orders?page=99999999999999999999', owner);
    expect([page.status, Object.keys(page.body.errors ?? {})]).toEqual([422, ['page']]);

    // Bodies that are not JSON: 415, and nothing changes.
    const before = (await send('get', `/api/v1/waste-types/${world.ids.wasteType}`, owner).expect(200)).body.data.name;
    const form = await send('put', `/api/v1/waste-types/${world.ids.wasteType}`, owner, 'name=changed', 'application/x-www-form-urlencoded');
    expect([form.status, form.body]).toEqual([415, { ...envelope, code: 'UNSUPPORTED_MEDIA_TYPE' }]);
    expect((await send('get', `/api/v1/waste-types/${world.ids.wasteType}`, owner).expect(200)).body.data.name).toBe(before);
    for (const type of ['text/plain', 'application/xml']) {
      const cancel = await send('post', `/api/v1/customer/order/${world.ids.order}/cancel`, world.customer.token, '<cancel/>', type);
      expect([cancel.status, cancel.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect((await send('get', `/api/v1/orders/${world.ids.order}/details`, owner).expect(200)).body.data.status).toBe('approved');
    const multipart = await send('post', '/api/v1/taxes', owner, '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n', 'multipart/form-data; boundary=b');
    expect(multipart.status).toBe(415);
    // Body-parser failures are envelopes too.
    const malformed = await send('post', '/api/v1/taxes', owner, '{"name":', 'application/json');
    expect([malformed.status, malformed.body]).toEqual([400, { ...envelope, code: 'MALFORMED_JSON' }]);
    const charset = await send('post', '/api/v1/taxes', owner, '{}', 'application/json; charset=latin1');
    expect([charset.status, charset.body]).toEqual([415, { ...envelope, code: 'UNSUPPORTED_MEDIA_TYPE' }]);
    const gzip = await send('post', '/api/v1/taxes', owner, '{}').set('Content-Encoding', 'x-unknown');
    expect([gzip.status, gzip.body]).toEqual([415, { ...envelope, code: 'UNSUPPORTED_MEDIA_TYPE' }]);
    // A request without a body is as before (approve takes none; this order is already approved: 409).
    const empty = await send('patch', `/api/v1/approve/order/${world.ids.order}`, owner);
    expect(empty.status).toBe(409);
  });

  it('answers every generated request below 500, with the error envelope on every 4xx', async () => {
    const doc = (await http.get('/api/documentation-json').expect(200)).body as OpenApi;
    const gen = new Generator(doc);
    const ctx: Ctx = { ids: world.ids, hostility: 2 };
    const tokens: Record<Who, string | undefined> = { owner: world.owner.token, customer: world.customer.token, driver: world.driver.token, admin: adminToken, anonymous: undefined };

    const adapter = new Set(ADAPTER_ROUTES.map((a) => `${a.method} ${a.path}`));
    const routes = mountedRoutes(t.app)
      .filter((r) => !adapter.has(`${r.method} ${r.path}`))
      .filter((r) => r.method !== 'GET' || gen.operation(r)?.requestBody || gen.queryParams(r).length)
      .sort((a, b) => rank(a) - rank(b) || `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
    expect(routes.length).toBeGreaterThan(100);

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    /** Routes that answered at least one request with a 2xx (the generated input reached the handler's work). */
    const succeeded = new Set<string>();
    /** Per route: status → count (printed with BAD_INPUT_VERBOSE). */
    const perRoute = new Map<string, Map<number, number>>();
    let requests = 0;
    const started = Date.now();

    for (const r of routes) {
      const op = gen.operation(r);
      const documented = !!op?.requestBody || gen.queryParams(r).length > 0;
      const calls = fc.sample(callArbitrary(r, gen, ctx), { seed: SEED ^ hash(`${r.method} ${r.path}`), numRuns: documented ? RUNS : RUNS_BODILESS });
      for (const call of calls) {
        const qs = call.query.length ? '?' + new URLSearchParams(call.query).toString() : '';
        const url = call.path + qs;
        let req = (http as unknown as Record<string, (u: string) => request.Test>)[r.method.toLowerCase()](url).set('X-Forwarded-For', freshIp()).timeout(20_000);
        const token = tokens[call.who];
        if (token) req = req.set('Authorization', `Bearer ${token}`);
        if (call.body && 'json' in call.body) req = req.set('Content-Type', 'application/json').send(JSON.stringify(call.body.json));
        else if (call.body) req = req.set('Content-Type', call.body.type).send(call.body.raw);
        const sent = call.body ? ('json' in call.body ? JSON.stringify(call.body.json) : `<${call.body.type}> ${call.body.raw}`) : '(no body)';
        const what = () => `${r.method} ${url.length > 300 ? url.slice(0, 300) + '…' : url} as ${call.who} with ${sent.length > 400 ? sent.slice(0, 400) + '…' : sent}`;
        requests++;
        let res: request.Response;
        try {
          res = await req;
        } catch (e) {
          failures.push(`${what()} → no answer (${(e as Error).message})`);
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status < 300) succeeded.add(`${r.method} ${r.path}`);
        const counts = perRoute.get(`${r.method} ${r.path}`) ?? new Map<number, number>();
        perRoute.set(`${r.method} ${r.path}`, counts.set(res.status, (counts.get(res.status) ?? 0) + 1));
        if (res.status >= 500) {
          failures.push(`${what()} → ${res.status} ${JSON.stringify(res.body)}`);
        } else if (res.status >= 400) {
          const b = res.body as Record<string, unknown>;
          const envelope =
            /application\/json/.test(String(res.headers['content-type'])) &&
            b?.success === false &&
            typeof b.message === 'string' &&
            typeof b.code === 'string' &&
            typeof b.request_id === 'string';
          if (!envelope) failures.push(`${what()} → ${res.status} without the error envelope: ${res.headers['content-type']} ${res.text?.slice(0, 300)}`);
        }
      }
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const hist = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`bad-input (${t.db}, seed ${SEED}, ${RUNS} per route): ${routes.length} routes (${succeeded.size} with a 2xx), ${requests} requests in ${seconds} s; statuses ${hist}; ${failures.length} failures`);
    if (process.env.BAD_INPUT_VERBOSE) {
      const lines = [...perRoute].map(([route, counts]) => `${route}: ${[...counts].sort(([a], [b]) => a - b).map(([st, n]) => `${st}×${n}`).join(' ')}`);
      console.log(lines.join('\n') + '\n' + failures.join('\n'));
    }
    expect(failures.slice(0, 40)).toEqual([]);
  }, 300_000);
});
