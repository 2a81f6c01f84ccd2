import { CompanyActor } from '../support/actors';
import { Cast, insertLot, insertSpec, startWithCast } from '../support/fixtures';

/** Truck types (with the specifications they carry) and trucks (plate, type, lot, status, location). */
describe('fleet routes (truck types, trucks)', () => {
  let { t, co, other, customer, driver } = {} as Cast;
  let s20: string;
  let s30: string;
  let foreignSpec: string;
  let lot: string;
  let foreignLot: string;

  const newType = async (actor: CompanyActor, body: Record<string, unknown> = {}) =>
    (await t.req('post', '/api/v1/truck-types', { token: actor.token, body: { name: 'Hoist', capacity_kg: 13000, ...body } }).expect(201)).body.data;

  beforeAll(async () => {
    ({ t, co, other, customer, driver } = await startWithCast());
    s20 = await insertSpec(t, co.companyId, '20 yd');
    s30 = await insertSpec(t, co.companyId, '30 yd');
    foreignSpec = await insertSpec(t, other.companyId, 'Their 20 yd');
    lot = await insertLot(t, co.companyId, 'North yard');
    foreignLot = await insertLot(t, other.companyId, 'Their yard');
  });
  afterAll(async () => t?.close());

  describe('truck types', () => {
    it('creates with specifications, replaces them on PUT, lists, shows and deletes', async () => {
      const tt = await newType(co, { name: 'Roll-off', asset_specification_ids: [s20, s30, s20] });
      expect(tt).toMatchObject({ name: 'Roll-off', capacity_kg: 13000 });
      expect([...tt.asset_specification_ids].sort()).toEqual([s20, s30].sort());

      const upd = await t.req('put', `/api/v1/truck-types/${tt.id}`, { token: co.token, body: { capacity_kg: 15000, asset_specification_ids: [s30] } }).expect(200);
      expect(upd.body.data).toMatchObject({ name: 'Roll-off', capacity_kg: 15000, asset_specification_ids: [s30] });
      const keep = await t.req('put', `/api/v1/truck-types/${tt.id}`, { token: co.token, body: { name: 'Roll-off XL' } }).expect(200);
      expect(keep.body.data.asset_specification_ids).toEqual([s30]);

      const list = await t.req('get', '/api/v1/truck-types?q=roll&sort=name', { token: co.token }).expect(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: tt.id, asset_specification_ids: [s30] })]);
      await t.req('get', `/api/v1/truck-types/${tt.id}`, { token: co.token }).expect(200);
      await t.req('delete', `/api/v1/truck-types/${tt.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/truck-types/${tt.id}`, { token: co.token }).expect(404);
      const [ev] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE aggregate_id = $1`, [tt.id]);
      expect(ev.n).toBe(4); // created, 2 × updated, deleted
    });

    it('refuses another company\'s specification (422) and bad input', async () => {
      const res = await t.req('post', '/api/v1/truck-types', { token: co.token, body: { name: 'X', asset_specification_ids: [s20, foreignSpec] } }).expect(422);
      expect(res.body.errors).toEqual({ 'asset_specification_ids.1': ['not found'] });
      const bad = await t.req('post', '/api/v1/truck-types', { token: co.token, body: { name: '', capacity_kg: -1, asset_specification_ids: ['x'] } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['asset_specification_ids', 'capacity_kg', 'name']);
      await t.req('post', '/api/v1/truck-types', { token: co.token, body: { name: 'X', asset_specification_ids: 'all' } }).expect(422);
    });

    it('refuses to delete a type used by a live truck (409 IN_USE)', async () => {
      const tt = await newType(co);
      const truck = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'USE-1', truck_type_id: tt.id } }).expect(201)).body.data;
      const res = await t.req('delete', `/api/v1/truck-types/${tt.id}`, { token: co.token }).expect(409);
      expect(res.body.code).toBe('IN_USE');
      await t.req('delete', `/api/v1/trucks/${truck.id}`, { token: co.token }).expect(200);
      await t.req('delete', `/api/v1/truck-types/${tt.id}`, { token: co.token }).expect(200);
    });

    it('hides other companies\' types (404) and enforces CO', async () => {
      const theirs = await newType(other);
      await t.req('get', `/api/v1/truck-types/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/truck-types/${theirs.id}`, { token: co.token, body: { name: 'Mine' } }).expect(404);
      await t.req('delete', `/api/v1/truck-types/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('get', '/api/v1/truck-types/123', { token: co.token }).expect(404);
      await t.req('get', '/api/v1/truck-types').expect(401);
      await t.req('get', '/api/v1/truck-types', { token: driver.token }).expect(403);
      await t.req('post', '/api/v1/truck-types', { token: customer.token, body: { name: 'x' } }).expect(403);
      await t.req('get', `/api/v1/truck-types/${theirs.id}`, { token: customer.token }).expect(403);
      await t.req('put', `/api/v1/truck-types/${theirs.id}`, { body: { name: 'x' } }).expect(401);
      await t.req('delete', `/api/v1/truck-types/${theirs.id}`, { token: driver.token }).expect(403);
    });
  });

  describe('trucks', () => {
    let typeA: { id: string };
    let typeB: { id: string };
    beforeAll(async () => {
      typeA = await newType(co, { name: 'A' });
      typeB = await newType(co, { name: 'B' });
    });

    it('creates, filters, shows, updates and deletes trucks', async () => {
      const t1 = (
        await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'TX-100', name: 'Truck 1', truck_type_id: typeA.id, home_lot_id: lot, tare_weight_kg: 11000 } }).expect(201)
      ).body.data;
      expect(t1).toMatchObject({ plate: 'TX-100', name: 'Truck 1', truck_type_id: typeA.id, home_lot_id: lot, tare_weight_kg: 11000, status: 'active', lat: null, lng: null, location_updated_at: null });
      const t2 = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'TX-200', truck_type_id: typeB.id, status: 'maintenance' } }).expect(201)).body.data;
      expect(t2).toMatchObject({ name: null, home_lot_id: null, status: 'maintenance' });

      const ids = async (qs: string) => (await t.req('get', `/api/v1/trucks?${qs}`, { token: co.token }).expect(200)).body.data.map((x: { id: string }) => x.id);
      expect(await ids('status=maintenance')).toEqual([t2.id]);
      expect(await ids(`truck_type_id=${typeA.id}`)).toEqual([t1.id]);
      expect(await ids(`home_lot_id=${lot}`)).toEqual([t1.id]);
      expect(await ids('q=truck 1')).toEqual([t1.id]);
      expect(await ids('q=tx-2')).toEqual([t2.id]);
      expect(await ids('sort=plate')).toEqual([t1.id, t2.id]);

      const upd = await t.req('put', `/api/v1/trucks/${t2.id}`, { token: co.token, body: { status: 'retired', home_lot_id: lot, name: 'Old' } }).expect(200);
      expect(upd.body.data).toMatchObject({ status: 'retired', home_lot_id: lot, name: 'Old', plate: 'TX-200' });
      const cleared = await t.req('put', `/api/v1/trucks/${t2.id}`, { token: co.token, body: { home_lot_id: null, tare_weight_kg: null } }).expect(200);
      expect(cleared.body.data).toMatchObject({ home_lot_id: null, tare_weight_kg: null });
      await t.req('get', `/api/v1/trucks/${t1.id}`, { token: co.token }).expect(200);
      await t.req('delete', `/api/v1/trucks/${t2.id}`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/trucks/${t2.id}`, { token: co.token }).expect(404);
    });

    it('keeps plates unique per company, case-insensitively (409), and reusable after delete', async () => {
      const a = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'DUP-1', truck_type_id: typeA.id } }).expect(201)).body.data;
      const dup = await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'dup-1', truck_type_id: typeA.id } }).expect(409);
      expect(dup.body.code).toBe('DUPLICATE_PLATE');
      const b = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'DUP-2', truck_type_id: typeA.id } }).expect(201)).body.data;
      const ren = await t.req('put', `/api/v1/trucks/${b.id}`, { token: co.token, body: { plate: 'Dup-1' } }).expect(409);
      expect(ren.body.code).toBe('DUPLICATE_PLATE');
      await t.req('put', `/api/v1/trucks/${a.id}`, { token: co.token, body: { plate: 'DUP-1', name: 'Same plate' } }).expect(200);
      // Another company may use the same plate.
      const otherType = await newType(other);
      await t.req('post', '/api/v1/trucks', { token: other.token, body: { plate: 'DUP-1', truck_type_id: otherType.id } }).expect(201);
      await t.req('delete', `/api/v1/trucks/${a.id}`, { token: co.token }).expect(200);
      await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'DUP-1', truck_type_id: typeA.id } }).expect(201);
    });

    it('refuses another company\'s type or lot (422) and bad input', async () => {
      const otherType = await newType(other);
      const res = await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'R-1', truck_type_id: otherType.id, home_lot_id: foreignLot } }).expect(422);
      expect(res.body.errors).toHaveProperty('truck_type_id');
      const lotRes = await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'R-1', truck_type_id: typeA.id, home_lot_id: foreignLot } }).expect(422);
      expect(lotRes.body.errors).toEqual({ home_lot_id: ['not found'] });
      const bad = await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: '', truck_type_id: 'x', status: 'parked', tare_weight_kg: -1 } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['plate', 'status', 'tare_weight_kg', 'truck_type_id']);
      const tr = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'R-2', truck_type_id: typeA.id } }).expect(201)).body.data;
      const nul = await t.req('put', `/api/v1/trucks/${tr.id}`, { token: co.token, body: { truck_type_id: null, plate: null } }).expect(422);
      expect(Object.keys(nul.body.errors).sort()).toEqual(['plate', 'truck_type_id']);
      await t.req('put', `/api/v1/trucks/${tr.id}`, { token: co.token, body: { truck_type_id: otherType.id } }).expect(422);
      await t.req('get', '/api/v1/trucks?status=parked', { token: co.token }).expect(422);
      await t.req('get', '/api/v1/trucks?truck_type_id=nope', { token: co.token }).expect(422);
    });

    it('records the location', async () => {
      const tr = (await t.req('post', '/api/v1/trucks', { token: co.token, body: { plate: 'LOC-1', truck_type_id: typeA.id } }).expect(201)).body.data;
      const res = await t.req('put', `/api/v1/trucks/${tr.id}/location`, { token: co.token, body: { lat: 41.8781, lng: -87.6298 } }).expect(200);
      expect(res.body.data).toMatchObject({ lat: 41.8781, lng: -87.6298, location_updated_at: expect.any(String) });
      const [ev] = await t.ds.query(`SELECT payload FROM outbox_events WHERE type = 'truck.location_updated' AND aggregate_id = $1`, [tr.id]);
      expect(ev.payload).toEqual({ lat: 41.8781, lng: -87.6298 });
      const bad = await t.req('put', `/api/v1/trucks/${tr.id}/location`, { token: co.token, body: { lat: 91, lng: 'x' } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['lat', 'lng']);
      await t.req('put', `/api/v1/trucks/${tr.id}/location`, { token: co.token, body: {} }).expect(422);
      const theirType = await newType(other);
      const theirs = (await t.req('post', '/api/v1/trucks', { token: other.token, body: { plate: 'LOC-9', truck_type_id: theirType.id } }).expect(201)).body.data;
      await t.req('put', `/api/v1/trucks/${theirs.id}/location`, { token: co.token, body: { lat: 1, lng: 1 } }).expect(404);
      await t.req('put', `/api/v1/trucks/${tr.id}/location`, { token: driver.token, body: { lat: 1, lng: 1 } }).expect(403);
      await t.req('put', `/api/v1/trucks/${tr.id}/location`, { body: { lat: 1, lng: 1 } }).expect(401);
    });

    it('hides other companies\' trucks (404) and enforces CO', async () => {
      const theirType = await newType(other);
      const theirs = (await t.req('post', '/api/v1/trucks', { token: other.token, body: { plate: 'THEIRS', truck_type_id: theirType.id } }).expect(201)).body.data;
      await t.req('get', `/api/v1/trucks/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/trucks/${theirs.id}`, { token: co.token, body: { name: 'Mine' } }).expect(404);
      await t.req('delete', `/api/v1/trucks/${theirs.id}`, { token: co.token }).expect(404);
      const mine = await t.req('get', '/api/v1/trucks?per_page=100', { token: co.token }).expect(200);
      expect(mine.body.data.map((x: { id: string }) => x.id)).not.toContain(theirs.id);
      await t.req('get', '/api/v1/trucks').expect(401);
      await t.req('get', '/api/v1/trucks', { token: customer.token }).expect(403);
      await t.req('post', '/api/v1/trucks', { token: driver.token, body: { plate: 'x', truck_type_id: theirType.id } }).expect(403);
      await t.req('get', `/api/v1/trucks/${theirs.id}`, { token: customer.token }).expect(403);
      await t.req('put', `/api/v1/trucks/${theirs.id}`, { body: { name: 'x' } }).expect(401);
      await t.req('delete', `/api/v1/trucks/${theirs.id}`, { token: customer.token }).expect(403);
    });
  });
});
