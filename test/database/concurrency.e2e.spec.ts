import { PASSWORD, companyActor, mailedCode, uniqueEmail } from '../support/actors';
import { startTestApp, testDatabaseKind, TestApp } from '../support/test-app';

/**
 * Concurrent requests on the embedded database (PGlite through its node-postgres adapter, one
 * connection) and on PostgreSQL: no lost updates, no mixed-up rows, row locks hold.
 */
// `npm run test:embedded` (TEST_DB=embedded) runs the embedded half only; `npm test` runs both and
// fails when PostgreSQL does not answer.
const DATABASES = process.env.TEST_DB === 'embedded' ? (['embedded'] as const) : (['embedded', 'postgres'] as const);

describe.each(DATABASES)('concurrency on the %s database', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    if (db === 'postgres' && (await testDatabaseKind()) !== 'postgres') throw new Error('PostgreSQL is not reachable for the concurrency test');
    t = await startTestApp({ db });
  });
  afterAll(async () => t?.close());

  it('30 concurrent registrations all succeed with distinct users', async () => {
    const emails = Array.from({ length: 30 }, () => uniqueEmail('burst'));
    const res = await Promise.all(emails.map((email) => t.req('post', '/api/v1/auth/register', { body: { name: 'B', email, password: PASSWORD, type: 'company' } })));
    expect(res.map((r) => r.status)).toEqual(emails.map(() => 201));
    expect(new Set(res.map((r) => r.body.data.user.id)).size).toBe(30);
    expect(res.map((r) => r.body.data.user.email)).toEqual(emails);
  });

  it('concurrent calls with different tokens each see their own user', async () => {
    const actors = await Promise.all(Array.from({ length: 8 }, () => companyActor(t)));
    const res = await Promise.all(actors.flatMap((a) => [1, 2, 3].map(() => t.req('get', '/api/v1/auth/me', { token: a.token }).then((r) => [a.userId, r] as const))));
    for (const [id, r] of res) {
      expect(r.status).toBe(200);
      expect(r.body.data.id).toBe(id);
    }
  });

  it('the same user creating its company 6 times at once gets exactly one (row lock)', async () => {
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'R', email: uniqueEmail('race'), password: PASSWORD, type: 'company' } }).expect(201);
    const res = await Promise.all(Array.from({ length: 6 }, (_, i) => t.req('post', '/api/v1/company/create', { token: reg.body.data.token, body: { name: `Race ${i}` } })));
    expect(res.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM companies WHERE owner_id = $1`, [reg.body.data.user.id]);
    expect(n).toBe(1);
  });

  it('one token refreshed 5 times at once yields exactly one new token', async () => {
    const co = await companyActor(t);
    const res = await Promise.all(Array.from({ length: 5 }, () => t.req('post', '/api/v1/auth/refresh-token', { token: co.token })));
    expect(res.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('concurrent wrong codes are all counted (no lost update)', async () => {
    const co = await companyActor(t);
    await t.req('post', '/api/v1/auth/get-otp', { body: { email: co.email } }).expect(200);
    const code = await mailedCode(t, co.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await Promise.all(Array.from({ length: 4 }, () => t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code: wrong } })));
    expect(res.map((r) => r.body.code)).toEqual(['INVALID_CODE', 'INVALID_CODE', 'INVALID_CODE', 'INVALID_CODE']);
    const [row] = await t.ds.query(`SELECT attempts FROM one_time_codes WHERE email = $1 AND consumed_at IS NULL`, [co.email]);
    expect(row.attempts).toBe(4);
  });

  it('a transaction that fails leaves nothing behind while others commit', async () => {
    const co = await companyActor(t);
    const email = uniqueEmail('dupe');
    const res = await Promise.all(
      Array.from({ length: 6 }, () => t.req('post', '/api/v1/customer/create', { token: co.token, body: { name: 'Same', email, password: PASSWORD } })),
    );
    expect(res.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const [{ users, customers, events }] = await t.ds.query(
      `SELECT (SELECT count(*)::int FROM users WHERE email = $1) AS users,
              (SELECT count(*)::int FROM customers c JOIN users u ON u.id = c.id WHERE u.email = $1) AS customers,
              (SELECT count(*)::int FROM outbox_events e JOIN users u ON u.id = e.aggregate_id WHERE u.email = $1 AND e.type = 'customer.created') AS events`,
      [email],
    );
    expect({ users, customers, events }).toEqual({ users: 1, customers: 1, events: 1 });
  });
});
