import { CompanyActor, companyActor, memberActor, PASSWORD, uniqueEmail } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue #3: a hauler sets up its whole back office through HTTP only (no repository, DataSource or
 * SQL), then a company user, a customer and a driver read it back, and a second company can neither
 * see it nor use its ids. The `it` blocks are chapters of one story and run in order on shared state.
 */

const HOURS = { open: '07:00', close: '17:00' };
const SATURDAY_HOURS = { open: '08:00', close: '12:00' };
const MON_SAT = { mon: HOURS, tue: HOURS, wed: HOURS, thu: HOURS, fri: HOURS, sat: SATURDAY_HOURS, sun: null };
const MON_FRI = { mon: HOURS, tue: HOURS, wed: HOURS, thu: HOURS, fri: HOURS, sat: null, sun: null };

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Row = { id: string; [k: string]: unknown };
const ids = (rows: Row[]) => rows.map((r) => r.id);
const sorted = (xs: string[]) => [...xs].sort();

describe('back-office setup, end to end through HTTP (issue #3)', () => {
  let t: TestApp;

  // What the story creates, by name.
  let owner: { token: string; userId: string; email: string };
  let companyId: string;
  const lot: Record<'north' | 'south', string> = { north: '', south: '' };
  const station: Record<'transfer' | 'concrete', string> = { transfer: '', concrete: '' };
  const waste: Record<'general' | 'concrete' | 'yard' | 'asbestos', string> = { general: '', concrete: '', yard: '', asbestos: '' };
  let categoryId: string;
  let styleId: string;
  const spec: Record<'yd10' | 'yd20' | 'yd30' | 'yd40', string> = { yd10: '', yd20: '', yd30: '', yd40: '' };
  const specLinks: Record<string, string[]> = {};
  const assets: Record<string, Row> = {};
  let truckTypeId: string;
  const trucks: Row[] = [];
  const tax: Record<'state' | 'county', string> = { state: '', county: '' };
  let termId: string;
  let policyId: string;
  const profile: Record<'standard' | 'contractors', string> = { standard: '', contractors: '' };
  let promotionId: string;
  const customer: Record<'bo' | 'cleo', { id: string; token: string; email: string }> = { bo: { id: '', token: '', email: '' }, cleo: { id: '', token: '', email: '' } };
  const addresses: Record<string, string> = {};
  const driver: Record<'dee' | 'eli', { id: string; token: string; email: string }> = { dee: { id: '', token: '', email: '' }, eli: { id: '', token: '', email: '' } };
  let qr: { id: string; payload: string };

  const call = (method: Method, path: string, token: string | undefined, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const co = {
    get: (path: string) => call('get', path, owner.token),
    post: (path: string, body?: unknown) => call('post', path, owner.token, body),
    put: (path: string, body?: unknown) => call('put', path, owner.token, body),
  };
  /** Creates through the company and returns `data`, asserting 201. */
  const create = async (path: string, body: unknown): Promise<Row> => {
    const res = await co.post(path, body);
    if (res.status !== 201) throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const login = async (email: string) => (await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200)).body.data;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('1. the owner registers, logs in, creates the company and sets its settings', async () => {
    const email = uniqueEmail('owner');
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'Dana Reyes', email, password: PASSWORD, type: 'company', phone: '+1 555 0100' } }).expect(201);
    expect(reg.body.data.user).toMatchObject({ email, type: 'company', company_id: null });
    // Before the company exists, company routes answer 403 NO_COMPANY.
    expect((await call('get', 'lots', reg.body.data.token).expect(403)).body.code).toBe('NO_COMPANY');

    const session = await login(email);
    owner = { token: session.token, userId: session.user.id, email };
    const company = await t.req('post', '/api/v1/company/create', {
      token: owner.token,
      body: { name: 'Prairie Roll-Off', email: 'Dispatch@Prairie.test', phone: '+1 555 0101', address: '1200 Industrial Pkwy, Springfield, IL', timezone: 'America/Chicago', currency: 'usd' },
    }).expect(201);
    expect(company.body.data).toMatchObject({ name: 'Prairie Roll-Off', email: 'dispatch@prairie.test', timezone: 'America/Chicago', currency: 'USD' });
    companyId = company.body.data.id;

    const settings = await co.post('company/settings', { order_lead_time_days: 2, free_cancellation_hours: 48, cancellation_fee_amount: 2500, timezone: 'America/Chicago' }).expect(200);
    expect(settings.body.data).toMatchObject({ order_lead_time_days: 2, free_cancellation_hours: 48, cancellation_fee_amount: 2500, auto_approve_orders: false, timezone: 'America/Chicago', currency: 'USD' });
    const me = await co.get('company').expect(200);
    expect(me.body.data).toMatchObject({ id: companyId, name: 'Prairie Roll-Off' });
  });

  it('2. it creates waste types, two lots and two stations with accepted waste types and holidays', async () => {
    waste.general = (await create('waste-types', { name: 'General debris', code: 'GEN', description: 'Household and construction debris', prohibited_items: ['paint', 'tires', 'batteries'] })).id;
    waste.concrete = (await create('waste-types', { name: 'Concrete', code: 'CONC', description: 'Clean concrete, brick and asphalt' })).id;
    waste.yard = (await create('waste-types', { name: 'Yard waste', code: 'YARD', prohibited_items: ['soil'] })).id;
    waste.asbestos = (await create('waste-types', { name: 'Asbestos', code: 'ASB', hazardous: true })).id;

    const north = await create('lot/create', { name: 'North yard', address: '1200 Industrial Pkwy, Springfield', latitude: 39.8317, longitude: -89.6501, capacity: 60, opening_hours: MON_SAT });
    expect(north).toMatchObject({ name: 'North yard', latitude: 39.8317, longitude: -89.6501, capacity: 60, active: true, opening_hours: MON_SAT });
    lot.north = north.id;
    const south = await create('lot/create', { name: 'South yard', address: '77 Quarry Rd, Chatham', latitude: 39.6759, longitude: -89.7043, capacity: 25, opening_hours: MON_FRI });
    expect(south.opening_hours).toEqual(MON_FRI);
    lot.south = south.id;

    const transfer = await create('station/create', {
      name: 'County transfer station',
      address: '5 Landfill Ln, Springfield',
      latitude: 39.7401,
      longitude: -89.5807,
      dump_cost_per_tonne_amount: 6500,
      waste_type_ids: [waste.general, waste.yard],
      opening_hours: MON_SAT,
    });
    expect(transfer).toMatchObject({ name: 'County transfer station', dump_cost_per_tonne_amount: 6500, active: true, opening_hours: MON_SAT });
    expect(sorted(transfer.waste_type_ids as string[])).toEqual(sorted([waste.general, waste.yard]));
    station.transfer = transfer.id;
    station.concrete = (await create('station/create', { name: 'Concrete recycler', latitude: 39.79, longitude: -89.7, dump_cost_per_tonne_amount: 1800, waste_type_ids: [waste.concrete], opening_hours: MON_FRI })).id;

    // The station's holidays: the PUT replaces the whole collection.
    await co.post(`station/${station.transfer}/holidays`, { date: '2031-11-11', name: 'Veterans Day' }).expect(201);
    const set = await co.put(`station/${station.transfer}/holidays`, {
      holidays: [
        { date: '2031-12-25', name: 'Christmas Day' },
        { date: '2031-07-04', name: 'Independence Day' },
        { date: '2031-11-27', name: 'Thanksgiving' },
      ],
    }).expect(200);
    expect(set.body.data.map((h: Row) => [h.date, h.name])).toEqual([
      ['2031-07-04', 'Independence Day'],
      ['2031-11-27', 'Thanksgiving'],
      ['2031-12-25', 'Christmas Day'],
    ]);
    expect(set.body.meta).toMatchObject({ total: 3, last_page: 1 });
    // And a lot holiday.
    await co.put(`lot/${lot.north}/holidays`, { holidays: [{ date: '2031-12-25', name: 'Christmas Day' }] }).expect(200);
  });

  it('3. it builds the catalogue: category, style, 10/20/30-yard specifications with allowed waste types, and assets at the lots', async () => {
    categoryId = (await create('asset-categories', { name: 'Roll-off', description: 'Open-top roll-off containers' })).id;
    styleId = (await create('asset-styles', { name: 'Open top' })).id;
    const specs: [keyof typeof spec, number, number, number, string[]][] = [
      // key, size, max kg, included kg, allowed waste
      ['yd10', 10, 4500, 907, [waste.general, waste.concrete, waste.yard]],
      ['yd20', 20, 9000, 1814, [waste.general, waste.yard]],
      ['yd30', 30, 9000, 2268, [waste.general, waste.yard]],
    ];
    for (const [key, size, max, included, allowed] of specs) {
      const s = await create('asset-specifications', {
        name: `${size} yd roll-off`,
        description: `${size}-yard open-top dumpster`,
        asset_category_id: categoryId,
        asset_style_id: styleId,
        size,
        size_unit: 'yd3',
        max_weight_kg: max,
        included_weight_kg: included,
        included_days: 7,
      });
      expect(s).toMatchObject({ name: `${size} yd roll-off`, size, size_unit: 'yd3', asset_category_id: categoryId, asset_style_id: styleId, included_weight_kg: included, active: true });
      spec[key] = s.id;
      specLinks[s.id] = [];
      for (const w of allowed) {
        // Concrete in the 10 yd has its own price.
        const body = w === waste.concrete ? { waste_type_id: w, price_override_amount: 4500 } : { waste_type_id: w };
        const link = await create(`asset-specifications/${s.id}/waste-types`, body);
        expect(link).toMatchObject({ asset_specification_id: s.id, waste_type_id: w });
        specLinks[s.id].push(w);
      }
    }
    // A retired 40 yd the customers must not see.
    spec.yd40 = (await create('asset-specifications', { name: '40 yd roll-off', asset_category_id: categoryId, size: 40, size_unit: 'yd3', active: false })).id;
    await create(`asset-specifications/${spec.yd40}/waste-types`, { waste_type_id: waste.general });

    // Assets: 10 yd ×3 (2 north, 1 south), 20 yd ×3 (2 north, 1 south), 30 yd ×2 (north).
    const fleet: [string, keyof typeof spec, keyof typeof lot][] = [
      ['RO10-001', 'yd10', 'north'],
      ['RO10-002', 'yd10', 'north'],
      ['RO10-003', 'yd10', 'south'],
      ['RO20-001', 'yd20', 'north'],
      ['RO20-002', 'yd20', 'north'],
      ['RO20-003', 'yd20', 'south'],
      ['RO30-001', 'yd30', 'north'],
      ['RO30-002', 'yd30', 'north'],
    ];
    for (const [code, s, l] of fleet) {
      const a = await create('assets', { code, serial: `SN-${code}`, asset_specification_id: spec[s], home_lot_id: lot[l], condition: code.endsWith('001') ? 'new' : 'good' });
      const at = l === 'north' ? { lat: 39.8317, lng: -89.6501 } : { lat: 39.6759, lng: -89.7043 };
      expect(a).toMatchObject({ code, asset_specification_id: spec[s], home_lot_id: lot[l], status: 'available', location_type: 'lot', location_id: lot[l], ...at });
      assets[code] = a;
    }
  });

  it('4. it sets up the fleet: a truck type carrying the specifications, and trucks at the lots', async () => {
    const type = await create('truck-types', { name: 'Roll-off hoist', capacity_kg: 15000, asset_specification_ids: [spec.yd10, spec.yd20, spec.yd30] });
    expect(type).toMatchObject({ name: 'Roll-off hoist', capacity_kg: 15000 });
    expect(sorted(type.asset_specification_ids as string[])).toEqual(sorted([spec.yd10, spec.yd20, spec.yd30]));
    truckTypeId = type.id;
    for (const [plate, name, home, tare] of [
      ['IL-RO-101', 'Truck 101', lot.north, 11800],
      ['IL-RO-102', 'Truck 102', lot.north, 12100],
      ['IL-RO-201', 'Truck 201', lot.south, 11950],
    ] as const) {
      const truck = await create('trucks', { plate, name, truck_type_id: truckTypeId, home_lot_id: home, tare_weight_kg: tare });
      expect(truck).toMatchObject({ plate, name, truck_type_id: truckTypeId, home_lot_id: home, tare_weight_kg: tare, status: 'active' });
      trucks.push(truck);
    }
  });

  it('5. it sets taxes, a payment term, a policy, pricing profiles and a promotion', async () => {
    tax.state = (await create('taxes', { name: 'State sales tax', rate_bps: 625, applies_to: 'all', is_default: true })).id;
    tax.county = (await create('taxes', { name: 'County rental tax', rate_bps: 175, applies_to: 'rental' })).id;
    const term = await create('payment-terms', { name: 'Net 15', due_days: 15, is_default: true });
    expect(term).toMatchObject({ name: 'Net 15', due_days: 15, is_default: true });
    termId = term.id;
    const policy = await create('policies', { name: 'Overfilled container', category: 'overfill', demerit_points: 2, fee_amount: 7500, description: 'Debris above the rim' });
    expect(policy).toMatchObject({ category: 'overfill', demerit_points: 2, fee_amount: 7500, active: true });
    policyId = policy.id;

    const item = (s: string, base: number, kg: number) => ({
      asset_specification_id: s,
      base_price_amount: base,
      included_days: 7,
      included_weight_kg: kg,
      extra_day_amount: 1000,
      overage_per_tonne_amount: 8500,
      swap_fee_amount: 15000,
      dump_return_fee_amount: 17500,
      relocation_fee_amount: 9500,
      wasted_trip_fee_amount: 12500,
    });
    const standard = await create('pricing-profiles', {
      name: 'Standard 2031',
      description: 'Retail price book',
      is_default: true,
      delivery_free_radius_km: 15,
      delivery_price_per_km_amount: 250,
      items: [item(spec.yd10, 29900, 907), { asset_specification_id: spec.yd10, waste_type_id: waste.concrete, base_price_amount: 34900 }, item(spec.yd20, 39900, 1814), item(spec.yd30, 49900, 2268)],
    });
    expect(standard).toMatchObject({ name: 'Standard 2031', is_default: true, delivery_free_radius_km: 15, delivery_price_per_km_amount: 250 });
    expect((standard.items as Row[]).map((i) => [i.asset_specification_id, i.waste_type_id, i.base_price_amount])).toEqual([
      [spec.yd10, null, 29900],
      [spec.yd10, waste.concrete, 34900],
      [spec.yd20, null, 39900],
      [spec.yd30, null, 49900],
    ]);
    profile.standard = standard.id;
    profile.contractors = (await create('pricing-profiles', { name: 'Contractors', items: [item(spec.yd20, 34900, 1814), item(spec.yd30, 44900, 2268)] })).id;

    const promo = await create('promotions/create', {
      code: 'SPRING20',
      name: 'Spring clean-up',
      discount_type: 'percent',
      discount_value: 2000,
      valid_from: '2020-01-01',
      valid_to: '2099-12-31',
      max_redemptions: 200,
      max_redemptions_per_customer: 1,
      min_subtotal_amount: 30000,
      asset_specification_ids: [spec.yd20, spec.yd30, spec.yd40],
    });
    expect(promo).toMatchObject({ code: 'SPRING20', discount_type: 'percent', discount_value: 2000, min_subtotal_amount: 30000, active: true });
    expect(sorted(promo.asset_specification_ids as string[])).toEqual(sorted([spec.yd20, spec.yd30, spec.yd40]));
    promotionId = promo.id;
  });

  it('6. it adds customers (one created, one self-registered) who add their own addresses, and drivers', async () => {
    // Created by the company with a password: can log in at once.
    customer.bo.email = uniqueEmail('bo');
    const bo = await create('customer/create', { name: 'Bo Builders', email: customer.bo.email, phone: '+1 555 0200', password: PASSWORD });
    expect(bo).toMatchObject({ type: 'customer', company_id: companyId, has_password: true });
    customer.bo.id = bo.id;
    customer.bo.token = (await login(customer.bo.email)).token;
    const assigned = await co.put(`customer/${bo.id}/update`, { billing_name: 'Bo Builders LLC', billing_email: 'ap@bo.test', pricing_profile_id: profile.contractors, notes: 'Gate code 4411' }).expect(200);
    expect(assigned.body.data).toMatchObject({ name: 'Bo Builders', billing_name: 'Bo Builders LLC', pricing_profile_id: profile.contractors, notes: 'Gate code 4411' });

    // Self-registered with the company's id.
    customer.cleo.email = uniqueEmail('cleo');
    const cleo = await t.req('post', '/api/v1/auth/register', { body: { name: 'Cleo Homeowner', email: customer.cleo.email, password: PASSWORD, type: 'customer', company_id: companyId, phone: '+1 555 0300' } }).expect(201);
    expect(cleo.body.data.user).toMatchObject({ type: 'customer', company_id: companyId });
    customer.cleo.id = cleo.body.data.user.id;
    customer.cleo.token = (await login(customer.cleo.email)).token;

    // The customers add their own addresses (self-service); the first is the default.
    const site = await call('post', 'customer/addresses', customer.bo.token, {
      label: 'Elm St remodel',
      line1: '410 Elm St',
      city: 'Springfield',
      region: 'IL',
      postal_code: '62702',
      country: 'us',
      latitude: 39.8012,
      longitude: -89.6437,
      instructions: 'Place on the driveway, left side',
    }).expect(201);
    expect(site.body.data).toMatchObject({ customer_id: customer.bo.id, label: 'Elm St remodel', country: 'US', is_default: true });
    addresses.boElm = site.body.data.id;
    const second = await call('post', 'customer/addresses', customer.bo.token, { label: 'Oak Ave build', line1: '12 Oak Ave', city: 'Chatham', region: 'IL', postal_code: '62629', latitude: 39.6761, longitude: -89.7046 }).expect(201);
    expect(second.body.data.is_default).toBe(false);
    addresses.boOak = second.body.data.id;
    await call('post', `customer/addresses/${addresses.boOak}/default`, customer.bo.token).expect(200);
    addresses.cleoHome = (await call('post', 'customer/addresses', customer.cleo.token, { label: 'Home', line1: '9 Maple Ct', city: 'Springfield', latitude: 39.77, longitude: -89.66 }).expect(201)).body.data.id;

    // Drivers created by the company with a password; one updated by the company, one updates its own profile.
    for (const [key, name] of [
      ['dee', 'Dee Driver'],
      ['eli', 'Eli Driver'],
    ] as const) {
      const email = uniqueEmail(key);
      const d = await create('driver/create', { name, email, phone: '+1 555 0400', password: PASSWORD });
      expect(d).toMatchObject({ type: 'driver', company_id: companyId, has_password: true });
      driver[key] = { id: d.id, email, token: (await login(email)).token };
    }
    await co.put(`driver/${driver.dee.id}/update`, { hired_on: '2024-03-01', notes: 'CDL class B, prefers north routes' }).expect(200);
    const own = await call('post', 'driver/profile/update', driver.dee.token, { phone: '+1 555 0456', license_number: 'IL-D123-456', license_expires_on: '2029-01-31' }).expect(200);
    expect(own.body.data).toMatchObject({ id: driver.dee.id, name: 'Dee Driver', phone: '+1 555 0456', license_number: 'IL-D123-456', license_expires_on: '2029-01-31', hired_on: '2024-03-01' });
    expect(own.body.data).not.toHaveProperty('notes');
  });

  it('7. the company user reads the setup back: lists, filters, search and totals', async () => {
    const lots = await co.get('lots?sort=name').expect(200);
    expect(lots.body.data.map((l: Row) => [l.name, l.capacity, l.active])).toEqual([
      ['North yard', 60, true],
      ['South yard', 25, true],
    ]);
    expect(lots.body.meta).toEqual({ page: 1, per_page: 20, total: 2, last_page: 1 });
    // The opening state the API exposes: weekly hours (Sunday closed; the south yard closed on Saturday too) and active.
    const south = (await co.get(`lot/${lot.south}`).expect(200)).body.data;
    expect(south).toMatchObject({ name: 'South yard', active: true, latitude: 39.6759, longitude: -89.7043 });
    expect(south.opening_hours).toMatchObject({ mon: HOURS, sat: null, sun: null });
    const lotHolidays = await co.get(`lot/${lot.north}/holidays`).expect(200);
    expect(lotHolidays.body.data.map((h: Row) => [h.date, h.name])).toEqual([['2031-12-25', 'Christmas Day']]);
    expect((await co.get(`lot/${lot.south}/holidays`).expect(200)).body.meta.total).toBe(0);

    const stations = await co.get('stations?sort=name').expect(200);
    expect(stations.body.data.map((s: Row) => s.name)).toEqual(['Concrete recycler', 'County transfer station']);
    expect(stations.body.meta.total).toBe(2);
    expect(ids((await co.get(`stations?waste_type_id=${waste.concrete}`).expect(200)).body.data)).toEqual([station.concrete]);
    expect(ids((await co.get(`stations?waste_type_id=${waste.yard}`).expect(200)).body.data)).toEqual([station.transfer]);
    expect((await co.get(`stations?waste_type_id=${waste.asbestos}`).expect(200)).body.meta.total).toBe(0);
    expect(ids((await co.get('stations?q=landfill').expect(200)).body.data)).toEqual([station.transfer]);
    const transfer = (await co.get(`station/${station.transfer}`).expect(200)).body.data;
    expect(sorted(transfer.waste_types.map((w: Row) => w.name))).toEqual(['General debris', 'Yard waste']);
    // The holidays listing: the replaced set only (Veterans Day is gone), with a date range filter.
    const holidays = await co.get(`station/${station.transfer}/holidays`).expect(200);
    expect(holidays.body.data.map((h: Row) => h.name)).toEqual(['Independence Day', 'Thanksgiving', 'Christmas Day']);
    expect(holidays.body.meta.total).toBe(3);
    const late = await co.get(`station/${station.transfer}/holidays?from=2031-11-01&to=2031-11-30`).expect(200);
    expect(late.body.data.map((h: Row) => [h.date, h.name])).toEqual([['2031-11-27', 'Thanksgiving']]);

    const wastes = await co.get('waste-types?sort=name').expect(200);
    expect(wastes.body.data.map((w: Row) => w.code)).toEqual(['ASB', 'CONC', 'GEN', 'YARD']);
    expect(ids((await co.get('waste-types?hazardous=true').expect(200)).body.data)).toEqual([waste.asbestos]);
    expect(ids((await co.get('waste-types?q=yard').expect(200)).body.data)).toEqual([waste.yard]);

    const specs = await co.get(`asset-specifications?asset_category_id=${categoryId}&active=true&sort=name`).expect(200);
    expect(specs.body.data.map((s: Row) => [s.name, s.size])).toEqual([
      ['10 yd roll-off', 10],
      ['20 yd roll-off', 20],
      ['30 yd roll-off', 30],
    ]);
    expect(specs.body.meta.total).toBe(3);
    expect(ids((await co.get('asset-specifications?active=false').expect(200)).body.data)).toEqual([spec.yd40]);
    for (const s of [spec.yd10, spec.yd20, spec.yd30]) {
      const links = await co.get(`asset-specifications/${s}/waste-types`).expect(200);
      expect(sorted(links.body.data.map((l: Row) => l.waste_type_id as string))).toEqual(sorted(specLinks[s]));
      expect(links.body.meta.total).toBe(specLinks[s].length);
    }
    const concreteIn10 = (await co.get(`asset-specifications/${spec.yd10}/waste-types`).expect(200)).body.data.find((l: Row) => l.waste_type_id === waste.concrete);
    expect(concreteIn10).toMatchObject({ price_override_amount: 4500, waste_type: { id: waste.concrete, name: 'Concrete', code: 'CONC' } });

    // Assets by specification, by lot, by both, by text; all available.
    const codes = async (qs: string) => {
      const res = await co.get(`assets?${qs}`).expect(200);
      return { codes: res.body.data.map((a: Row) => a.code), total: res.body.meta.total };
    };
    expect(await codes(`asset_specification_id=${spec.yd10}&sort=code`)).toEqual({ codes: ['RO10-001', 'RO10-002', 'RO10-003'], total: 3 });
    expect(await codes(`asset_specification_id=${spec.yd30}&sort=code`)).toEqual({ codes: ['RO30-001', 'RO30-002'], total: 2 });
    expect(await codes(`home_lot_id=${lot.south}&sort=code`)).toEqual({ codes: ['RO10-003', 'RO20-003'], total: 2 });
    expect(await codes(`asset_specification_id=${spec.yd20}&home_lot_id=${lot.north}&sort=code`)).toEqual({ codes: ['RO20-001', 'RO20-002'], total: 2 });
    expect(await codes('q=ro20-00&sort=-code')).toEqual({ codes: ['RO20-003', 'RO20-002', 'RO20-001'], total: 3 });
    expect(await codes('status=available&per_page=5&page=2&sort=code')).toEqual({ codes: ['RO20-003', 'RO30-001', 'RO30-002'], total: 8 });
    expect((await co.get('assets?condition=new').expect(200)).body.meta.total).toBe(3);

    const types = await co.get('truck-types').expect(200);
    expect(types.body.data).toEqual([expect.objectContaining({ id: truckTypeId, name: 'Roll-off hoist' })]);
    const northTrucks = await co.get(`trucks?home_lot_id=${lot.north}&sort=plate`).expect(200);
    expect(northTrucks.body.data.map((x: Row) => x.plate)).toEqual(['IL-RO-101', 'IL-RO-102']);
    expect((await co.get(`trucks?truck_type_id=${truckTypeId}&status=active`).expect(200)).body.meta.total).toBe(3);

    const taxes = await co.get('taxes?sort=name').expect(200);
    expect(taxes.body.data.map((x: Row) => [x.name, x.rate_bps, x.applies_to, x.is_default])).toEqual([
      ['County rental tax', 175, 'rental', false],
      ['State sales tax', 625, 'all', true],
    ]);
    expect((await co.get(`payment-terms/${termId}`).expect(200)).body.data).toMatchObject({ name: 'Net 15', due_days: 15, is_default: true });
    expect(ids((await co.get('policies?category=overfill').expect(200)).body.data)).toEqual([policyId]);
    const defaults = await co.get('pricing-profiles?is_default=true').expect(200);
    expect(ids(defaults.body.data)).toEqual([profile.standard]);
    const std = defaults.body.data[0];
    const price = (s: string) => std.items.find((i: Row) => i.asset_specification_id === s && i.waste_type_id === null)?.base_price_amount;
    expect([price(spec.yd10), price(spec.yd20), price(spec.yd30)]).toEqual([29900, 39900, 49900]);
    expect((await co.get('pricing-profiles').expect(200)).body.meta.total).toBe(2);
    const promo = (await co.get('promotions?q=spring').expect(200)).body;
    expect(promo.meta.total).toBe(1);
    expect(promo.data[0]).toMatchObject({ id: promotionId, code: 'SPRING20', max_redemptions_per_customer: 1 });

    const customers = await co.get('customers?sort=name').expect(200);
    expect(customers.body.data.map((c: Row) => [c.name, c.status])).toEqual([
      ['Bo Builders', 'active'],
      ['Cleo Homeowner', 'active'],
    ]);
    expect(customers.body.meta.total).toBe(2);
    // By phone, with its space: the e-mail addresses hold a timestamp, whose digits may contain "0300".
    expect(ids((await co.get('customers?q=555%200300').expect(200)).body.data)).toEqual([customer.cleo.id]);
    expect(ids((await co.get(`customers?pricing_profile_id=${profile.contractors}`).expect(200)).body.data)).toEqual([customer.bo.id]);
    expect((await co.get(`customer/${customer.cleo.id}`).expect(200)).body.data).toMatchObject({ name: 'Cleo Homeowner', email: customer.cleo.email, pricing_profile_id: null });

    const drivers = await co.get('drivers?sort=name').expect(200);
    expect(drivers.body.data.map((d: Row) => d.name)).toEqual(['Dee Driver', 'Eli Driver']);
    expect(drivers.body.meta.total).toBe(2);
    expect((await co.get(`driver/${driver.dee.id}`).expect(200)).body.data).toMatchObject({
      license_number: 'IL-D123-456',
      license_expires_on: '2029-01-31',
      hired_on: '2024-03-01',
      phone: '+1 555 0456',
      notes: 'CDL class B, prefers north routes',
    });
    expect(ids((await co.get('drivers?q=eli').expect(200)).body.data)).toEqual([driver.eli.id]);
  });

  it('8. a customer sees the active specifications with their waste types, the promotion\'s specifications and only its own addresses', async () => {
    for (const c of [customer.bo, customer.cleo]) {
      const catalogue = await call('get', 'customer/asset-specifications?sort=name', c.token).expect(200);
      expect(catalogue.body.meta.total).toBe(3);
      expect(catalogue.body.data.map((s: Row) => s.name)).toEqual(['10 yd roll-off', '20 yd roll-off', '30 yd roll-off']);
      for (const s of catalogue.body.data) {
        expect(s).toMatchObject({ asset_category: { id: categoryId, name: 'Roll-off' }, asset_style: { id: styleId, name: 'Open top' }, included_days: 7 });
        expect(s).not.toHaveProperty('active');
        expect(sorted(s.waste_types.map((w: Row) => w.id))).toEqual(sorted(specLinks[s.id]));
      }
    }
    const ten = (await call('get', `customer/asset-specifications/${spec.yd10}`, customer.cleo.token).expect(200)).body.data;
    expect(ten).toMatchObject({ name: '10 yd roll-off', size: 10, size_unit: 'yd3', max_weight_kg: 4500, included_weight_kg: 907 });
    expect(ten.waste_types.find((w: Row) => w.id === waste.concrete)).toMatchObject({ name: 'Concrete', code: 'CONC', price_override_amount: 4500, hazardous: false });
    expect(ten.waste_types.find((w: Row) => w.id === waste.general)).toMatchObject({ prohibited_items: ['paint', 'tires', 'batteries'], price_override_amount: null });
    await call('get', `customer/asset-specifications/${spec.yd40}`, customer.cleo.token).expect(404);
    const wastes = await call('get', 'customer/waste-types?sort=name', customer.cleo.token).expect(200);
    expect(wastes.body.data.map((w: Row) => w.code)).toEqual(['ASB', 'CONC', 'GEN', 'YARD']);

    // The promotion applies to 20 and 30 yd; the retired 40 yd is not shown.
    const promoSpecs = await call('get', `customer/promotions/${promotionId}/asset-specifications?sort=name`, customer.bo.token).expect(200);
    expect(promoSpecs.body.data.map((s: Row) => [s.id, s.name])).toEqual([
      [spec.yd20, '20 yd roll-off'],
      [spec.yd30, '30 yd roll-off'],
    ]);
    expect(promoSpecs.body.meta.total).toBe(2);

    const boAddresses = await call('get', 'customer/addresses?sort=created_at', customer.bo.token).expect(200);
    expect(boAddresses.body.data.map((a: Row) => [a.label, a.is_default])).toEqual([
      ['Elm St remodel', false],
      ['Oak Ave build', true],
    ]);
    expect(boAddresses.body.meta.total).toBe(2);
    const cleoAddresses = await call('get', 'customer/addresses', customer.cleo.token).expect(200);
    expect(cleoAddresses.body.data).toEqual([expect.objectContaining({ id: addresses.cleoHome, customer_id: customer.cleo.id, line1: '9 Maple Ct', is_default: true })]);
    // Another customer's address is not Cleo's to touch.
    await call('post', `customer/addresses/${addresses.boElm}/default`, customer.cleo.token).expect(404);
    await call('delete', `customer/addresses/${addresses.boElm}`, customer.cleo.token).expect(404);
    const profile = await call('get', 'customer/profile', customer.bo.token).expect(200);
    expect(profile.body.data).toMatchObject({ id: customer.bo.id, company_id: companyId, name: 'Bo Builders', billing_name: 'Bo Builders LLC' });
    expect(profile.body.data).not.toHaveProperty('notes');
    // Back-office lists stay closed to customers.
    expect((await call('get', 'assets', customer.bo.token).expect(403)).body.code).toBe('WRONG_ACTOR');
  });

  it('9. a driver of the company verifies the QR code of an asset', async () => {
    const made = await co.post('qr-codes', { asset_id: assets['RO20-002'].id }).expect(201);
    expect(made.body.data).toMatchObject({ asset_id: assets['RO20-002'].id, asset_code: 'RO20-002' });
    expect(made.body.data.svg).toMatch(/^<svg/);
    qr = { id: made.body.data.id, payload: made.body.data.payload };
    expect((await co.get(`qr-codes/${qr.id}`).expect(200)).body.data.payload).toBe(qr.payload);

    const scan = await call('post', 'qr-codes/verify', driver.eli.token, { payload: qr.payload }).expect(200);
    expect(scan.body.data).toMatchObject({
      qr_code_id: qr.id,
      asset: { id: assets['RO20-002'].id, code: 'RO20-002', asset_specification_id: spec.yd20, home_lot_id: lot.north, status: 'available', location_type: 'lot', location_id: lot.north },
      current_order: null,
    });
    // Customers cannot resolve it; drivers cannot read the back office.
    await call('post', 'qr-codes/verify', customer.bo.token, { payload: qr.payload }).expect(404);
    expect((await call('get', 'trucks', driver.eli.token).expect(403)).body.code).toBe('WRONG_ACTOR');
  });

  it('10. a second company sees none of it and cannot use its ids', async () => {
    const rival: CompanyActor = await companyActor(t, 'Rival Hauling');
    const rivalCustomer = await memberActor(t, rival, 'customer');
    const rivalDriver = await memberActor(t, rival, 'driver');
    const r = {
      get: (path: string) => call('get', path, rival.token),
      post: (path: string, body?: unknown) => call('post', path, rival.token, body),
      put: (path: string, body?: unknown) => call('put', path, rival.token, body),
      del: (path: string) => call('delete', path, rival.token),
    };

    // Its lists are empty.
    for (const path of ['lots', 'stations', 'waste-types', 'asset-categories', 'asset-styles', 'asset-specifications', 'assets', 'truck-types', 'trucks', 'taxes', 'payment-terms', 'policies', 'pricing-profiles', 'promotions']) {
      const res = await r.get(path).expect(200);
      expect({ path, total: res.body.meta.total }).toEqual({ path, total: 0 });
    }
    // Only its own customer and driver.
    expect(ids((await r.get('customers').expect(200)).body.data)).toEqual([rivalCustomer.id]);
    expect(ids((await r.get('drivers').expect(200)).body.data)).toEqual([rivalDriver.id]);

    // Every id of the first company is a 404 to it: reads, updates, deletes.
    // [show, update, a body valid for that update (a name unless the resource has none)]
    const owned: [string, string, Record<string, unknown>?][] = [
      [`lot/${lot.north}`, `lot/${lot.north}/update`],
      [`station/${station.transfer}`, `station/${station.transfer}/update`],
      [`waste-types/${waste.general}`, `waste-types/${waste.general}`],
      [`asset-categories/${categoryId}`, `asset-categories/${categoryId}`],
      [`asset-styles/${styleId}`, `asset-styles/${styleId}`],
      [`asset-specifications/${spec.yd20}`, `asset-specifications/${spec.yd20}`],
      [`assets/${assets['RO20-001'].id}`, `assets/${assets['RO20-001'].id}`, { notes: 'Mine now' }],
      [`truck-types/${truckTypeId}`, `truck-types/${truckTypeId}`],
      [`trucks/${trucks[0].id}`, `trucks/${trucks[0].id}`],
      [`taxes/${tax.state}`, `taxes/${tax.state}`],
      [`payment-terms/${termId}`, `payment-terms/${termId}`],
      [`policies/${policyId}`, `policies/${policyId}`],
      [`pricing-profiles/${profile.standard}`, `pricing-profiles/${profile.standard}`],
      [`promotions/${promotionId}`, `promotions/${promotionId}`],
      [`customer/${customer.bo.id}`, `customer/${customer.bo.id}/update`],
      [`driver/${driver.dee.id}`, `driver/${driver.dee.id}/update`],
    ];
    for (const [show, update, body = { name: 'Mine now' }] of owned) {
      expect({ show, status: (await r.get(show)).status }).toEqual({ show, status: 404 });
      expect({ update, status: (await r.put(update, body)).status }).toEqual({ update, status: 404 });
    }
    for (const path of [`lot/${lot.north}/delete`, `station/${station.transfer}/delete`, `assets/${assets['RO20-001'].id}`, `taxes/${tax.county}`, `promotions/${promotionId}`]) {
      expect({ path, status: (await r.del(path)).status }).toEqual({ path, status: 404 });
    }
    await r.get(`lot/${lot.north}/holidays`).expect(404);
    await r.get(`station/${station.transfer}/holidays`).expect(404);
    await r.put(`station/${station.transfer}/holidays`, { holidays: [] }).expect(404);
    await r.get(`asset-specifications/${spec.yd10}/waste-types`).expect(404);
    await r.post(`asset-specifications/${spec.yd10}/waste-types`, { waste_type_id: waste.general }).expect(404);
    await r.put(`assets/${assets['RO20-001'].id}/location`, { lat: 1, lng: 1, location_type: 'lot', location_id: lot.north }).expect(404);
    await r.put(`trucks/${trucks[0].id}/location`, { lat: 1, lng: 1 }).expect(404);
    await r.post(`customer/${customer.bo.id}/deactivate`).expect(404);
    await r.post(`driver/${driver.dee.id}/deactivate`).expect(404);
    await r.get(`qr-codes/${qr.id}`).expect(404);
    await call('post', 'qr-codes/verify', rival.token, { payload: qr.payload }).expect(404);
    await call('post', 'qr-codes/verify', rivalDriver.token, { payload: qr.payload }).expect(404);

    // Its customer cannot see the first company's catalogue or promotion.
    await call('get', `customer/asset-specifications/${spec.yd10}`, rivalCustomer.token).expect(404);
    await call('get', `customer/waste-types/${waste.general}`, rivalCustomer.token).expect(404);
    await call('get', `customer/promotions/${promotionId}/asset-specifications`, rivalCustomer.token).expect(404);
    expect((await call('get', 'customer/asset-specifications', rivalCustomer.token).expect(200)).body.meta.total).toBe(0);
    await call('post', `customer/addresses/${addresses.boElm}/default`, rivalCustomer.token).expect(404);
    await call('delete', `customer/addresses/${addresses.boElm}`, rivalCustomer.token).expect(404);

    // The first company's ids inside its own bodies are refused as "not found" (422).
    const refused = async (path: string, body: unknown, field: string, method: 'post' | 'put' = 'post') => {
      const res = await call(method, path, rival.token, body);
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    };
    const rivalCategory = (await r.post('asset-categories', { name: 'Roll-off' }).expect(201)).body.data.id;
    const rivalSpec = (await r.post('asset-specifications', { name: '20 yd roll-off', asset_category_id: rivalCategory, size: 20, size_unit: 'yd3' }).expect(201)).body.data.id;
    const rivalWaste = (await r.post('waste-types', { name: 'General debris', code: 'GEN' }).expect(201)).body.data.id;
    const rivalType = (await r.post('truck-types', { name: 'Hoist', asset_specification_ids: [rivalSpec] }).expect(201)).body.data.id;
    const rivalAsset = (await r.post('assets', { code: 'RV-1', asset_specification_id: rivalSpec }).expect(201)).body.data.id;

    await refused('asset-specifications', { name: 'Copy', asset_category_id: categoryId, size: 10, size_unit: 'yd3' }, 'asset_category_id');
    await refused('asset-specifications', { name: 'Copy', asset_category_id: rivalCategory, asset_style_id: styleId, size: 10, size_unit: 'yd3' }, 'asset_style_id');
    await refused(`asset-specifications/${rivalSpec}/waste-types`, { waste_type_id: waste.general }, 'waste_type_id');
    await refused('assets', { code: 'RV-2', asset_specification_id: spec.yd20 }, 'asset_specification_id');
    await refused('assets', { code: 'RV-2', asset_specification_id: rivalSpec, home_lot_id: lot.north }, 'home_lot_id');
    await refused(`assets/${rivalAsset}/location`, { lat: 39.83, lng: -89.65, location_type: 'lot', location_id: lot.north }, 'location_id', 'put');
    await refused('station/create', { name: 'Borrowed', waste_type_ids: [rivalWaste, waste.concrete] }, 'waste_type_ids');
    await refused('truck-types', { name: 'Borrowed', asset_specification_ids: [spec.yd30] }, 'asset_specification_ids.0');
    await refused('trucks', { plate: 'RV-TRK', truck_type_id: truckTypeId }, 'truck_type_id');
    await refused('trucks', { plate: 'RV-TRK', truck_type_id: rivalType, home_lot_id: lot.south }, 'home_lot_id');
    await refused('pricing-profiles', { name: 'Borrowed', items: [{ asset_specification_id: spec.yd20, base_price_amount: 1 }] }, 'items.0.asset_specification_id');
    await refused('pricing-profiles', { name: 'Borrowed', items: [{ asset_specification_id: rivalSpec, waste_type_id: waste.concrete, base_price_amount: 1 }] }, 'items.0.waste_type_id');
    await refused('promotions/create', { code: 'STEAL', name: 'x', discount_type: 'fixed', discount_value: 100, asset_specification_ids: [spec.yd20] }, 'asset_specification_ids.0');
    await refused('qr-codes', { asset_id: assets['RO30-001'].id }, 'asset_id');
    await refused(`customer/${rivalCustomer.id}/update`, { pricing_profile_id: profile.standard }, 'pricing_profile_id', 'put');

    // Nothing of the first company changed.
    expect((await co.get(`lot/${lot.north}`).expect(200)).body.data.name).toBe('North yard');
    expect((await co.get(`customer/${customer.bo.id}`).expect(200)).body.data).toMatchObject({ name: 'Bo Builders', status: 'active' });
    expect((await co.get('assets').expect(200)).body.meta.total).toBe(8);
    expect((await co.get(`station/${station.transfer}/holidays`).expect(200)).body.meta.total).toBe(3);
    expect((await co.get(`promotions/${promotionId}`).expect(200)).body.data.active).toBe(true);
  });
});
