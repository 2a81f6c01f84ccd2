import { Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common/enums/request-method.enum';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../../src/app.module';
import { ApiError } from '../../../src/common/http/api-error';
import { validationPipe } from '../../../src/common/http/validation';
import { loadConfig } from '../../../src/config/app-config';
import { describeErrors, type OpenApiDocument, prebuiltOpenApiDocument, strictAjv, toJsonSchema } from '../../support/openapi-validator';

/**
 * Every request body example the document shows (a media type's `example`, each of its named `examples`,
 * or, without them, the example Swagger UI composes from the properties' examples) is valid against its
 * schema under a strict validator, and is accepted by its route's validation: the global ValidationPipe
 * (whitelist, unknown fields refused) with the handler's `@Body()` DTO class, as the server runs it.
 */

type Schema = Record<string, unknown>;
const doc = prebuiltOpenApiDocument() as OpenApiDocument & { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }> } }>> };

const resolve = (s: Schema | undefined): Schema | undefined => (s && typeof s.$ref === 'string' ? resolve(doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] as Schema) : s);

/** What Swagger UI shows as the example of a schema without one: properties' examples, else a value of the type. */
function sample(raw: Schema | undefined, depth = 0): unknown {
  const s = resolve(raw);
  if (!s || depth > 8) return undefined;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((x) => sample(x as Schema, depth + 1)));
  if (Array.isArray(s.oneOf)) return sample(s.oneOf[0] as Schema, depth + 1);
  if (Array.isArray(s.anyOf)) return sample(s.anyOf[0] as Schema, depth + 1);
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      const v = sample(p, depth + 1);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (s.type === 'array') return [sample(s.items as Schema, depth + 1)];
  if (s.type === 'boolean') return true;
  if (s.type === 'integer' || s.type === 'number') return (s.minimum as number | undefined) ?? 0;
  if (s.type === 'string') return s.format === 'uuid' ? '3fa85f64-5717-4562-b3fc-2c963f66afa6' : s.format === 'date' ? '2027-03-15' : s.format === 'date-time' ? '2027-03-15T14:30:00.000Z' : 'string';
  return undefined;
}

interface Example {
  operation: string;
  name: string;
  value: unknown;
  schema: Schema;
}
const examples: Example[] = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    const media = op?.requestBody?.content?.['application/json'];
    if (!media?.schema) continue;
    const operation = `${method.toUpperCase()} ${path}`;
    const named = Object.entries(media.examples ?? {});
    if (named.length) for (const [name, e] of named) examples.push({ operation, name, value: e.value, schema: media.schema });
    else examples.push({ operation, name: media.example !== undefined ? 'example' : 'composed from the properties', value: media.example ?? sample(media.schema), schema: media.schema });
  }
}

/** `METHOD /path/{param}` → the handler's `@Body()` class, read from the routes' metadata (preview mode: nothing connects). */
async function bodyClasses(): Promise<Map<string, Type>> {
  const dir = mkdtempSync(join(tmpdir(), 'haulops-examples-'));
  const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'openapi-examples-'.padEnd(48, 'x'), LOG_LEVEL: 'silent', OUTBOX_RELAY_ENABLED: 'false' });
  config.embeddedPath = 'memory://';
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const out = new Map<string, Type>();
  try {
    const container = (app as unknown as { container: { getModules(): Map<string, { controllers: Map<unknown, { metatype: Type }> }> } }).container;
    const join = (...parts: string[]) => '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).map((seg) => (seg.startsWith(':') ? `{${seg.slice(1)}}` : seg)).join('/');
    for (const module of container.getModules().values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype?.prototype) continue;
        const bases = [Reflect.getMetadata(PATH_METADATA, metatype) ?? ''].flat() as string[];
        // Own and inherited handlers (a controller may extend a class of shared routes).
        const keys = new Set<string>();
        for (let proto = metatype.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) for (const k of Object.getOwnPropertyNames(proto)) keys.add(k);
        for (const key of keys) {
          const handler = metatype.prototype[key];
          if (key === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
          const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, metatype, key) ?? {}) as Record<string, { index: number; data?: unknown }>;
          const body = Object.entries(args).find(([k, a]) => Number(k.split(':')[0]) === RouteParamtypes.BODY && a.data === undefined);
          if (!body) continue;
          const cls = (Reflect.getMetadata('design:paramtypes', metatype.prototype, key) as Type[])[body[1].index];
          for (const base of bases) for (const path of [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[]) out.set(`${method} ${join(base, path)}`, cls);
        }
      }
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

