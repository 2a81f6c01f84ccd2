import type { Response } from 'supertest';
import { AccessCode, OPEN_CODES } from '../../../src/common/access/access-codes';
import { MountedRoute, mountedRoutes } from '../../../src/common/access/route-inventory';
import { MemberActor, uniqueEmail } from '../../support/actors';
import { ABSENT_ID } from '../../support/fixtures';
import { inDays } from '../../support/order-fixtures';
import { startTestApp, TestApp } from '../../support/test-app';
import { BODY_ID_KINDS, paramKind, RECORD_KINDS, RecordKind, SHARED_PARAMS, tenantWorld, TenantWorld, uuidsIn } from '../../support/tenant-world';

/**
 * Tenant isolation, swept over the route inventory instead of written route by route.
 *
 * Company A (victim) and company B (attacker) each get one record of every kind a route takes as a path
 * id (test/support/tenant-world.ts). Then, for EVERY mounted route with a `{param}`, B's owner, customer
 * and driver call it with A's ids in the path (and with every mix of A's and B's ids on nested routes),
 * with a body generated from the route's request schema in the served OpenAPI document that is valid for
 * the caller (its `*_id` fields carry B's own ids). The only acceptable answers are 404 for the actor the
 * route's access code admits, indistinguishable (status, code, message) from the answer to an id that
 * names nothing, and 401/403 for the others; no answer may show one of A's ids. Every list (GET without a
 * path id) is read by B's actors, plain and filtered by A's ids, and must not contain any of A's ids. A
 * second customer of A (and A's driver, whose job is on the second customer's order) gets 404 on the first customer's orders,
 * addresses and change requests. A route whose parameter the sweep cannot fill fails the test, so new
 * routes are covered the day they are mounted. PUB/NONE routes are also called without a token; the few
 * that are public by design go in ALLOW_LIST.
 *
 * Controls that keep the sweep honest: A's own actors read every record first (their answers also give
 * the set of "A's ids" to look for), every generated body is sent with absent ids by the admitted actor
 * (a 404 proves the body passed validation), and, at the end, A's own actors call every write route with
 * A's ids (anything but 404 proves the parameter table names the right kind of record).
 *
 * `TENANT_SWEEP_VERBOSE=1` prints every allow-listed and control call after the summary line.
 */

// ------------------------------------------------------------------ tables

/** In FIELD_OVERRIDES: never send this field. */
const OMIT = Symbol('omit');
/**
 * Per-field overrides (`Schema.field`): the value to send (added to the required fields) or OMIT. Only
 * where the schema cannot say what is valid (fields required or refused depending on another field).
 */
const FIELD_OVERRIDES: Record<string, unknown> = {
  // `type` decides which other fields are required or refused; extend_rental needs `days` and refuses the ids.
  'ChangeRequestBodyDto.type': 'extend_rental',
  'ChangeRequestBodyDto.days': 1,
  'ChangeRequestBodyDto.address_id': OMIT,
  'ChangeRequestBodyDto.waste_type_id': OMIT,
  'ChangeRequestBodyDto.asset_specification_id': OMIT,
  // location_id names a record of this type (BODY_ID_KINDS.location_id).
  'AssetLocationDto.location_type': 'lot',
  // A required nullable object the generator leaves out: a weekday's or a date's hours (all day: the world's sites stay open).
  'WeekdayHoursDto.hours': { open: '00:00', close: '24:00' },
  'OpeningExceptionInputDto.hours': { open: '00:00', close: '24:00' },
};

/**
 * Public by design and addressed by an unguessable id: anyone holding the id may read it, so another
 * tenant's id answers 200 here. Each entry must be a mounted route with access PUB or NONE.
 */
const ALLOW_LIST: { method: string; path: string; reason: string }[] = [
  { method: 'GET', path: '/api/public/order/{orderId}/download', reason: 'order PDF shared by link: reachable by the order UUID only (README, "Public PDF")' },
  { method: 'GET', path: '/api/v1/media/{media}', reason: 'uploaded files are served without a token at the unguessable `url` /upload-media returns' },
];

