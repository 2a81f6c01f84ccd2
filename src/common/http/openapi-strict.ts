import { OpenAPIObject } from '@nestjs/swagger';

/**
 * Rewrites of the generated document so that strict tools read it as the server means it. The document
 * is OpenAPI 3.0 (what @nestjs/swagger writes); each rewrite is applied once here, to every operation and
 * component schema, rather than field by field in the DTOs. docs/api-conventions.md says why.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  examples?: unknown;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
}

/** What a nullable reference becomes: the referenced schema, or null (the 3.0 form validators honour). */
export const NULL_ONLY: Schema = { type: 'object', nullable: true, enum: [null] };

/**
 * Nullable references and enums, in the form a strict OpenAPI 3.0 validator honours:
 *
 * - `nullable: true` beside `allOf: [$ref]` (how @nestjs/swagger writes `@ApiProperty({ type: () => X,
 *   nullable: true })`) is ignored by strict tools: OpenAPI 3.0.3 says `nullable` only adds null to the
 *   `type` of the same schema object, and the `allOf` still refuses null. It becomes
 *   `oneOf: [{ $ref }, { type: object, nullable: true, enum: [null] }]`, its description and example kept.
 * - A nullable `enum` must list null itself (3.0.3: an enum lists every allowed value): null is added.
 *
 * Applied after `documentResponseFields`, which reads `nullable` to list a response's nullable fields as required.
 */
export function documentNullables(doc: OpenAPIObject): void {
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(visit);
    if (!v || typeof v !== 'object') return v;
    const s = Object.fromEntries(Object.entries(v as Schema).map(([k, x]) => [k, visit(x)])) as Schema;
    if (s.nullable !== true) return s;
    const ref = typeof s.$ref === 'string' ? s.$ref : Array.isArray(s.allOf) && s.allOf.length === 1 && typeof (s.allOf[0] as Schema).$ref === 'string' ? ((s.allOf[0] as Schema).$ref as string) : undefined;
    if (ref) {
      const { nullable: _n, type: _t, allOf: _a, $ref: _r, ...rest } = s;
      return { ...rest, oneOf: [{ $ref: ref }, NULL_ONLY] };
    }
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
    return s;
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) doc.components!.schemas![name] = visit(schema) as never;
  for (const item of Object.values(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op && typeof op === 'object') (item as Record<string, unknown>)[method] = visit(op);
  }
}

/** DTO class name → groups of fields that exclude each other (`@ExclusiveFields`). */
const EXCLUSIVE_FIELDS = new Map<string, string[][]>();

/**
 * Fields of a request body that exclude each other (`['instrument_id', 'use_wallet']`): the schema says so
 * with `not: { required: [...] }` (each group), so that validators and example checks refuse a body that
 * mixes them. The route's service still answers such a body 422 as before; this documents the rule.
 */
export const ExclusiveFields =
  (...groups: string[][]): ClassDecorator =>
  (target) => {
    EXCLUSIVE_FIELDS.set(target.name, groups);
  };

/** `not` on the schemas of the classes marked `@ExclusiveFields`. */
export function documentExclusiveFields(doc: OpenAPIObject): void {
  for (const [name, groups] of EXCLUSIVE_FIELDS) {
    const schema = doc.components?.schemas?.[name] as Schema | undefined;
    if (!schema) continue;
    // `properties` names the fields again (empty schemas: the object's own say what each is) for the linters' sake.
    const alternatives = groups.map((g) => ({ properties: Object.fromEntries(g.map((f) => [f, {}])), required: g }));
    schema.not = alternatives.length === 1 ? alternatives[0] : { anyOf: alternatives };
  }
}

/** Header names as they are written in the document (HTTP header names are case-insensitive). */
const HEADER_CASE: Record<string, string> = { accept: 'Accept', 'idempotency-key': 'Idempotency-Key' };

/**
 * Header parameters: only those the routes declare with `@ApiHeader` (the idempotency key of
 * `@Idempotent()`, the report routes' `Accept`). @nestjs/swagger also lists every `@Headers('name')`
 * argument of a handler as a required `string` header named in lower case, beside the declared one when
 * the case differs: one header of each name is kept, the declared one, and a header only read by a
 * handler is documented optional (the handler reads it when sent; an absent header is never a 422 here).
 */
export function documentHeaderParameters(doc: OpenAPIObject): void {
  const implicit = (p: Parameter) => p.required === true && p.description === undefined && JSON.stringify(p.schema) === '{"type":"string"}';
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Operation[]) {
      if (!op?.parameters) continue;
      const headers = op.parameters.filter((p) => p.in === 'header');
      op.parameters = op.parameters.filter((p) => {
        if (p.in !== 'header') return true;
        const same = headers.filter((h) => h.name.toLowerCase() === p.name.toLowerCase());
        if (implicit(p) && same.some((h) => h !== p && !implicit(h))) return false;
        if (implicit(p)) {
          p.required = false;
          p.name = HEADER_CASE[p.name.toLowerCase()] ?? p.name;
        }
        return true;
      });
    }
  }
}

/**
 * Query parameters carry no example: Swagger UI's "Try it out" fills a parameter with its example, so
 * every filter of a list would be sent (GET /orders?from=…&to=…&date=…) and the list would come back
 * empty. The description says the format instead (`YYYY-MM-DD` for dates).
 */
export function documentQueryParameters(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Operation[]) {
      for (const p of op?.parameters ?? []) {
        if (p.in !== 'query') continue;
        delete p.example;
        delete p.examples;
        if (p.schema) {
          delete p.schema.example;
          if (p.schema.items && typeof p.schema.items === 'object') delete (p.schema.items as Schema).example;
          if (p.schema.format === 'date' && !/YYYY-MM-DD/.test(p.description ?? '')) p.description = [p.description, 'A date, `YYYY-MM-DD`.'].filter(Boolean).join(' ');
        }
      }
    }
  }
}