describe('the request body examples of the OpenAPI document', () => {
  let classes: Map<string, Type>;
  beforeAll(async () => {
    classes = await bodyClasses();
  });

  it('cover the JSON bodies of the document', () => {
    expect(examples.length).toBeGreaterThan(100);
    // Every body the document shows belongs to a handler with a @Body() DTO class.
    expect(examples.filter((e) => !classes.get(e.operation)).map((e) => e.operation)).toEqual([]);
  });

  it('are valid against their schema (strict ajv) and accepted by their route (ValidationPipe with the DTO)', async () => {
    const ajv = strictAjv(doc);
    const failures: string[] = [];
    for (const e of examples) {
      const validate = ajv.compile(toJsonSchema(e.schema) as Schema);
      if (!validate(e.value)) failures.push(`${e.operation} (${e.name}): schema:\n${describeErrors(validate.errors)}\n  ${JSON.stringify(e.value)}`);
      const metatype = classes.get(e.operation);
      if (!metatype) continue;
      try {
        await validationPipe.transform(structuredClone(e.value), { type: 'body', metatype });
      } catch (err) {
        const fields = err instanceof ApiError ? JSON.stringify((err.getResponse() as { errors?: unknown }).errors) : String(err);
        failures.push(`${e.operation} (${e.name}): refused by the route's validation: ${fields}\n  ${JSON.stringify(e.value)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('the OpenAPI document, as strict tools read it', () => {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op: op as { parameters?: { name: string; in: string; required?: boolean; example?: unknown; schema?: Schema }[] } })));

  it('says null the 3.0 way validators honour: no `nullable` beside a reference, nullable enums list null', () => {
    const wrong: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      if (!v || typeof v !== 'object') return;
      const s = v as Schema;
      if (s.nullable === true && (s.$ref || s.allOf || !s.type)) wrong.push(`${at}: nullable without its own type`);
      if (s.nullable === true && Array.isArray(s.enum) && !s.enum.includes(null)) wrong.push(`${at}: nullable enum without null`);
      for (const [k, x] of Object.entries(s)) walk(x, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(wrong).toEqual([]);
    const ajv = strictAjv(doc);
    const job = ajv.compile(toJsonSchema({ $ref: '#/components/schemas/CompanyJobDto' }) as Schema);
    const props = (doc.components!.schemas!.CompanyJobDto as { properties: Record<string, Schema> }).properties;
    expect(props.last_location.oneOf).toEqual([{ $ref: '#/components/schemas/DispatchPointDto' }, { type: 'object', nullable: true, enum: [null] }]);
    expect(job({})).toBe(false); // sanity: the schema is read at all
    const status = ajv.compile(toJsonSchema((doc.components!.schemas!.StatusChangeDto as { properties: Record<string, Schema> }).properties.from_status) as Schema);
    expect(status(null)).toBe(true);
    expect(status('pending')).toBe(true);
  });

  it('declares no header the server does not ask for: only the optional Idempotency-Key and Accept, once each', () => {
    const headers = operations.flatMap(({ id, op }) => (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => ({ id, name: p.name, required: !!p.required })));
    expect(headers.filter((h) => h.required)).toEqual([]);
    const byOp = (id: string) => headers.filter((h) => h.id === id).map((h) => h.name);
    expect(byOp('POST /api/v1/customer/orders/{order}/pay')).toEqual(['Idempotency-Key']);
    expect(byOp('POST /api/v1/customer/payments/pay-all-dues')).toEqual(['Idempotency-Key']);
    for (const id of ['GET /api/v1/reports', 'GET /api/v1/admin/get/companies/report', 'GET /api/v1/admin/get/customers/report']) expect(byOp(id)).toEqual(['Accept']);
    for (const { id } of operations) expect(new Set(byOp(id).map((n) => n.toLowerCase())).size).toBe(byOp(id).length);
  });

  it('gives query parameters no example ("Try it out" would send it as a filter)', () => {
    const withExample = operations.flatMap(({ id, op }) => (op.parameters ?? []).filter((p) => p.in === 'query' && (p.example !== undefined || p.schema?.example !== undefined)).map((p) => `${id} ?${p.name}`));
    expect(withExample).toEqual([]);
    const from = doc.paths['/api/v1/orders'].get as unknown as { parameters: { name: string; description?: string }[] };
    expect(from.parameters.find((p) => p.name === 'from')?.description).toMatch(/YYYY-MM-DD/);
  });

  it('refuses, in the schema, bodies that mix alternatives (so a mixed example fails the check above)', () => {
    const ajv = strictAjv(doc);
    const pay = ajv.compile(toJsonSchema({ $ref: '#/components/schemas/PayOrderDto' }) as Schema);
    expect(pay({ instrument_id: '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' })).toBe(true);
    expect(pay({ instrument_id: '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', use_wallet: true })).toBe(false);
    const leave = ajv.compile(toJsonSchema({ $ref: '#/components/schemas/CreateLeaveRequestDto' }) as Schema);
    expect(leave({ type: 'annual', dates: ['2027-06-14'], reason: 'Wedding.' })).toBe(true);
    expect(leave({ type: 'annual', dates: ['2027-06-14'], from: '2027-06-14', to: '2027-06-15', reason: 'Wedding.' })).toBe(false);
    const evidence = ajv.compile(toJsonSchema({ $ref: '#/components/schemas/AddEvidenceDto' }) as Schema);
    expect(evidence({ kind: 'photo', media_id: '6a2f4c8e-9b1d-4e3f-a5c7-d9e1f3a5b7c9', url: 'https://files.acme-hauling.test/a.jpg' })).toBe(false);
  });
});

describe('the examples read like a hauler\'s data', () => {
  const prop = (schema: string, p: string) => ((doc.components!.schemas![schema] as { properties: Record<string, Schema> }).properties[p] ?? {}).example;

  it('each role is its own person, and free text says what it describes', () => {
    const people = ['UserDto', 'CustomerDto', 'DriverDto', 'AdminDto', 'CompanyOwnerDto'];
    expect(new Set(people.map((s) => prop(s, 'email'))).size).toBe(people.length);
    expect(new Set(people.map((s) => prop(s, 'name'))).size).toBe(people.length);
    expect(prop('CompanyDto', 'email')).not.toEqual(prop('UserDto', 'email'));
    expect(prop('TransactionDto', 'description')).toMatch(/ORD-\d{6}/);
    expect(new Set(['CustomerDto', 'DriverDto', 'CompanyJobDto', 'AssetDto'].map((s) => prop(s, 'notes'))).size).toBe(4);
  });

  it('no one text is the example of every field of its name', () => {
    const uses = new Map<string, Set<string>>();
    for (const [name, s] of Object.entries(doc.components!.schemas!)) {
      for (const [p, ps] of Object.entries(((s as Schema).properties ?? {}) as Record<string, Schema>)) {
        if (!['email', 'name', 'description', 'notes', 'phone'].includes(p) || typeof ps.example !== 'string') continue;
        if (!uses.has(ps.example)) uses.set(ps.example, new Set());
        uses.get(ps.example)!.add(name);
      }
    }
    const overused = [...uses].filter(([, schemas]) => schemas.size > 12).map(([text, schemas]) => `${text}: ${schemas.size} schemas`);
    expect(overused).toEqual([]);
    expect(uses.has('Used by the dispatch team.')).toBe(false);
    expect(uses.has('dispatch@acme-hauling.test')).toBe(false);
  });
});
