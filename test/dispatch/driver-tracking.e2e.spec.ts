import { MAX_POINTS_PER_JOB } from '../../src/modules/dispatch/driver-jobs.dto';
import { MemberActor, memberActor } from '../support/actors';
import { approvedOrder, assignJob, driverWorld, DriverWorld, uploadPng } from '../support/driver-fixtures';
import { ABSENT_ID } from '../support/fixtures';

import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Dispatch, the driver's side: location points (one a second per driver: 429; a cap per job: 409;
 * the latest on the job, the truck following), the tracking view, and an order's jobs as its company,
 * its customer and its drivers see them (`GET /orders/{order}/jobs`).
 */
describe('Driver tracking: locations, the tracking view, an order\'s jobs', () => {
  let t: TestApp;
  let w: DriverWorld;
  let other: DriverWorld;
  let driver2: MemberActor;
  let mediaId: string;

  const dr = (method: 'get' | 'post', path: string, body?: unknown, token = w.driver.token) => t.req(method, `/api/v1/driver/${path}`, { token, body });
  const point = (jobId: string, body: Row, token = w.driver.token) => dr('post', `send-location/${jobId}`, body, token);
  /** Lets the next point through the one-a-second rule without waiting: the driver's points are made older. */
  const age = (driverId: string) => t.ds.query(`UPDATE job_locations SET created_at = created_at - interval '2 seconds' WHERE driver_id = $1`, [driverId]);
  const jobsOf = (orderId: string, token: string) => t.req('get', `/api/v1/orders/${orderId}/jobs`, { token });

  beforeAll(async () => {
    t = await startTestApp();
    w = await driverWorld(t, 'Track Co');
    other = await driverWorld(t, 'Other Track Co');
    driver2 = await memberActor(t, w.company, 'driver');
    mediaId = await uploadPng(t);
  });
  afterAll(async () => t?.close());

  it('points for a job in progress: the latest on the job and the truck, one a second (429), a cap per job (409), checks (404, 409, 422)', async () => {
    const o = await approvedOrder(t, w);
    await assignJob(t, w, o.delivery);
    // Not in progress yet.
    expect((await point(o.delivery, { lat: 40.05, lng: -89.0 }).expect(409)).body.code).toBe('JOB_STATE');
    await dr('post', `jobs/${o.delivery}/start`).expect(200);

    const first = await point(o.delivery, { lat: 40.05, lng: -89.01, accuracy: 8.5, heading: 12.5, speed: 11.2, recorded_at: new Date(Date.now() - 1000).toISOString() }).expect(201);
    expect(first.body.data).toMatchObject({ job_id: o.delivery, lat: 40.05, lng: -89.01, accuracy: 8.5, heading: 12.5, speed: 11.2 });
    // A second point within the second: 429 with the envelope and Retry-After.
    const throttled = await point(o.delivery, { lat: 40.06, lng: -89.01 }).expect(429);
    expect(throttled.body).toMatchObject({ success: false, code: 'THROTTLED' });
    expect(throttled.headers['retry-after']).toBe('1');

    await age(w.driver.id);
    const second = await point(o.delivery, { lat: 40.07, lng: -89.02 }).expect(201);
    const job = (await dr('get', `jobs/${o.delivery}`).expect(200)).body.data;
    expect(job.last_location).toEqual({ lat: 40.07, lng: -89.02, at: second.body.data.recorded_at });
    const truck = (await t.req('get', `/api/v1/trucks/${w.truckId}`, { token: w.company.token }).expect(200)).body.data;
    expect(truck).toMatchObject({ lat: 40.07, lng: -89.02 });

    // A late point (recorded before the latest) is kept but moves neither the job nor the truck.
    await age(w.driver.id);
    await point(o.delivery, { lat: 41, lng: -88, recorded_at: new Date(Date.now() - 60_000).toISOString() }).expect(201);
    expect((await dr('get', `jobs/${o.delivery}`).expect(200)).body.data.last_location).toMatchObject({ lat: 40.07, lng: -89.02 });
    expect((await t.req('get', `/api/v1/trucks/${w.truckId}`, { token: w.company.token }).expect(200)).body.data).toMatchObject({ lat: 40.07, lng: -89.02 });

    // Racing points: exactly one gets through.
    await age(w.driver.id);
    const race = await Promise.all(Array.from({ length: 6 }, (_, i) => point(o.delivery, { lat: 40.07, lng: -89.02, recorded_at: new Date(Date.now() - 30_000 - i).toISOString() })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);

    // Bad input: 422 naming the field.
    await age(w.driver.id);
    const bad = async (body: Row, field: string) => expect((await point(o.delivery, body).expect(422)).body.errors).toHaveProperty([field]);
    await bad({ lat: 91, lng: 0 }, 'lat');
    await bad({ lat: 40 }, 'lng');
    await bad({ lat: 40, lng: -89, heading: 360 }, 'heading');
    await bad({ lat: 40, lng: -89, speed: -1 }, 'speed');
    await bad({ lat: 40, lng: -89, accuracy: null }, 'accuracy');
    await bad({ lat: 40, lng: -89, recorded_at: new Date(Date.now() + 3_600_000).toISOString() }, 'recorded_at');
    await bad({ lat: 40, lng: -89, recorded_at: '0000-01-01T00:00:00Z' }, 'recorded_at');
    await bad({ lat: 40, lng: -89, recorded_at: 'yesterday' }, 'recorded_at');
    await bad({ lat: '40', lng: -89 }, 'lat');
    await bad({ lat: 40, lng: -89, altitude: 200 }, 'altitude');

    // Another driver's or company's job, absent or malformed ids: 404; wrong actors: 403.
    const foreign = await approvedOrder(t, other, {});
    await assignJob(t, other, foreign.delivery);
    for (const id of [foreign.delivery, ABSENT_ID, 'nope']) expect((await point(id, { lat: 40, lng: -89 }).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await point(o.delivery, { lat: 40, lng: -89 }, driver2.token).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await point(o.delivery, { lat: 40, lng: -89 }, w.company.token).expect(403)).body.code).toBe('WRONG_ACTOR');

    // The cap per job.
    await t.ds.query(
      `INSERT INTO job_locations (company_id, job_id, driver_id, lat, lng, recorded_at, created_at)
       SELECT $1, $2, $3, 40, -89, now() - interval '1 hour', now() - interval '1 hour' FROM generate_series(1, $4)`,
      [w.company.companyId, o.delivery, w.driver.id, MAX_POINTS_PER_JOB],
    );
    expect((await point(o.delivery, { lat: 40.08, lng: -89.03 }).expect(409)).body.code).toBe('LOCATION_LIMIT');
    await t.ds.query(`DELETE FROM job_locations WHERE job_id = $1 AND recorded_at < now() - interval '30 minutes'`, [o.delivery]);

    // Done: the job takes no more points.
    await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(201);
    await dr('post', `jobs/${o.delivery}/complete`).expect(200);
    expect((await point(o.delivery, { lat: 40, lng: -89 }).expect(409)).body.code).toBe('JOB_STATE');
  });

  it('the tracking view: the job in progress, the next stops in sequence, the last point, today\'s counts', async () => {
    const empty = (await dr('get', 'tracking/wrapper', undefined, driver2.token).expect(200)).body.data;
    expect(empty).toEqual({ date: w.today, current_job: null, next_stops: [], last_location: null, counts: { total: 0, assigned: 0, in_progress: 0, completed: 0, aborted: 0 } });

    const a = await approvedOrder(t, w, {});
    const b = await approvedOrder(t, w, {});
    const c = await approvedOrder(t, w, {});
    await assignJob(t, w, a.delivery, { driverId: driver2.id, set: { sequence: 1 } });
    await assignJob(t, w, b.delivery, { driverId: driver2.id, set: { sequence: 3 } });
    await assignJob(t, w, c.delivery, { driverId: driver2.id, set: { sequence: 2 } });
    await dr('post', 'check-in', { lat: 40, lng: -89, truck_id: w.truckId }, driver2.token).expect(201);
    await dr('post', `jobs/${a.delivery}/start`, undefined, driver2.token).expect(200);
    const sent = await point(a.delivery, { lat: 40.1, lng: -89.0 }, driver2.token).expect(201);

    const view = (await dr('get', 'tracking/wrapper', undefined, driver2.token).expect(200)).body.data;
    expect(view.date).toBe(w.today);
    expect(view.current_job).toMatchObject({ id: a.delivery, status: 'in_progress', last_location: { lat: 40.1, lng: -89.0 } });
    expect(view.next_stops.map((j: Row) => [j.id, j.sequence])).toEqual([
      [c.delivery, 2],
      [b.delivery, 3],
    ]);
    expect(view.last_location).toMatchObject({ id: sent.body.data.id, job_id: a.delivery, lat: 40.1 });
    expect(view.counts).toEqual({ total: 3, assigned: 2, in_progress: 1, completed: 0, aborted: 0 });
    // My day list is in sequence too.
    expect((await dr('get', 'jobs', undefined, driver2.token).expect(200)).body.data.map((j: Row) => j.id)).toEqual([a.delivery, c.delivery, b.delivery]);
    expect((await dr('get', 'tracking/wrapper', undefined, w.company.token).expect(403)).body.code).toBe('WRONG_ACTOR');
  });

  it("an order's jobs: all for the company and the order's drivers; for its customer the driver's first name, the truck, and the location only while in progress; 404 for anyone else", async () => {
    const o = await approvedOrder(t, w);
    await t.req('put', `/api/v1/driver/${w.driver.id}/update`, { token: w.company.token, body: { name: 'Cy Rivers' } }).expect(200);
    await assignJob(t, w, o.delivery);
    await dr('post', `jobs/${o.delivery}/start`).expect(200);
    await t.ds.query(`UPDATE job_locations SET created_at = created_at - interval '2 seconds'`);
    await point(o.delivery, { lat: 40.12, lng: -89.0 }).expect(201);

    const company = (await jobsOf(o.id, w.company.token).expect(200)).body.data as Row[];
    expect(company.map((j) => j.type)).toEqual(['delivery', 'pickup']);
    expect(company[0]).toMatchObject({
      id: o.delivery,
      status: 'in_progress',
      dispatch: { order_id: o.id, sequence: null, asset_id: expect.any(String), merged_into_job_id: null },
      driver: { id: w.driver.id, name: 'Cy Rivers', first_name: 'Cy' },
      truck: { id: w.truckId, plate: expect.any(String), name: 'Hoist 1' },
      location: { lat: 40.12, lng: -89.0 },
    });
    expect(company[1]).toMatchObject({ type: 'pickup', status: 'unassigned', driver: null, truck: null, location: null });

    const customer = (await jobsOf(o.id, w.customer.token).expect(200)).body.data as Row[];
    expect(Object.keys(customer[0]).sort()).toEqual(['aborted_at', 'completed_at', 'driver', 'id', 'location', 'scheduled_date', 'started_at', 'status', 'truck', 'type']);
    expect(customer[0]).toMatchObject({ driver: { first_name: 'Cy' }, truck: { plate: expect.any(String), name: 'Hoist 1' }, location: { lat: 40.12, lng: -89.0 } });
    expect(customer[0].driver).toEqual({ first_name: 'Cy' });

    const driver = (await jobsOf(o.id, w.driver.token).expect(200)).body.data as Row[];
    expect(driver[0]).toMatchObject({ id: o.delivery, dispatch: { order_id: o.id }, location: { lat: 40.12 } });

    // Once the job is done, the customer no longer sees where the truck was; the company still does.
    await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(201);
    await dr('post', `jobs/${o.delivery}/complete`).expect(200);
    expect((await jobsOf(o.id, w.customer.token).expect(200)).body.data[0]).toMatchObject({ status: 'completed', location: null });
    expect((await jobsOf(o.id, w.company.token).expect(200)).body.data[0].location).toMatchObject({ lat: 40.12 });

    // Anyone else: another customer of the company, a driver without a job on it, another company, absent ids.
    const customer2 = await memberActor(t, w.company, 'customer');
    for (const token of [customer2.token, driver2.token, other.company.token, other.customer.token, other.driver.token]) {
      expect((await jobsOf(o.id, token).expect(404)).body.code).toBe('NOT_FOUND');
    }
    expect((await jobsOf(ABSENT_ID, w.company.token).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await jobsOf('nope', w.company.token).expect(404)).body.code).toBe('NOT_FOUND');
  });
});
