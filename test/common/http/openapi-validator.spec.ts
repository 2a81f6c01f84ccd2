import request from 'supertest';
import { OpenApiResponseValidator, prebuiltOpenApiDocument } from '../../support/openapi-validator';
import { startTestApp } from '../../support/test-app';

/** The e2e response check itself (test/support/openapi-validator.ts): what it accepts and what it refuses. */
const doc = {
  openapi: '3.0.0',
  paths: {
    '/api/v1/things/{thing}': {
      get: {
        responses: {
          200: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'data'],
                  properties: {
                    success: { type: 'boolean' },
                    data: { oneOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'object', nullable: true, enum: [null] }] },
                    loose: { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Thing' }] },
                    state: { type: 'string', nullable: true, enum: ['open', 'closed'] },
                    phase: { type: 'string', nullable: true, enum: ['open', 'closed', null] },
                  },
                },
              },
            },
          },
          404: { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/api/v1/things/special': { get: { responses: { 200: { content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } } } } },
  },
  components: {
    schemas: {
      Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' }, note: { type: 'string', nullable: true } } },
      ErrorResponse: { type: 'object', required: ['success', 'code'], properties: { success: { type: 'boolean' }, message: { type: 'string' }, code: { type: 'string' }, request_id: { type: 'string' } } },
    },
    responses: {
      NotFound: {
        content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ErrorResponse' }, { type: 'object', properties: { code: { type: 'string', enum: ['NOT_FOUND'] } } }] } } },
      },
    },
  },
};

const res = (status: number, body: unknown, type = 'application/json') => ({ status, body, headers: { 'content-type': type }, text: '' }) as unknown as request.Response;
const ID = '3f2b9c1e-7a4d-4e8b-9c21-5d6f7a8b9c0d';

describe('OpenAPI response validator', () => {
  const v = new OpenApiResponseValidator(doc);

  it('accepts a documented status whose body matches (nullable refs, referenced responses)', () => {
    expect(() => v.check('get', `/api/v1/things/${ID}?x=1`, res(200, { success: true, data: { id: ID, note: null } }))).not.toThrow();
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: null }))).not.toThrow();
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(404, { success: false, code: 'NOT_FOUND', message: 'Thing not found.', request_id: 'r1' }))).not.toThrow();
  });

  it('reads `nullable` strictly, as strict OpenAPI 3.0 tools do: beside `allOf: [$ref]` it does not admit null, and an enum must list null', () => {
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: null, phase: null }))).not.toThrow();
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: null, loose: { id: ID } }))).not.toThrow();
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: null, loose: null }))).toThrow(/\/loose must be object/);
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: null, state: null }))).toThrow(/\/state must be equal to one of the allowed values/);
  });

  it('refuses an undocumented status, naming method, path and status', () => {
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(409, { success: false, code: 'CONFLICT' }))).toThrow(/GET \/api\/v1\/things\/\{thing\} → 409 .*status 409 is not documented for this operation \(documented: 200, 404\)/);
  });

  it('refuses a body that does not match: undocumented property, wrong format, code outside the listed ones', () => {
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: { id: ID }, message: 'Done.' }))).toThrow(/unevaluated properties: 'message'/);
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(200, { success: true, data: { id: 'not-a-uuid' } }))).toThrow(/\/data\/id must match format "uuid"/);
    expect(() => v.check('get', `/api/v1/things/${ID}`, res(404, { success: false, code: 'GONE' }))).toThrow(/\/code must be equal to one of the allowed values \["NOT_FOUND"\]/);
  });

  it('prefers literal segments over parameters, and checks non-JSON bodies by content type only', () => {
    expect(() => v.check('get', '/api/v1/things/special', res(200, Buffer.from('%PDF'), 'application/pdf'))).not.toThrow();
    expect(() => v.check('get', '/api/v1/things/special', res(200, '<html>', 'text/html'))).toThrow(/content type 'text\/html' is not documented/);
  });

  it('skips routes outside the document explicitly; an unknown route must be the 404 envelope', () => {
    expect(() => v.check('get', '/test/access/PUB', res(200, { anything: true }))).not.toThrow();
    expect(() => v.check('get', '/api/v1/nowhere', res(404, { success: false, code: 'NOT_FOUND', message: 'Route not found.', request_id: 'r1' }))).not.toThrow();
    expect(() => v.check('get', '/api/v1/nowhere', res(200, { success: true }))).toThrow(/has no operation GET \/api\/v1\/nowhere/);
    expect(() => v.check('post', `/api/v1/things/${ID}`, res(201, { success: true }))).toThrow(/has no operation POST \/api\/v1\/things\/\{thing\} \(it has get\)/);
  });
});

describe('the OpenAPI document test apps serve', () => {
  it("is the run's prebuilt document, equal to the one the server builds at start", async () => {
    const prebuilt = prebuiltOpenApiDocument();
    expect(prebuilt).toBeDefined();
    const t = await startTestApp({ buildOpenApiDocument: true });
    try {
      const served = (await t.http.get('/api/documentation-json').expect(200)).body;
      expect(Object.keys(served.paths).length).toBeGreaterThan(100);
      expect(served).toEqual(prebuilt);
    } finally {
      await t.close();
    }
  });
});
