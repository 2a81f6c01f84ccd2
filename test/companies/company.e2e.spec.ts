import { PASSWORD, companyActor, memberActor, uniqueEmail } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

describe('company, customer and driver creation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a company user creates its company once and becomes its owner; the event is recorded', async () => {
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'Owner', email: uniqueEmail('o'), password: PASSWORD, type: 'company' } }).expect(201);
    const token = reg.body.data.token;
    await t.req('get', '/api/v1/company', { token }).expect(404);
    const co = await t.req('post', '/api/v1/company/create', { token, body: { name: 'Acme', email: 'Office@Acme.test', timezone: 'Europe/Berlin', currency: 'eur' } }).expect(201);
    expect(co.body.data).toMatchObject({ name: 'Acme', email: 'office@acme.test', timezone: 'Europe/Berlin', currency: 'EUR', status: 'active', owner_id: reg.body.data.user.id });
    const shown = await t.req('get', '/api/v1/company', { token }).expect(200);
    expect(shown.body.data.id).toBe(co.body.data.id);
    const again = await t.req('post', '/api/v1/company/create', { token, body: { name: 'Second' } }).expect(409);
    expect(again.body.code).toBe('COMPANY_EXISTS');
    const events = await t.ds.query(`SELECT type FROM outbox_events WHERE aggregate_id = $1`, [co.body.data.id]);
    expect(events).toEqual([{ type: 'company.created' }]);
  });

  it('company/create: defaults, validation and actor', async () => {
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'Owner', email: uniqueEmail('o'), password: PASSWORD, type: 'company' } }).expect(201);
    const bad = await t.req('post', '/api/v1/company/create', { token: reg.body.data.token, body: { name: '', timezone: 'Mars/Olympus', currency: 'XXXX', plan: 'gold' } }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['currency', 'name', 'plan', 'timezone']);
    const ok = await t.req('post', '/api/v1/company/create', { token: reg.body.data.token, body: { name: 'Plain' } }).expect(201);
    expect(ok.body.data).toMatchObject({ timezone: 'UTC', currency: 'USD' });
    await t.req('post', '/api/v1/company/create', { body: { name: 'Anon' } }).expect(401);
    const co = await companyActor(t);
    const cust = await memberActor(t, co, 'customer');
    const r = await t.req('post', '/api/v1/company/create', { token: cust.token, body: { name: 'Mine' } }).expect(403);
    expect(r.body.code).toBe('WRONG_ACTOR');
  });

  it('GET /company shows a customer\'s and a driver\'s company', async () => {
    const co = await companyActor(t, 'Shown Hauling');
    for (const type of ['customer', 'driver'] as const) {
      const m = await memberActor(t, co, type);
      const r = await t.req('get', '/api/v1/company', { token: m.token }).expect(200);
      expect(r.body.data).toMatchObject({ id: co.companyId, name: 'Shown Hauling' });
    }
  });

  it.each(['customer', 'driver'] as const)('%s/create: with a password the user logs in at once; duplicates, bad input and access', async (type) => {
    const co = await companyActor(t);
    const email = uniqueEmail(type);
    const r = await t.req('post', `/api/v1/${type}/create`, { token: co.token, body: { name: 'Pat', email, phone: '+1 555 0101', password: PASSWORD } }).expect(201);
    expect(r.body.data).toMatchObject({ type, email, company_id: co.companyId, status: 'active', has_password: true });
    const login = await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
    expect(login.body.data.user).toMatchObject({ type, company_id: co.companyId });
    const [profile] = await t.ds.query(`SELECT company_id FROM ${type}s WHERE id = $1`, [r.body.data.id]);
    expect(profile.company_id).toBe(co.companyId);
    expect((await t.ds.query(`SELECT 1 FROM outbox_events WHERE type = $1 AND aggregate_id = $2`, [`${type}.created`, r.body.data.id])).length).toBe(1);

    const dup = await t.req('post', `/api/v1/${type}/create`, { token: co.token, body: { name: 'Pat', email: email.toUpperCase() } }).expect(409);
    expect(dup.body.code).toBe('EMAIL_TAKEN');
    const bad = await t.req('post', `/api/v1/${type}/create`, { token: co.token, body: { name: 'Pat', email: 'x', password: 'short', company_id: co.companyId } }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['company_id', 'email', 'password']);
    const member = await memberActor(t, co, 'customer');
    await t.req('post', `/api/v1/${type}/create`, { token: member.token, body: { name: 'Pat', email: uniqueEmail('x') } }).expect(403);
    await t.req('post', `/api/v1/${type}/create`, { body: { name: 'Pat', email: uniqueEmail('x') } }).expect(401);
    const noCompany = await t.req('post', '/api/v1/auth/register', { body: { name: 'N', email: uniqueEmail('n'), password: PASSWORD, type: 'company' } }).expect(201);
    const nc = await t.req('post', `/api/v1/${type}/create`, { token: noCompany.body.data.token, body: { name: 'Pat', email: uniqueEmail('x') } }).expect(403);
    expect(nc.body.code).toBe('NO_COMPANY');
  });

  it('a member belongs to the company that created it only', async () => {
    const a = await companyActor(t, 'A');
    const b = await companyActor(t, 'B');
    const c = await memberActor(t, a, 'customer');
    const rb = await t.req('get', '/api/v1/company', { token: c.token }).expect(200);
    expect(rb.body.data.id).toBe(a.companyId);
    expect(rb.body.data.id).not.toBe(b.companyId);
  });
});