/** Kinds a customer owns privately inside its company (same-company isolation). */
const CUSTOMER_PRIVATE: ReadonlySet<RecordKind> = new Set(['order', 'address', 'orderChangeRequest', 'transaction', 'instrument', 'walletTransaction', 'chat', 'chatMessage', 'customerPolicyViolation', 'policyViolationDisputeMessage']);

// ------------------------------------------------------------------ actors and access codes

type Who = 'owner' | 'customer' | 'driver' | 'anonymous';
const TOKEN_ACTORS: Who[] = ['owner', 'customer', 'driver'];
const ALL: Who[] = [...TOKEN_ACTORS, 'anonymous'];
const ADMITTED: Record<AccessCode, readonly Who[]> = {
  PUB: ALL,
  'PUB-T': ALL,
  NONE: ALL,
  TOK: TOKEN_ACTORS,
  'TOK-ACT': TOKEN_ACTORS,
  'TOK-T': TOKEN_ACTORS,
  CO: ['owner'],
  'CO-B': ['owner'],
  CU: ['customer'],
  'CU-B': ['customer'],
  DR: ['driver'],
  'DR-B': ['driver'],
  // Needs an open attendance: the world's driver checks in (tenant-world.ts) and stays checked in.
  'DR-IN': ['driver'],
  AD: [],
};
const admits = (r: MountedRoute, who: Who) => (r.access ? ADMITTED[r.access].includes(who) : false);
const isOpen = (r: MountedRoute) => !!r.access && OPEN_CODES.has(r.access);

/** The actor whose token a call carries, and the ids its bodies use. */
interface Caller {
  label: string;
  who: Who;
  token?: string;
  /** The caller's own record of each kind, for the body's `*_id` fields. */
  own: Record<RecordKind, string>;
}
const callerOf = (w: TenantWorld, who: Who, label = `${w.name} ${who}`, customer: MemberActor = w.customer, own: Record<RecordKind, string> = w.ids): Caller => ({
  label,
  who,
  token: who === 'owner' ? w.owner.token : who === 'customer' ? customer.token : who === 'driver' ? w.driver.token : undefined,
  own,
});

// ------------------------------------------------------------------ routes

// Global records' parameters (SHARED_PARAMS: `{plan}`) are no tenant ids: filled with their fixed value, never swept.
const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((p) => !Object.hasOwn(SHARED_PARAMS, p));
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** The kind of each path parameter, or the names the sweep cannot fill. */
function kindsOf(r: MountedRoute): { kinds: Record<string, RecordKind>; unknown: string[] } {
  const kinds: Record<string, RecordKind> = {};
  const unknown: string[] = [];
  for (const p of paramsOf(r.path)) {
    const kind = paramKind(r.path, p);
    if (kind) kinds[p] = kind;
    else unknown.push(p);
  }
  return { kinds, unknown };
}

const fill = (path: string, values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, p: string) => values[p] ?? SHARED_PARAMS[p]);

/**
 * Call order, so that a call never loses the record a later one needs: reads, then writes, then state
 * moves that close a record, then deletions and whole-set replacements (children before parents),
 * deactivations last (they lock the actor out).
 */
