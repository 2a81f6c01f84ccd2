import { PASSWORD, companyActor, mailedCode, memberActor, uniqueEmail } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

describe('auth routes (/api/v1/auth/*)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe('register', () => {
    it('registers a company user and returns a bearer token with the user', async () => {
      const email = uniqueEmail('reg');
      const res = await t.req('post', '/api/v1/auth/register', { body: { name: 'Dana', email: email.toUpperCase(), password: PASSWORD, type: 'company', phone: '+1 555 0100' } }).expect(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ token_type: 'bearer', expires_in: 30 * 24 * 3600, user: { email, type: 'company', company_id: null, status: 'active' } });
      expect(res.body.data.user).not.toHaveProperty('password_hash');
      const me = await t.req('get', '/api/v1/auth/me', { token: res.body.data.token }).expect(200);
      expect(me.body.data.email).toBe(email);
    });

    it('registers a self-service customer of an existing company', async () => {
      const co = await companyActor(t);
      const res = await t.req('post', '/api/v1/auth/register', { body: { name: 'Cust', email: uniqueEmail('c'), password: PASSWORD, type: 'customer', company_id: co.companyId } }).expect(201);
      expect(res.body.data.user).toMatchObject({ type: 'customer', company_id: co.companyId });
      await t.req('get', '/api/v1/company', { token: res.body.data.token }).expect(200);
    });

    it('rejects a duplicate e-mail (any case) with 409', async () => {
      const email = uniqueEmail('dup');
      await t.req('post', '/api/v1/auth/register', { body: { name: 'A', email, password: PASSWORD, type: 'company' } }).expect(201);
      const res = await t.req('post', '/api/v1/auth/register', { body: { name: 'B', email: email.toUpperCase(), password: PASSWORD, type: 'company' } }).expect(409);
      expect(res.body).toMatchObject({ success: false, code: 'EMAIL_TAKEN' });
      expect(res.body.request_id).toEqual(expect.any(String));
    });

    it('rejects bad input with 422 and per-field errors', async () => {
      const res = await t.req('post', '/api/v1/auth/register', { body: { name: '', email: 'nope', password: 'short', type: 'admin', extra: 1 } }).expect(422);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'extra', 'name', 'password', 'type']);
    });

    it('requires an existing company for customers', async () => {
      const missing = await t.req('post', '/api/v1/auth/register', { body: { name: 'C', email: uniqueEmail('c'), password: PASSWORD, type: 'customer' } }).expect(422);
      expect(missing.body.errors).toHaveProperty('company_id');
      const unknown = await t.req('post', '/api/v1/auth/register', { body: { name: 'C', email: uniqueEmail('c'), password: PASSWORD, type: 'customer', company_id: '00000000-0000-4000-8000-000000000000' } }).expect(422);
      expect(unknown.body.errors).toHaveProperty('company_id');
    });

    it('answers malformed JSON with 400 and the envelope', async () => {
      const res = await t.http.post('/api/v1/auth/register').set('Content-Type', 'application/json').set('X-Forwarded-For', '10.9.9.9').send('{"name":').expect(400);
      expect(res.body).toMatchObject({ success: false, code: 'MALFORMED_JSON' });
      expect(res.body.request_id).toEqual(expect.any(String));
    });
  });

  describe('login', () => {
    it('logs in with the seed\'s response shape', async () => {
      const co = await companyActor(t);
      const res = await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(200);
      expect(res.body).toMatchObject({ success: true, data: { token: expect.any(String), token_type: 'bearer', expires_in: 2592000, user: { id: co.userId, company_id: co.companyId } } });
    });

    it('refuses a wrong password or an unknown address with 401', async () => {
      const co = await companyActor(t);
      const wrong = await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: 'wrong-pass-1' } }).expect(401);
      expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
      await t.req('post', '/api/v1/auth/login', { body: { email: uniqueEmail('ghost'), password: PASSWORD } }).expect(401);
    });

    it('rejects a missing password with 422', async () => {
      const res = await t.req('post', '/api/v1/auth/login', { body: { email: 'x@example.test' } }).expect(422);
      expect(res.body.errors).toHaveProperty('password');
    });
  });

  describe('get-otp and verify-code', () => {
    it('verifies the e-mail address with the mailed code', async () => {
      const co = await companyActor(t);
      await t.req('post', '/api/v1/auth/get-otp', { body: { email: co.email } }).expect(200);
      const code = await mailedCode(t, co.email);
      const [stored] = await t.ds.query(`SELECT code_hash FROM one_time_codes WHERE email = $1`, [co.email]);
      expect(stored.code_hash).not.toContain(code); // hashed, never stored in clear
      await t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code } }).expect(200);
      const me = await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(200);
      expect(me.body.data.email_verified).toBe(true);
      // Used up.
      const again = await t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code } }).expect(422);
      expect(again.body.code).toBe('CODE_EXPIRED');
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const email = uniqueEmail('nobody');
      await t.req('post', '/api/v1/auth/get-otp', { body: { email } }).expect(200);
      await expect(mailedCode(t, email)).rejects.toThrow();
    });

    it('allows five tries, then the code is dead', async () => {
      const co = await companyActor(t);
      await t.req('post', '/api/v1/auth/get-otp', { body: { email: co.email } }).expect(200);
      const code = await mailedCode(t, co.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const r = await t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code: wrong } }).expect(422);
        expect(r.body.code).toBe('INVALID_CODE');
      }
      const r = await t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code } }).expect(422);
      expect(r.body.code).toBe('CODE_EXHAUSTED');
    });

    it('rejects an expired code', async () => {
      const co = await companyActor(t);
      await t.req('post', '/api/v1/auth/get-otp', { body: { email: co.email } }).expect(200);
      const code = await mailedCode(t, co.email);
      await t.ds.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE email = $1`, [co.email]);
      const r = await t.req('post', '/api/v1/auth/verify-code', { body: { email: co.email, code } }).expect(422);
      expect(r.body.code).toBe('CODE_EXPIRED');
    });

    it('rejects a malformed code with 422', async () => {
      const r = await t.req('post', '/api/v1/auth/verify-code', { body: { email: 'a@example.test', code: '12ab' } }).expect(422);
      expect(r.body.errors).toHaveProperty('code');
    });
  });

  describe('forgot-password and reset-password', () => {
    it('resets the password with the mailed code and revokes every token', async () => {
      const co = await companyActor(t);
      await t.req('post', '/api/v1/auth/forgot-password', { body: { email: co.email } }).expect(200);
      const code = await mailedCode(t, co.email);
      await t.req('post', '/api/v1/auth/reset-password', { body: { email: co.email, code, password: 'brand-new-pass-2' } }).expect(200);
      const revoked = await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(401);
      expect(revoked.body.code).toBe('TOKEN_REVOKED');
      await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(401);
      await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: 'brand-new-pass-2' } }).expect(200);
    });

    it('refuses a wrong code and a weak password', async () => {
      const co = await companyActor(t);
      await t.req('post', '/api/v1/auth/forgot-password', { body: { email: co.email } }).expect(200);
      const code = await mailedCode(t, co.email);
      const wrong = await t.req('post', '/api/v1/auth/reset-password', { body: { email: co.email, code: code === '999999' ? '000000' : '999999', password: 'brand-new-pass-2' } }).expect(422);
      expect(wrong.body.code).toBe('INVALID_CODE');
      const weak = await t.req('post', '/api/v1/auth/reset-password', { body: { email: co.email, code, password: 'abc' } }).expect(422);
      expect(weak.body.errors).toHaveProperty('password');
    });

    it('lets a customer created without a password set one with the mailed code', async () => {
      const co = await companyActor(t);
      const email = uniqueEmail('nopass');
      await t.req('post', '/api/v1/customer/create', { token: co.token, body: { name: 'No Pass', email } }).expect(201);
      await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(401);
      const code = await mailedCode(t, email);
      await t.req('post', '/api/v1/auth/reset-password', { body: { email, code, password: PASSWORD } }).expect(200);
      await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
    });
  });

  describe('refresh-token', () => {
    it('exchanges the current token and revokes the old one', async () => {
      const co = await companyActor(t);
      const res = await t.req('post', '/api/v1/auth/refresh-token', { token: co.token }).expect(200);
      expect(res.body.data).toMatchObject({ token_type: 'bearer', expires_in: 2592000 });
      expect(res.body.data.token).not.toBe(co.token);
      await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(401);
      await t.req('get', '/api/v1/auth/me', { token: res.body.data.token }).expect(200);
      // The old token cannot be refreshed twice.
      const again = await t.req('post', '/api/v1/auth/refresh-token', { body: { token: co.token } }).expect(401);
      expect(again.body.code).toBe('TOKEN_REVOKED');
    });

    it('accepts an expired token up to 14 days past expiry, not later', async () => {
      const co = await companyActor(t);
      const { JwtService } = await import('@nestjs/jwt');
      const jwt = t.app.get(JwtService);
      const make = async (expiredDaysAgo: number) => {
        const { randomUUID } = await import('node:crypto');
        const jti = randomUUID();
        const exp = Math.floor(Date.now() / 1000) - expiredDaysAgo * 86400;
        await t.ds.query(`INSERT INTO auth_tokens (jti, user_id, expires_at) VALUES ($1, $2, to_timestamp($3))`, [jti, co.userId, exp]);
        return jwt.sign({ sub: co.userId, typ: 'company', jti, iat: exp - 30 * 86400, exp });
      };
      const recent = await make(3);
      await t.req('get', '/api/v1/auth/me', { token: recent }).expect(401);
      await t.req('post', '/api/v1/auth/refresh-token', { token: recent }).expect(200);
      const old = await make(15);
      const r = await t.req('post', '/api/v1/auth/refresh-token', { token: old }).expect(401);
      expect(r.body.code).toBe('TOKEN_EXPIRED');
    });

    it('a token verified once (the strategy keeps its claims) is refused from the second of its expiry, and when revoked', async () => {
      const co = await companyActor(t);
      const { JwtService } = await import('@nestjs/jwt');
      const { randomUUID } = await import('node:crypto');
      const jwt = t.app.get(JwtService);
      const jti = randomUUID();
      const exp = Math.floor(Date.now() / 1000) + 60;
      await t.ds.query(`INSERT INTO auth_tokens (jti, user_id, expires_at) VALUES ($1, $2, to_timestamp($3))`, [jti, co.userId, exp]);
      const token = jwt.sign({ sub: co.userId, typ: 'company', jti, iat: exp - 3600, exp });
      await t.req('get', '/api/v1/auth/me', { token }).expect(200);
      await t.req('get', '/api/v1/auth/me', { token }).expect(200);
      const now = jest.spyOn(Date, 'now').mockReturnValue(exp * 1000);
      try {
        const r = await t.req('get', '/api/v1/auth/me', { token }).expect(401);
        expect(r.body.code).toBe('TOKEN_EXPIRED');
      } finally {
        now.mockRestore();
      }
      // Verified again, kept again: a revocation still takes effect at once (the token row is read on every request).
      await t.req('get', '/api/v1/auth/me', { token }).expect(200);
      await t.req('post', '/api/v1/auth/logout', { token }).expect(200);
      const revoked = await t.req('get', '/api/v1/auth/me', { token }).expect(401);
      expect(revoked.body.code).toBe('TOKEN_REVOKED');
    });

    it('refuses a missing or forged token with 401', async () => {
      await t.req('post', '/api/v1/auth/refresh-token', {}).expect(401);
      await t.req('post', '/api/v1/auth/refresh-token', { body: { token: 'not.a.jwt' } }).expect(401);
    });
  });

  describe('logout, me, update-password', () => {
    it('logout revokes only that token', async () => {
      const co = await companyActor(t);
      const second = await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(200);
      await t.req('post', '/api/v1/auth/logout', { token: co.token }).expect(200);
      await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(401);
      await t.req('get', '/api/v1/auth/me', { token: second.body.data.token }).expect(200);
      await t.req('post', '/api/v1/auth/logout', {}).expect(401);
    });

    it('me shows the company of a company user', async () => {
      const co = await companyActor(t);
      const me = await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(200);
      expect(me.body.data).toMatchObject({ id: co.userId, type: 'company', company: { id: co.companyId, status: 'active' } });
    });

    it('update-password checks the current one and revokes the other tokens', async () => {
      const co = await companyActor(t);
      const other = await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(200);
      const bad = await t.req('post', '/api/v1/auth/update-password', { token: co.token, body: { current_password: 'wrong-one-1', password: 'next-pass-22' } }).expect(422);
      expect(bad.body.errors).toHaveProperty('current_password');
      await t.req('post', '/api/v1/auth/update-password', { token: co.token, body: { current_password: PASSWORD, password: 'next-pass-22' } }).expect(200);
      await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(200);
      await t.req('get', '/api/v1/auth/me', { token: other.body.data.token }).expect(401);
      await t.req('post', '/api/v1/auth/login', { body: { email: co.email, password: 'next-pass-22' } }).expect(200);
    });

    it('update-password is refused to an inactive user (TOK-ACT)', async () => {
      const co = await companyActor(t);
      const driver = await memberActor(t, co, 'driver');
      await t.ds.query(`UPDATE users SET status = 'inactive' WHERE id = $1`, [driver.id]);
      const r = await t.req('post', '/api/v1/auth/update-password', { token: driver.token, body: { current_password: PASSWORD, password: 'next-pass-22' } }).expect(403);
      expect(r.body.code).toBe('USER_INACTIVE');
      // TOK routes do not check the status.
      await t.req('get', '/api/v1/auth/me', { token: driver.token }).expect(200);
    });
  });
});
