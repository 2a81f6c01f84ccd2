import { randomUUID } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { ACCESS_CODES } from '../../../src/common/access/access-codes';
import { PASSWORD, companyActor, memberActor, uniqueEmail } from '../../support/actors';
import { ProbeModule } from '../../support/probe.module';
import { Cast, startWithCast } from '../../support/fixtures';

const ADMIN_KEY = 'admin-registration-key-for-tests';

describe('access codes (seed §4–5, domain.md §2)', () => {
  let { t, co, customer, driver } = {} as Cast;
  let admin: string;
  let companyWithout: string; // company user before /company/create

  const probe = (code: string, token?: string) => t.req('get', `/test/access/${code}`, { token });

  beforeAll(async () => {
    ({ t, co, customer, driver } = await startWithCast({}, { modules: [ProbeModule], env: { ADMIN_REGISTRATION_KEY: ADMIN_KEY } }));
    const a = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'Root', email: uniqueEmail('admin'), password: PASSWORD, registration_key: ADMIN_KEY } }).expect(201);
    admin = a.body.data.token;
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'New', email: uniqueEmail('new'), password: PASSWORD, type: 'company' } }).expect(201);
    companyWithout = reg.body.data.token;
  });
  afterAll(async () => t?.close());

  it('refuses a route without an access code (default deny)', async () => {
    const r = await t.req('get', '/test/undeclared', { token: co.token }).expect(403);
    expect(r.body.code).toBe('ACCESS_NOT_DECLARED');
  });

  it.each(['PUB', 'PUB-T', 'NONE'])('%s needs no token', async (code) => {
    const r = await probe(code).expect(200);
    expect(r.body.data).toEqual({ code, actor: null });
  });

  const tokenCodes = ACCESS_CODES.filter((c) => !['PUB', 'PUB-T', 'NONE'].includes(c));

  it.each(tokenCodes)('%s: a missing token is 401', async (code) => {
    const r = await probe(code).expect(401);
    expect(r.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });

  it.each(tokenCodes)('%s: a forged token is 401', async (code) => {
    const forged = new JwtService({ secret: 'another-secret-another-secret-another' }).sign({ sub: co.userId, typ: 'company', jti: randomUUID() });
    const r = await probe(code, forged).expect(401);
    expect(r.body.code).toBe('INVALID_TOKEN');
  });

  it.each(tokenCodes)('%s: an expired token is 401', async (code) => {
    const jwt = t.app.get(JwtService);
    const jti = randomUUID();
    const exp = Math.floor(Date.now() / 1000) - 60;
    await t.ds.query(`INSERT INTO auth_tokens (jti, user_id, expires_at) VALUES ($1, $2, to_timestamp($3))`, [jti, co.userId, exp]);
    const r = await probe(code, jwt.sign({ sub: co.userId, typ: 'company', jti, iat: exp - 100, exp })).expect(401);
    expect(r.body.code).toBe('TOKEN_EXPIRED');
  });

  it('a token that passed before is 401 once it expires (the guard takes known tokens without passport)', async () => {
    const jwt = t.app.get(JwtService);
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + 30;
    // The database row outlives the token: only the token's own expiry can refuse it.
    await t.ds.query(`INSERT INTO auth_tokens (jti, user_id, expires_at) VALUES ($1, $2, to_timestamp($3))`, [jti, co.userId, now + 3600]);
    const token = jwt.sign({ sub: co.userId, typ: 'company', jti, iat: now, exp });
    await probe('TOK', token).expect(200);
    await probe('CO', token).expect(200); // the second request is a known token
    const clock = jest.spyOn(Date, 'now').mockReturnValue((exp + 1) * 1000);
    try {
      const r = await probe('TOK', token).expect(401);
      expect(r.body.code).toBe('TOKEN_EXPIRED');
    } finally {
      clock.mockRestore();
    }
  });

  it.each(tokenCodes)('%s: a revoked token is 401', async (code) => {
    const login = await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(200);
    await t.req('post', '/api/v1/auth/logout', { token: login.body.data.token }).expect(200);
    const r = await probe(code, login.body.data.token).expect(401);
    expect(r.body.code).toBe('TOKEN_REVOKED');
  });

  // Who may pass each code (true) and who is refused with which code.
  const matrix: Record<string, Record<'company' | 'customer' | 'driver' | 'admin', true | string>> = {
    TOK: { company: true, customer: true, driver: true, admin: 'WRONG_ACTOR' },
    'TOK-ACT': { company: true, customer: true, driver: true, admin: 'WRONG_ACTOR' },
    'TOK-T': { company: true, customer: true, driver: true, admin: 'WRONG_ACTOR' },
    CO: { company: true, customer: 'WRONG_ACTOR', driver: 'WRONG_ACTOR', admin: 'WRONG_ACTOR' },
    'CO-B': { company: true, customer: 'WRONG_ACTOR', driver: 'WRONG_ACTOR', admin: 'WRONG_ACTOR' },
    CU: { company: 'WRONG_ACTOR', customer: true, driver: 'WRONG_ACTOR', admin: 'WRONG_ACTOR' },
    'CU-B': { company: 'WRONG_ACTOR', customer: true, driver: 'WRONG_ACTOR', admin: 'WRONG_ACTOR' },
    DR: { company: 'WRONG_ACTOR', customer: 'WRONG_ACTOR', driver: true, admin: 'WRONG_ACTOR' },
    'DR-B': { company: 'WRONG_ACTOR', customer: 'WRONG_ACTOR', driver: true, admin: 'WRONG_ACTOR' },
    'DR-IN': { company: 'WRONG_ACTOR', customer: 'WRONG_ACTOR', driver: 'NOT_CHECKED_IN', admin: 'WRONG_ACTOR' },
    AD: { company: 'WRONG_ACTOR', customer: 'WRONG_ACTOR', driver: 'WRONG_ACTOR', admin: true },
  };
  const rows = Object.entries(matrix).flatMap(([code, who]) => Object.entries(who).map(([actor, outcome]) => [code, actor, outcome] as const));

  it.each(rows)('%s with a %s token: %s', async (code, actor, outcome) => {
    const token = { company: co.token, customer: customer.token, driver: driver.token, admin }[actor];
    const r = await probe(code, token);
    if (outcome === true) {
      expect(r.status).toBe(200);
      expect(r.body.data.actor.type).toBe(actor);
    } else {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(outcome);
    }
  });

  it('CO needs the company (403 NO_COMPANY before /company/create); CO-B does not', async () => {
    expect((await probe('CO', companyWithout).expect(403)).body.code).toBe('NO_COMPANY');
    await probe('CO-B', companyWithout).expect(200);
  });

  it('DR-IN passes with an open attendance (checked in or on a break), not after check-out', async () => {
    const d = await memberActor(t, co, 'driver');
    expect((await probe('DR-IN', d.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
    await t.ds.query(`INSERT INTO attendances (company_id, driver_id, work_date, status, checked_in_at) VALUES ($1, $2, current_date, 'checked_in', now())`, [co.companyId, d.id]);
    await probe('DR-IN', d.token).expect(200);
    await t.ds.query(`UPDATE attendances SET status = 'on_break' WHERE driver_id = $1`, [d.id]);
    await probe('DR-IN', d.token).expect(200);
    await t.ds.query(`UPDATE attendances SET status = 'checked_out', checked_out_at = now() WHERE driver_id = $1`, [d.id]);
    expect((await probe('DR-IN', d.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
    // Another driver's attendance does not count.
    await t.ds.query(`INSERT INTO attendances (company_id, driver_id, work_date, status, checked_in_at) VALUES ($1, $2, current_date, 'checked_in', now())`, [co.companyId, driver.id]);
    expect((await probe('DR-IN', d.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
  });

  it('inactive users: refused where the code checks the status, let through where it does not', async () => {
    const c = await memberActor(t, co, 'customer');
    const d = await memberActor(t, co, 'driver');
    await t.ds.query(`UPDATE users SET status = 'inactive' WHERE id = ANY($1)`, [[c.id, d.id]]);
    for (const [code, token] of [['CU', c.token], ['DR', d.token], ['DR-IN', d.token], ['TOK-ACT', c.token]] as const) {
      const r = await probe(code, token).expect(403);
      expect(r.body.code).toBe('USER_INACTIVE');
    }
    for (const [code, token] of [['CU-B', c.token], ['DR-B', d.token], ['TOK', c.token], ['TOK-T', d.token]] as const) {
      await probe(code, token).expect(200);
    }
  });

  it('an inactive company\'s users are refused on role routes', async () => {
    const other = await companyActor(t, 'Dormant Hauling');
    const c = await memberActor(t, other, 'customer');
    await t.ds.query(`UPDATE companies SET status = 'inactive' WHERE id = $1`, [other.companyId]);
    expect((await probe('CO', other.token).expect(403)).body.code).toBe('COMPANY_INACTIVE');
    expect((await probe('CU', c.token).expect(403)).body.code).toBe('COMPANY_INACTIVE');
    await probe('TOK', c.token).expect(200);
  });

  it('a customer or driver without a profile is not a customer/driver user', async () => {
    const c = await memberActor(t, co, 'customer');
    await t.ds.query(`DELETE FROM customers WHERE id = $1`, [c.id]);
    expect((await probe('CU-B', c.token).expect(403)).body.code).toBe('NOT_A_MEMBER');
  });

  it('admin tokens are refused on the user routes and user tokens on admin routes', async () => {
    await t.req('get', '/api/v1/auth/me', { token: admin }).expect(403);
    await t.req('get', '/api/v1/admin/auth/me', { token: co.token }).expect(403);
  });
});
