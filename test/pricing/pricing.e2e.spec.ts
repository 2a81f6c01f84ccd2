import { Scope } from '../../src/common/access/scope';
import { PricingCatalog } from '../../src/modules/pricing/pricing-catalog';
import { companyActor, memberActor } from '../support/actors';
import { Cast, insertSpec, insertWasteType, startWithCast } from '../support/fixtures';

/** Taxes, payment terms, policies, pricing profiles (with items) and the PricingCatalog read side. */
describe('pricing routes (taxes, payment terms, policies, pricing profiles)', () => {
  let { t, co, other, customer } = {} as Cast;

  const spec = (companyId: string, name: string) => insertSpec(t, companyId, name);
  const wasteType = (companyId: string, code: string) => insertWasteType(t, companyId, code);
  const events = async (type: string, id: string) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = $1 AND aggregate_id = $2`, [type, id]))[0].n);

  beforeAll(async () => ({ t, co, other, customer } = await startWithCast()));
  afterAll(async () => t?.close());

  describe('taxes', () => {
    it('creates, lists with filters, shows, updates and soft-deletes a tax', async () => {
      const created = await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: ' State tax ', rate_bps: 825, applies_to: 'rental' } }).expect(201);
      const tax = created.body.data;
      expect(tax).toMatchObject({ name: 'State tax', rate_bps: 825, applies_to: 'rental', is_default: false, created_at: expect.any(String) });
      expect(tax).not.toHaveProperty('company_id');
      expect(await events('tax.created', tax.id)).toBe(1);
      await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: 'Fee tax', rate_bps: 500, applies_to: 'fees' } }).expect(201);

      const list = await t.req('get', '/api/v1/taxes?applies_to=rental&sort=name', { token: co.token }).expect(200);
      expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([tax.id]);
      expect(list.body.meta).toMatchObject({ page: 1, total: 1 });
      const q = await t.req('get', '/api/v1/taxes?q=fee', { token: co.token }).expect(200);
      expect(q.body.data).toHaveLength(1);
      expect(q.body.data[0].name).toBe('Fee tax');

      await t.req('get', `/api/v1/taxes/${tax.id}`, { token: co.token }).expect(200);
      const upd = await t.req('put', `/api/v1/taxes/${tax.id}`, { token: co.token, body: { rate_bps: 900 } }).expect(200);
      expect(upd.body.data).toMatchObject({ name: 'State tax', rate_bps: 900, applies_to: 'rental' });

      await t.req('delete', `/api/v1/taxes/${tax.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/taxes/${tax.id}`, { token: co.token }).expect(404);
      const [row] = await t.ds.query(`SELECT deleted_at FROM taxes WHERE id = $1`, [tax.id]);
      expect(row.deleted_at).not.toBeNull();
      expect(await events('tax.deleted', tax.id)).toBe(1);
    });

    it('keeps a single default tax per company', async () => {
      const a = (await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: 'A', rate_bps: 100, is_default: true } }).expect(201)).body.data;
      const b = (await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: 'B', rate_bps: 200, is_default: true } }).expect(201)).body.data;
      expect((await t.req('get', `/api/v1/taxes/${a.id}`, { token: co.token })).body.data.is_default).toBe(false);
      await t.req('put', `/api/v1/taxes/${a.id}`, { token: co.token, body: { is_default: true } }).expect(200);
      expect((await t.req('get', `/api/v1/taxes/${b.id}`, { token: co.token })).body.data.is_default).toBe(false);
      const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM taxes WHERE company_id = $1 AND is_default AND deleted_at IS NULL`, [co.companyId]);
      expect(n.n).toBe(1);
      // Another company's default is untouched.
      const o = (await t.req('post', '/api/v1/taxes', { token: other.token, body: { name: 'O', rate_bps: 1, is_default: true } }).expect(201)).body.data;
      await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: 'C', rate_bps: 300, is_default: true } }).expect(201);
      expect((await t.req('get', `/api/v1/taxes/${o.id}`, { token: other.token })).body.data.is_default).toBe(true);
    });

    it('rejects bad input with 422', async () => {
      const res = await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: '', rate_bps: 100001, applies_to: 'food', is_default: 'yes', extra: 1 } }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['applies_to', 'extra', 'is_default', 'name', 'rate_bps']);
      const tax = (await t.req('post', '/api/v1/taxes', { token: co.token, body: { name: 'X', rate_bps: 1 } }).expect(201)).body.data;
      const nul = await t.req('put', `/api/v1/taxes/${tax.id}`, { token: co.token, body: { name: null } }).expect(422);
      expect(nul.body.errors).toHaveProperty('name');
      await t.req('put', `/api/v1/taxes/${tax.id}`, { token: co.token, body: { rate_bps: 1.5 } }).expect(422);
      await t.req('get', '/api/v1/taxes?applies_to=nope', { token: co.token }).expect(422);
      await t.req('get', '/api/v1/taxes?sort=secret', { token: co.token }).expect(422);
    });

    it('hides other companies\' taxes (404) and enforces CO', async () => {
      const tax = (await t.req('post', '/api/v1/taxes', { token: other.token, body: { name: 'Theirs', rate_bps: 1 } }).expect(201)).body.data;
      await t.req('get', `/api/v1/taxes/${tax.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/taxes/${tax.id}`, { token: co.token, body: { rate_bps: 2 } }).expect(404);
      await t.req('delete', `/api/v1/taxes/${tax.id}`, { token: co.token }).expect(404);
      await t.req('get', '/api/v1/taxes/not-a-uuid', { token: co.token }).expect(404);
      const mine = await t.req('get', '/api/v1/taxes?per_page=100', { token: co.token }).expect(200);
      expect(mine.body.data.find((x: { id: string }) => x.id === tax.id)).toBeUndefined();
      await t.req('get', '/api/v1/taxes').expect(401);
      const r = await t.req('get', '/api/v1/taxes', { token: customer.token }).expect(403);
      expect(r.body.code).toBe('WRONG_ACTOR');
      await t.req('post', '/api/v1/taxes', { token: customer.token, body: { name: 'x', rate_bps: 1 } }).expect(403);
      await t.req('put', `/api/v1/taxes/${tax.id}`, { body: { rate_bps: 2 } }).expect(401);
      await t.req('delete', `/api/v1/taxes/${tax.id}`, { token: customer.token }).expect(403);
    });
  });

  describe('payment terms', () => {
    it('runs CRUD with a single default', async () => {
      const net30 = (await t.req('post', '/api/v1/payment-terms', { token: co.token, body: { name: 'Net 30', due_days: 30, is_default: true } }).expect(201)).body.data;
      expect(net30).toMatchObject({ name: 'Net 30', due_days: 30, is_default: true });
      const receipt = (await t.req('post', '/api/v1/payment-terms', { token: co.token, body: { name: 'On receipt', due_days: 0, is_default: true } }).expect(201)).body.data;
      expect(receipt.due_days).toBe(0);
      const list = await t.req('get', '/api/v1/payment-terms?sort=due_days', { token: co.token }).expect(200);
      expect(list.body.data.map((p: { name: string; is_default: boolean }) => [p.name, p.is_default])).toEqual([
        ['On receipt', true],
        ['Net 30', false],
      ]);
      const upd = await t.req('put', `/api/v1/payment-terms/${net30.id}`, { token: co.token, body: { name: 'Net 45', due_days: 45 } }).expect(200);
      expect(upd.body.data).toMatchObject({ name: 'Net 45', due_days: 45, is_default: false });
      await t.req('get', `/api/v1/payment-terms/${net30.id}`, { token: co.token }).expect(200);
      await t.req('delete', `/api/v1/payment-terms/${receipt.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/payment-terms/${receipt.id}`, { token: co.token }).expect(404);
      expect(await events('payment_term.updated', net30.id)).toBe(1);
    });

    it('rejects bad input, other companies and non-company callers', async () => {
      const res = await t.req('post', '/api/v1/payment-terms', { token: co.token, body: { name: 'Bad', due_days: -1 } }).expect(422);
      expect(res.body.errors).toHaveProperty('due_days');
      await t.req('post', '/api/v1/payment-terms', { token: co.token, body: { due_days: 10 } }).expect(422);
      const theirs = (await t.req('post', '/api/v1/payment-terms', { token: other.token, body: { name: 'Net 10', due_days: 10 } }).expect(201)).body.data;
      await t.req('get', `/api/v1/payment-terms/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/payment-terms/${theirs.id}`, { token: co.token, body: { due_days: 1 } }).expect(404);
      await t.req('delete', `/api/v1/payment-terms/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('get', '/api/v1/payment-terms', { token: customer.token }).expect(403);
      await t.req('post', '/api/v1/payment-terms', { body: { name: 'x', due_days: 1 } }).expect(401);
      await t.req('get', `/api/v1/payment-terms/${theirs.id}`).expect(401);
    });
  });

  describe('policies', () => {
    it('runs CRUD with category and active filters', async () => {
      const overfill = (
        await t.req('post', '/api/v1/policies', { token: co.token, body: { name: 'Overfilled', category: 'overfill', demerit_points: 2, fee_amount: 7500, description: 'Above the rim' } }).expect(201)
      ).body.data;
      expect(overfill).toMatchObject({ category: 'overfill', demerit_points: 2, fee_amount: 7500, description: 'Above the rim', active: true });
      const late = (await t.req('post', '/api/v1/policies', { token: co.token, body: { name: 'Late payment', category: 'late_payment', active: false } }).expect(201)).body.data;
      expect(late).toMatchObject({ demerit_points: 0, fee_amount: 0, description: null, active: false });

      const byCat = await t.req('get', '/api/v1/policies?category=overfill', { token: co.token }).expect(200);
      expect(byCat.body.data.map((p: { id: string }) => p.id)).toEqual([overfill.id]);
      const inactive = await t.req('get', '/api/v1/policies?active=false', { token: co.token }).expect(200);
      expect(inactive.body.data.map((p: { id: string }) => p.id)).toEqual([late.id]);

      const upd = await t.req('put', `/api/v1/policies/${overfill.id}`, { token: co.token, body: { description: null, active: false } }).expect(200);
      expect(upd.body.data).toMatchObject({ description: null, active: false, name: 'Overfilled' });
      await t.req('get', `/api/v1/policies/${late.id}`, { token: co.token }).expect(200);
      await t.req('delete', `/api/v1/policies/${late.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/policies/${late.id}`, { token: co.token }).expect(404);
    });

    it('rejects bad input, other companies and non-company callers', async () => {
      const res = await t.req('post', '/api/v1/policies', { token: co.token, body: { name: 'X', category: 'littering', fee_amount: -5 } }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['category', 'fee_amount']);
      await t.req('get', '/api/v1/policies?active=maybe', { token: co.token }).expect(422);
      await t.req('post', '/api/v1/policies', { token: co.token, body: { name: 'X', category: 'other', fee_amount: 3_000_000_000 } }).expect(422);
      const theirs = (await t.req('post', '/api/v1/policies', { token: other.token, body: { name: 'T', category: 'damage' } }).expect(201)).body.data;
      await t.req('get', `/api/v1/policies/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/policies/${theirs.id}`, { token: co.token, body: { name: 'Mine' } }).expect(404);
      await t.req('delete', `/api/v1/policies/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('get', '/api/v1/policies').expect(401);
      await t.req('post', '/api/v1/policies', { token: customer.token, body: { name: 'T', category: 'damage' } }).expect(403);
      await t.req('get', `/api/v1/policies/${theirs.id}`, { token: customer.token }).expect(403);
    });
  });

  describe('pricing profiles', () => {
    let s20: string;
    let s30: string;
    let metal: string;
    beforeAll(async () => {
      s20 = await spec(co.companyId, '20 yd');
      s30 = await spec(co.companyId, '30 yd');
      metal = await wasteType(co.companyId, 'METAL');
    });

    it('creates a profile with items, replaces the items on PUT and lists them', async () => {
      const body = {
        name: 'Contractors',
        description: 'Volume pricing',
        delivery_free_radius_km: 12.5,
        delivery_price_per_km_amount: 250,
        items: [
          { asset_specification_id: s20, base_price_amount: 39900, included_days: 7, included_weight_kg: 2000, extra_day_amount: 1500, overage_per_tonne_amount: 8500, swap_fee_amount: 9900 },
          { asset_specification_id: s20, waste_type_id: metal, base_price_amount: 29900 },
        ],
      };
      const res = await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body }).expect(201);
      const p = res.body.data;
      expect(p).toMatchObject({ name: 'Contractors', description: 'Volume pricing', is_default: false, delivery_free_radius_km: 12.5, delivery_price_per_km_amount: 250 });
      expect(p.items).toHaveLength(2);
      expect(p.items[0]).toMatchObject({ asset_specification_id: s20, waste_type_id: null, base_price_amount: 39900, included_days: 7, included_weight_kg: 2000, extra_day_amount: 1500, overage_per_tonne_amount: 8500, swap_fee_amount: 9900, dump_return_fee_amount: 0 });
      expect(p.items[1]).toMatchObject({ waste_type_id: metal, base_price_amount: 29900 });

      // A PUT without items leaves them; with items replaces the set.
      const renamed = await t.req('put', `/api/v1/pricing-profiles/${p.id}`, { token: co.token, body: { name: 'Contractors 2' } }).expect(200);
      expect(renamed.body.data.items).toHaveLength(2);
      const replaced = await t.req('put', `/api/v1/pricing-profiles/${p.id}`, { token: co.token, body: { items: [{ asset_specification_id: s30, base_price_amount: 49900 }] } }).expect(200);
      expect(replaced.body.data.items).toEqual([expect.objectContaining({ asset_specification_id: s30, base_price_amount: 49900 })]);
      const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM pricing_profile_items WHERE pricing_profile_id = $1`, [p.id]);
      expect(n.n).toBe(1);

      const list = await t.req('get', '/api/v1/pricing-profiles?q=contract', { token: co.token }).expect(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: p.id, name: 'Contractors 2', items: [expect.objectContaining({ asset_specification_id: s30 })] })]);
      const shown = await t.req('get', `/api/v1/pricing-profiles/${p.id}`, { token: co.token }).expect(200);
      expect(shown.body.data.items).toHaveLength(1);
    });

    it('refuses items of another company (422 with the item field) and duplicate items', async () => {
      const foreign = await spec(other.companyId, 'Their 20 yd');
      const res = await t.req('post', '/api/v1/pricing-profiles', {
        token: co.token,
        body: { name: 'Bad', items: [{ asset_specification_id: s20, base_price_amount: 1 }, { asset_specification_id: foreign, base_price_amount: 1 }] },
      }).expect(422);
      expect(res.body.errors).toEqual({ 'items.1.asset_specification_id': ['not found'] });
      const foreignWaste = await wasteType(other.companyId, 'WOOD');
      const w = await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'Bad', items: [{ asset_specification_id: s20, waste_type_id: foreignWaste, base_price_amount: 1 }] } }).expect(422);
      expect(w.body.errors).toHaveProperty(['items.0.waste_type_id']);
      const dup = await t.req('post', '/api/v1/pricing-profiles', {
        token: co.token,
        body: { name: 'Dup', items: [{ asset_specification_id: s20, base_price_amount: 1 }, { asset_specification_id: s20, base_price_amount: 2 }] },
      }).expect(422);
      expect(dup.body.errors).toHaveProperty(['items.1.asset_specification_id']);
      const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM pricing_profiles WHERE name IN ('Bad', 'Dup')`);
      expect(n.n).toBe(0);
    });

    it('rejects malformed bodies with 422', async () => {
      const res = await t.req('post', '/api/v1/pricing-profiles', {
        token: co.token,
        body: { name: 'X', delivery_free_radius_km: -1, delivery_price_per_km_amount: 2.5, items: [{ asset_specification_id: 'nope', base_price_amount: -1, extra: true }] },
      }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual([
        'delivery_free_radius_km',
        'delivery_price_per_km_amount',
        'items.0.asset_specification_id',
        'items.0.base_price_amount',
        'items.0.extra',
      ]);
      await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'X', items: 'all' } }).expect(422);
      await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'X', delivery_free_radius_km: 1.234 } }).expect(422);
    });

    it('keeps one default, refuses to delete a profile assigned to a customer (409 IN_USE) and hides other companies', async () => {
      const a = (await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'Retail', is_default: true } }).expect(201)).body.data;
      const b = (await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'Retail 2', is_default: true } }).expect(201)).body.data;
      expect((await t.req('get', `/api/v1/pricing-profiles/${a.id}`, { token: co.token })).body.data.is_default).toBe(false);
      const defaults = await t.req('get', '/api/v1/pricing-profiles?is_default=true', { token: co.token }).expect(200);
      expect(defaults.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);

      await t.ds.query(`UPDATE customers SET pricing_profile_id = $1 WHERE id = $2`, [a.id, customer.id]);
      const inUse = await t.req('delete', `/api/v1/pricing-profiles/${a.id}`, { token: co.token }).expect(409);
      expect(inUse.body.code).toBe('IN_USE');
      await t.ds.query(`UPDATE customers SET pricing_profile_id = NULL WHERE id = $1`, [customer.id]);
      await t.req('delete', `/api/v1/pricing-profiles/${a.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/pricing-profiles/${a.id}`, { token: co.token }).expect(404);

      const theirs = (await t.req('post', '/api/v1/pricing-profiles', { token: other.token, body: { name: 'Theirs' } }).expect(201)).body.data;
      await t.req('get', `/api/v1/pricing-profiles/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/pricing-profiles/${theirs.id}`, { token: co.token, body: { name: 'Mine' } }).expect(404);
      await t.req('delete', `/api/v1/pricing-profiles/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('get', '/api/v1/pricing-profiles', { token: customer.token }).expect(403);
      await t.req('post', '/api/v1/pricing-profiles', { body: { name: 'x' } }).expect(401);
      await t.req('put', `/api/v1/pricing-profiles/${b.id}`, { token: customer.token, body: { name: 'x' } }).expect(403);
    });
  });

  describe('PricingCatalog', () => {
    it('returns the customer\'s profile, else the default, with the right item', async () => {
      const c = await companyActor(t, 'Catalog Co');
      const cust = await memberActor(t, c, 'customer');
      const catalog = t.app.get(PricingCatalog);
      // The customers module keeps the assignment (read here as the order's address read brings it); pricing resolves it (or the default).
      const assigned = async (companyId: string) => ((await t.ds.query(`SELECT pricing_profile_id FROM customers WHERE id = $1 AND company_id = $2`, [cust.id, companyId]))[0]?.pricing_profile_id as string | undefined) ?? null;
      const profileFor = async (companyId: string, id: string | null) => (await catalog.placementTerms(Scope.company(companyId), id)).profile;
      expect(await profileFor(c.companyId, await assigned(c.companyId))).toBeNull();

      const s = await spec(c.companyId, '10 yd');
      const w = await wasteType(c.companyId, 'DIRT');
      const def = (
        await t.req('post', '/api/v1/pricing-profiles', {
          token: c.token,
          body: { name: 'Default', is_default: true, items: [{ asset_specification_id: s, base_price_amount: 100 }, { asset_specification_id: s, waste_type_id: w, base_price_amount: 80 }] },
        }).expect(201)
      ).body.data;
      const vip = (await t.req('post', '/api/v1/pricing-profiles', { token: c.token, body: { name: 'VIP', items: [{ asset_specification_id: s, base_price_amount: 50 }] } }).expect(201)).body.data;

      const p1 = await profileFor(c.companyId, await assigned(c.companyId));
      expect(p1?.id).toBe(def.id);
      expect(catalog.itemFor(p1!, s, w)?.basePriceAmount).toBe(80);
      expect(catalog.itemFor(p1!, s, null)?.basePriceAmount).toBe(100);
      expect(catalog.itemFor(p1!, s, '00000000-0000-4000-8000-000000000000')?.basePriceAmount).toBe(100);
      expect(catalog.itemFor(p1!, '00000000-0000-4000-8000-000000000000')).toBeNull();

      await t.ds.query(`UPDATE customers SET pricing_profile_id = $1 WHERE id = $2`, [vip.id, cust.id]);
      const p2 = await profileFor(c.companyId, await assigned(c.companyId));
      expect(p2?.id).toBe(vip.id);
      expect(p2?.items).toHaveLength(1);
      // Another company's customer id does not leak its profile: the caller's default applies.
      expect(await assigned(co.companyId)).toBeNull();
      expect((await profileFor(co.companyId, await assigned(co.companyId)))?.id).not.toBe(vip.id);
      // Another company's profile id does not resolve either.
      expect((await profileFor(co.companyId, vip.id))?.id).not.toBe(vip.id);
      expect((await profileFor(c.companyId, null))?.id).toBe(def.id);
      // The default taxes and payment term come in the same statement.
      await t.req('post', '/api/v1/taxes', { token: c.token, body: { name: 'State', rate_bps: 500, applies_to: 'all', is_default: true } }).expect(201);
      await t.req('post', '/api/v1/payment-terms', { token: c.token, body: { name: 'Net 30', due_days: 30, is_default: true } }).expect(201);
      const terms = await catalog.placementTerms(Scope.company(c.companyId), null);
      expect(terms.taxes).toEqual([expect.objectContaining({ name: 'State', rate_bps: 500, applies_to: 'all' })]);
      expect(terms.paymentTerm).toEqual({ id: expect.any(String), due_days: 30 });
    });
  });
});
