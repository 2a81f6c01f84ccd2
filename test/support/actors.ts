import { TestApp } from './test-app';

export const PASSWORD = 'secret-pass-1';
let seq = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${process.pid}.${Date.now()}.${++seq}@example.test`;

export interface CompanyActor {
  token: string;
  userId: string;
  companyId: string;
  email: string;
}

/** Registers a company user and creates its company, through HTTP only. */
export async function companyActor(t: TestApp, name = 'Acme Hauling'): Promise<CompanyActor> {
  const email = uniqueEmail('owner');
  const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'Owner', email, password: PASSWORD, type: 'company' } }).expect(201);
  const token = reg.body.data.token;
  const co = await t.req('post', '/api/v1/company/create', { token, body: { name, timezone: 'America/Chicago', currency: 'USD' } }).expect(201);
  return { token, userId: reg.body.data.user.id, companyId: co.body.data.id, email };
}

export interface MemberActor {
  token: string;
  id: string;
  email: string;
}

/** Creates a customer or driver with a password through the company, then logs them in. */
export async function memberActor(t: TestApp, company: CompanyActor, type: 'customer' | 'driver'): Promise<MemberActor> {
  const email = uniqueEmail(type);
  const created = await t.req('post', `/api/v1/${type}/create`, { token: company.token, body: { name: `A ${type}`, email, password: PASSWORD } }).expect(201);
  const login = await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
  return { token: login.body.data.token, id: created.body.data.id, email };
}

/** The latest 6-digit code mailed to `email` (the local outbox; no SMTP in tests). */
export async function mailedCode(t: TestApp, email: string): Promise<string> {
  const [row] = await t.ds.query(`SELECT body FROM mail_messages WHERE lower(to_address) = lower($1) ORDER BY created_at DESC LIMIT 1`, [email]);
  const code = /\b(\d{6})\b/.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}
