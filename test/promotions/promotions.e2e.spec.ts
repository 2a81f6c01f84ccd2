import { CompanyActor, memberActor, MemberActor } from '../support/actors';
import { Cast, insertSpec, startWithCast } from '../support/fixtures';

/** Promotions (company) and the customer's view of the specifications a promotion applies to. */
describe('promotion routes', () => {
  let { t, co, other, customer, driver } = {} as Cast;
  let otherCustomer: MemberActor;
  let s20: string;
  let s30: string;
  let inactiveSpec: string;
  let foreignSpec: string;

  const create = async (actor: CompanyActor, body: Record<string, unknown>) =>
    (await t.req('post', '/api/v1/promotions/create', { token: actor.token, body: { name: 'Promo', discount_type: 'percent', discount_value: 1000, ...body } }).expect(201)).body.data;
  const specsOf = (actor: MemberActor, id: string) => t.req('get', `/api/v1/customer/promotions/${id}/asset-specifications`, { token: actor.token });

  beforeAll(async () => {
    ({ t, co, other, customer, driver } = await startWithCast());
    otherCustomer = await memberActor(t, other, 'customer');
    s20 = await insertSpec(t, co.companyId, '20 yd');
    s30 = await insertSpec(t, co.companyId, '30 yd');
    inactiveSpec = await insertSpec(t, co.companyId, '40 yd (retired)', false);
    foreignSpec = await insertSpec(t, other.companyId, 'Their 20 yd');
  });
  afterAll(async () => t?.close());

  it('creates, lists with filters, shows, updates and deletes a promotion', async () => {
    const spring = {
      code: 'SPRING25',
      name: 'Spring clean-up',
      discount_value: 2500,
      valid_from: '2025-03-01',
      valid_to: '2025-05-31',
      max_redemptions: 100,
      max_redemptions_per_customer: 1,
      min_subtotal_amount: 20000,
      asset_specification_ids: [s20],
    };
    const p = await create(co, spring);
    expect(p).toMatchObject({ ...spring, discount_type: 'percent', active: true });
    const fixed = await create(co, { code: 'TENOFF', name: 'Ten off', discount_type: 'fixed', discount_value: 1000, active: false });
    expect(fixed).toMatchObject({ valid_from: null, valid_to: null, max_redemptions: null, min_subtotal_amount: 0, asset_specification_ids: [] });

    const ids = async (qs: string) => (await t.req('get', `/api/v1/promotions?${qs}`, { token: co.token }).expect(200)).body.data.map((x: { id: string }) => x.id);
    expect(await ids('active=false')).toEqual([fixed.id]);
    expect(await ids('active=true')).toEqual([p.id]);
    expect(await ids('q=spring2')).toEqual([p.id]);
    expect(await ids('q=ten')).toEqual([fixed.id]);
    expect(await ids('sort=code')).toEqual([p.id, fixed.id]);

    await t.req('get', `/api/v1/promotions/${p.id}`, { token: co.token }).expect(200);
    const upd = await t.req('put', `/api/v1/promotions/${p.id}`, { token: co.token, body: { valid_to: null, asset_specification_ids: [s20, s30], max_redemptions: null } }).expect(200);
    expect(upd.body.data).toMatchObject({ code: 'SPRING25', valid_from: '2025-03-01', valid_to: null, max_redemptions: null });
    expect([...upd.body.data.asset_specification_ids].sort()).toEqual([s20, s30].sort());
    const cleared = await t.req('put', `/api/v1/promotions/${p.id}`, { token: co.token, body: { asset_specification_ids: [] } }).expect(200);
    expect(cleared.body.data.asset_specification_ids).toEqual([]);

    await t.req('delete', `/api/v1/promotions/${fixed.id}`, { token: co.token }).expect(200);
    await t.req('get', `/api/v1/promotions/${fixed.id}`, { token: co.token }).expect(404);
    const [ev] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1 AND type LIKE 'promotion.%'`, [fixed.id]);
    expect(ev.n).toBe(2);
  });

  it('keeps codes unique per company, case-insensitively (409)', async () => {
    const a = await create(co, { code: 'WELCOME' });
    const dup = await t.req('post', '/api/v1/promotions/create', { token: co.token, body: { code: 'welcome', name: 'x', discount_type: 'fixed', discount_value: 1 } }).expect(409);
    expect(dup.body.code).toBe('DUPLICATE_CODE');
    const b = await create(co, { code: 'WELCOME2' });
    await t.req('put', `/api/v1/promotions/${b.id}`, { token: co.token, body: { code: 'Welcome' } }).expect(409);
    await t.req('put', `/api/v1/promotions/${a.id}`, { token: co.token, body: { code: 'welcome' } }).expect(200);
    await create(other, { code: 'WELCOME' }); // another company may use it
  });

  it('rejects bad input with 422', async () => {
    const res = await t.req('post', '/api/v1/promotions/create', {
      token: co.token,
      body: { code: 'bad code!', name: '', discount_type: 'half', discount_value: 0, valid_from: '2025-02-30', max_redemptions: 0, asset_specification_ids: ['nope'], extra: 1 },
    }).expect(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['asset_specification_ids', 'code', 'discount_type', 'discount_value', 'extra', 'max_redemptions', 'name', 'valid_from']);
    const pct = await t.req('post', '/api/v1/promotions/create', { token: co.token, body: { code: 'BIG', name: 'x', discount_type: 'percent', discount_value: 10001 } }).expect(422);
    expect(pct.body.errors).toHaveProperty('discount_value');
    const dates = await t.req('post', '/api/v1/promotions/create', { token: co.token, body: { code: 'D', name: 'x', discount_type: 'fixed', discount_value: 5, valid_from: '2025-05-02', valid_to: '2025-05-01' } }).expect(422);
    expect(dates.body.errors).toHaveProperty('valid_to');
    const foreign = await t.req('post', '/api/v1/promotions/create', { token: co.token, body: { code: 'F', name: 'x', discount_type: 'fixed', discount_value: 5, asset_specification_ids: [foreignSpec] } }).expect(422);
    expect(foreign.body.errors).toEqual({ 'asset_specification_ids.0': ['not found'] });
    // Update checked against the stored row: a fixed amount above 10000 becomes an illegal percent.
    const f = await create(co, { code: 'FIX200', discount_type: 'fixed', discount_value: 20000 });
    await t.req('put', `/api/v1/promotions/${f.id}`, { token: co.token, body: { discount_type: 'percent' } }).expect(422);
    await t.req('put', `/api/v1/promotions/${f.id}`, { token: co.token, body: { valid_from: '2030-01-01', valid_to: '2029-12-31' } }).expect(422);
    await t.req('put', `/api/v1/promotions/${f.id}`, { token: co.token, body: { code: null } }).expect(422);
    await t.req('get', '/api/v1/promotions?active=yes', { token: co.token }).expect(422);
  });

  it('hides other companies\' promotions (404) and enforces CO', async () => {
    const theirs = await create(other, { code: 'THEIRS' });
    await t.req('get', `/api/v1/promotions/${theirs.id}`, { token: co.token }).expect(404);
    await t.req('put', `/api/v1/promotions/${theirs.id}`, { token: co.token, body: { name: 'Mine' } }).expect(404);
    await t.req('delete', `/api/v1/promotions/${theirs.id}`, { token: co.token }).expect(404);
    await t.req('get', '/api/v1/promotions/xyz', { token: co.token }).expect(404);
    await t.req('get', '/api/v1/promotions').expect(401);
    await t.req('get', '/api/v1/promotions', { token: customer.token }).expect(403);
    await t.req('post', '/api/v1/promotions/create', { token: driver.token, body: { code: 'X', name: 'x', discount_type: 'fixed', discount_value: 1 } }).expect(403);
    await t.req('get', `/api/v1/promotions/${theirs.id}`, { token: customer.token }).expect(403);
    await t.req('put', `/api/v1/promotions/${theirs.id}`, { body: { name: 'x' } }).expect(401);
    await t.req('delete', `/api/v1/promotions/${theirs.id}`, { token: customer.token }).expect(403);
  });

  describe('customer: GET /customer/promotions/{promotion}/asset-specifications', () => {
    it('lists the linked active specifications, or all active ones when none are linked', async () => {
      const linked = await create(co, { code: 'LINKED', asset_specification_ids: [s20, inactiveSpec] });
      const res = await specsOf(customer, linked.id).expect(200);
      expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([s20]);
      expect(res.body.data[0]).toMatchObject({ name: '20 yd', size: 20, size_unit: 'yd3' });
      expect(res.body.meta).toMatchObject({ total: 1 });

      const all = await create(co, { code: 'ALLSPECS' });
      const r2 = await specsOf(customer, all.id).expect(200);
      expect(r2.body.data.map((s: { id: string }) => s.id).sort()).toEqual([s20, s30].sort());
      const q = await t.req('get', `/api/v1/customer/promotions/${all.id}/asset-specifications?q=30`, { token: customer.token }).expect(200);
      expect(q.body.data.map((s: { id: string }) => s.id)).toEqual([s30]);
    });

    it('is 404 for an inactive, expired, future, deleted or another company\'s promotion', async () => {
      const inactive = await create(co, { code: 'OFF', active: false });
      await specsOf(customer, inactive.id).expect(404);
      const expired = await create(co, { code: 'OLD', valid_from: '2020-01-01', valid_to: '2020-12-31' });
      await specsOf(customer, expired.id).expect(404);
      const future = await create(co, { code: 'SOON', valid_from: '2999-01-01' });
      await specsOf(customer, future.id).expect(404);
      const current = await create(co, { code: 'NOW', valid_from: '2020-01-01', valid_to: '2999-12-31' });
      await specsOf(customer, current.id).expect(200);
      await t.req('delete', `/api/v1/promotions/${current.id}`, { token: co.token }).expect(200);
      await specsOf(customer, current.id).expect(404);
      const theirs = await create(other, { code: 'THEIRS2' });
      await specsOf(customer, theirs.id).expect(404);
      await specsOf(otherCustomer, theirs.id).expect(200);
      await t.req('get', '/api/v1/customer/promotions/nope/asset-specifications', { token: customer.token }).expect(404);
    });

    it('is for customers only and validates its query', async () => {
      const p = await create(co, { code: 'CUSTONLY' });
      await t.req('get', `/api/v1/customer/promotions/${p.id}/asset-specifications`).expect(401);
      const r = await t.req('get', `/api/v1/customer/promotions/${p.id}/asset-specifications`, { token: co.token }).expect(403);
      expect(r.body.code).toBe('WRONG_ACTOR');
      await specsOf(driver, p.id).expect(403);
      await t.req('get', `/api/v1/customer/promotions/${p.id}/asset-specifications?per_page=1000`, { token: customer.token }).expect(422);
      await t.req('get', `/api/v1/customer/promotions/${p.id}/asset-specifications?sort=secret`, { token: customer.token }).expect(422);
    });
  });
});
