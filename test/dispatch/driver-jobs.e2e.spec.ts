import { MemberActor, memberActor } from '../support/actors';
import { assetState, approvedOrder, assignJob, changeJob, driverWorld, DriverWorld, orderJobs, uploadPng } from '../support/driver-fixtures';
import { ABSENT_ID } from '../support/fixtures';
import { inDays } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Dispatch, the driver's side: the day list, one job, start, evidence (photo, QR scan, station ticket),
 * completion of every job type with the asset's states and history, the order's moves and the final
 * bill, a swap made by route collapse with its merged pickup, and the refusals (access, another driver's
 * or company's job, bad input, on a break, wrong state, missing photo or ticket).
 * Jobs are assigned with the test-only `assignJob` (test/support/driver-fixtures.ts).
 */
describe('Driver jobs: the day, start, evidence, completion', () => {
  let t: TestApp;
  let w: DriverWorld;
  let other: DriverWorld;
  let driver2: MemberActor;
  let mediaId: string;

  const dr = (method: 'get' | 'post', path: string, body?: unknown, token = w.driver.token) => t.req(method, `/api/v1/driver/${path}`, { token, body });
  const co = (method: 'get' | 'post' | 'patch', path: string, body?: unknown, token = w.company.token) => t.req(method, `/api/v1/${path}`, { token, body });
  const photo = (jobId: string) => dr('post', `jobs/${jobId}/evidence`, { kind: 'photo', media_id: mediaId, note: 'At the drop spot', lat: 40.18, lng: -89.0 }).expect(201);
  const ticket = (jobId: string, gross = 15400, tare = 11900, stationId = w.stationId) =>
    dr('post', `jobs/${jobId}/evidence`, { kind: 'ticket', station_id: stationId, ticket_number: `T-${gross}-${tare}`, gross_kg: gross, tare_kg: tare });
  const order = async (id: string) => (await co('get', `order/${id}`).expect(200)).body.data;
  const code = (res: { body: Row }) => res.body.code;
  /** Delivers an approved order end to end; returns the asset put on site. */
  const deliver = async (o: { delivery: string }) => {
    const assetId = (await assignJob(t, w, o.delivery))!;
    await dr('post', `jobs/${o.delivery}/start`).expect(200);
    await photo(o.delivery);
    await dr('post', `jobs/${o.delivery}/complete`).expect(200);
    return assetId;
  };
  /** A change request (swap, dump_return, relocate) asked by the customer and approved: returns the new job's id. */
  const changeRequestJob = async (orderId: string, body: Row) => {
    const before = new Set((await orderJobs(t, w, orderId)).map((j) => j.id));
    const cr = await t.req('post', `/api/v1/customer/orders/${orderId}/order-change-requests`, { token: w.customer.token, body }).expect(201);
    await co('patch', `order-change-requests/${cr.body.data.id}/approve`).expect(200);
    return (await orderJobs(t, w, orderId)).find((j) => !before.has(j.id))!.id;
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await driverWorld(t, 'Driver Co');
    other = await driverWorld(t, 'Other Co');
    driver2 = await memberActor(t, w.company, 'driver');
    mediaId = await uploadPng(t);
  });
  afterAll(async () => t?.close());

  it('a delivery: listed in my day, started (asset in transit on the truck), photo and QR scan, completed (asset on site, order delivered today)', async () => {
    const o = await approvedOrder(t, w);
    expect((await dr('get', 'jobs').expect(200)).body.data).toEqual([]);
    // Assigned by the company's route (the other tests use the test-only assignJob).
    await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: w.truckId, date: w.today }).expect(200);
    const assetId = (await orderJobs(t, w, o.id)).find((j) => j.id === o.delivery)!.asset_id!;
    expect(assetId).toEqual(expect.any(String));

    const day = await dr('get', 'jobs').expect(200);
    expect(day.body.meta).toMatchObject({ total: 1, page: 1 });
    expect(day.body.data[0]).toMatchObject({
      id: o.delivery,
      order_id: o.id,
      order_number: o.number,
      type: 'delivery',
      status: 'assigned',
      scheduled_date: w.today,
      truck_id: w.truckId,
      asset: { id: assetId, code: expect.stringMatching(/^RO20-/), status: 'reserved' },
      address: { line1: '1 Site Rd', latitude: 40.18, longitude: -89.0 },
      specification: { id: w.specId, name: '20 yd roll-off' },
      waste_type: { id: w.wasteId, name: 'General debris' },
      merged_jobs: [],
      last_location: null,
    });
    expect((await dr('get', `jobs?date=${inDays(1)}`).expect(200)).body.data).toEqual([]);
    expect((await dr('get', `jobs?date=${w.today}`).expect(200)).body.data).toHaveLength(1);

    const detail = await dr('get', `jobs/${o.delivery}`).expect(200);
    expect(detail.body.data).toMatchObject({ id: o.delivery, evidence: [], open_issues: [], ticket: null, on_site_asset: null, destination_address: null, missing: ['photo'] });

    // Wrong state before the start: completion is INVALID_TRANSITION, evidence JOB_STATE.
    expect(code(await dr('post', `jobs/${o.delivery}/complete`).expect(409))).toBe('INVALID_TRANSITION');
    expect(code(await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(409))).toBe('JOB_STATE');

    const started = await dr('post', `jobs/${o.delivery}/start`).expect(200);
    expect(started.body.data).toMatchObject({ status: 'in_progress', asset: { id: assetId, status: 'in_transit' } });
    expect(started.body.data.started_at).not.toBeNull();
    expect(await assetState(t, w, assetId)).toMatchObject({ status: 'in_transit', location_type: 'truck', location_id: w.truckId });
    expect(code(await dr('post', `jobs/${o.delivery}/start`).expect(409))).toBe('INVALID_TRANSITION');

    // No photo yet.
    expect(code(await dr('post', `jobs/${o.delivery}/complete`).expect(409))).toBe('EVIDENCE_REQUIRED');
    // Evidence that does not fit its kind, an unknown upload, a ticket on a delivery: 422.
    const bad = async (body: Row, field: string) => expect((await dr('post', `jobs/${o.delivery}/evidence`, body).expect(422)).body.errors).toHaveProperty([field]);
    await bad({ kind: 'photo' }, 'media_id');
    await bad({ kind: 'photo', media_id: mediaId, url: 'https://files.example.test/a.jpg' }, 'url');
    await bad({ kind: 'photo', media_id: ABSENT_ID }, 'media_id');
    await bad({ kind: 'photo', url: 'ftp://files.example.test/a.jpg' }, 'url');
    await bad({ kind: 'photo', url: 'https://files.example.test/a.jpg', code: 'x' }, 'code');
    await bad({ kind: 'qr_scan' }, 'code');
    await bad({ kind: 'selfie', url: 'https://files.example.test/a.jpg' }, 'kind');
    await bad({ kind: 'photo', url: 'https://files.example.test/a.jpg', lat: 40.1 }, 'lng');
    await bad({ kind: 'photo', url: 'https://files.example.test/a.jpg', extra: 1 }, 'extra');
    await bad({ kind: 'ticket', station_id: w.stationId, ticket_number: 'T-1', gross_kg: 15000, tare_kg: 11000 }, 'kind');
    // QR scans: another asset's code, a code that is no code of the company, another company's code.
    const mismatch = await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'qr_scan', code: w.qr.get(w.assetIds.find((a) => a !== assetId)!) }).expect(422);
    expect(mismatch.body).toMatchObject({ code: 'QR_MISMATCH', errors: { code: [expect.any(String)] } });
    await bad({ kind: 'qr_scan', code: 'HQ1.not.genuine' }, 'code');
    await bad({ kind: 'qr_scan', code: other.qr.get(other.assetIds[0]) }, 'code');

    const scan = await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'qr_scan', code: w.qr.get(assetId) }).expect(201);
    expect(scan.body.data).toMatchObject({ kind: 'qr_scan', code: w.qr.get(assetId), media_id: null, url: null, ticket: null });
    const shot = await photo(o.delivery);
    expect(shot.body.data).toMatchObject({ job_id: o.delivery, kind: 'photo', media_id: mediaId, url: `/api/v1/media/${mediaId}`, note: 'At the drop spot', lat: 40.18, lng: -89.0 });
    const byUrl = await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'signature', url: 'https://files.example.test/sig.png' }).expect(201);
    expect(byUrl.body.data).toMatchObject({ kind: 'signature', media_id: null, url: 'https://files.example.test/sig.png' });
    expect((await dr('get', `jobs/${o.delivery}`).expect(200)).body.data).toMatchObject({ missing: [], evidence: [{ kind: 'qr_scan' }, { kind: 'photo' }, { kind: 'signature' }] });

    const done = await dr('post', `jobs/${o.delivery}/complete`).expect(200);
    expect(done.body.data).toMatchObject({ status: 'completed', asset: { id: assetId, status: 'on_site' } });
    expect(done.body.data.completed_at).not.toBeNull();
    expect(code(await dr('post', `jobs/${o.delivery}/complete`).expect(409))).toBe('INVALID_TRANSITION');
    expect(code(await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(409))).toBe('JOB_STATE');

    const placed = await order(o.id);
    expect(placed).toMatchObject({ status: 'delivered', delivered_on: w.today });
    const asset = await assetState(t, w, assetId);
    expect(asset).toMatchObject({ status: 'on_site', location_type: 'customer_address', location_id: placed.address_id });
    expect(asset.history.map((h) => [h.from, h.to, h.location_type, h.job_id])).toEqual([
      ['available', 'reserved', null, o.delivery],
      ['reserved', 'in_transit', 'truck', o.delivery],
      ['in_transit', 'on_site', 'customer_address', o.delivery],
    ]);
    // The job's moves are recorded with the driver as actor.
    const moves = await t.ds.query(`SELECT from_status, to_status, actor_id FROM job_status_history WHERE job_id = $1 ORDER BY created_at`, [o.delivery]);
    expect(moves.slice(1)).toEqual([
      { from_status: 'assigned', to_status: 'in_progress', actor_id: w.driver.id },
      { from_status: 'in_progress', to_status: 'completed', actor_id: w.driver.id },
    ]);
  });

  it('a pickup weighed over the allowance: station ticket checks, asset at the station then back at the lot, the order completed with its final bill', async () => {
    const o = await approvedOrder(t, w);
    const assetId = await deliver(o);
    // The container was really delivered 12 days ago: 12 − 7 included days = 5 extra days, 3 of them billed at placement (pickup planned 10 days after delivery).
    await t.ds.query(`UPDATE orders SET delivered_on = $2 WHERE id = $1`, [o.id, inDays(-12)]);
    await assignJob(t, w, o.pickup!);
    const started = await dr('post', `jobs/${o.pickup}/start`).expect(200);
    expect(started.body.data).toMatchObject({ status: 'in_progress', asset: null, on_site_asset: { id: assetId, status: 'on_site' }, missing: ['station_ticket'] });
    expect(code(await dr('post', `jobs/${o.pickup}/complete`).expect(409))).toBe('TICKET_REQUIRED');

    // Ticket checks: another company's station, a station not accepting the waste, one on holiday today, net ≤ 0, missing fields.
    expect((await ticket(o.pickup!, 15400, 11900, other.stationId).expect(422)).body.errors).toEqual({ station_id: ['not found'] });
    expect(code(await ticket(o.pickup!, 15400, 11900, w.otherStationId).expect(422))).toBe('WASTE_NOT_ACCEPTED');
    const closed = await co('post', 'station/create', { name: 'Closed today', latitude: 40.2, longitude: -89.1, dump_cost_per_tonne_amount: 5000, waste_type_ids: [w.wasteId] }).expect(201);
    await co('post', `station/${closed.body.data.id}/holidays`, { date: w.today, name: 'Inventory day' }).expect(201);
    expect((await ticket(o.pickup!, 15400, 11900, closed.body.data.id).expect(422)).body).toMatchObject({ code: 'HOLIDAY', errors: { station_id: [expect.any(String)] } });
    expect((await ticket(o.pickup!, 11900, 11900).expect(422)).body.errors).toHaveProperty('tare_kg');
    expect((await dr('post', `jobs/${o.pickup}/evidence`, { kind: 'ticket', station_id: w.stationId }).expect(422)).body.errors).toMatchObject({ ticket_number: [expect.any(String)], gross_kg: [expect.any(String)], tare_kg: [expect.any(String)] });
    expect((await dr('post', `jobs/${o.pickup}/evidence`, { kind: 'ticket', station_id: w.stationId, ticket_number: 'T', gross_kg: 1.5, tare_kg: -1 }).expect(422)).body.errors).toMatchObject({ gross_kg: [expect.any(String)], tare_kg: [expect.any(String)] });

    // A first ticket, then a corrected one that replaces it (both stay as evidence).
    const first = await ticket(o.pickup!, 14900, 11900).expect(201);
    expect(first.body.data.ticket).toMatchObject({ station_id: w.stationId, gross_kg: 14900, tare_kg: 11900, net_kg: 3000 });
    const second = await ticket(o.pickup!, 15400, 11900).expect(201);
    expect(second.body.data.ticket).toMatchObject({ id: first.body.data.ticket.id, gross_kg: 15400, net_kg: 3500 });
    const detail = (await dr('get', `jobs/${o.pickup}`).expect(200)).body.data;
    expect(detail).toMatchObject({ missing: [], ticket: { net_kg: 3500, ticket_number: 'T-15400-11900' } });
    expect(detail.evidence.map((e: Row) => e.ticket?.net_kg ?? null)).toEqual([null, 3500]);

    const before = await order(o.id);
    const done = await dr('post', `jobs/${o.pickup}/complete`).expect(200);
    expect(done.body.data).toMatchObject({ status: 'completed', removed_asset_id: assetId, on_site_asset: null });

    const asset = await assetState(t, w, assetId);
    expect(asset).toMatchObject({ status: 'available', location_type: 'lot', location_id: w.lotId });
    expect(asset.history.slice(-2).map((h) => [h.from, h.to, h.location_type, h.location_id, h.job_id])).toEqual([
      ['on_site', 'at_station', 'station', w.stationId, o.pickup],
      ['at_station', 'available', 'lot', w.lotId, o.pickup],
    ]);

    const after = await order(o.id);
    expect(after.status).toBe('completed');
    const added = after.lines.slice(before.lines.length);
    // 3500 kg net − 2000 kg included = 1500 kg at 9000 per tonne; 2 more extra days at 1500; tax 8.25 % on both.
    expect(added).toEqual([
      expect.objectContaining({ kind: 'extra_days', quantity: 2, amount: 3000 }),
      expect.objectContaining({ kind: 'overage', amount: 13500 }),
      expect.objectContaining({ kind: 'tax', amount: 1361 }),
    ]);
    expect(after.total_amount).toBe(before.total_amount + 3000 + 13500 + 1361);
  });

  it('swap, dump-return and relocation (from change requests): the new asset on site and the old one back at the lot; the same asset dumped and back; moved to the new address', async () => {
    const o = await approvedOrder(t, w);
    const first = await deliver(o);

    const swap = await changeRequestJob(o.id, { type: 'swap', date: w.today });
    const second = (await assignJob(t, w, swap))!;
    expect(second).not.toBe(first);
    expect((await dr('post', `jobs/${swap}/start`).expect(200)).body.data).toMatchObject({ type: 'swap', asset: { id: second, status: 'in_transit' }, on_site_asset: { id: first }, missing: ['station_ticket'] });
    expect(code(await dr('post', `jobs/${swap}/complete`).expect(409))).toBe('TICKET_REQUIRED');
    // The QR code of the container taken away is accepted too.
    await dr('post', `jobs/${swap}/evidence`, { kind: 'qr_scan', code: w.qr.get(first) }).expect(201);
    await ticket(swap, 13000, 11900).expect(201);
    expect((await dr('post', `jobs/${swap}/complete`).expect(200)).body.data).toMatchObject({ status: 'completed', removed_asset_id: first });
    const address = (await order(o.id)).address_id;
    expect(await assetState(t, w, second)).toMatchObject({ status: 'on_site', location_type: 'customer_address', location_id: address });
    const old = await assetState(t, w, first);
    expect(old).toMatchObject({ status: 'available', location_type: 'lot', location_id: w.lotId });
    expect(old.history.slice(-2).map((h) => [h.to, h.job_id])).toEqual([
      ['at_station', swap],
      ['available', swap],
    ]);
    expect((await order(o.id)).status).toBe('delivered');

    const dumpReturn = await changeRequestJob(o.id, { type: 'dump_return', date: w.today });
    await assignJob(t, w, dumpReturn);
    await dr('post', `jobs/${dumpReturn}/start`).expect(200);
    expect(code(await dr('post', `jobs/${dumpReturn}/complete`).expect(409))).toBe('TICKET_REQUIRED');
    await ticket(dumpReturn, 14000, 11900).expect(201);
    expect((await dr('post', `jobs/${dumpReturn}/complete`).expect(200)).body.data).toMatchObject({ status: 'completed', asset: { id: second, status: 'on_site' } });
    const dumped = await assetState(t, w, second);
    expect(dumped).toMatchObject({ status: 'on_site', location_id: address });
    expect(dumped.history.slice(-2).map((h) => [h.from, h.to, h.location_type, h.job_id])).toEqual([
      ['on_site', 'at_station', 'station', dumpReturn],
      ['at_station', 'on_site', 'customer_address', dumpReturn],
    ]);

    const newAddress = await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '9 New Site Rd', city: 'Springfield', latitude: 40.2, longitude: -89.02 } }).expect(201);
    const relocate = await changeRequestJob(o.id, { type: 'relocate', date: w.today, address_id: newAddress.body.data.id });
    await assignJob(t, w, relocate);
    const relocating = await dr('post', `jobs/${relocate}/start`).expect(200);
    expect(relocating.body.data).toMatchObject({ type: 'relocate', destination_address_id: newAddress.body.data.id, destination_address: { line1: '9 New Site Rd' }, missing: [] });
    expect((await dr('post', `jobs/${relocate}/complete`).expect(200)).body.data).toMatchObject({ status: 'completed', asset: { id: second } });
    const moved = await assetState(t, w, second);
    expect(moved).toMatchObject({ status: 'on_site', location_type: 'customer_address', location_id: newAddress.body.data.id });
    expect(moved.history.at(-1)).toMatchObject({ from: 'on_site', to: 'on_site', job_id: relocate });
  });

  it('a swap made by route collapse completes the pickup merged into it: the old order completed with its bill, the new one delivered', async () => {
    const a = await approvedOrder(t, w);
    const oldAsset = await deliver(a);
    const b = await approvedOrder(t, w, {});
    // What route collapse does: the new order's delivery becomes a swap, the old order's pickup is merged into it.
    await changeJob(t, w.company.companyId, b.delivery, { type: 'swap', pickupOrderId: a.id });
    await changeJob(t, w.company.companyId, a.pickup!, { mergedIntoJobId: b.delivery });
    const newAsset = (await assignJob(t, w, b.delivery))!;
    await assignJob(t, w, a.pickup!);

    const day = (await dr('get', 'jobs').expect(200)).body.data as Row[];
    const listed = day.find((j) => j.id === b.delivery)!;
    expect(listed).toMatchObject({ type: 'swap', merged_jobs: [{ id: a.pickup, order_id: a.id, type: 'pickup', status: 'assigned' }] });
    expect(day.some((j) => j.id === a.pickup)).toBe(false);
    expect(code(await dr('post', `jobs/${a.pickup}/start`).expect(409))).toBe('JOB_MERGED');

    expect((await dr('post', `jobs/${b.delivery}/start`).expect(200)).body.data.merged_jobs).toEqual([expect.objectContaining({ id: a.pickup, status: 'in_progress' })]);
    await dr('post', `jobs/${b.delivery}/evidence`, { kind: 'qr_scan', code: w.qr.get(oldAsset) }).expect(201);
    await ticket(b.delivery, 13900, 11900).expect(201);
    const done = await dr('post', `jobs/${b.delivery}/complete`).expect(200);
    expect(done.body.data).toMatchObject({ status: 'completed', removed_asset_id: oldAsset, merged_jobs: [{ id: a.pickup, status: 'completed' }] });

    expect((await orderJobs(t, w, a.id)).find((j) => j.id === a.pickup)).toMatchObject({ status: 'completed' });
    expect((await order(a.id)).status).toBe('completed');
    expect(await order(b.id)).toMatchObject({ status: 'delivered', delivered_on: w.today });
    expect(await assetState(t, w, newAsset)).toMatchObject({ status: 'on_site', location_type: 'customer_address' });
    expect(await assetState(t, w, oldAsset)).toMatchObject({ status: 'available', location_type: 'lot' });
    const [pickupRow] = await t.ds.query(`SELECT removed_asset_id FROM jobs WHERE id = $1`, [a.pickup]);
    expect(pickupRow.removed_asset_id).toBe(oldAsset);
  });

  it("refusals: access codes, another driver's or company's job, not checked in, on a break, one job at a time, bad input", async () => {
    const o1 = await approvedOrder(t, w, {});
    const o2 = await approvedOrder(t, w, {});
    await assignJob(t, w, o1.delivery);
    await assignJob(t, w, o2.delivery);
    const foreign = await approvedOrder(t, other, {});
    await assignJob(t, other, foreign.delivery);
    const theirs = await approvedOrder(t, w, {});
    await assignJob(t, w, theirs.delivery, { driverId: driver2.id });

    // Wrong actors: 403.
    for (const token of [w.company.token, w.customer.token]) {
      expect(code(await dr('get', 'jobs', undefined, token).expect(403))).toBe('WRONG_ACTOR');
      expect(code(await dr('get', `jobs/${o1.delivery}`, undefined, token).expect(403))).toBe('WRONG_ACTOR');
      expect(code(await dr('post', `jobs/${o1.delivery}/start`, undefined, token).expect(403))).toBe('WRONG_ACTOR');
    }
    // DR-IN: driver 2 has not checked in.
    for (const action of ['start', 'complete', 'evidence', 'issues']) {
      expect(code(await dr('post', `jobs/${theirs.delivery}/${action}`, action === 'issues' ? { type: 'other' } : action === 'evidence' ? { kind: 'photo', media_id: mediaId } : undefined, driver2.token).expect(403))).toBe('NOT_CHECKED_IN');
    }
    // Another driver's job, another company's job, an absent or malformed id: 404 alike.
    for (const id of [theirs.delivery, foreign.delivery, ABSENT_ID, 'not-a-uuid']) {
      expect(code(await dr('get', `jobs/${id}`).expect(404))).toBe('NOT_FOUND');
      expect(code(await dr('post', `jobs/${id}/start`).expect(404))).toBe('NOT_FOUND');
      expect(code(await dr('post', `jobs/${id}/evidence`, { kind: 'photo', media_id: mediaId }).expect(404))).toBe('NOT_FOUND');
      expect(code(await dr('post', `jobs/${id}/complete`).expect(404))).toBe('NOT_FOUND');
    }
    // The driver's order view: an order with a job of mine, else 404.
    const mine = await dr('get', `order/${o1.id}`).expect(200);
    expect(mine.body.data).toMatchObject({ id: o1.id, jobs: expect.arrayContaining([expect.objectContaining({ id: o1.delivery })]) });
    for (const id of [theirs.id, foreign.id, ABSENT_ID]) expect(code(await dr('get', `order/${id}`).expect(404))).toBe('NOT_FOUND');
    expect(code(await dr('get', `order/${o1.id}`, undefined, w.company.token).expect(403))).toBe('WRONG_ACTOR');

    // Bad queries: 422.
    expect((await dr('get', 'jobs?date=2027-02-30').expect(422)).body.errors).toHaveProperty('date');
    expect((await dr('get', 'jobs?per_page=1000').expect(422)).body.errors).toHaveProperty('per_page');
    expect((await dr('get', 'history/jobs/get?status=assigned').expect(422)).body.errors).toHaveProperty('status');
    expect((await dr('get', 'history/jobs/get?sort=created_at').expect(422)).body.errors).toHaveProperty('sort');

    // On a break: every job action is 409 ON_BREAK; after the break they work again.
    await dr('post', 'start-break').expect(200);
    expect(code(await dr('post', `jobs/${o1.delivery}/start`).expect(409))).toBe('ON_BREAK');
    expect(code(await dr('post', `jobs/${o1.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(409))).toBe('ON_BREAK');
    expect(code(await dr('post', `jobs/${o1.delivery}/issues`, { type: 'other' }).expect(409))).toBe('ON_BREAK');
    expect(code(await dr('post', `jobs/${o1.delivery}/complete`).expect(409))).toBe('ON_BREAK');
    await dr('post', 'end-break').expect(200);

    // One job at a time.
    await dr('post', `jobs/${o1.delivery}/start`).expect(200);
    expect(code(await dr('post', `jobs/${o2.delivery}/start`).expect(409))).toBe('JOB_IN_PROGRESS');
    await photo(o1.delivery);
    await dr('post', `jobs/${o1.delivery}/complete`).expect(200);
    await dr('post', `jobs/${o2.delivery}/start`).expect(200);

    // History: finished jobs, newest first; the unfinished one is not there.
    const history = await dr('get', 'history/jobs/get').expect(200);
    expect(history.body.data[0]).toMatchObject({ id: o1.delivery, status: 'completed' });
    expect(history.body.data.every((j: Row) => ['completed', 'aborted'].includes(j.status))).toBe(true);
    expect(history.body.data.some((j: Row) => j.id === o2.delivery)).toBe(false);
    const finished = history.body.data.map((j: Row) => j.completed_at ?? j.aborted_at);
    expect([...finished].sort().reverse()).toEqual(finished);
    expect((await dr('get', 'history/jobs/get?status=aborted').expect(200)).body.data).toEqual([]);
    expect((await dr('get', 'history/jobs/get?sort=finished_at&per_page=1').expect(200)).body.meta).toMatchObject({ per_page: 1, total: history.body.meta.total });
    expect((await dr('get', 'history/jobs/get', undefined, driver2.token).expect(200)).body.data).toEqual([]);
  });
});
