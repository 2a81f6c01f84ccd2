import { PASSWORD, companyActor, memberActor, uniqueEmail, type CompanyActor, type MemberActor } from '../support/actors';
import { adminToken } from '../support/admin';
import { startTestApp, TestApp } from '../support/test-app';

const KEY = 'admin-registration-key-for-platform-tests';

/** Platform administration, companies (README "Platform administration"): HTTP only. */
describe('admin companies (/api/v1/admin/companies*)', () => {
  let t: TestApp;
  let admin: string;
  let co: CompanyActor;
  let customer: MemberActor;
  let driver: MemberActor;

  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_REGISTRATION_KEY: KEY } });
    admin = await adminToken(t, KEY);
    co = await companyActor(t, 'Deactivation Hauling');
    customer = await memberActor(t, co, 'customer');
    driver = await memberActor(t, co, 'driver');
  });
  afterAll(async () => t?.close());

  const ad = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/admin/${path}`, { token: admin, body });

  it('creates a company with its owner, who can log in at once; 422 without owner, 409 for a taken e-mail', async () => {
    const email = uniqueEmail('owner');
    const name = `Platform Made ${Date.now()}`;
    const r = await ad('post', 'companies', { name, timezone: 'America/Denver', currency: 'usd', owner: { name: 'Olive Owner', email, password: PASSWORD } }).expect(201);
    expect(r.body.data).toMatchObject({ name, timezone: 'America/Denver', currency: 'USD', status: 'active', platform: { platform_fee_bps: null, plan_override: null, feature_flags: {} } });
    const login = await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
    expect(login.body.data.user.id).toBe(r.body.data.owner_id);
    const mine = await t.req('get', '/api/v1/company', { token: login.body.data.token }).expect(200);
    expect(mine.body.data.id).toBe(r.body.data.id);
    // The owner is a company user with the company: CO routes work.
    await t.req('get', '/api/v1/customers', { token: login.body.data.token }).expect(200);

    const audit = await ad('get', `companies/${r.body.data.id}`).expect(200);
    expect(audit.body.data.audit).toEqual([expect.objectContaining({ action: 'company.created', target_type: 'company', target_id: r.body.data.id, company_id: r.body.data.id, before: null })]);
    expect(audit.body.data.audit[0].after).toMatchObject({ name, owner_id: r.body.data.owner_id });

    const bad = await ad('post', 'companies', { name: 'No Owner' }).expect(422);
    expect(Object.keys(bad.body.errors)).toContain('owner');
    const badOwner = await ad('post', 'companies', { name: 'Bad Owner', owner: { name: 'X', email: 'not-an-email' } }).expect(422);
    expect(Object.keys(badOwner.body.errors).join()).toContain('email');
    const taken = await ad('post', 'companies', { name: 'Taken', owner: { name: 'X', email: co.email } }).expect(409);
    expect(taken.body.code).toBe('EMAIL_TAKEN');
    // Nothing of the refused creation stays.
    const none = await ad('get', `companies?q=${encodeURIComponent('Taken')}`).expect(200);
    expect(none.body.data.filter((c: { name: string }) => c.name === 'Taken')).toEqual([]);
  });

  it('lists companies with filters (status, q, from/to) and pagination in SQL', async () => {
    const all = await ad('get', 'companies?per_page=1').expect(200);
    expect(all.body.meta.per_page).toBe(1);
    expect(all.body.meta.total).toBeGreaterThanOrEqual(2);
    const q = await ad('get', `companies?q=${encodeURIComponent('Deactivation Hauling')}`).expect(200);
    expect(q.body.data.map((c: { id: string }) => c.id)).toContain(co.companyId);
    const today = new Date().toISOString().slice(0, 10);
    const created = await ad('get', `companies?q=${encodeURIComponent('Deactivation Hauling')}&from=${today}&to=${today}&status=active`).expect(200);
    expect(created.body.data.map((c: { id: string }) => c.id)).toContain(co.companyId);
    const later = await ad('get', `companies?q=${encodeURIComponent('Deactivation Hauling')}&from=2999-01-01`).expect(200);
    expect(later.body.meta.total).toBe(0);
    const inactive = await ad('get', 'companies?status=inactive&per_page=100').expect(200);
    expect(inactive.body.data.map((c: { id: string }) => c.id)).not.toContain(co.companyId);
    const bad = await ad('get', 'companies?status=gone&from=yesterday&sort=owner').expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'status']);
  });

  it('updates a company; the audit log keeps before and after', async () => {
    const target = await companyActor(t, 'Before Name Hauling');
    const r = await ad('put', `companies/${target.companyId}`, { name: 'After Name Hauling', phone: '+15125550100' }).expect(200);
    expect(r.body.data).toMatchObject({ id: target.companyId, name: 'After Name Hauling', phone: '+15125550100' });
    const view = await ad('get', `companies/${target.companyId}`).expect(200);
    expect(view.body.data.audit[0]).toMatchObject({ action: 'company.updated', target_type: 'company', before: { name: 'Before Name Hauling', phone: null }, after: { name: 'After Name Hauling', phone: '+15125550100' } });
    await ad('put', `companies/${target.companyId}`, { name: '' }).expect(422);
    await ad('put', `companies/${target.companyId}`, { owner_id: target.userId }).expect(422);
    await ad('put', 'companies/00000000-0000-4000-8000-000000000000', { name: 'X' }).expect(404);
    await ad('get', 'companies/not-a-uuid').expect(404);
  });

  it("deactivating a company refuses its users' role routes at once and shows in /auth/me; activating undoes it", async () => {
    await t.req('get', '/api/v1/customers', { token: co.token }).expect(200);
    const off = await ad('post', `companies/${co.companyId}/deactivate`).expect(200);
    expect(off.body.data.status).toBe('inactive');

    for (const [token, path] of [
      [co.token, '/api/v1/customers'],
      [customer.token, '/api/v1/customer/profile'],
      [driver.token, '/api/v1/driver/leaves'],
    ] as const) {
      const refused = await t.req('get', path, { token }).expect(403);
      expect(refused.body.code).toBe('COMPANY_INACTIVE');
    }
    const me = await t.req('get', '/api/v1/auth/me', { token: co.token }).expect(200);
    expect(me.body.data.company).toMatchObject({ id: co.companyId, status: 'inactive' });
    const again = await ad('post', `companies/${co.companyId}/deactivate`).expect(409);
    expect(again.body.code).toBe('INVALID_TRANSITION');
    const listed = await ad('get', `companies?status=inactive&q=${encodeURIComponent('Deactivation Hauling')}`).expect(200);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([co.companyId]);

    const on = await ad('post', `companies/${co.companyId}/activate`).expect(200);
    expect(on.body.data.status).toBe('active');
    await t.req('get', '/api/v1/customers', { token: co.token }).expect(200);
    await t.req('get', '/api/v1/customer/profile', { token: customer.token }).expect(200);
    await t.req('get', '/api/v1/driver/leaves', { token: driver.token }).expect(200);
    const meAgain = await t.req('get', '/api/v1/auth/me', { token: customer.token }).expect(200);
    expect(meAgain.body.data.company.status).toBe('active');
    expect((await ad('post', `companies/${co.companyId}/activate`).expect(409)).body.code).toBe('INVALID_TRANSITION');

    const view = await ad('get', `companies/${co.companyId}`).expect(200);
    expect(view.body.data.audit.slice(0, 2).map((e: { action: string; before: { status: string }; after: { status: string } }) => [e.action, e.before.status, e.after.status])).toEqual([
      ['company.activated', 'inactive', 'active'],
      ['company.deactivated', 'active', 'inactive'],
    ]);
    await ad('post', 'companies/00000000-0000-4000-8000-000000000000/activate').expect(404);
  });

  it('platform settings: the fee is what payments charges the company, flags merge, plans are checked', async () => {
    const before = await t.req('get', '/api/v1/psp/onboarding/fee_details', { token: co.token }).expect(200);
    expect(before.body.data.card_percent_bps).toBe(290);
    const r = await ad('patch', `companies/${co.companyId}/platform`, { platform_fee_bps: 500, plan_override: 'pro', feature_flags: { route_optimisation: true, beta_reports: false } }).expect(200);
    expect(r.body.data.platform).toEqual({ platform_fee_bps: 500, plan_override: 'pro', feature_flags: { route_optimisation: true, beta_reports: false } });

    const fees = await t.req('get', '/api/v1/psp/onboarding/fee_details', { token: co.token }).expect(200);
    expect(fees.body.data.card_percent_bps).toBe(500);
    const quote = await t.req('post', '/api/v1/psp/onboarding/fee_details', { token: co.token, body: { amount: 10000 } }).expect(200);
    expect(quote.body.data).toMatchObject({ platform_fee_amount: 530, net_amount: 9470 });
    // Another company keeps the default.
    const other = await companyActor(t, 'Default Fee Co');
    expect((await t.req('get', '/api/v1/psp/onboarding/fee_details', { token: other.token }).expect(200)).body.data.card_percent_bps).toBe(290);

    const merged = await ad('patch', `companies/${co.companyId}/platform`, { feature_flags: { beta_reports: null, dark_mode: true } }).expect(200);
    expect(merged.body.data.platform).toEqual({ platform_fee_bps: 500, plan_override: 'pro', feature_flags: { route_optimisation: true, dark_mode: true } });
    const cleared = await ad('patch', `companies/${co.companyId}/platform`, { platform_fee_bps: null, plan_override: null }).expect(200);
    expect(cleared.body.data.platform).toMatchObject({ platform_fee_bps: null, plan_override: null });
    expect((await t.req('get', '/api/v1/psp/onboarding/fee_details', { token: co.token }).expect(200)).body.data.card_percent_bps).toBe(290);

    const bad = await ad('patch', `companies/${co.companyId}/platform`, { platform_fee_bps: 10001, feature_flags: { 'Bad Name': true }, extra: 1 }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['extra', 'feature_flags', 'platform_fee_bps']);
    const plan = await ad('patch', `companies/${co.companyId}/platform`, { plan_override: 'platinum' }).expect(422);
    expect(plan.body.errors).toEqual({ plan_override: ['is not a plan code'] });

    const view = await ad('get', `companies/${co.companyId}`).expect(200);
    // Newest first: the last three entries are the three changes above.
    const [clear, merge, first] = view.body.data.audit.filter((e: { action: string }) => e.action === 'company.platform_updated');
    expect(clear.after.platform).toMatchObject({ platform_fee_bps: null, plan_override: null });
    expect(merge.before.platform.feature_flags).toEqual({ route_optimisation: true, beta_reports: false });
    expect(first.before.platform).toEqual({ platform_fee_bps: null, plan_override: null, feature_flags: {} });
  });

  it("the plan override sets the company's plan limits whatever its subscription", async () => {
    const limited = await companyActor(t, 'Override Hauling');
    await t.req('post', '/api/v1/psp/plans/starter/trial', { token: limited.token }).expect(201);
    await ad('patch', `companies/${limited.companyId}/platform`, { plan_override: 'free' }).expect(200);
    const driver = () => ad('post', 'drivers', { company_id: limited.companyId, name: 'Fleet Driver', email: uniqueEmail('fleet') });
    for (let i = 0; i < 20; i++) await driver().expect(201);
    // The free plan allows 20 drivers, the starter trial 50: the override decides.
    const refused = await driver().expect(403);
    expect(refused.body).toMatchObject({ code: 'PLAN_LIMIT', errors: { limit: ['20'], plan: ['free'] } });
    await ad('patch', `companies/${limited.companyId}/platform`, { plan_override: null }).expect(200);
    await driver().expect(201);
  });

  it('is for administrators only', async () => {
    for (const token of [co.token, customer.token, driver.token]) {
      const r = await t.req('get', '/api/v1/admin/companies', { token }).expect(403);
      expect(r.body.code).toBe('WRONG_ACTOR');
    }
    await t.req('post', `/api/v1/admin/companies/${co.companyId}/deactivate`, { token: co.token }).expect(403);
    await t.req('get', '/api/v1/admin/companies').expect(401);
  });
});