function rank(r: MountedRoute, all: MountedRoute[]): number {
  if (r.method === 'GET') return 0;
  if (/\/deactivate$/.test(r.path)) return 5;
  const replacesSet = r.method === 'PUT' && all.some((o) => o !== r && o.path.startsWith(r.path + '/{'));
  if (r.method === 'DELETE' || /\/delete$/.test(r.path) || replacesSet) return 3;
  if (/\/(cancel|reject)$/.test(r.path) || /^\/api\/v1\/reject\//.test(r.path)) return 2;
  return 1;
}
function callOrder(routes: MountedRoute[], all: MountedRoute[]): MountedRoute[] {
  const deletes = (r: MountedRoute) => (r.method === 'DELETE' || /\/delete$/.test(r.path) ? 1 : 0);
  return [...routes].sort(
    (a, b) => rank(a, all) - rank(b, all) || paramsOf(b.path).length - paramsOf(a.path).length || deletes(a) - deletes(b) || b.path.length - a.path.length || key(a).localeCompare(key(b)),
  );
}

// ------------------------------------------------------------------ bodies from the OpenAPI document

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;
type OpenApi = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

class BodyGenerator {
  constructor(private readonly doc: OpenApi) {}

  operation(r: MountedRoute): any | undefined {
    return this.doc.paths[r.path]?.[r.method.toLowerCase()];
  }

  /**
   * The bodies to send, valid for `caller`: the required fields only, and (when it differs) the required
   * fields plus every optional `*_id`/`*_ids` field, so that handlers that look body ids up before the path
   * id are exercised too. `[undefined]` when the route takes no body. Throws when it cannot build one.
   */
  bodies(r: MountedRoute, caller: Caller): unknown[] {
    const minimal = this.body(r, caller, false);
    const withIds = this.body(r, caller, true);
    return JSON.stringify(minimal) === JSON.stringify(withIds) ? [minimal] : [minimal, withIds];
  }

  /** One body: the required fields, and with `ids` the optional id fields too. */
  body(r: MountedRoute, caller: Caller, ids = true): unknown {
    const op = this.operation(r);
    if (!op) {
      if (['POST', 'PUT', 'PATCH'].includes(r.method)) throw new Error(`${key(r)} is not in the OpenAPI document: no schema to build its body from`);
      return undefined;
    }
    const content = op.requestBody?.content;
    if (!content) return undefined;
    const json = content['application/json'];
    if (!json) throw new Error(`${key(r)} takes ${Object.keys(content).join(', ')}: the sweep only generates JSON bodies`);
    return this.value(json.schema, 'body', caller, undefined, ids);
  }

  private resolve(schema: Schema): { schema: Schema; name?: string } {
    let name: string | undefined;
    let s = schema;
    for (;;) {
      if (s.$ref) {
        name = String(s.$ref).split('/').pop()!;
        s = this.doc.components.schemas[name];
        if (!s) throw new Error(`unknown schema ${name}`);
      } else if (s.allOf?.length === 1 && !s.properties) {
        s = { ...s, ...s.allOf[0], allOf: undefined };
      } else if ((s.oneOf ?? s.anyOf)?.length) {
        s = (s.oneOf ?? s.anyOf)[0];
      } else return { schema: s, name };
    }
  }

  private value(raw: Schema, field: string, caller: Caller, schemaName: string | undefined, ids: boolean): unknown {
    const { schema, name } = this.resolve(raw);
    if (schema.type === 'object' || schema.properties) {
      const out: Record<string, unknown> = {};
      const required: string[] = schema.required ?? [];
      for (const [prop, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        const override = name ? `${name}.${prop}` : undefined;
        if (override && Object.hasOwn(FIELD_OVERRIDES, override)) {
          if (FIELD_OVERRIDES[override] !== OMIT) out[prop] = FIELD_OVERRIDES[override];
        } else if (required.includes(prop) || (ids && /_ids?$/.test(prop))) out[prop] = this.value(sub, prop, caller, name, ids);
      }
      return out;
    }
    if (schema.type === 'array') {
      const n = Math.max(1, schema.minItems ?? 1);
      const item = field.endsWith('_ids') ? { ...schema.items, 'x-id-field': field.slice(0, -1) } : schema.items;
      return Array.from({ length: n }, () => this.value(item, field, caller, schemaName, ids));
    }
    if (schema.enum?.length) return schema.enum[0];
    const idField = schema['x-id-field'] ?? field;
    if (schema.format === 'uuid' || /_id$/.test(idField)) {
      const kind = BODY_ID_KINDS[idField];
      if (!kind) throw new Error(`${schemaName ?? 'body'}.${field}: no record kind for the id field "${idField}" (add it to BODY_ID_KINDS in test/support/tenant-world.ts)`);
      return caller.own[kind];
    }
    switch (schema.type) {
      case 'integer':
      case 'number': {
        const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : undefined);
        const hi = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? Number(schema.exclusiveMaximum) - 1 : undefined);
        let v = typeof schema.example === 'number' ? schema.example : (lo ?? 1);
        if (lo !== undefined && v < lo) v = lo;
        if (hi !== undefined && v > hi) v = hi;
        return schema.type === 'integer' ? Math.ceil(v) : v;
      }
      case 'boolean':
        return typeof schema.example === 'boolean' ? schema.example : false;
      default: {
        if (schema.format === 'date') return inDays(45);
        if (schema.format === 'date-time') return new Date(Date.now() + 45 * 86_400_000).toISOString();
        if (schema.format === 'email') return uniqueEmail('sweep');
        if (schema.format === 'uri' || schema.format === 'url') return 'https://files.example.test/sweep.pdf';
        let v = typeof schema.example === 'string' ? schema.example : 'Isolation sweep';
        if (schema.maxLength !== undefined) v = v.slice(0, schema.maxLength);
        if (schema.minLength !== undefined) v = v.padEnd(schema.minLength, 'x');
        if (schema.pattern && !new RegExp(schema.pattern).test(v)) throw new Error(`${schemaName ?? 'body'}.${field}: cannot generate a value for pattern ${schema.pattern} (add a FIELD_OVERRIDES entry)`);
        return v;
      }
    }
  }

  /**
   * Query parameters of a list: the largest page, so nothing hides on page 2; the required ones filled
   * (an id with the caller's own record of its kind from `ids`, a date with one in the coming month), then `set`.
   */
  listQuery(r: MountedRoute, ids?: Partial<Record<RecordKind, string>>, set: Record<string, string> = {}): string {
    const params = ((this.operation(r)?.parameters ?? []) as { name: string; in: string; required?: boolean; schema?: { format?: string } }[]).filter((p) => p.in === 'query');
    const q = new URLSearchParams();
    if (params.some((p) => p.name === 'per_page')) q.set('per_page', '100');
    for (const p of params.filter((x) => x.required)) {
      const kind = Object.hasOwn(BODY_ID_KINDS, p.name) ? BODY_ID_KINDS[p.name] : undefined;
      if (kind && ids?.[kind]) q.set(p.name, ids[kind]!);
      else if (p.schema?.format === 'date') q.set(p.name, inDays(p.name === 'to' ? 30 : 1));
    }
    for (const [k, v] of Object.entries(set)) q.set(k, v);
    const text = q.toString();
    return text ? `?${text}` : '';
  }

  /** The list's `*_id` query filters that name a record kind. */
  idFilters(r: MountedRoute): [string, RecordKind][] {
    return ((this.operation(r)?.parameters ?? []) as { name: string; in: string }[])
      .filter((p) => p.in === 'query' && Object.hasOwn(BODY_ID_KINDS, p.name))
      .map((p) => [p.name, BODY_ID_KINDS[p.name]]);
  }
}

