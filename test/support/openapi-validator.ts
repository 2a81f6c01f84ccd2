import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import request from 'supertest';

/**
 * Every response the e2e tests receive is checked against the OpenAPI document the app serves
 * (`GET /api/documentation-json`): the status must be one the operation documents, a JSON body must
 * match that status's schema, and any other body must have a documented content type. Objects are
 * closed (a property the schema does not list fails), so the document has to name every field the
 * server sends. `test/support/test-app.ts` applies it to every request made through `t.req` and `t.http`.
 *
 * Requests that reach no operation of the document are checked only where said here:
 * - OUTSIDE_DOCUMENT: routes deliberately left out of it (test-only probes, the documentation itself);
 * - any other unmatched path must answer the route-not-found error envelope (a 404 on a route that does
 *   not exist, which is what a test of unknown routes expects); anything else fails.
 */
export const OUTSIDE_DOCUMENT: { pattern: RegExp; why: string }[] = [
  { pattern: /^\/test\//, why: 'test-only probe routes (test/support/probe.module.ts)' },
  { pattern: /^\/api\/documentation(-json)?(\/.*)?$/, why: 'Swagger UI and the OpenAPI document itself' },
];

type Schema = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; responses?: Record<string, ResponseObject> };
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
interface Route {
  template: string;
  regex: RegExp;
  /** Segments, literal ones winning over parameters (the app's `routeResolutionStrategy: 'specificity'`). */
  literals: boolean[];
  operations: Record<string, Operation>;
}

const OPENAPI_ONLY = new Set(['example', 'xml', 'externalDocs', 'discriminator', 'nullable']);

/**
 * OpenAPI 3.0 schema → JSON Schema 2020-12: `nullable` (strictly: only with a `type` beside it, and
 * an enum must list null itself), component refs, closed objects (an object schema with `properties`
 * and no `additionalProperties` admits no other property; the members of an `allOf` are closed by the
 * schema that holds them, through `unevaluatedProperties`).
 */
export function toJsonSchema(s: unknown, inAllOf = false, open = false): unknown {
  if (Array.isArray(s)) return s.map((x) => toJsonSchema(x, false, open));
  if (!s || typeof s !== 'object') return s;
  const src = s as Schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(src)) {
    if (OPENAPI_ONLY.has(k)) continue;
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/components/schemas/', 'openapi-components#/$defs/');
    else if (k === 'properties' || k === 'patternProperties' || k === '$defs') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([p, ps]) => [p, toJsonSchema(ps, false, open)]));
    else if (k === 'allOf') out.allOf = (v as unknown[]).map((x) => toJsonSchema(x, true, open));
    // What a `not` excludes (fields that exclude each other) is a partial shape: never closed.
    else if (k === 'not') out.not = toJsonSchema(v, false, true);
    else if (k === 'format' && v === 'binary') continue;
    else out[k] = toJsonSchema(v, false, open);
  }
  const isObject = out.type === 'object' || ((out.properties || out.allOf) && !out.type);
  if (!inAllOf && !open && isObject && (out.properties || out.allOf) && out.additionalProperties === undefined) {
    out.type ??= 'object';
    out.unevaluatedProperties = false;
  }
  if (src.nullable === true && typeof out.type === 'string') {
    // Strict OpenAPI 3.0.3 reading, as strict tools apply it: `nullable` adds null to the `type` of the
    // same schema object, and nothing else. Beside `allOf`/`$ref` without a `type` it is ignored, beside
    // `type` an `allOf: [$ref]` still refuses null, and an `enum` admits null only when it lists it.
    out.type = [out.type, 'null'];
  }
  return out;
}

/** A strict ajv (2020-12, every error, unknown keywords refused) with the document's component schemas as `openapi-components`. */
export function strictAjv(doc: OpenApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi-components', $defs: toJsonSchema(doc.components?.schemas ?? {}) as Schema });
  return ajv;
}

