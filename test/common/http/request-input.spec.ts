import { requestInput } from '../../../src/common/http/request-input';

/** `requestInput`: the three input checks as one middleware, and its shortcut for requests without body or query. */
describe('requestInput', () => {
  const run = (req: Record<string, unknown>) => {
    const parsed: unknown[] = [];
    const mw = requestInput({
      exceptions: [{ method: 'POST', path: '/api/v1/upload-media', type: 'multipart/form-data' }],
      parseJson: ((r: { body?: unknown }, _res: unknown, next: () => void) => {
        parsed.push(r);
        r.body = { name: 'a\u0000b' };
        next();
      }) as never,
    });
    let error: unknown = 'next not called';
    const request = { method: 'GET', path: '/api/v1/x', url: '/api/v1/x', headers: {}, ...req };
    mw(request as never, {}, (err?: unknown) => (error = err));
    return { error, parsed, req: request };
  };

  it('lets a request without body or query through without parsing, leaving body undefined as body-parser does', () => {
    const r = run({});
    expect(r.error).toBeUndefined();
    expect(r.parsed).toHaveLength(0);
    expect('body' in r.req).toBe(true);
    expect((r.req as { body?: unknown }).body).toBeUndefined();
  });

  it('still checks the query string of a request without body', () => {
    const r = run({ url: '/api/v1/x?q=%00', query: { q: 'a\u0000' } });
    expect(r.parsed).toHaveLength(0);
    expect((r.error as { getStatus(): number }).getStatus()).toBe(422);
  });

  it('parses and checks a JSON body (Content-Length 0 included, as body-parser reads it)', () => {
    for (const headers of [{ 'content-type': 'application/json', 'content-length': '12' }, { 'content-type': 'application/json', 'content-length': '0' }]) {
      const r = run({ method: 'POST', headers });
      expect(r.parsed).toHaveLength(1);
      expect((r.error as { getStatus(): number }).getStatus()).toBe(422);
    }
  });

  it('refuses a body that is not JSON before parsing it (415), except on the listed route', () => {
    const refused = run({ method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': '3' } });
    expect(refused.parsed).toHaveLength(0);
    expect((refused.error as { getStatus(): number }).getStatus()).toBe(415);
    const upload = run({ method: 'POST', path: '/api/v1/upload-media', url: '/api/v1/upload-media', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '3' } });
    expect(upload.parsed).toHaveLength(1);
  });
});
