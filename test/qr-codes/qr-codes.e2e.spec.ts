import { CompanyActor, MemberActor, memberActor } from '../support/actors';
import { Cast, startWithCast } from '../support/fixtures';

describe('QR codes (/api/v1/qr-codes*)', () => {
  let { t, co, other, customer, driver } = {} as Cast;
  let otherDriver: MemberActor;
  let assetId: string;
  let foreignAssetId: string;

  async function asset(company: CompanyActor, code: string): Promise<string> {
    const cat = (await t.req('post', '/api/v1/asset-categories', { token: company.token, body: { name: `Cat ${code}` } }).expect(201)).body.data.id;
    const spec = (await t.req('post', '/api/v1/asset-specifications', { token: company.token, body: { name: `Spec ${code}`, asset_category_id: cat, size: 20, size_unit: 'yd3' } }).expect(201)).body.data.id;
    return (await t.req('post', '/api/v1/assets', { token: company.token, body: { code, asset_specification_id: spec } }).expect(201)).body.data.id;
  }
  const make = (token: string, body: unknown) => t.req('post', '/api/v1/qr-codes', { token, body });
  const verify = (token: string | undefined, body: unknown) => t.req('post', '/api/v1/qr-codes/verify', { token, body });

  beforeAll(async () => {
    ({ t, co, other, customer, driver } = await startWithCast({ co: 'Acme', other: 'Other' }));
    otherDriver = await memberActor(t, other, 'driver');
    assetId = await asset(co, 'RO-1');
    foreignAssetId = await asset(other, 'RO-X');
  });
  afterAll(async () => t?.close());

  it('makes a QR code with a signed payload and an SVG image, and shows it again', async () => {
    const res = await make(co.token, { asset_id: assetId }).expect(201);
    expect(res.body.data).toMatchObject({ id: expect.any(String), asset_id: assetId, asset_code: 'RO-1', payload: expect.stringMatching(/^HQ1\.[\w-]+\.[\w-]+$/) });
    expect(res.body.data.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const shown = await t.req('get', `/api/v1/qr-codes/${res.body.data.id}`, { token: co.token }).expect(200);
    expect(shown.body.data).toMatchObject({ id: res.body.data.id, payload: res.body.data.payload, svg: res.body.data.svg });
    const [event] = await t.ds.query(`SELECT type FROM outbox_events WHERE type = 'qr_code.created' AND aggregate_id = $1`, [assetId]);
    expect(event).toBeDefined();
  });

  it('verifies a scan for the company user and its drivers: the asset and its current order', async () => {
    const { payload, id } = (await make(co.token, { asset_id: assetId }).expect(201)).body.data;
    for (const token of [co.token, driver.token]) {
      const res = await verify(token, { payload }).expect(200);
      expect(res.body.data).toMatchObject({ qr_code_id: id, asset: { id: assetId, code: 'RO-1', status: 'available' }, current_order: null });
    }
  });

  it('answers 404 to another company, a customer, a forged or altered payload, and a deleted asset', async () => {
    const { payload } = (await make(co.token, { asset_id: assetId }).expect(201)).body.data;
    expect((await verify(other.token, { payload }).expect(404)).body.code).toBe('NOT_FOUND');
    await verify(otherDriver.token, { payload }).expect(404);
    await verify(customer.token, { payload }).expect(404);
    const [prefix, body, sig] = payload.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, a: foreignAssetId })).toString('base64url');
    await verify(co.token, { payload: `${prefix}.${forged}.${sig}` }).expect(404);
    await verify(co.token, { payload: `${prefix}.${body}.${sig.slice(0, -2)}xx` }).expect(404);
    await verify(co.token, { payload: 'hello world' }).expect(404);

    const gone = await asset(co, 'RO-GONE');
    const goneQr = (await make(co.token, { asset_id: gone }).expect(201)).body.data;
    await t.req('delete', `/api/v1/assets/${gone}`, { token: co.token }).expect(200);
    await verify(co.token, { payload: goneQr.payload }).expect(404);
    await t.req('get', `/api/v1/qr-codes/${goneQr.id}`, { token: co.token }).expect(404);
  });

  it('validates input with 422', async () => {
    expect((await make(co.token, { asset_id: foreignAssetId }).expect(422)).body.errors).toEqual({ asset_id: ['not found'] });
    expect((await make(co.token, { asset_id: 'nope' }).expect(422)).body.errors).toHaveProperty('asset_id');
    expect((await make(co.token, {}).expect(422)).body.errors).toHaveProperty('asset_id');
    expect((await verify(co.token, { payload: '' }).expect(422)).body.errors).toHaveProperty('payload');
    expect((await verify(co.token, { payload: 42, extra: 1 }).expect(422)).body.errors).toHaveProperty('extra');
  });

  it('hides another company\'s QR code (404) and applies the access rules', async () => {
    const foreign = (await make(other.token, { asset_id: foreignAssetId }).expect(201)).body.data.id;
    await t.req('get', `/api/v1/qr-codes/${foreign}`, { token: co.token }).expect(404);
    await t.req('get', '/api/v1/qr-codes/not-a-uuid', { token: co.token }).expect(404);
    expect((await make(driver.token, { asset_id: assetId }).expect(403)).body.code).toBe('WRONG_ACTOR');
    await make(customer.token, { asset_id: assetId }).expect(403);
    await t.req('get', `/api/v1/qr-codes/${foreign}`, { token: driver.token }).expect(403);
    await t.req('post', '/api/v1/qr-codes', { body: { asset_id: assetId } }).expect(401);
    await verify(undefined, { payload: 'x' }).expect(401);
  });
});
