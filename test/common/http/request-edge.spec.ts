import cors from 'cors';
import helmet from 'helmet';
import { corsHeadersOfActualRequests, fixedHeadersOf } from '../../../src/common/http/request-edge';

/** The security headers are read once from helmet (src/common/http/request-edge.ts), and only from a middleware whose headers are fixed. */
describe('fixedHeadersOf', () => {
  it("reads helmet's headers in the order it sets them", () => {
    const headers = fixedHeadersOf(helmet());
    expect(headers.map(([name]) => name.toLowerCase())).toEqual(expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'strict-transport-security']));
    expect(Object.fromEntries(headers.map(([n, v]) => [n.toLowerCase(), v]))['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a middleware that reads the request, or that does not go on at once', () => {
    expect(() => fixedHeadersOf((req, res, next) => (res.setHeader('x-for', String(req.headers.host)), next()))).toThrow(/reads the request/);
    expect(() => fixedHeadersOf(() => undefined)).toThrow(/did not call next/);
    expect(() => fixedHeadersOf((_req, _res, next) => next(new Error('no')))).toThrow('no');
  });
});

describe('corsHeadersOfActualRequests', () => {
  it('reads the headers CORS sets on a request that is not a preflight', () => {
    expect(corsHeadersOfActualRequests(cors({ exposedHeaders: ['X-Request-Id'] }))).toEqual([
      ['Access-Control-Allow-Origin', '*'],
      ['Access-Control-Expose-Headers', 'X-Request-Id'],
    ]);
  });

  it('refuses options whose headers depend on the request (an origin list)', () => {
    expect(() => corsHeadersOfActualRequests(cors({ origin: ['https://app.example.com'] }))).toThrow(/depend on the request/);
  });
});
