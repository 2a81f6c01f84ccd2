import { CompanyActor, companyActor, memberActor } from '../support/actors';
import { ABSENT_ID, Cast, insertLot, startWithCast } from '../support/fixtures';


describe('catalogue: waste types, asset categories, styles, specifications, assets', () => {
  let { t, co, other, customer, driver } = {} as Cast;

  const post = (path: string, body: unknown, token = co.token) => t.req('post', `/api/v1/${path}`, { token, body });
  const put = (path: string, body: unknown, token = co.token) => t.req('put', `/api/v1/${path}`, { token, body });
  const get = (path: string, token = co.token) => t.req('get', `/api/v1/${path}`, { token });
  const del = (path: string, token = co.token) => t.req('delete', `/api/v1/${path}`, { token });

  const lot = (company: CompanyActor, name: string, lat = 41.88, lng = -87.63) => insertLot(t, company.companyId, name, { lat, lng });
  async function category(company = co, name = `Cat ${Math.random()}`) {
    return (await post('asset-categories', { name }, company.token).expect(201)).body.data.id as string;
  }
  async function spec(company = co, extra: Record<string, unknown> = {}) {
    const cat = await category(company);
    const res = await post('asset-specifications', { name: `Spec ${Math.random()}`, asset_category_id: cat, size: 20, size_unit: 'yd3', ...extra }, company.token).expect(201);
    return res.body.data.id as string;
  }
  async function wasteType(company = co, extra: Record<string, unknown> = {}) {
    const res = await post('waste-types', { name: 'Mixed', code: `W${Math.floor(Math.random() * 1e9)}`, ...extra }, company.token).expect(201);
    return res.body.data.id as string;
  }

  beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast({ co: 'Acme', other: 'Other' })));
  afterAll(async () => t?.close());

  describe('waste types', () => {
    it('creates, shows, lists with filters, updates and deletes', async () => {
      const created = await post('waste-types', { name: ' Construction debris ', code: 'CND', description: 'Wood, drywall', prohibited_items: ['paint', 'tires'], hazardous: false }).expect(201);
      expect(created.body.data).toMatchObject({ name: 'Construction debris', code: 'CND', prohibited_items: ['paint', 'tires'], hazardous: false, active: true });
      expect(created.body.data).not.toHaveProperty('company_id');
      const id = created.body.data.id;
      await post('waste-types', { name: 'Asbestos', code: 'ASB', hazardous: true }).expect(201);

      const shown = await get(`waste-types/${id}`).expect(200);
      expect(shown.body.data.id).toBe(id);

      const hazardous = await get('waste-types?hazardous=true').expect(200);
      expect(hazardous.body.data.map((w: { code: string }) => w.code)).toEqual(['ASB']);
      const q = await get('waste-types?q=constr').expect(200);
      expect(q.body.data.map((w: { id: string }) => w.id)).toEqual([id]);
      expect(q.body.meta).toMatchObject({ page: 1, total: 1 });

      const updated = await put(`waste-types/${id}`, { active: false, prohibited_items: [], description: null }).expect(200);
      expect(updated.body.data).toMatchObject({ active: false, prohibited_items: [], description: null, code: 'CND' });
      const inactive = await get('waste-types?active=false').expect(200);
      expect(inactive.body.data.map((w: { id: string }) => w.id)).toEqual([id]);

      await del(`waste-types/${id}`).expect(200);
      await get(`waste-types/${id}`).expect(404);
      // The code is free again once deleted.
      await post('waste-types', { name: 'Again', code: 'cnd' }).expect(201);
    });

    it('rejects a duplicate code (any case) with 409 DUPLICATE_CODE, also on update', async () => {
      await post('waste-types', { name: 'Yard waste', code: 'YARD' }).expect(201);
      const dup = await post('waste-types', { name: 'Other', code: 'yard' }).expect(409);
      expect(dup.body.code).toBe('DUPLICATE_CODE');
      const b = await wasteType();
      expect((await put(`waste-types/${b}`, { code: 'Yard' }).expect(409)).body.code).toBe('DUPLICATE_CODE');
      // Another company may use the same code.
      await post('waste-types', { name: 'Yard waste', code: 'YARD' }, other.token).expect(201);
    });

    it('validates input with 422', async () => {
      const res = await post('waste-types', { name: '', code: 'bad code!', prohibited_items: 'paint', hazardous: 'yes', extra: 1 }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['code', 'extra', 'hazardous', 'name', 'prohibited_items']);
      const id = await wasteType();
      expect((await put(`waste-types/${id}`, { name: null }).expect(422)).body.errors).toHaveProperty('name');
      expect((await get('waste-types?hazardous=maybe').expect(422)).body.errors).toHaveProperty('hazardous');
      expect((await get('waste-types?sort=secret').expect(422)).body.errors).toHaveProperty('sort');
    });

    it('hides other companies\' waste types (404) and malformed ids (404)', async () => {
      const foreign = await wasteType(other);
      await get(`waste-types/${foreign}`).expect(404);
      await put(`waste-types/${foreign}`, { name: 'x' }).expect(404);
      await del(`waste-types/${foreign}`).expect(404);
      await get('waste-types/not-a-uuid').expect(404);
      const list = await get('waste-types?per_page=100').expect(200);
      expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(foreign);
    });

    it('refuses customers (403), drivers (403) and anonymous callers (401)', async () => {
      expect((await get('waste-types', customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
      await post('waste-types', { name: 'x', code: 'X' }, driver.token).expect(403);
      await t.req('get', '/api/v1/waste-types').expect(401);
    });

    it('refuses to delete a waste type a specification allows (409 IN_USE)', async () => {
      const w = await wasteType();
      const s = await spec();
      await post(`asset-specifications/${s}/waste-types`, { waste_type_id: w }).expect(201);
      expect((await del(`waste-types/${w}`).expect(409)).body.code).toBe('IN_USE');
      await del(`asset-specifications/${s}`).expect(200);
      await del(`waste-types/${w}`).expect(200);
    });
  });

  describe('asset categories and styles', () => {
    it.each(['asset-categories', 'asset-styles'])('%s: CRUD, duplicates, tenancy, access', async (path) => {
      const created = await post(path, { name: 'Roll-off', description: 'Open containers' }).expect(201);
      expect(created.body.data).toMatchObject({ name: 'Roll-off', description: 'Open containers' });
      const id = created.body.data.id;
      expect((await post(path, { name: 'ROLL-OFF' }).expect(409)).body.code).toBe('DUPLICATE_NAME');
      await post(path, { name: 'Front-load' }).expect(201);

      expect((await get(`${path}/${id}`).expect(200)).body.data.name).toBe('Roll-off');
      const list = await get(`${path}?q=roll&sort=name`).expect(200);
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([id]);

      expect((await put(`${path}/${id}`, { name: 'Roll off', description: null }).expect(200)).body.data).toMatchObject({ name: 'Roll off', description: null });
      expect((await put(`${path}/${id}`, { name: '' }).expect(422)).body.errors).toHaveProperty('name');
      await post(path, { nope: true }).expect(422);

      const foreign = (await post(path, { name: 'Theirs' }, other.token).expect(201)).body.data.id;
      await get(`${path}/${foreign}`).expect(404);
      await put(`${path}/${foreign}`, { name: 'Mine' }).expect(404);
      await del(`${path}/${foreign}`).expect(404);

      await get(path, customer.token).expect(403);
      await t.req('post', `/api/v1/${path}`, { body: { name: 'x' } }).expect(401);

      await del(`${path}/${id}`).expect(200);
      await get(`${path}/${id}`).expect(404);
      await del(`${path}/${id}`).expect(404);
    });

    it('refuses to delete a category or style a specification uses (409 IN_USE)', async () => {
      const cat = await category();
      const style = (await post('asset-styles', { name: 'Open top' }).expect(201)).body.data.id;
      const s = (await post('asset-specifications', { name: '30 yd', asset_category_id: cat, asset_style_id: style, size: 30, size_unit: 'yd3' }).expect(201)).body.data.id;
      expect((await del(`asset-categories/${cat}`).expect(409)).body.code).toBe('IN_USE');
      expect((await del(`asset-styles/${style}`).expect(409)).body.code).toBe('IN_USE');
      await del(`asset-specifications/${s}`).expect(200);
      await del(`asset-categories/${cat}`).expect(200);
      await del(`asset-styles/${style}`).expect(200);
    });
  });

  describe('asset specifications', () => {
    it('creates with its category and style, filters, updates and deletes', async () => {
      const cat = await category(co, 'Roll-off containers');
      const cat2 = await category(co, 'Portable toilets');
      const style = (await post('asset-styles', { name: 'Enclosed' }).expect(201)).body.data.id;
      const body = {
        name: '20 yd roll-off',
        asset_category_id: cat,
        asset_style_id: style,
        size: 20,
        size_unit: 'yd3',
        length_mm: 6700,
        width_mm: 2400,
        height_mm: 1400,
        max_weight_kg: 9000,
        included_weight_kg: 1800,
        included_days: 7,
        image_url: 'https://cdn.example.test/20yd.png',
      };
      const created = await post('asset-specifications', body).expect(201);
      expect(created.body.data).toMatchObject({ ...body, active: true });
      const id = created.body.data.id;
      await post('asset-specifications', { name: 'Toilet', asset_category_id: cat2, size: 300, size_unit: 'gal', active: false }).expect(201);

      expect((await get(`asset-specifications/${id}`).expect(200)).body.data.name).toBe('20 yd roll-off');
      const byCat = await get(`asset-specifications?asset_category_id=${cat}`).expect(200);
      expect(byCat.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
      const inactive = await get('asset-specifications?active=false&q=toil').expect(200);
      expect(inactive.body.data).toHaveLength(1);
      expect(inactive.body.data[0].size_unit).toBe('gal');

      const updated = await put(`asset-specifications/${id}`, { included_days: 10, asset_style_id: null, active: false }).expect(200);
      expect(updated.body.data).toMatchObject({ included_days: 10, asset_style_id: null, active: false, size: 20 });
      expect((await post('asset-specifications', { ...body }).expect(409)).body.code).toBe('DUPLICATE_NAME');
      await del(`asset-specifications/${id}`).expect(200);
      await get(`asset-specifications/${id}`).expect(404);
    });

    it('validates fields and references (422)', async () => {
      const cat = await category();
      const bad = await post('asset-specifications', { name: 'X', asset_category_id: 'nope', size: 0, size_unit: 'barrels', length_mm: 1.5, image_url: 'not a url' }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['asset_category_id', 'image_url', 'length_mm', 'size', 'size_unit']);
      const missing = await post('asset-specifications', { name: 'X', asset_category_id: ABSENT_ID, size: 10, size_unit: 'yd3' }).expect(422);
      expect(missing.body.errors).toEqual({ asset_category_id: ['not found'] });
      const foreignCat = await category(other);
      await post('asset-specifications', { name: 'X', asset_category_id: foreignCat, size: 10, size_unit: 'yd3' }).expect(422);
      const foreignStyle = (await post('asset-styles', { name: 'Their style' }, other.token).expect(201)).body.data.id;
      const style = await post('asset-specifications', { name: 'X', asset_category_id: cat, asset_style_id: foreignStyle, size: 10, size_unit: 'yd3' }).expect(422);
      expect(style.body.errors).toHaveProperty('asset_style_id');
      const weights = await post('asset-specifications', { name: 'X', asset_category_id: cat, size: 10, size_unit: 'yd3', max_weight_kg: 100, included_weight_kg: 200 }).expect(422);
      expect(weights.body.errors).toHaveProperty('included_weight_kg');
      const s = await spec();
      expect((await put(`asset-specifications/${s}`, { size: null }).expect(422)).body.errors).toHaveProperty('size');
      expect((await put(`asset-specifications/${s}`, { asset_category_id: foreignCat }).expect(422)).body.errors).toHaveProperty('asset_category_id');
    });

    it('hides other companies\' specifications (404) and refuses non-company callers', async () => {
      const foreign = await spec(other);
      await get(`asset-specifications/${foreign}`).expect(404);
      await put(`asset-specifications/${foreign}`, { size: 5 }).expect(404);
      await del(`asset-specifications/${foreign}`).expect(404);
      await get('asset-specifications', driver.token).expect(403);
      await t.req('get', '/api/v1/asset-specifications').expect(401);
    });
  });

  describe('specification waste types (nested)', () => {
    it('adds, lists, shows, changes the price override and removes', async () => {
      const s = await spec();
      const w = await wasteType(co, { name: 'Concrete' });
      const added = await post(`asset-specifications/${s}/waste-types`, { waste_type_id: w, price_override_amount: 4500 }).expect(201);
      expect(added.body.data).toMatchObject({ asset_specification_id: s, waste_type_id: w, price_override_amount: 4500, waste_type: { id: w, name: 'Concrete' } });
      const id = added.body.data.id;
      expect((await post(`asset-specifications/${s}/waste-types`, { waste_type_id: w }).expect(409)).body.code).toBe('DUPLICATE_WASTE_TYPE');

      const list = await get(`asset-specifications/${s}/waste-types`).expect(200);
      expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([id]);
      expect(list.body.meta.total).toBe(1);
      await get(`asset-specifications/${s}/waste-types/${id}`).expect(200);

      expect((await put(`asset-specifications/${s}/waste-types/${id}`, { price_override_amount: null }).expect(200)).body.data.price_override_amount).toBeNull();
      expect((await put(`asset-specifications/${s}/waste-types/${id}`, { price_override_amount: 12.5 }).expect(422)).body.errors).toHaveProperty('price_override_amount');
      expect((await put(`asset-specifications/${s}/waste-types/${id}`, { waste_type_id: w }).expect(422)).body.errors).toHaveProperty('waste_type_id');

      // The link belongs to its specification: another spec's path is 404.
      const s2 = await spec();
      await get(`asset-specifications/${s2}/waste-types/${id}`).expect(404);

      await del(`asset-specifications/${s}/waste-types/${id}`).expect(200);
      await get(`asset-specifications/${s}/waste-types/${id}`).expect(404);
      await del(`waste-types/${w}`).expect(200);
    });

    it('validates the waste type (422), hides other tenants (404), refuses customers (403)', async () => {
      const s = await spec();
      expect((await post(`asset-specifications/${s}/waste-types`, { waste_type_id: await wasteType(other) }).expect(422)).body.errors).toEqual({ waste_type_id: ['not found'] });
      await post(`asset-specifications/${s}/waste-types`, { waste_type_id: await wasteType(), price_override_amount: -1 }).expect(422);
      await post(`asset-specifications/${s}/waste-types`, {}).expect(422);
      const foreign = await spec(other);
      const link = (await post(`asset-specifications/${foreign}/waste-types`, { waste_type_id: await wasteType(other) }, other.token).expect(201)).body.data.id;
      await get(`asset-specifications/${foreign}/waste-types`).expect(404);
      await get(`asset-specifications/${foreign}/waste-types/${link}`).expect(404);
      await put(`asset-specifications/${foreign}/waste-types/${link}`, { price_override_amount: 1 }).expect(404);
      await del(`asset-specifications/${foreign}/waste-types/${link}`).expect(404);
      await post(`asset-specifications/${foreign}/waste-types`, { waste_type_id: await wasteType() }).expect(404);
      await get(`asset-specifications/${s}/waste-types`, customer.token).expect(403);
      await t.req('get', `/api/v1/asset-specifications/${s}/waste-types`).expect(401);
    });
  });

  describe('assets', () => {
    it('creates at its home lot, filters, updates, moves and deletes', async () => {
      const s = await spec();
      const home = await lot(co, 'North yard', 41.9, -87.7);
      const created = await post('assets', { code: 'RO20-0001', serial: 'SN-1', asset_specification_id: s, home_lot_id: home, condition: 'new' }).expect(201);
      expect(created.body.data).toMatchObject({
        code: 'RO20-0001',
        serial: 'SN-1',
        asset_specification_id: s,
        home_lot_id: home,
        condition: 'new',
        status: 'available',
        lat: 41.9,
        lng: -87.7,
        location_type: 'lot',
        location_id: home,
      });
      const id = created.body.data.id;
      const second = (await post('assets', { code: 'RO20-0002', asset_specification_id: s }).expect(201)).body.data;
      expect(second).toMatchObject({ condition: 'good', status: 'available', home_lot_id: null, location_type: null, lat: null });

      expect((await get(`assets/${id}`).expect(200)).body.data.code).toBe('RO20-0001');
      expect((await get(`assets?home_lot_id=${home}`).expect(200)).body.data.map((a: { id: string }) => a.id)).toEqual([id]);
      expect((await get('assets?q=sn-1').expect(200)).body.data.map((a: { id: string }) => a.id)).toEqual([id]);
      expect((await get(`assets?asset_specification_id=${s}&sort=code`).expect(200)).body.data.map((a: { code: string }) => a.code)).toEqual(['RO20-0001', 'RO20-0002']);

      const maint = await put(`assets/${id}`, { status: 'maintenance', condition: 'damaged', notes: 'Dented door' }).expect(200);
      expect(maint.body.data).toMatchObject({ status: 'maintenance', condition: 'damaged', notes: 'Dented door' });
      expect((await get('assets?status=maintenance').expect(200)).body.data.map((a: { id: string }) => a.id)).toEqual([id]);
      expect((await put(`assets/${id}`, { status: 'available' }).expect(200)).body.data.status).toBe('available');

      const station = (await t.ds.query(`INSERT INTO stations (company_id, name) VALUES ($1, 'Dump') RETURNING id`, [co.companyId]))[0].id;
      const moved = await put(`assets/${id}/location`, { lat: 41.5, lng: -87.5, location_type: 'station', location_id: station }).expect(200);
      expect(moved.body.data).toMatchObject({ lat: 41.5, lng: -87.5, location_type: 'station', location_id: station, status: 'available' });
      expect(moved.body.data.location_updated_at).toEqual(expect.any(String));

      await del(`assets/${id}`).expect(200);
      await get(`assets/${id}`).expect(404);
      // Its specification is free again once the last asset is gone.
      await del(`assets/${second.id}`).expect(200);
      await del(`asset-specifications/${s}`).expect(200);
    });

    it('enforces unique code and serial per company (409)', async () => {
      const s = await spec();
      await post('assets', { code: 'DUP-1', serial: 'S-DUP', asset_specification_id: s }).expect(201);
      expect((await post('assets', { code: 'dup-1', asset_specification_id: s }).expect(409)).body.code).toBe('DUPLICATE_CODE');
      expect((await post('assets', { code: 'DUP-2', serial: 's-dup', asset_specification_id: s }).expect(409)).body.code).toBe('DUPLICATE_SERIAL');
      await post('assets', { code: 'DUP-1', asset_specification_id: await spec(other) }, other.token).expect(201);
    });

    it('allows only maintenance/retired status changes by hand', async () => {
      const s = await spec();
      const id = (await post('assets', { code: 'ST-1', asset_specification_id: s }).expect(201)).body.data.id;
      expect((await put(`assets/${id}`, { status: 'on_site' }).expect(422)).body.errors).toHaveProperty('status');
      await put(`assets/${id}`, { status: 'retired' }).expect(200);
      const back = await put(`assets/${id}`, { status: 'available' }).expect(409);
      expect(back.body.code).toBe('INVALID_TRANSITION');
      // An asset out on a job cannot go to maintenance or be deleted.
      const busy = (await post('assets', { code: 'ST-2', asset_specification_id: s }).expect(201)).body.data.id;
      await t.ds.query(`UPDATE assets SET status = 'on_site' WHERE id = $1`, [busy]);
      expect((await put(`assets/${busy}`, { status: 'maintenance' }).expect(409)).body.code).toBe('INVALID_TRANSITION');
      expect((await del(`assets/${busy}`).expect(409)).body.code).toBe('IN_USE');
      // A specification used by an asset cannot be deleted.
      expect((await del(`asset-specifications/${s}`).expect(409)).body.code).toBe('IN_USE');
    });

    it('validates input and references (422)', async () => {
      const s = await spec();
      const bad = await post('assets', { code: '', asset_specification_id: 'x', condition: 'shiny', status: 'available' }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['asset_specification_id', 'code', 'condition', 'status']);
      expect((await post('assets', { code: 'V-1', asset_specification_id: await spec(other) }).expect(422)).body.errors).toEqual({ asset_specification_id: ['not found'] });
      const foreignLot = await lot(other, 'Their yard');
      expect((await post('assets', { code: 'V-1', asset_specification_id: s, home_lot_id: foreignLot }).expect(422)).body.errors).toEqual({ home_lot_id: ['not found'] });
      const id = (await post('assets', { code: 'V-2', asset_specification_id: s }).expect(201)).body.data.id;
      expect((await put(`assets/${id}`, { home_lot_id: foreignLot }).expect(422)).body.errors).toHaveProperty('home_lot_id');
      expect((await put(`assets/${id}`, { code: null }).expect(422)).body.errors).toHaveProperty('code');
      const loc = await put(`assets/${id}/location`, { lat: 91, lng: 'x', location_type: 'moon' }).expect(422);
      expect(Object.keys(loc.body.errors).sort()).toEqual(['lat', 'lng', 'location_id', 'location_type']);
      expect((await put(`assets/${id}/location`, { lat: 1, lng: 1, location_type: 'lot', location_id: foreignLot }).expect(422)).body.errors).toEqual({ location_id: ['not found'] });
      expect((await put(`assets/${id}/location`, { lat: 1, lng: 1, location_type: 'customer_address', location_id: ABSENT_ID }).expect(422)).body.errors).toHaveProperty('location_id');
      expect((await get('assets?status=lost').expect(422)).body.errors).toHaveProperty('status');
    });

    it('hides other companies\' assets (404) and refuses non-company callers', async () => {
      const foreign = (await post('assets', { code: 'F-1', asset_specification_id: await spec(other) }, other.token).expect(201)).body.data.id;
      const myLot = await lot(co, 'My yard');
      await get(`assets/${foreign}`).expect(404);
      await put(`assets/${foreign}`, { notes: 'x' }).expect(404);
      await put(`assets/${foreign}/location`, { lat: 1, lng: 1, location_type: 'lot', location_id: myLot }).expect(404);
      await del(`assets/${foreign}`).expect(404);
      await get('assets/123').expect(404);
      await get('assets', customer.token).expect(403);
      await put(`assets/${foreign}/location`, { lat: 1, lng: 1, location_type: 'lot', location_id: myLot }, driver.token).expect(403);
      await t.req('get', '/api/v1/assets').expect(401);
    });

    it('records domain events for changes', async () => {
      const s = await spec();
      const id = (await post('assets', { code: 'EV-1', asset_specification_id: s }).expect(201)).body.data.id;
      await put(`assets/${id}`, { status: 'maintenance' }).expect(200);
      const rows = await t.ds.query(`SELECT type FROM outbox_events WHERE aggregate_id = $1 ORDER BY created_at, type`, [id]);
      expect(rows.map((r: { type: string }) => r.type)).toEqual(expect.arrayContaining(['asset.created', 'asset.updated', 'asset.status_changed']));
    });
  });

  describe('customer catalogue', () => {
    it('lists active specifications with their active waste types', async () => {
      const c = await companyActor(t, 'Solo');
      const cust = await memberActor(t, c, 'customer');
      const cat = (await post('asset-categories', { name: 'Roll-off' }, c.token).expect(201)).body.data.id;
      const active = (await post('asset-specifications', { name: '10 yd', asset_category_id: cat, size: 10, size_unit: 'yd3', included_days: 7 }, c.token).expect(201)).body.data.id;
      const hidden = (await post('asset-specifications', { name: '40 yd', asset_category_id: cat, size: 40, size_unit: 'yd3', active: false }, c.token).expect(201)).body.data.id;
      const w1 = (await post('waste-types', { name: 'Household', code: 'HH', prohibited_items: ['paint'] }, c.token).expect(201)).body.data.id;
      const w2 = (await post('waste-types', { name: 'Retired type', code: 'OLD', active: false }, c.token).expect(201)).body.data.id;
      await post(`asset-specifications/${active}/waste-types`, { waste_type_id: w1, price_override_amount: 1500 }, c.token).expect(201);
      await post(`asset-specifications/${active}/waste-types`, { waste_type_id: w2 }, c.token).expect(201);

      const list = await get('customer/asset-specifications', cust.token).expect(200);
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        id: active,
        name: '10 yd',
        asset_category: { id: cat, name: 'Roll-off' },
        asset_style: null,
        included_days: 7,
        waste_types: [{ id: w1, name: 'Household', code: 'HH', prohibited_items: ['paint'], price_override_amount: 1500 }],
      });
      expect(list.body.data[0]).not.toHaveProperty('active');

      const one = await get(`customer/asset-specifications/${active}`, cust.token).expect(200);
      expect(one.body.data.waste_types).toHaveLength(1);
      await get(`customer/asset-specifications/${hidden}`, cust.token).expect(404);
      await get(`customer/asset-specifications/${await spec(co)}`, cust.token).expect(404);
      await get('customer/asset-specifications?asset_category_id=bad', cust.token).expect(422);

      const wts = await get('customer/waste-types', cust.token).expect(200);
      expect(wts.body.data.map((w: { id: string }) => w.id)).toEqual([w1]);
      expect((await get(`customer/waste-types/${w1}`, cust.token).expect(200)).body.data.code).toBe('HH');
      await get(`customer/waste-types/${w2}`, cust.token).expect(404);
      await get(`customer/waste-types/${await wasteType(co)}`, cust.token).expect(404);
      await get('customer/waste-types?hazardous=perhaps', cust.token).expect(422);
    });

    it('refuses company users and drivers (403) and anonymous callers (401)', async () => {
      expect((await get('customer/asset-specifications').expect(403)).body.code).toBe('WRONG_ACTOR');
      await get('customer/waste-types', driver.token).expect(403);
      await t.req('get', '/api/v1/customer/waste-types').expect(401);
    });
  });
});
