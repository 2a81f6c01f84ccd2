import { DataSource } from 'typeorm';
import { Scope } from '../../../src/common/access/scope';
import { findScoped, scopedQuery, scopeWhere } from '../../../src/common/access/tenant-policy';
import { Order } from '../../../src/modules/orders/order.entity';
import { Job } from '../../../src/modules/jobs/job.entity';
import { WasteType } from '../../../src/modules/catalogue/catalogue.entities';
import { ABSENT_ID } from '../../support/fixtures';
import { orderWorld, placeOrder, type OrderWorld } from '../../support/order-fixtures';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The one tenant policy (src/common/access/scope.ts, tenant-policy.ts): which rows a company, a
 * customer and a driver reach, the 403 for a caller without a live company, and that every entity
 * owned by a company declares its rule. The route-by-route sweep is tenant-isolation.e2e.spec.ts.
 */
describe('tenant policy', () => {
  let t: TestApp;
  let ds: DataSource;
  let w: OrderWorld;
  let order: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.ds;
    w = await orderWorld(t, { name: 'Policy Co' });
    order = await placeOrder(t, w);
  });
  afterAll(async () => t?.close());

  it('declares a rule on every entity with a company column', () => {
    const missing = ds.entityMetadatas
      .filter((meta) => meta.findColumnWithPropertyName('companyId'))
      .filter((meta) => {
        try {
          scopeWhere(ds.manager, meta.target as never, Scope.company(ABSENT_ID));
          return false;
        } catch {
          return true;
        }
      })
      .map((meta) => meta.tableName);
    // Platform tables keyed by company but not a tenant's records: the outbox and idempotency keys.
    expect(missing.filter((name) => !['outbox_events', 'idempotency_keys', 'mail_messages'].includes(name))).toEqual([]);
  });

  it('gives the company all its rows, a customer only theirs, a driver none of the orders', async () => {
    const company = Scope.company(w.company.companyId);
    const customer = Scope.customer(w.company.companyId, w.customer.id);
    const other = Scope.customer(w.company.companyId, ABSENT_ID);
    expect((await findScoped(ds.manager, Order, company, order.id, { what: 'Order' })).id).toBe(order.id);
    expect((await findScoped(ds.manager, Order, customer, order.id, { what: 'Order' })).id).toBe(order.id);
    await expect(findScoped(ds.manager, Order, other, order.id, { what: 'Order' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(findScoped(ds.manager, Order, Scope.company(ABSENT_ID), order.id, { what: 'Order' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await scopedQuery(ds.manager, Order, other, 'o').getCount()).toBe(0);
    expect(await scopedQuery(ds.manager, Order, customer, 'o').getCount()).toBe(1);
    // Shared records (the catalogue) are the company's for its customers too; never another company's.
    expect(await scopedQuery(ds.manager, WasteType, customer, 'w').getCount()).toBe(2);
    expect(await scopedQuery(ds.manager, WasteType, Scope.company(ABSENT_ID), 'w').getCount()).toBe(0);
  });

  it('limits drivers to their own jobs and refuses customers jobs', async () => {
    await t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }).expect(200);
    const driverScope = Scope.of({ kind: 'user', id: w.driver.id, type: 'driver', companyId: w.company.companyId } as never);
    expect(driverScope.driverId).toBe(w.driver.id);
    expect(await scopedQuery(ds.manager, Job, Scope.company(w.company.companyId), 'j').getCount()).toBe(1);
    expect(await scopedQuery(ds.manager, Job, driverScope, 'j').getCount()).toBe(0);
    expect(await scopedQuery(ds.manager, Job, Scope.customer(w.company.companyId, w.customer.id), 'j').getCount()).toBe(0);
    expect(scopeWhere(ds.manager, Order, driverScope)).toBeNull();
  });

  it('answers 403 NO_COMPANY, never an unscoped query, when a member\'s company is gone', async () => {
    const gone = await orderWorld(t, { name: 'Gone Co' });
    const placed = await placeOrder(t, gone);
    await ds.query(`UPDATE companies SET deleted_at = now() WHERE id = $1`, [gone.company.companyId]);
    for (const [token, path] of [
      [gone.customer.token, '/api/v1/customer/orders'],
      [gone.customer.token, `/api/v1/customer/order/${placed.id}`],
      [gone.customer.token, `/api/v1/orders/${placed.id}/details`],
      [gone.driver.token, `/api/v1/orders/${placed.id}/details`],
      [gone.company.token, '/api/v1/orders'],
    ] as const) {
      const res = await t.req('get', path, { token }).expect(403);
      expect(res.body).toMatchObject({ success: false, code: 'NO_COMPANY' });
    }
    // The account itself still works.
    await t.req('get', '/api/v1/auth/me', { token: gone.customer.token }).expect(200);
    expect(() => Scope.of({ kind: 'user', id: gone.customer.id, type: 'customer', companyId: null } as never)).toThrow(expect.objectContaining({ code: 'NO_COMPANY' }));
    expect(() => Scope.of({ kind: 'admin', id: ABSENT_ID, type: 'admin', companyId: null } as never)).toThrow(expect.objectContaining({ code: 'WRONG_ACTOR' }));
  });

  it('says so when active lots exist but none has a position (NO_SERVING_LOT)', async () => {
    const v = await orderWorld(t, { name: 'Unplaced Co' });
    await t.ds.query(`UPDATE lots SET latitude = NULL, longitude = NULL WHERE company_id = $1`, [v.company.companyId]);
    const res = await t.req('post', '/api/v1/customer/order/billing', { token: v.customer.token, body: { address_id: v.addressId, asset_specification_id: v.specId, waste_type_id: v.wasteId, delivery_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) } }).expect(422);
    expect(res.body).toMatchObject({ code: 'NO_SERVING_LOT', message: expect.stringMatching(/no active lot has a position/i) });
    await t.ds.query(`UPDATE lots SET active = false WHERE company_id = $1`, [v.company.companyId]);
    const none = await t.req('post', '/api/v1/customer/order/billing', { token: v.customer.token, body: { address_id: v.addressId, asset_specification_id: v.specId, waste_type_id: v.wasteId, delivery_date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) } }).expect(422);
    expect(none.body).toMatchObject({ code: 'NO_SERVING_LOT', message: expect.stringMatching(/no active lot to deliver from/i) });
    const doc = (await t.req('get', '/api/documentation-json').expect(200)).body;
    for (const path of ['/api/v1/customer/orders', '/api/v1/customer/order/billing']) {
      expect(doc.paths[path].post.responses['422'].description).toContain('`NO_SERVING_LOT`');
    }
  });
});
