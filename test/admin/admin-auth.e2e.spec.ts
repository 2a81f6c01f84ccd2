import { PASSWORD, companyActor, mailedCode, uniqueEmail } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';
import { adminLockSeconds } from '../../src/modules/admin/admin-auth.service';

const KEY = 'admin-registration-key-for-tests';

describe('admin auth routes (/api/v1/admin/auth/*, /api/v1/admin/update-password)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_REGISTRATION_KEY: KEY } });
  });
  afterAll(async () => t?.close());

  const register = async (email = uniqueEmail('admin')) => {
    const r = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'Root', email, password: PASSWORD, registration_key: KEY } }).expect(201);
    return { email, token: r.body.data.token as string, id: r.body.data.user.id as string };
  };

  it('registers with the configured key, refuses a wrong key, a duplicate and bad input', async () => {
    const a = await register();
    const me = await t.req('get', '/api/v1/admin/auth/me', { token: a.token }).expect(200);
    expect(me.body.data).toMatchObject({ id: a.id, type: 'admin', email: a.email });
    const wrong = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'X', email: uniqueEmail('x'), password: PASSWORD, registration_key: 'nope' } }).expect(403);
    expect(wrong.body.code).toBe('INVALID_REGISTRATION_KEY');
    const dup = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'X', email: a.email, password: PASSWORD, registration_key: KEY } }).expect(409);
    expect(dup.body.code).toBe('EMAIL_TAKEN');
    const bad = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'X', email: 'bad', password: PASSWORD } }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'registration_key']);
  });

  it('refuses registration when no key is configured', async () => {
    // The service reads the key from the app's config on each request: the same app without it.
    t.config.adminRegistrationKey = undefined;
    try {
      const r = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'X', email: uniqueEmail('x'), password: PASSWORD, registration_key: 'anything-at-all' } }).expect(403);
      expect(r.body.code).toBe('ADMIN_REGISTRATION_DISABLED');
    } finally {
      t.config.adminRegistrationKey = KEY;
    }
  });

  it('logs in; admin and user accounts are separate', async () => {
    const a = await register();
    const r = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: PASSWORD } }).expect(200);
    expect(r.body.data).toMatchObject({ token_type: 'bearer', expires_in: 2592000, user: { type: 'admin' } });
    const co = await companyActor(t);
    await t.req('post', '/api/v1/admin/auth/login', { body: { email: co.email, password: PASSWORD } }).expect(401);
    await t.req('post', '/api/v1/auth/login', { body: { email: a.email, password: PASSWORD } }).expect(401);
  });

  it('locks the account after 5 failures with growing delays, even for the right password', async () => {
    const a = await register();
    for (let i = 0; i < 4; i++) {
      const r = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: 'wrong-pass-1' } }).expect(401);
      expect(r.body.code).toBe('INVALID_CREDENTIALS');
    }
    const fifth = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: 'wrong-pass-1' } }).expect(429);
    expect(fifth.body.code).toBe('ACCOUNT_LOCKED');
    expect(Number(fifth.headers['retry-after'])).toBe(60);
    const right = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: PASSWORD } }).expect(429);
    expect(right.body.code).toBe('ACCOUNT_LOCKED');
    // After the lock runs out, the next failure locks for twice as long.
    await t.ds.query(`UPDATE admins SET locked_until = now() - interval '1 second' WHERE id = $1`, [a.id]);
    const sixth = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: 'wrong-pass-1' } }).expect(429);
    expect(Number(sixth.headers['retry-after'])).toBe(120);
    await t.ds.query(`UPDATE admins SET locked_until = now() - interval '1 second' WHERE id = $1`, [a.id]);
    await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: PASSWORD } }).expect(200);
    const [row] = await t.ds.query(`SELECT failed_logins FROM admins WHERE id = $1`, [a.id]);
    expect(row.failed_logins).toBe(0);
    expect([4, 5, 6, 10, 20].map(adminLockSeconds)).toEqual([0, 60, 120, 1920, 3600]);
  });

  it('forgot-password, verify-code (does not use the code up) and reset-password', async () => {
    const a = await register();
    await t.req('post', '/api/v1/admin/auth/forgot-password', { body: { email: a.email } }).expect(200);
    const code = await mailedCode(t, a.email);
    const v = await t.req('post', '/api/v1/admin/auth/verify-code', { body: { email: a.email, code } }).expect(200);
    expect(v.body.data).toEqual({ valid: true });
    const wrong = await t.req('post', '/api/v1/admin/auth/verify-code', { body: { email: a.email, code: code === '000000' ? '111111' : '000000' } }).expect(422);
    expect(wrong.body.code).toBe('INVALID_CODE');
    await t.req('post', '/api/v1/admin/auth/reset-password', { body: { email: a.email, code, password: 'new-admin-pass-9' } }).expect(200);
    await t.req('get', '/api/v1/admin/auth/me', { token: a.token }).expect(401);
    await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: 'new-admin-pass-9' } }).expect(200);
    await t.req('post', '/api/v1/admin/auth/reset-password', { body: { email: a.email, code, password: 'new-admin-pass-9' } }).expect(422);
    await t.req('post', '/api/v1/admin/auth/forgot-password', { body: { email: 'not-an-email' } }).expect(422);
  });

  it('refresh-token exchanges an admin token; user tokens are refused there', async () => {
    const a = await register();
    const r = await t.req('post', '/api/v1/admin/auth/refresh-token', { token: a.token }).expect(200);
    await t.req('get', '/api/v1/admin/auth/me', { token: a.token }).expect(401);
    await t.req('get', '/api/v1/admin/auth/me', { token: r.body.data.token }).expect(200);
    const co = await companyActor(t);
    await t.req('post', '/api/v1/admin/auth/refresh-token', { token: co.token }).expect(401);
    await t.req('post', '/api/v1/auth/refresh-token', { token: r.body.data.token }).expect(401);
  });

  it('logout, me and update-password need an admin token', async () => {
    const a = await register();
    const other = await t.req('post', '/api/v1/admin/auth/login', { body: { email: a.email, password: PASSWORD } }).expect(200);
    await t.req('post', '/api/v1/admin/update-password', { token: a.token, body: { current_password: 'wrong-pass-1', password: 'next-admin-pass-2' } }).expect(422);
    await t.req('post', '/api/v1/admin/update-password', { token: a.token, body: { current_password: PASSWORD, password: 'x' } }).expect(422);
    await t.req('post', '/api/v1/admin/update-password', { token: a.token, body: { current_password: PASSWORD, password: 'next-admin-pass-2' } }).expect(200);
    await t.req('get', '/api/v1/admin/auth/me', { token: other.body.data.token }).expect(401);
    await t.req('post', '/api/v1/admin/auth/logout', { token: a.token }).expect(200);
    await t.req('get', '/api/v1/admin/auth/me', { token: a.token }).expect(401);
    await t.req('get', '/api/v1/admin/auth/me', {}).expect(401);
    const co = await companyActor(t);
    await t.req('post', '/api/v1/admin/auth/logout', { token: co.token }).expect(403);
    await t.req('post', '/api/v1/admin/update-password', { token: co.token, body: { current_password: PASSWORD, password: 'next-admin-pass-2' } }).expect(403);
  });
});
