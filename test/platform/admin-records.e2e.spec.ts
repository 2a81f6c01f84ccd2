import { PASSWORD, companyActor, uniqueEmail, type CompanyActor } from '../support/actors';
import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { adminToken } from '../support/admin';
import { startTestApp, TestApp } from '../support/test-app';

const KEY = 'admin-registration-key-for-platform-records';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Platform administration: a company's records created and read across companies (README "Platform administration"). */
describe('admin records (/api/v1/admin/customers|drivers|asset-specifications|assets|waste-types|orders)', () => {
  let t: TestApp;
  let admin: string;
  let w: OrderWorld;
  let other: CompanyActor;
  let orderId: string;
  let categoryId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ADMIN_REGISTRATION_KEY: KEY } });
    admin = await adminToken(t, KEY);
    w = await orderWorld(t, { name: 'Records Hauling' });
    other = await companyActor(t, 'Other Hauling');
    orderId = (await placeOrder(t, w)).id;
    categoryId = (await t.req('get', `/api/v1/asset-specifications/${w.specId}`, { token: w.company.token }).expect(200)).body.data.asset_category_id;
  });
  afterAll(async () => t?.close());

  const ad = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => t.req(method, `/api/v1/admin/${path}`, { token: admin, body });
  const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((x) => x.id);
  const auditOf = async (companyId: string) => (await ad('get', `companies/${companyId}`).expect(200)).body.data.audit as { action: string; target_type: string; target_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> }[];

  it('creates customers and drivers for a named company through the same service (login, 422, 404, 409)', async () => {
    for (const type of ['customers', 'drivers'] as const) {
      const email = uniqueEmail(type);
      const r = await ad('post', type, { company_id: w.company.companyId, name: `Admin made ${type}`, email, password: PASSWORD }).expect(201);
      expect(r.body.data).toMatchObject({ company_id: w.company.companyId, type: type.slice(0, -1), email, has_password: true });
      await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
      // The company sees it as its own.
      await t.req('get', `/api/v1/${type.slice(0, -1)}/${r.body.data.id}`, { token: w.company.token }).expect(200);
      const audit = await auditOf(w.company.companyId);
      expect(audit[0]).toMatchObject({ action: `${type.slice(0, -1)}.created`, target_type: type.slice(0, -1), target_id: r.body.data.id, before: null });

      const missing = await ad('post', type, { name: 'No Company', email: uniqueEmail('x') }).expect(422);
      expect(Object.keys(missing.body.errors)).toEqual(['company_id']);
      const unknown = await ad('post', type, { company_id: UNKNOWN, name: 'Nobody', email: uniqueEmail('x') }).expect(404);
      expect(unknown.body.code).toBe('NOT_FOUND');
      expect((await ad('post', type, { company_id: w.company.companyId, name: 'Dup', email }).expect(409)).body.code).toBe('EMAIL_TAKEN');
    }
  });

  it('lists, reads and updates customers and drivers across companies (company_id, status, q, from/to)', async () => {
    const otherCustomer = (await ad('post', 'customers', { company_id: other.companyId, name: 'Zed Other', email: uniqueEmail('zed') }).expect(201)).body.data;
    const all = await ad('get', 'customers?per_page=100').expect(200);
    expect(ids(all)).toEqual(expect.arrayContaining([w.customer.id, otherCustomer.id]));
    const a = await ad('get', `customers?company_id=${w.company.companyId}&per_page=100`).expect(200);
    expect(ids(a)).toContain(w.customer.id);
    expect(ids(a)).not.toContain(otherCustomer.id);
    expect(a.body.data.every((c: { company_id: string }) => c.company_id === w.company.companyId)).toBe(true);
    const b = await ad('get', `customers/${other.companyId}/get`).expect(200);
    expect(ids(b)).toEqual([otherCustomer.id]);
    expect(ids(await ad('get', `customers?q=Zed%20Other&status=active`).expect(200))).toEqual([otherCustomer.id]);
    expect((await ad('get', `customers?company_id=${other.companyId}&from=2999-01-01`).expect(200)).body.meta.total).toBe(0);
    await ad('get', `customers/${UNKNOWN}/get`).expect(404);
    expect(Object.keys((await ad('get', 'customers?company_id=nope&to=31-12-2026').expect(422)).body.errors).sort()).toEqual(['company_id', 'to']);

    const one = await ad('get', `customers/${w.customer.id}`).expect(200);
    expect(one.body.data).toMatchObject({ id: w.customer.id, company_id: w.company.companyId });
    const updated = await ad('put', `customers/${w.customer.id}`, { notes: 'Prefers morning drops', tax_exempt: true }).expect(200);
    expect(updated.body.data).toMatchObject({ notes: 'Prefers morning drops', tax_exempt: true, company_id: w.company.companyId });
    const audit = await auditOf(w.company.companyId);
    expect(audit[0]).toMatchObject({ action: 'customer.updated', target_id: w.customer.id, before: { notes: null, tax_exempt: false }, after: { notes: 'Prefers morning drops', tax_exempt: true } });
    // The same validation as the company's route: another company's pricing profile is 422.
    const foreign = await ad('put', `customers/${otherCustomer.id}`, { pricing_profile_id: w.profileId }).expect(422);
    expect(foreign.body.errors).toEqual({ pricing_profile_id: ['not found'] });
    // A refused write leaves no audit entry.
    expect((await auditOf(other.companyId)).map((e) => [e.action, e.target_id])).toEqual([['customer.created', otherCustomer.id]]);
    await ad('get', `customers/${UNKNOWN}`).expect(404);
    await ad('put', `customers/${w.driver.id}`, { notes: 'x' }).expect(404);

    expect(ids(await ad('get', `drivers/${w.company.companyId}/get`).expect(200))).toContain(w.driver.id);
    expect(ids(await ad('get', `drivers?company_id=${other.companyId}`).expect(200))).toEqual([]);
    const driver = await ad('put', `drivers/${w.driver.id}`, { license_number: 'D-1234', hired_on: '2025-03-01' }).expect(200);
    expect(driver.body.data).toMatchObject({ license_number: 'D-1234', hired_on: '2025-03-01', company_id: w.company.companyId });
    expect((await ad('get', `drivers/${w.driver.id}`).expect(200)).body.data.license_number).toBe('D-1234');
    expect((await auditOf(w.company.companyId))[0]).toMatchObject({ action: 'driver.updated', before: { license_number: null }, after: { license_number: 'D-1234' } });
    await ad('get', `drivers/${w.customer.id}`).expect(404);
  });

  it('creates and updates specifications and assets for a named company with the company rules', async () => {
    const spec = await ad('post', 'asset-specifications', { company_id: w.company.companyId, name: '40 yd roll-off', asset_category_id: categoryId, size: 40, size_unit: 'yd3' }).expect(201);
    expect(spec.body.data).toMatchObject({ name: '40 yd roll-off', company_id: w.company.companyId, active: true });
    // The category must be the named company's (the service's own check).
    const wrong = await ad('post', 'asset-specifications', { company_id: other.companyId, name: '40 yd roll-off', asset_category_id: categoryId, size: 40, size_unit: 'yd3' }).expect(422);
    expect(wrong.body.errors).toEqual({ asset_category_id: ['not found'] });
    expect((await ad('post', 'asset-specifications', { company_id: w.company.companyId, name: '40 YD ROLL-OFF', asset_category_id: categoryId, size: 40, size_unit: 'yd3' }).expect(409)).body.code).toBe('DUPLICATE_NAME');
    expect(Object.keys((await ad('post', 'asset-specifications', { name: 'x', asset_category_id: categoryId, size: 4, size_unit: 'yd3' }).expect(422)).body.errors)).toEqual(['company_id']);
    await ad('post', 'asset-specifications', { company_id: UNKNOWN, name: 'x', asset_category_id: categoryId, size: 4, size_unit: 'yd3' }).expect(404);

    const put = await ad('put', `asset-specifications/${spec.body.data.id}`, { active: false, included_days: 10 }).expect(200);
    expect(put.body.data).toMatchObject({ active: false, included_days: 10 });
    expect((await auditOf(w.company.companyId))[0]).toMatchObject({ action: 'asset_specification.updated', before: { active: true, included_days: null }, after: { active: false, included_days: 10 } });
    expect(ids(await ad('get', `asset-specifications/${w.company.companyId}/get?status=inactive`).expect(200))).toEqual([spec.body.data.id]);
    expect(ids(await ad('get', `asset-specifications?company_id=${w.company.companyId}&status=active&per_page=100`).expect(200)).sort()).toEqual([w.specId, w.otherSpecId].sort());
    expect((await ad('get', `asset-specifications/${w.specId}`).expect(200)).body.data.company_id).toBe(w.company.companyId);
    await ad('get', `asset-specifications/${UNKNOWN}`).expect(404);

    const asset = await ad('post', 'assets', { company_id: w.company.companyId, code: 'ADM-0001', asset_specification_id: w.specId, home_lot_id: w.lotId }).expect(201);
    expect(asset.body.data).toMatchObject({ code: 'ADM-0001', status: 'available', location_type: 'lot', company_id: w.company.companyId });
    expect((await ad('post', 'assets', { company_id: w.company.companyId, code: 'adm-0001', asset_specification_id: w.specId }).expect(409)).body.code).toBe('DUPLICATE_CODE');
    expect((await ad('post', 'assets', { company_id: other.companyId, code: 'ADM-0001', asset_specification_id: w.specId }).expect(422)).body.errors).toEqual({ asset_specification_id: ['not found'] });
    const maintenance = await ad('put', `assets/${asset.body.data.id}`, { status: 'maintenance', notes: 'Dented door' }).expect(200);
    expect(maintenance.body.data).toMatchObject({ status: 'maintenance', notes: 'Dented door' });
    expect((await ad('put', `assets/${asset.body.data.id}`, { status: 'on_site' }).expect(422)).body.errors).toHaveProperty('status');
    expect((await auditOf(w.company.companyId))[0]).toMatchObject({ action: 'asset.updated', target_type: 'asset', before: { status: 'available' }, after: { status: 'maintenance' } });
    expect(ids(await ad('get', `assets?company_id=${w.company.companyId}&status=maintenance`).expect(200))).toEqual([asset.body.data.id]);
    expect(ids(await ad('get', `assets/${other.companyId}/get`).expect(200))).toEqual([]);
    expect((await ad('get', `assets/${asset.body.data.id}`).expect(200)).body.data.code).toBe('ADM-0001');
    // The company sees the asset as its own.
    await t.req('get', `/api/v1/assets/${asset.body.data.id}`, { token: w.company.token }).expect(200);
  });

  it('lists waste types and reads orders across companies (read only)', async () => {
    const wt = await ad('get', `waste-types?company_id=${w.company.companyId}&per_page=100`).expect(200);
    expect(ids(wt).sort()).toEqual([w.wasteId, w.otherWasteId].sort());
    expect(wt.body.data[0].company_id).toBe(w.company.companyId);
    expect(ids(await ad('get', `waste-types?company_id=${other.companyId}`).expect(200))).toEqual([]);
    expect(ids(await ad('get', `waste-types?company_id=${w.company.companyId}&q=YARD`).expect(200))).toEqual([w.otherWasteId]);

    const orders = await ad('get', `orders?company_id=${w.company.companyId}`).expect(200);
    expect(orders.body.data).toEqual([expect.objectContaining({ id: orderId, company_id: w.company.companyId, status: 'pending' })]);
    expect(orders.body.meta.total).toBe(1);
    // Totals from the counter rows (status, customer, company) and from a count (text, dates) agree.
    expect((await ad('get', `orders?company_id=${w.company.companyId}&customer_id=${w.customer.id}&status=pending`).expect(200)).body.meta.total).toBe(1);
    expect((await ad('get', `orders?company_id=${other.companyId}&status=pending`).expect(200)).body.meta.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await ad('get', `orders?company_id=${w.company.companyId}&from=${today}&to=${today}`).expect(200)).body.meta.total).toBe(1);
    expect(ids(await ad('get', 'orders?per_page=100').expect(200))).toContain(orderId);
    expect(ids(await ad('get', `orders/${w.company.companyId}/get?status=pending`).expect(200))).toEqual([orderId]);
    expect(ids(await ad('get', `orders/${w.company.companyId}/get?status=completed`).expect(200))).toEqual([]);
    expect(ids(await ad('get', `orders/${other.companyId}/get`).expect(200))).toEqual([]);
    expect((await ad('get', `orders?company_id=${w.company.companyId}&from=2999-01-01`).expect(200)).body.meta.total).toBe(0);
    await ad('get', `orders/${UNKNOWN}/get`).expect(404);
    const one = await ad('get', `orders/${orderId}`).expect(200);
    expect(one.body.data).toMatchObject({ id: orderId, company_id: w.company.companyId, status: 'pending' });
    expect(one.body.data.status_history.length).toBeGreaterThan(0);
    await ad('get', `orders/${UNKNOWN}`).expect(404);
  });

  it('is for administrators only', async () => {
    for (const [method, path] of [
      ['get', 'customers'],
      ['post', 'customers'],
      ['get', `drivers/${w.driver.id}`],
      ['get', `asset-specifications/${w.company.companyId}/get`],
      ['get', 'assets'],
      ['get', 'waste-types'],
      ['get', `orders/${orderId}`],
    ] as const) {
      for (const token of [w.company.token, w.customer.token, w.driver.token]) {
        const r = await t.req(method, `/api/v1/admin/${path}`, { token, body: method === 'post' ? {} : undefined }).expect(403);
        expect(r.body.code).toBe('WRONG_ACTOR');
      }
      await t.req(method, `/api/v1/admin/${path}`).expect(401);
    }
  });
});
