import { MemberActor, memberActor } from '../support/actors';
import { approvedOrder, assignJob, driverWorld, DriverWorld, uploadPng } from '../support/driver-fixtures';
import { ABSENT_ID } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Issues on jobs: a driver reports one on their job (blocking or not); a blocking issue stops the
 * completion (409 JOB_BLOCKED) until the company resolves it (PATCH /order/jobs/issues/{issue});
 * the company's list with its filters.
 */
describe('Job issues: reported by the driver, resolved by the company', () => {
  let t: TestApp;
  let w: DriverWorld;
  let other: DriverWorld;
  let driver2: MemberActor;
  let mediaId: string;

  const dr = (method: 'get' | 'post', path: string, body?: unknown, token = w.driver.token) => t.req(method, `/api/v1/driver/${path}`, { token, body });
  const report = (jobId: string, body: Row, token = w.driver.token) => dr('post', `jobs/${jobId}/issues`, body, token);
  const issues = (query = '', token = w.company.token) => t.req('get', `/api/v1/order/jobs/issues${query}`, { token });
  const resolve = (id: string, body: unknown, token = w.company.token) => t.req('patch', `/api/v1/order/jobs/issues/${id}`, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    w = await driverWorld(t, 'Issue Co');
    other = await driverWorld(t, 'Other Issue Co');
    driver2 = await memberActor(t, w.company, 'driver');
    mediaId = await uploadPng(t);
  });
  afterAll(async () => t?.close());

  it('a blocking issue stops the completion until the company resolves it; a non-blocking one does not', async () => {
    const o = await approvedOrder(t, w);
    await assignJob(t, w, o.delivery);
    // Reported on the assigned job, before the start.
    const info = await report(o.delivery, { type: 'not_ready', description: 'Customer asked for a later slot.' }).expect(201);
    expect(info.body.data).toMatchObject({ job_id: o.delivery, driver_id: w.driver.id, driver_name: 'A driver', type: 'not_ready', blocking: false, status: 'open', resolution_note: null, resolved_at: null, resolved_by: null });
    await dr('post', `jobs/${o.delivery}/start`).expect(200);
    const blocking = await report(o.delivery, { type: 'blocked', blocking: true, description: 'A car is parked on the drop spot.' }).expect(201);
    expect(blocking.body.data).toMatchObject({ type: 'blocked', blocking: true, status: 'open' });
    await dr('post', `jobs/${o.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(201);

    const detail = (await dr('get', `jobs/${o.delivery}`).expect(200)).body.data;
    expect(detail.open_issues.map((i: Row) => i.id)).toEqual([info.body.data.id, blocking.body.data.id]);
    expect(detail.missing).toEqual(['issues_resolved']);
    expect((await dr('post', `jobs/${o.delivery}/complete`).expect(409)).body.code).toBe('JOB_BLOCKED');

    // Resolving: a note is required; the driver cannot; another company's owner gets 404.
    expect((await resolve(blocking.body.data.id, {}).expect(422)).body.errors).toHaveProperty('note');
    expect((await resolve(blocking.body.data.id, { note: '   ' }).expect(422)).body.errors).toHaveProperty('note');
    expect((await resolve(blocking.body.data.id, { note: 'ok', status: 'open' }).expect(422)).body.errors).toHaveProperty('status');
    expect((await resolve(blocking.body.data.id, { note: 'ok' }, w.driver.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    expect((await resolve(blocking.body.data.id, { note: 'ok' }, other.company.token).expect(404)).body.code).toBe('NOT_FOUND');
    for (const id of [ABSENT_ID, 'nope']) expect((await resolve(id, { note: 'ok' }).expect(404)).body.code).toBe('NOT_FOUND');

    const resolved = await resolve(blocking.body.data.id, { note: 'Customer moved the car; go ahead.' }).expect(200);
    expect(resolved.body.data).toMatchObject({ id: blocking.body.data.id, status: 'resolved', resolution_note: 'Customer moved the car; go ahead.', resolved_by: w.company.userId });
    expect(resolved.body.data.resolved_at).not.toBeNull();
    expect((await resolve(blocking.body.data.id, { note: 'again' }).expect(409)).body.code).toBe('INVALID_TRANSITION');

    // The non-blocking issue stays open and does not stop the completion.
    const done = await dr('post', `jobs/${o.delivery}/complete`).expect(200);
    expect(done.body.data).toMatchObject({ status: 'completed', open_issues: [{ id: info.body.data.id }] });
    expect((await report(o.delivery, { type: 'damage' }).expect(409)).body.code).toBe('JOB_STATE');

    const events = await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 AND type LIKE 'job.issue%' ORDER BY created_at, id`, [o.delivery]);
    expect(events.map((e: Row) => [e.type, e.payload.blocking])).toEqual([
      ['job.issue_reported', false],
      ['job.issue_reported', true],
      ['job.issue_resolved', true],
    ]);
  });

  it('reporting: own jobs only (404), DR-IN (403 not checked in), bad input (422)', async () => {
    const o = await approvedOrder(t, w, {});
    const unassigned = await approvedOrder(t, w, {});
    await assignJob(t, w, o.delivery, { driverId: driver2.id });
    // driver 2 has not checked in.
    expect((await report(o.delivery, { type: 'other' }, driver2.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
    // The world's driver: another driver's job, an unassigned job, another company's, absent, malformed.
    const foreign = await approvedOrder(t, other, {});
    await assignJob(t, other, foreign.delivery);
    for (const id of [o.delivery, unassigned.delivery, foreign.delivery, ABSENT_ID, 'nope']) {
      expect((await report(id, { type: 'other' }).expect(404)).body.code).toBe('NOT_FOUND');
    }
    expect((await report(o.delivery, { type: 'other' }, w.company.token).expect(403)).body.code).toBe('WRONG_ACTOR');

    await dr('post', 'check-in', { lat: 40, lng: -89 }, driver2.token).expect(201);
    const bad = async (body: unknown, field: string) => expect((await report(o.delivery, body as Row, driver2.token).expect(422)).body.errors).toHaveProperty([field]);
    await bad({}, 'type');
    await bad({ type: 'flat_tyre' }, 'type');
    await bad({ type: 'other', blocking: 'yes' }, 'blocking');
    await bad({ type: 'other', blocking: null }, 'blocking');
    await bad({ type: 'other', description: 'x'.repeat(2001) }, 'description');
    await bad({ type: 'other', severity: 3 }, 'severity');
    await report(o.delivery, { type: 'safety', blocking: true }, driver2.token).expect(201);
  });

  it("the company's list: newest first, filters status, blocking, driver_id and job_id; others' issues never shown", async () => {
    const theirs = await approvedOrder(t, other, {});
    await assignJob(t, other, theirs.delivery);
    const foreignIssue = await report(theirs.delivery, { type: 'other', blocking: true }, other.driver.token).expect(201);

    const all = await issues().expect(200);
    const rows = all.body.data as Row[];
    expect(all.body.meta.total).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const created = rows.map((i) => i.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(rows.some((i) => i.id === foreignIssue.body.data.id)).toBe(false);

    expect(((await issues('?status=open').expect(200)).body.data as Row[]).every((i) => i.status === 'open')).toBe(true);
    expect(((await issues('?status=resolved').expect(200)).body.data as Row[]).map((i) => i.status)).toEqual(['resolved']);
    expect(((await issues('?blocking=true').expect(200)).body.data as Row[]).every((i) => i.blocking)).toBe(true);
    expect(((await issues('?blocking=false').expect(200)).body.data as Row[]).every((i) => !i.blocking)).toBe(true);
    const byDriver = (await issues(`?driver_id=${driver2.id}`).expect(200)).body.data as Row[];
    expect(byDriver.map((i) => [i.driver_id, i.type])).toEqual([[driver2.id, 'safety']]);
    const byJob = (await issues(`?job_id=${rows[0].job_id}&per_page=1`).expect(200)).body;
    expect(byJob.data[0].job_id).toBe(rows[0].job_id);
    expect(byJob.meta.per_page).toBe(1);
    // Another company's ids filter to nothing.
    expect((await issues(`?job_id=${theirs.delivery}`).expect(200)).body.data).toEqual([]);
    expect((await issues(`?driver_id=${other.driver.id}`).expect(200)).body.data).toEqual([]);

    for (const q of ['?status=closed', '?blocking=maybe', '?driver_id=nope', '?job_id=1', '?sort=type', '?page=0']) expect((await issues(q).expect(422)).body.code).toBe('VALIDATION_FAILED');
    expect((await issues('', w.driver.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    expect((await issues('', w.customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
  });
});
