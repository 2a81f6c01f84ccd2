import { PASSWORD, uniqueEmail } from './actors';
import { TestApp } from './test-app';

/** Registers an administrator (the app must be started with `ADMIN_REGISTRATION_KEY: key`) and answers its token. */
export async function adminToken(t: TestApp, key: string): Promise<string> {
  const r = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'Root', email: uniqueEmail('admin'), password: PASSWORD, registration_key: key } }).expect(201);
  return r.body.data.token;
}
