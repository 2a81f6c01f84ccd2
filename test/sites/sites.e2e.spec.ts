import { Scope } from '../../src/common/access/scope';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { OpeningCalendar, weekdayOf } from '../../src/modules/sites/opening-calendar.service';
import { ABSENT_ID, Cast, insertSpec, insertWasteType, startWithCast } from '../support/fixtures';

const WEEKDAY_HOURS = { open: '07:00', close: '17:00' };
const MON_FRI = { mon: WEEKDAY_HOURS, tue: WEEKDAY_HOURS, wed: WEEKDAY_HOURS, thu: WEEKDAY_HOURS, fri: WEEKDAY_HOURS, sat: null, sun: null };
// 2030-01-07 is a Monday, 2030-01-12 a Saturday.
const MONDAY = '2030-01-07';
const SATURDAY = '2030-01-12';

describe('lots and stations (/api/v1/lots, /api/v1/stations, holidays, opening calendar)', () => {
  let { t, co, other, customer, driver } = {} as Cast;

  beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast({ other: 'Rival Hauling' })));
  afterAll(async () => t?.close());

  const createLot = (body: Record<string, unknown>, who = co) => t.req('post', '/api/v1/lot/create', { token: who.token, body });
  const createStation = (body: Record<string, unknown>, who = co) => t.req('post', '/api/v1/station/create', { token: who.token, body });
  const wasteType = (companyId: string, code: string) => insertWasteType(t, companyId, code, `Waste ${code}`);

  describe('lots', () => {
    it('creates a lot with defaults (open every day, all day) and records the event', async () => {
      const res = await createLot({ name: '  North yard ', address: '1 Yard Rd', latitude: 39.78, longitude: -89.65, capacity: 40 }).expect(201);
      expect(res.body.data).toMatchObject({ name: 'North yard', address: '1 Yard Rd', latitude: 39.78, longitude: -89.65, capacity: 40, active: true });
      expect(res.body.data.opening_hours).toEqual(Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: '00:00', close: '24:00' }])));
      expect(res.body.data).not.toHaveProperty('company_id');
      expect(res.body.data).not.toHaveProperty('deleted_at');
      const events = await t.ds.query(`SELECT type, company_id FROM outbox_events WHERE aggregate_id = $1`, [res.body.data.id]);
      expect(events).toEqual([{ type: 'lot.created', company_id: co.companyId }]);
    });

    it('lists, filters (active, q), sorts and paginates the company\'s own lots only', async () => {
      await createLot({ name: 'South yard', address: '99 Elm Street', active: false }).expect(201);
      await createLot({ name: 'East depot', address: '5 Oak Ave' }).expect(201);
      await createLot({ name: 'Rival yard' }, other).expect(201);
      const all = await t.req('get', '/api/v1/lots', { token: co.token }).expect(200);
      expect(all.body.data.map((l: { name: string }) => l.name)).toEqual(['East depot', 'North yard', 'South yard']);
      expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 3, last_page: 1 });
      const inactive = await t.req('get', '/api/v1/lots?active=false', { token: co.token }).expect(200);
      expect(inactive.body.data.map((l: { name: string }) => l.name)).toEqual(['South yard']);
      const q = await t.req('get', '/api/v1/lots?q=elm', { token: co.token }).expect(200);
      expect(q.body.data.map((l: { name: string }) => l.name)).toEqual(['South yard']);
      const page = await t.req('get', '/api/v1/lots?sort=-name&per_page=2&page=2', { token: co.token }).expect(200);
      expect(page.body.data.map((l: { name: string }) => l.name)).toEqual(['East depot']);
      expect(page.body.meta).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
    });

    it('shows and updates a lot (opening hours replaced as a whole; a day left out is closed)', async () => {
      const lot = (await createLot({ name: 'Update me' }).expect(201)).body.data;
      await t.req('get', `/api/v1/lot/${lot.id}`, { token: co.token }).expect(200);
      const res = await t.req('put', `/api/v1/lot/${lot.id}/update`, { token: co.token, body: { opening_hours: { mon: WEEKDAY_HOURS, sun: null }, capacity: 12, address: null } }).expect(200);
      expect(res.body.data).toMatchObject({ name: 'Update me', capacity: 12, address: null });
      expect(res.body.data.opening_hours).toEqual({ mon: WEEKDAY_HOURS, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null });
      const shown = await t.req('get', `/api/v1/lot/${lot.id}`, { token: co.token }).expect(200);
      expect(shown.body.data).toEqual(res.body.data);
    });

    it('keeps names unique per company (409 DUPLICATE_NAME), not across companies, and frees them on delete', async () => {
      const a = (await createLot({ name: 'Unique yard' }).expect(201)).body.data;
      const dup = await createLot({ name: 'UNIQUE YARD' }).expect(409);
      expect(dup.body.code).toBe('DUPLICATE_NAME');
      await createLot({ name: 'Unique yard' }, other).expect(201);
      const b = (await createLot({ name: 'Another yard' }).expect(201)).body.data;
      const rename = await t.req('put', `/api/v1/lot/${b.id}/update`, { token: co.token, body: { name: 'unique yard' } }).expect(409);
      expect(rename.body.code).toBe('DUPLICATE_NAME');
      await t.req('delete', `/api/v1/lot/${a.id}/delete`, { token: co.token }).expect(200);
      await createLot({ name: 'Unique yard' }).expect(201);
    });

    it('soft-deletes a lot: gone from show and list, row kept with deleted_at', async () => {
      const lot = (await createLot({ name: 'Doomed yard' }).expect(201)).body.data;
      const res = await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token }).expect(200);
      expect(res.body).toMatchObject({ success: true, data: null, message: 'Lot deleted.' });
      await t.req('get', `/api/v1/lot/${lot.id}`, { token: co.token }).expect(404);
      await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token }).expect(404);
      const list = await t.req('get', '/api/v1/lots?q=Doomed', { token: co.token }).expect(200);
      expect(list.body.data).toEqual([]);
      const [row] = await t.ds.query(`SELECT deleted_at FROM lots WHERE id = $1`, [lot.id]);
      expect(row.deleted_at).toBeInstanceOf(Date);
    });

    it('refuses to delete a lot that trucks are based at (409 IN_USE)', async () => {
      const lot = (await createLot({ name: 'Truck base' }).expect(201)).body.data;
      const [type] = await t.ds.query(`INSERT INTO truck_types (company_id, name) VALUES ($1, 'Roll-off truck') RETURNING id`, [co.companyId]);
      const [truck] = await t.ds.query(`INSERT INTO trucks (company_id, plate, truck_type_id, home_lot_id) VALUES ($1, 'TRK-1', $2, $3) RETURNING id`, [co.companyId, type.id, lot.id]);
      const res = await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token }).expect(409);
      expect(res.body.code).toBe('IN_USE');
      await t.ds.query(`UPDATE trucks SET deleted_at = now() WHERE id = $1`, [truck.id]);
      await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token }).expect(200);
    });

    it('applies the access rule: no token 401, customer or driver 403', async () => {
      const lot = (await createLot({ name: 'Access yard' }).expect(201)).body.data;
      await t.req('get', '/api/v1/lots').expect(401);
      await t.req('post', '/api/v1/lot/create', { body: { name: 'x' } }).expect(401);
      for (const token of [customer.token, driver.token]) {
        expect((await t.req('get', '/api/v1/lots', { token }).expect(403)).body.code).toBe('WRONG_ACTOR');
        await t.req('get', `/api/v1/lot/${lot.id}`, { token }).expect(403);
        await t.req('put', `/api/v1/lot/${lot.id}/update`, { token, body: { name: 'x' } }).expect(403);
        await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token }).expect(403);
        await t.req('get', `/api/v1/lot/${lot.id}/holidays`, { token }).expect(403);
        await t.req('put', `/api/v1/lot/${lot.id}/holidays`, { token, body: { holidays: [] } }).expect(403);
      }
    });

    it('answers 404 for another company\'s lot, an absent or a malformed id', async () => {
      const theirs = (await createLot({ name: 'Their yard' }, other).expect(201)).body.data;
      for (const id of [theirs.id, ABSENT_ID, 'not-a-uuid']) {
        await t.req('get', `/api/v1/lot/${id}`, { token: co.token }).expect(404);
        await t.req('put', `/api/v1/lot/${id}/update`, { token: co.token, body: { name: 'Mine now' } }).expect(404);
        await t.req('delete', `/api/v1/lot/${id}/delete`, { token: co.token }).expect(404);
        await t.req('get', `/api/v1/lot/${id}/holidays`, { token: co.token }).expect(404);
        await t.req('post', `/api/v1/lot/${id}/holidays`, { token: co.token, body: { date: MONDAY, name: 'X' } }).expect(404);
        await t.req('put', `/api/v1/lot/${id}/holidays`, { token: co.token, body: { holidays: [] } }).expect(404);
      }
      const [row] = await t.ds.query(`SELECT name, deleted_at FROM lots WHERE id = $1`, [theirs.id]);
      expect(row).toEqual({ name: 'Their yard', deleted_at: null });
    });

    it('rejects bad input with 422 and per-field errors', async () => {
      const bad = await createLot({ name: '', capacity: -1, latitude: 91, opening_hours: { mon: { open: '18:00', close: '07:00' } }, colour: 'red' }).expect(422);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(bad.body.errors).sort()).toEqual(['capacity', 'colour', 'latitude', 'name', 'opening_hours']);
      expect(bad.body.errors.opening_hours[0]).toMatch(/open must be before close/);
      for (const opening_hours of [{ funday: null }, { mon: { open: '7am', close: '17:00' } }, { mon: { open: '07:00' } }, [], 'always']) {
        const res = await createLot({ name: 'Hours', opening_hours }).expect(422);
        expect(res.body.errors).toHaveProperty('opening_hours');
      }
      const half = await createLot({ name: 'Half position', latitude: 10 }).expect(422);
      expect(half.body.errors).toHaveProperty('longitude');
      await createLot({}).expect(422);
      const lot = (await createLot({ name: 'Valid yard' }).expect(201)).body.data;
      const upd = await t.req('put', `/api/v1/lot/${lot.id}/update`, { token: co.token, body: { name: null, active: 'yes' } }).expect(422);
      expect(Object.keys(upd.body.errors).sort()).toEqual(['active', 'name']);
      const nulls = await t.req('put', `/api/v1/lot/${lot.id}/update`, { token: co.token, body: { opening_hours: null, capacity: null } }).expect(422);
      expect(Object.keys(nulls.body.errors).sort()).toEqual(['capacity', 'opening_hours']);
      for (const qs of ['active=maybe', 'sort=colour', 'per_page=1000', 'page=0']) {
        await t.req('get', `/api/v1/lots?${qs}`, { token: co.token }).expect(422);
      }
    });
  });

  describe('holidays', () => {
    let lotId: string;
    beforeAll(async () => {
      lotId = (await createLot({ name: 'Holiday yard', opening_hours: MON_FRI }).expect(201)).body.data.id;
    });
    const path = (suffix = '') => `/api/v1/lot/${lotId}/holidays${suffix}`;

    it('adds, lists (from/to), updates and deletes holidays; dates are unique per lot', async () => {
      const xmas = await t.req('post', path(), { token: co.token, body: { date: '2030-12-25', name: 'Christmas' } }).expect(201);
      expect(xmas.body.data).toMatchObject({ date: '2030-12-25', name: 'Christmas' });
      await t.req('post', path(), { token: co.token, body: { date: '2030-01-01', name: 'New Year' } }).expect(201);
      const dup = await t.req('post', path(), { token: co.token, body: { date: '2030-12-25', name: 'Again' } }).expect(409);
      expect(dup.body.code).toBe('DUPLICATE_DATE');
      const list = await t.req('get', path(), { token: co.token }).expect(200);
      expect(list.body.data.map((h: { date: string }) => h.date)).toEqual(['2030-01-01', '2030-12-25']);
      const ranged = await t.req('get', path('?from=2030-06-01&to=2030-12-31'), { token: co.token }).expect(200);
      expect(ranged.body.data.map((h: { name: string }) => h.name)).toEqual(['Christmas']);
      const moved = await t.req('put', path(`/${xmas.body.data.id}`), { token: co.token, body: { date: '2030-12-26', name: 'Boxing Day' } }).expect(200);
      expect(moved.body.data).toMatchObject({ id: xmas.body.data.id, date: '2030-12-26', name: 'Boxing Day' });
      const clash = await t.req('put', path(`/${xmas.body.data.id}`), { token: co.token, body: { date: '2030-01-01' } }).expect(409);
      expect(clash.body.code).toBe('DUPLICATE_DATE');
      await t.req('delete', path(`/${xmas.body.data.id}`), { token: co.token }).expect(200);
      await t.req('delete', path(`/${xmas.body.data.id}`), { token: co.token }).expect(404);
      const after = await t.req('get', path(), { token: co.token }).expect(200);
      expect(after.body.data.map((h: { name: string }) => h.name)).toEqual(['New Year']);
    });

    it('PUT replaces the whole set and answers with it in date order', async () => {
      const res = await t.req('put', path(), { token: co.token, body: { holidays: [{ date: '2031-07-04', name: 'Independence Day' }, { date: '2031-01-01', name: 'New Year' }] } }).expect(200);
      expect(res.body.data.map((h: { date: string }) => h.date)).toEqual(['2031-01-01', '2031-07-04']);
      expect(res.body.meta).toMatchObject({ total: 2, last_page: 1 });
      const list = await t.req('get', path(), { token: co.token }).expect(200);
      expect(list.body.data.map((h: { id: string }) => h.id)).toEqual(res.body.data.map((h: { id: string }) => h.id));
      const cleared = await t.req('put', path(), { token: co.token, body: { holidays: [] } }).expect(200);
      expect(cleared.body.data).toEqual([]);
      expect((await t.req('get', path(), { token: co.token }).expect(200)).body.meta.total).toBe(0);
    });

    it('rejects bad holidays with 422 (bad date, duplicate dates in the set, unknown fields)', async () => {
      const bad = await t.req('post', path(), { token: co.token, body: { date: '2030-02-30', name: '' } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['date', 'name']);
      const dupSet = await t.req('put', path(), { token: co.token, body: { holidays: [{ date: '2032-01-01', name: 'A' }, { date: '2032-01-01', name: 'B' }] } }).expect(422);
      expect(dupSet.body.errors).toHaveProperty(['holidays.1.date']);
      const nested = await t.req('put', path(), { token: co.token, body: { holidays: [{ date: 'tomorrow', name: 'A', extra: 1 }] } }).expect(422);
      expect(Object.keys(nested.body.errors).sort()).toEqual(['holidays.0.date', 'holidays.0.extra']);
      await t.req('put', path(), { token: co.token, body: { holidays: 'none' } }).expect(422);
      await t.req('get', path('?from=soon'), { token: co.token }).expect(422);
    });

    it('answers 404 for a holiday of another lot or another company', async () => {
      const otherLot = (await createLot({ name: 'Other holiday yard' }).expect(201)).body.data.id;
      const h = (await t.req('post', `/api/v1/lot/${otherLot}/holidays`, { token: co.token, body: { date: '2030-05-01', name: 'May Day' } }).expect(201)).body.data;
      await t.req('put', path(`/${h.id}`), { token: co.token, body: { name: 'Stolen' } }).expect(404);
      await t.req('delete', path(`/${h.id}`), { token: co.token }).expect(404);
      await t.req('put', `/api/v1/lot/${otherLot}/holidays/${h.id}`, { token: other.token, body: { name: 'Stolen' } }).expect(404);
      await t.req('delete', `/api/v1/lot/${otherLot}/holidays/${h.id}`, { token: other.token }).expect(404);
      await t.req('delete', `/api/v1/lot/${otherLot}/holidays/nope`, { token: co.token }).expect(404);
      const [row] = await t.ds.query(`SELECT name FROM lot_holidays WHERE id = $1`, [h.id]);
      expect(row.name).toBe('May Day');
    });
  });

  describe('stations', () => {
    it('creates a station with accepted waste types (the company\'s only) and a dump cost', async () => {
      const wood = await wasteType(co.companyId, 'WOOD');
      const metal = await wasteType(co.companyId, 'METAL');
      const theirs = await wasteType(other.companyId, 'OTHER');
      const res = await createStation({ name: 'County transfer', dump_cost_per_tonne_amount: 6500, waste_type_ids: [wood, metal], opening_hours: MON_FRI }).expect(201);
      expect(res.body.data).toMatchObject({ name: 'County transfer', dump_cost_per_tonne_amount: 6500, active: true });
      expect(res.body.data.waste_type_ids.sort()).toEqual([wood, metal].sort());
      expect(res.body.data.waste_types).toEqual(expect.arrayContaining([{ id: wood, name: 'Waste WOOD' }]));
      const foreign = await createStation({ name: 'Bad station', waste_type_ids: [wood, theirs] }).expect(422);
      expect(foreign.body.errors.waste_type_ids).toEqual([`waste type ${theirs} not found`]);
      const malformed = await createStation({ name: 'Bad station', waste_type_ids: ['x'], dump_cost_per_tonne_amount: 12.5 }).expect(422);
      expect(Object.keys(malformed.body.errors).sort()).toEqual(['dump_cost_per_tonne_amount', 'waste_type_ids']);

      const upd = await t.req('put', `/api/v1/station/${res.body.data.id}/update`, { token: co.token, body: { waste_type_ids: [metal] } }).expect(200);
      expect(upd.body.data.waste_type_ids).toEqual([metal]);
      expect(upd.body.data.dump_cost_per_tonne_amount).toBe(6500);
      const byWood = await t.req('get', `/api/v1/stations?waste_type_id=${wood}`, { token: co.token }).expect(200);
      expect(byWood.body.data).toEqual([]);
      const byMetal = await t.req('get', `/api/v1/stations?waste_type_id=${metal}`, { token: co.token }).expect(200);
      expect(byMetal.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.data.id]);
      const shown = await t.req('get', `/api/v1/station/${res.body.data.id}`, { token: co.token }).expect(200);
      expect(shown.body.data).toEqual(upd.body.data);
    });

    it('lists, holidays and deletes stations with the same rules as lots', async () => {
      const st = (await createStation({ name: 'Landfill' }).expect(201)).body.data;
      await createStation({ name: 'landfill' }).expect(409);
      const list = await t.req('get', '/api/v1/stations?q=landf', { token: co.token }).expect(200);
      expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([st.id]);
      expect((await t.req('get', '/api/v1/stations', { token: other.token }).expect(200)).body.data).toEqual([]);
      const h = await t.req('post', `/api/v1/station/${st.id}/holidays`, { token: co.token, body: { date: MONDAY, name: 'Closed' } }).expect(201);
      await t.req('put', `/api/v1/station/${st.id}/holidays/${h.body.data.id}`, { token: co.token, body: { name: 'Closed for repairs' } }).expect(200);
      const set = await t.req('put', `/api/v1/station/${st.id}/holidays`, { token: co.token, body: { holidays: [{ date: MONDAY, name: 'Closed' }] } }).expect(200);
      expect(set.body.data).toHaveLength(1);
      expect((await t.req('get', `/api/v1/station/${st.id}/holidays`, { token: co.token }).expect(200)).body.data[0].name).toBe('Closed');
      await t.req('delete', `/api/v1/station/${st.id}/holidays/${set.body.data[0].id}`, { token: co.token }).expect(200);
      for (const id of [st.id]) {
        await t.req('get', `/api/v1/station/${id}`, { token: other.token }).expect(404);
        await t.req('put', `/api/v1/station/${id}/update`, { token: other.token, body: { name: 'x' } }).expect(404);
        await t.req('delete', `/api/v1/station/${id}/delete`, { token: other.token }).expect(404);
        await t.req('get', `/api/v1/station/${id}/holidays`, { token: other.token }).expect(404);
      }
      await t.req('get', '/api/v1/stations', { token: customer.token }).expect(403);
      await t.req('post', '/api/v1/station/create', { token: driver.token, body: { name: 'x' } }).expect(403);
      await t.req('get', '/api/v1/stations').expect(401);
      await t.req('get', '/api/v1/stations?waste_type_id=nope', { token: co.token }).expect(422);
      await t.req('delete', `/api/v1/station/${st.id}/delete`, { token: co.token }).expect(200);
      await t.req('get', `/api/v1/station/${st.id}`, { token: co.token }).expect(404);
    });
  });

  describe('OpeningCalendar', () => {
    it('knows closed weekdays, holidays and inactive sites; assertOpen throws 422 HOLIDAY', async () => {
      const cal = t.app.get(OpeningCalendar);
      expect(weekdayOf(MONDAY)).toBe('mon');
      expect(weekdayOf(SATURDAY)).toBe('sat');
      const lot = (await createLot({ name: 'Calendar yard', opening_hours: MON_FRI }).expect(201)).body.data;
      await t.req('post', `/api/v1/lot/${lot.id}/holidays`, { token: co.token, body: { date: '2030-01-08', name: 'Closed Tuesday' } }).expect(201);
      expect(await cal.isOpen('lot', lot.id, Scope.company(co.companyId), MONDAY)).toEqual({ open: true });
      expect(await cal.isOpen('lot', lot.id, Scope.company(co.companyId), SATURDAY)).toEqual({ open: false, reason: 'CLOSED_DAY' });
      expect(await cal.isOpen('lot', lot.id, Scope.company(co.companyId), '2030-01-08')).toEqual({ open: false, reason: 'HOLIDAY', holiday: 'Closed Tuesday' });
      await expect(cal.assertOpen('lot', lot.id, Scope.company(co.companyId), MONDAY)).resolves.toBeUndefined();
      await expect(cal.assertOpen('lot', lot.id, Scope.company(co.companyId), '2030-01-08', 'delivery_date')).rejects.toMatchObject({
        status: 422,
        code: 'HOLIDAY',
        errors: { delivery_date: [expect.stringContaining('holiday')] },
      });
      await expect(cal.assertOpen('lot', lot.id, Scope.company(co.companyId), SATURDAY)).rejects.toMatchObject({ status: 422, code: 'CLOSED_DAY' });
      await expect(cal.isOpen('lot', lot.id, Scope.company(other.companyId), MONDAY)).rejects.toMatchObject({ status: 404 });
      await expect(cal.isOpen('lot', lot.id, Scope.company(co.companyId), '2030-13-01')).rejects.toMatchObject({ status: 422 });

      const station = (await createStation({ name: 'Calendar station' }).expect(201)).body.data;
      expect(await cal.isOpen('station', station.id, Scope.company(co.companyId), SATURDAY)).toEqual({ open: true });
      expect(await cal.openIds('station', Scope.company(co.companyId), SATURDAY)).toContain(station.id);
      await t.req('put', `/api/v1/station/${station.id}/update`, { token: co.token, body: { active: false } }).expect(200);
      expect(await cal.isOpen('station', station.id, Scope.company(co.companyId), SATURDAY)).toEqual({ open: false, reason: 'INACTIVE' });
      expect(await cal.openIds('station', Scope.company(co.companyId), SATURDAY)).not.toContain(station.id);
      expect(await cal.openIds('lot', Scope.company(co.companyId), SATURDAY)).not.toContain(lot.id);
      expect(await cal.openIds('lot', Scope.company(co.companyId), MONDAY)).toContain(lot.id);

      // Inside a unit of work, through its manager.
      await t.app.get(UnitOfWork).transaction(async () => {
        expect(await cal.isOpen('lot', lot.id, Scope.company(co.companyId), MONDAY)).toEqual({ open: true });
      });
      await t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token }).expect(200);
      await expect(cal.isOpen('lot', lot.id, Scope.company(co.companyId), MONDAY)).rejects.toMatchObject({ status: 404 });
    });

    it('asks the in-use registry: assets based or located at a lot, or located at a station, keep it (409 IN_USE)', async () => {
      const lot = (await createLot({ name: 'Asset yard' }).expect(201)).body.data;
      const station = (await createStation({ name: 'Asset station' }).expect(201)).body.data;
      const spec = await insertSpec(t, co.companyId, 'Registry spec');
      const asset = (await t.req('post', '/api/v1/assets', { token: co.token, body: { code: 'REG-1', asset_specification_id: spec, home_lot_id: lot.id } }).expect(201)).body.data;
      const delLot = () => t.req('delete', `/api/v1/lot/${lot.id}/delete`, { token: co.token });
      const delStation = () => t.req('delete', `/api/v1/station/${station.id}/delete`, { token: co.token });
      expect((await delLot().expect(409)).body.code).toBe('IN_USE');
      await delStation().expect(200);
      const station2 = (await createStation({ name: 'Asset station 2' }).expect(201)).body.data;
      // Located at the station, still based at the lot.
      await t.req('put', `/api/v1/assets/${asset.id}/location`, { token: co.token, body: { lat: 40, lng: -89, location_type: 'station', location_id: station2.id } }).expect(200);
      expect((await delLot().expect(409)).body.code).toBe('IN_USE');
      expect((await t.req('delete', `/api/v1/station/${station2.id}/delete`, { token: co.token }).expect(409)).body).toMatchObject({ code: 'IN_USE', message: 'Station is in use and cannot be deleted.' });
      // A deleted asset keeps nothing.
      await t.req('delete', `/api/v1/assets/${asset.id}`, { token: co.token }).expect(200);
      await delLot().expect(200);
      await t.req('delete', `/api/v1/station/${station2.id}/delete`, { token: co.token }).expect(200);
    });
  });
});
