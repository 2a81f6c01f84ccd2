import { CompanyActor, companyActor, MemberActor, memberActor } from './actors';
import { startTestApp, TestApp } from './test-app';

/** A well-formed id that names nothing (404 / 422 "not found"). */
export const ABSENT_ID = '00000000-0000-4000-8000-000000000000';

/** The usual cast of an e2e file: the app, a company with a customer and a driver, and a second company. */
export interface Cast {
  t: TestApp;
  co: CompanyActor;
  other: CompanyActor;
  customer: MemberActor;
  driver: MemberActor;
}

/**
 * Starts an app with its cast, for a file's `beforeAll`:
 * `beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast()));`
 */
export async function startWithCast(names: { co?: string; other?: string } = {}, options: Parameters<typeof startTestApp>[0] = {}): Promise<Cast> {
  const t = await startTestApp(options);
  const co = await companyActor(t, names.co ?? 'Acme Hauling');
  const other = await companyActor(t, names.other ?? 'Other Hauling');
  const customer = await memberActor(t, co, 'customer');
  const driver = await memberActor(t, co, 'driver');
  return { t, co, other, customer, driver };
}

// Rows other modules own, inserted directly (the module under test only references them).

/** An asset specification (20 yd3, with its own category) of a company. */
export async function insertSpec(t: TestApp, companyId: string, name: string, active = true): Promise<string> {
  const [cat] = await t.ds.query(`INSERT INTO asset_categories (company_id, name) VALUES ($1, $2) RETURNING id`, [companyId, `Cat ${name}`]);
  const [s] = await t.ds.query(`INSERT INTO asset_specifications (company_id, name, asset_category_id, size, size_unit, active) VALUES ($1, $2, $3, 20, 'yd3', $4) RETURNING id`, [
    companyId,
    name,
    cat.id,
    active,
  ]);
  return s.id;
}

export async function insertWasteType(t: TestApp, companyId: string, code: string, name = code): Promise<string> {
  const [w] = await t.ds.query(`INSERT INTO waste_types (company_id, name, code) VALUES ($1, $2, $3) RETURNING id`, [companyId, name, code]);
  return w.id;
}

export async function insertLot(t: TestApp, companyId: string, name: string, at?: { lat: number; lng: number }): Promise<string> {
  const [l] = await t.ds.query(`INSERT INTO lots (company_id, name, latitude, longitude) VALUES ($1, $2, $3, $4) RETURNING id`, [companyId, name, at?.lat ?? null, at?.lng ?? null]);
  return l.id;
}

/**
 * Checks the company's driver in (what `DR-IN` routes need: an open attendance): a truck type and a truck
 * at a new lot, then `POST /driver/check-in` with it.
 */
export async function checkInDriver(t: TestApp, co: CompanyActor, driver: MemberActor): Promise<void> {
  const specId = await insertSpec(t, co.companyId, `Check-in spec ${Date.now()}`);
  const lotId = await insertLot(t, co.companyId, 'Check-in lot', { lat: 40.0, lng: -89.0 });
  const post = async (path: string, body: unknown) => (await t.req('post', `/api/v1/${path}`, { token: co.token, body }).expect(201)).body.data;
  const type = await post('truck-types', { name: 'Check-in hoist', capacity_kg: 15000, asset_specification_ids: [specId] });
  const truck = await post('trucks', { plate: `CK-${String(Date.now()).slice(-6)}`, name: 'Check-in truck', truck_type_id: type.id, home_lot_id: lotId });
  await t.req('post', '/api/v1/driver/check-in', { token: driver.token, body: { lat: 40.0, lng: -89.0, truck_id: truck.id } }).expect(201);
}