// ------------------------------------------------------------------ the test

/**
 * `TENANT_SWEEP_CONTROLLERS=InvoicesController,…`: sweep only those controllers' routes (the worlds keep
 * every kind). test/project/generators.spec.ts sweeps a generated module's routes so; the suite's own run
 * sweeps every route.
 */
const ONLY = process.env.TENANT_SWEEP_CONTROLLERS?.split(',').filter(Boolean);

describe('tenant isolation sweep (every mounted route, from the route inventory)', () => {
  let t: TestApp;
  let A: TenantWorld;
  let B: TenantWorld;
  /** Every mounted route; `routes`: those swept (all of them unless TENANT_SWEEP_CONTROLLERS). */
  let all: MountedRoute[];
  let routes: MountedRoute[];
  let gen: BodyGenerator;
  /** Every id company A's actors were ever shown (harvested from its own reads), lower case. */
  let aIds: Set<string>;
  /** A's reads that failed while harvesting (a fixture or parameter-table bug). */
  const ownReadFailures: string[] = [];

  const stats = { calls: 0, statuses: new Map<number, number>(), idRoutes: 0, unfillable: 0 };
  const calls: string[] = [];

  const send = async (r: MountedRoute, path: string, caller: Caller | undefined, body: unknown): Promise<Response> => {
    const res = await t.req(r.method.toLowerCase() as 'get', path, { token: caller?.token, body });
    stats.calls++;
    stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
    return res;
  };
  const describeRes = (res: Response) => `${res.status}${res.body?.code ? ' ' + res.body.code : ''}${res.status === 422 ? ' ' + JSON.stringify(res.body.errors ?? res.body.message) : ''}`;
  /** A's ids in a response, leaving out the ids the caller itself put in the request. */
  const leakedIds = (res: Response, sent: string[]) => [...new Set(uuidsIn(res.text).filter((u) => aIds.has(u) && !sent.includes(u)))];
  /** What distinguishes one error answer from another. */
  const shape = (res: Response) => ({ status: res.status, code: res.body?.code, message: res.body?.message });

  /** The body variants for a call (`[undefined]` when none can be built: the body test reports why). */
  const bodiesFor = (r: MountedRoute, caller: Caller): unknown[] => {
    try {
      return gen.bodies(r, caller);
    } catch {
      return [undefined];
    }
  };
  const idRoutes = () => routes.filter((r) => paramsOf(r.path).length > 0);
  const fillable = () => idRoutes().filter((r) => kindsOf(r).unknown.length === 0);
  const allowed = (r: MountedRoute) => ALLOW_LIST.find((a) => a.method === r.method && a.path === r.path);

  beforeAll(async () => {
    t = await startTestApp();
    A = await tenantWorld(t, 'Victim Hauling');
    B = await tenantWorld(t, 'Attacker Hauling');
    all = mountedRoutes(t.app);
    routes = ONLY ? all.filter((r) => ONLY.includes(r.handler.split('.')[0])) : all;
    const doc = await t.req('get', '/api/documentation-json').expect(200);
    gen = new BodyGenerator(doc.body as OpenApi);
    const docIds = new Set(uuidsIn(doc.text));

    // Harvest every id A's own actors can read (lists and records alike): these are "A's data". This is
    // also the read control: each of A's reads must succeed.
    aIds = new Set([...Object.values(A.ids), A.owner.userId, A.owner.companyId, A.customer.id, A.driver.id, A.customer2.id, A.customer2AddressId].map((u) => u.toLowerCase()));
    for (const r of routes.filter((x) => x.method === 'GET' && !isOpen(x))) {
      const { kinds, unknown } = kindsOf(r);
      if (unknown.length) continue;
      const values = Object.fromEntries(Object.entries(kinds).map(([p, k]) => [p, A.ids[k]]));
      // The first admitted actor (owner, else customer, else driver) must be able to read; the others may
      // be refused by design (a driver without a job on the order).
      const readers = TOKEN_ACTORS.filter((w) => admits(r, w));
      for (const who of readers) {
        const res = await send(r, fill(r.path, values) + (paramsOf(r.path).length ? '' : gen.listQuery(r, A.ids)), callerOf(A, who), undefined);
        if (res.status === 200) for (const u of uuidsIn(res.text)) if (!docIds.has(u)) aIds.add(u);
        if (res.status !== 200 && who === readers[0]) ownReadFailures.push(`${key(r)} as ${A.name} ${who} → ${describeRes(res)}`);
      }
    }
  }, 120_000);

  afterAll(async () => {
    const per = [...stats.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    const details = process.env.TENANT_SWEEP_VERBOSE ? '\n' + calls.join('\n') : '';
    console.log(`tenant-isolation: ${stats.idRoutes} routes with ids covered (${stats.unfillable} unfillable), ${stats.calls} calls; statuses ${per}${details}`);
    await t?.close();
  });

  if (ONLY) {
    it('sweeps the routes of each controller it is restricted to (TENANT_SWEEP_CONTROLLERS)', () => {
      expect(ONLY.filter((c) => !routes.some((r) => r.handler.startsWith(`${c}.`)))).toEqual([]);
    });
  }

  it('can fill the path of every mounted route that takes an id', () => {
    const unfillable = idRoutes()
      .map((r) => ({ r, unknown: kindsOf(r).unknown }))
      .filter((x) => x.unknown.length)
      .map(({ r, unknown }) => `${key(r)} (${r.handler}): no record kind for {${unknown.join('}, {')}}; add it to PARAM_KINDS or PATH_OVERRIDES in test/support/tenant-world.ts, with a record of that kind`);
    stats.unfillable = unfillable.length;
    expect(unfillable).toEqual([]);
    // Every kind has a record in both worlds.
    for (const w of [A, B]) for (const k of RECORD_KINDS) expect({ world: w.name, kind: k, id: /^[0-9a-f-]{36}$/i.test(w.ids[k] ?? '') }).toEqual({ world: w.name, kind: k, id: true });
  });

  it("lets A's own actors read every record the sweep uses (control: the parameter table names the right records)", () => {
    expect(ownReadFailures).toEqual([]);
  });

  it('keeps its allow-list to mounted PUB/NONE routes', () => {
    const bad = ALLOW_LIST.filter((a) => {
      const r = all.find((x) => x.method === a.method && x.path === a.path);
      return !r || !isOpen(r);
    }).map((a) => `${a.method} ${a.path}: not mounted, or not PUB/NONE`);
    expect(bad).toEqual([]);
  });

  it("generates bodies the admitted actor's validation accepts (absent ids answer 404, not 422)", async () => {
    const problems: string[] = [];
    for (const r of callOrder(fillable(), all)) {
      const who = ALL.find((w) => admits(r, w));
      if (!who) continue;
      let bodies: unknown[];
      try {
        bodies = gen.bodies(r, callerOf(B, who));
      } catch (e) {
        problems.push(String(e.message ?? e));
        continue;
      }
      const absent = Object.fromEntries(paramsOf(r.path).map((p) => [p, ABSENT_ID]));
      for (const body of bodies) {
        const res = await send(r, fill(r.path, absent), callerOf(B, who), body);
        if (res.status !== 404) problems.push(`${key(r)} as ${B.name} ${who} with absent ids and body ${JSON.stringify(body)} → ${describeRes(res)} (expected 404)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers 404 (or 401/403 to the wrong actor) when B's actors use A's ids on every route", async () => {
    const violations: string[] = [];
    const covered = callOrder(fillable(), all);
    stats.idRoutes = covered.length;
    for (const r of covered) {
      const { kinds } = kindsOf(r);
      const params = Object.keys(kinds);
      const allow = allowed(r);
      for (const who of isOpen(r) ? ALL : TOKEN_ACTORS) {
        const caller = callerOf(B, who);
        // The admitted actor tries every mix of A's and B's ids (at least one of A's) with every body
        // variant; the others A's ids with the first body.
        const mixes = admits(r, who) ? idMixes(params) : [params.map(() => 'A' as const)];
        const bodies = admits(r, who) ? bodiesFor(r, caller) : bodiesFor(r, caller).slice(0, 1);
        for (const [mix, body, variant] of mixes.flatMap((m) => bodies.map((b, i) => [m, b, i] as const))) {
          const values = Object.fromEntries(params.map((p, i) => [p, (mix[i] === 'A' ? A : B).ids[kinds[p]]]));
          const path = fill(r.path, values);
          const res = await send(r, path, caller, body);
          const what = `${r.method} ${r.path} [${params.map((p, i) => `${p}=${mix[i]}`).join(', ')}]${variant ? ' (body with ids)' : ''} as ${caller.label}`;
          if (allow) {
            calls.push(`allow-listed: ${what} → ${res.status} (${allow.reason})`);
            if (res.status >= 500) violations.push(`${what} → ${describeRes(res)}`);
            continue;
          }
          const ok = admits(r, who) ? res.status === 404 : [401, 403].includes(res.status);
          if (!ok) violations.push(`${what} → ${describeRes(res)} (expected ${admits(r, who) ? 404 : '401/403'})`);
          const leaked = leakedIds(res, Object.values(values));
          if (leaked.length) violations.push(`${what} → ${res.status} shows A's ids ${leaked.join(', ')}`);
          if (ok && admits(r, who)) {
            // A's id must be indistinguishable from an id that names nothing (same status, code and message).
            const absent = Object.fromEntries(params.map((p, i) => [p, mix[i] === 'A' ? ABSENT_ID : B.ids[kinds[p]]]));
            const control = await send(r, fill(r.path, absent), caller, body);
            if (JSON.stringify(shape(control)) !== JSON.stringify(shape(res)))
              violations.push(`${what} → ${JSON.stringify(shape(res))}, but an absent id → ${JSON.stringify(shape(control))}: A's id is distinguishable`);
          }
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it("shows none of A's ids in any list B's actors can read, filtered by A's ids or not", async () => {
    const violations: string[] = [];
    for (const r of routes.filter((x) => x.method === 'GET' && paramsOf(x.path).length === 0)) {
      for (const who of ALL.filter((w) => admits(r, w))) {
        const caller = callerOf(B, who);
        const res = await send(r, r.path + gen.listQuery(r, B.ids), caller, undefined);
        const what = `GET ${r.path} as ${caller.label}`;
        if (res.status < 200 || res.status >= 300) violations.push(`${what} → ${describeRes(res)} (expected 2xx)`);
        const leaked = leakedIds(res, []);
        if (leaked.length) violations.push(`${what} shows A's ids ${leaked.join(', ')}`);
        // A filter naming one of A's records must not open A's data either (empty page or 422).
        for (const [name, kind] of gen.idFilters(r)) {
          const filtered = await send(r, r.path + gen.listQuery(r, B.ids, { [name]: A.ids[kind] }), caller, undefined);
          const fw = `GET ${r.path}?${name}=<A's ${kind}> as ${caller.label}`;
          if (![200, 404, 422].includes(filtered.status)) violations.push(`${fw} → ${describeRes(filtered)} (expected 200, 404 or 422)`);
          const fl = leakedIds(filtered, [A.ids[kind]]);
          if (fl.length) violations.push(`${fw} shows A's ids ${fl.join(', ')}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it("keeps a customer's orders, addresses and change requests from another customer (and a driver without a job) of the same company", async () => {
    const violations: string[] = [];
    const privateIds = new Set([A.ids.order, A.ids.address, A.ids.orderChangeRequest, A.customer.id]);
    const neighbour = callerOf(A, 'customer', `${A.name} second customer`, A.customer2, { ...A.ids, address: A.customer2AddressId });
    const driver = callerOf(A, 'driver', `${A.name} driver without a job`);
    for (const r of callOrder(fillable(), all)) {
      const { kinds } = kindsOf(r);
      if (allowed(r) || !Object.values(kinds).some((k) => CUSTOMER_PRIVATE.has(k))) continue;
      const values = Object.fromEntries(Object.entries(kinds).map(([p, k]) => [p, A.ids[k]]));
      for (const caller of [neighbour, driver].filter((c) => admits(r, c.who))) {
        for (const body of bodiesFor(r, caller)) {
          const res = await send(r, fill(r.path, values), caller, body);
          const what = `${key(r)} with ${A.name} first customer's ids as ${caller.label}`;
          if (res.status !== 404) violations.push(`${what} → ${describeRes(res)} (expected 404)`);
        }
      }
    }
    for (const r of routes.filter((x) => x.method === 'GET' && paramsOf(x.path).length === 0)) {
      for (const caller of [neighbour, driver].filter((c) => admits(r, c.who))) {
        const res = await send(r, r.path + gen.listQuery(r, A.ids), caller, undefined);
        const seen = uuidsIn(res.text).filter((u) => privateIds.has(u));
        if (seen.length) violations.push(`GET ${r.path} as ${caller.label} shows the first customer's ids ${seen.join(', ')}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("resolves every filled id for A's own actors on every write route (control, runs last)", async () => {
    // Runs last: it changes A's records, destructive routes at the end.
    const problems: string[] = [];
    for (const r of callOrder(fillable(), all)) {
      if (r.method === 'GET') continue; // A's reads were checked while harvesting its ids
      const who = (['owner', 'customer', 'driver', 'anonymous'] as Who[]).find((w) => admits(r, w));
      if (!who) continue;
      const caller = callerOf(A, who);
      const values = Object.fromEntries(Object.entries(kindsOf(r).kinds).map(([p, k]) => [p, A.ids[k]]));
      const body = bodiesFor(r, caller).at(-1);
      const res = await send(r, fill(r.path, values), caller, body);
      calls.push(`control: ${key(r)} as ${caller.label} → ${describeRes(res)}`);
      if (res.status === 404 || res.status >= 500) problems.push(`${key(r)} as ${caller.label} with A's ids → ${describeRes(res)} (expected the record to resolve)`);
    }
    expect(problems).toEqual([]);
  });
});

/** Every assignment of A/B to the parameters with at least one A. */
function idMixes(params: string[]): ('A' | 'B')[][] {
  const out: ('A' | 'B')[][] = [];
  for (let m = 1; m < 1 << params.length; m++) out.push(params.map((_, i) => ((m >> i) & 1 ? 'A' : 'B')));
  return out.sort((a, b) => b.filter((x) => x === 'A').length - a.filter((x) => x === 'A').length);
}