export const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .slice(0, 12)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${e.keyword === 'unevaluatedProperties' ? `: '${(e.params as { unevaluatedProperty: string }).unevaluatedProperty}'` : e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : ''}`)
    .join('\n');

const truncate = (v: unknown, n = 1500) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > n ? s.slice(0, n) + '…' : s;
};

/** Counts for a run (written to $OPENAPI_VALIDATION_LOG by `report()` when set). */
export const validationStats = { schema: 0, contentType: 0, unmatched404: 0, outside: 0 };

export class OpenApiResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly errorEnvelope?: ValidateFunction;

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = strictAjv(doc);
    this.routes = Object.entries(doc.paths).map(([template, operations]) => {
      const segments = template.split('/').slice(1);
      const regex = new RegExp('^/' + segments.map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/') + '$');
      return { template, regex, literals: segments.map((seg) => !/^\{[^}]+\}$/.test(seg)), operations };
    });
    this.routes.sort((a, b) => {
      if (a.literals.length !== b.literals.length) return a.literals.length - b.literals.length;
      for (let i = 0; i < a.literals.length; i++) if (a.literals[i] !== b.literals[i]) return a.literals[i] ? -1 : 1;
      return 0;
    });
    if (doc.components?.schemas?.ErrorResponse) this.errorEnvelope = this.ajv.compile({ $ref: 'openapi-components#/$defs/ErrorResponse' });
  }

  /** The most specific path with this method (as the router picks), else the most specific path at all. */
  private route(path: string, method: string): Route | undefined {
    const matching = this.routes.filter((r) => r.regex.test(path));
    return matching.find((r) => r.operations[method]) ?? matching[0];
  }

  /** A response object, its `$ref` to components.responses followed. */
  private response(r: ResponseObject | undefined): ResponseObject | undefined {
    let out = r;
    for (let i = 0; out?.$ref && i < 5; i++) out = this.doc.components?.responses?.[out.$ref.replace('#/components/responses/', '')];
    return out;
  }

  /** Throws an Error naming method, path, status and what is wrong; returns quietly when the response conforms. */
  check(method: string, url: string, res: request.Response): void {
    const path = new URL(url, 'http://x').pathname;
    const m = method.toLowerCase();
    const where = `${method.toUpperCase()} ${path} → ${res.status}`;
    if (OUTSIDE_DOCUMENT.some((o) => o.pattern.test(path))) {
      validationStats.outside++;
      return;
    }
    const route = this.route(path, m);
    const op = route?.operations[m];
    if (!route || !op) {
      // No such operation: the router's 404 in the error envelope is the only acceptable answer.
      if (res.status === 404 && this.errorEnvelope?.(res.body) && (res.body as { code?: string }).code === 'NOT_FOUND') {
        validationStats.unmatched404++;
        return;
      }
      throw new Error(`OpenAPI: ${where}: the document has no operation ${method.toUpperCase()} ${route?.template ?? path}` + (route ? ` (it has ${Object.keys(route.operations).join(', ')})` : '') + `\nbody: ${truncate(res.body ?? res.text)}`);
    }
    const label = `${method.toUpperCase()} ${route.template} → ${res.status}`;
    const documented = op.responses ?? {};
    const response = this.response(documented[String(res.status)] ?? documented[`${String(res.status)[0]}XX`] ?? documented.default);
    if (!response) {
      throw new Error(`OpenAPI: ${label} (${path}): status ${res.status} is not documented for this operation (documented: ${Object.keys(documented).join(', ')})\nbody: ${truncate(res.body ?? res.text)}`);
    }
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (!types.length) {
      if (res.text || (res.body && Object.keys(res.body as object).length && !Buffer.isBuffer(res.body))) throw new Error(`OpenAPI: ${label}: documented without a body, but one was sent (${contentType})`);
      validationStats.contentType++;
      return;
    }
    const matching = types.find((t) => t.toLowerCase() === contentType) ?? types.find((t) => t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))) ?? types.find((t) => t === '*/*');
    if (!matching) throw new Error(`OpenAPI: ${label} (${path}): content type '${contentType}' is not documented (documented: ${types.join(', ')})`);
    if (!/[/+]json$/.test(matching)) {
      validationStats.contentType++;
      return;
    }
    const schema = content[matching].schema;
    if (!schema) throw new Error(`OpenAPI: ${label}: ${matching} has no schema`);
    const key = `${m} ${route.template} ${res.status} ${matching}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as Schema);
      this.compiled.set(key, validate);
    }
    // A test that reads the body raw (`.parse(binary)`, for a PDF) gets a Buffer for the JSON error too.
    const body = Buffer.isBuffer(res.body) ? JSON.parse(res.body.toString('utf8')) : res.body;
    if (!validate(body)) {
      throw new Error(`OpenAPI: ${label} (${path}): the body does not match the documented schema:\n${describeErrors(validate.errors)}\nbody: ${truncate(body)}`);
    }
    validationStats.schema++;
  }
}

const validators = new Map<string, OpenApiResponseValidator>();
/** One compiled validator per distinct document (the apps of a test file serve the same one). */
export function validatorFor(doc: OpenApiDocument): OpenApiResponseValidator {
  const key = JSON.stringify(doc);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = new OpenApiResponseValidator(doc)));
  return v;
}

type Http = ReturnType<typeof request>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options'] as const;

/**
 * Wraps a supertest client so that each request's response is checked against the served document
 * when it resolves, after the test's own `.expect(...)`s: a mismatch rejects the request's promise.
 */
/** The file of the OpenAPI document the global setup built for this run (test/support/global-setup.ts). */
export const OPENAPI_DOCUMENT_ENV = 'HAULOPS_TEST_OPENAPI_DOCUMENT';

/** The run's prebuilt OpenAPI document (read once per test file), or undefined outside jest's global setup. */
let prebuilt: OpenApiDocument | undefined;
export function prebuiltOpenApiDocument(): OpenApiDocument | undefined {
  const file = process.env[OPENAPI_DOCUMENT_ENV];
  if (!prebuilt && file && existsSync(file)) prebuilt = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  return prebuilt;
}

export async function validatedHttp(http: Http): Promise<Http> {
  const served = await http.get('/api/documentation-json');
  if (served.status !== 200) throw new Error(`GET /api/documentation-json answered ${served.status}`);
  const validator = validatorFor(served.body as OpenApiDocument);
  const wrapped = { ...http } as Http;
  for (const method of METHODS) {
    const create = (http as unknown as Record<string, (url: string) => request.Test>)[method];
    if (!create) continue;
    (wrapped as unknown as Record<string, (url: string) => request.Test>)[method] = (url: string) => {
      const test = create(url);
      const end = test.end;
      let added = false;
      test.end = function (this: request.Test, fn?: request.CallbackHandler) {
        if (!added) {
          added = true;
          this.expect((res: request.Response) => validator.check(method === 'del' ? 'delete' : method, url, res));
        }
        return end.call(this, fn);
      } as typeof test.end;
      return test;
    };
  }
  return wrapped;
}

/** Appends this process's counts to $OPENAPI_VALIDATION_LOG (one JSON line), when set. */
export function reportValidationStats(): void {
  const file = process.env.OPENAPI_VALIDATION_LOG;
  if (file) appendFileSync(file, JSON.stringify({ pid: process.pid, ...validationStats }) + '\n');
  for (const k of Object.keys(validationStats) as (keyof typeof validationStats)[]) validationStats[k] = 0;
}
