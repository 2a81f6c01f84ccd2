import { addAsset, assignOrder, coPost, dispatchWorld, inDays, type DispatchWorld } from '../support/dispatch-fixtures';
import { placeOrder } from '../support/order-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A day booked beyond the containers before the specification refused (no container of it recorded yet,
 * so nothing was counted): once one container is recorded, the first order assigned gets it and the next
 * is refused; the overbooking does not refuse every order (1764800700000-PinWhatIsHeld).
 */
describe('container calendar: an overbooked day at assignment', () => {
  let t: TestApp;
  let w: DispatchWorld;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { name: 'Overbooked Hauling', assets: 0, settings: { order_lead_time_days: 0 } });
  });
  afterAll(() => t.close());

  it('gives the free container to the first order assigned and refuses the next with 409', async () => {
    const a = await placeOrder(t, w, { delivery_date: inDays(0) });
    const b = await placeOrder(t, w, { delivery_date: inDays(0) });
    for (const o of [a, b]) await coPost(t, w, `approve/order/${o.id}`, {}, 200, 'patch');
    const asset = await addAsset(t, w, 'OVER-001');
    // The day is overbooked now: 2 holds, 1 container; a new order for it is refused at once.
    const refused = await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: inDays(0) } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('NO_CONTAINER_AVAILABLE');

    const jobs = await assignOrder(t, w, a.id);
    expect(jobs.find((j) => j.type === 'delivery')?.asset_id).toBe(asset);
    const second = await t.req('post', `/api/v1/driver/assign/${b.id}`, { token: w.company.token, body: { driver_id: w.driver.id, truck_id: w.truckId } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'NO_CONTAINER_AVAILABLE', details: { asset_specification_id: w.specId, dates: [inDays(0)] } });

    // A second container: the other order goes out too.
    const another = await addAsset(t, w, 'OVER-002');
    const later = await assignOrder(t, w, b.id);
    expect(later.find((j) => j.type === 'delivery')?.asset_id).toBe(another);
  });
});
