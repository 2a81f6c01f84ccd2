import { ABSENT_ID } from '../support/fixtures';
import { MemberActor } from '../support/actors';
import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { uploadPng } from '../support/driver-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Drivers' leave over HTTP (issue #12): requests with a decision per date, the request's status
 * following its dates, leaves made of approved dates, cancellation and revocation, stats, lists,
 * access and tenancy. The world's time zone is UTC, so the company's today is inDays(0).
 */
describe("Leaves: drivers' requests, the company's decisions, leaves", () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  let rivalRequestId: string;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 4 });
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 1 });
    rivalRequestId = (await api('post', 'driver/leave-requests', rival.driver.token, { type: 'annual', dates: [inDays(40)], reason: 'Rival trip.' }).expect(201)).body.data.id;
  }, 120_000);
  afterAll(async () => t?.close());

  const api = (method: 'get' | 'post' | 'put', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const co = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => api(method, path, w.company.token, body);
  const ask = (driver: MemberActor, body: Record<string, unknown>, status = 201) => api('post', 'driver/leave-requests', driver.token, { type: 'annual', reason: 'Time off.', ...body }).expect(status);
  const decide = (verb: 'approve' | 'reject' | 'review', id: string, dates: string[], status = 200, note?: string) =>
    co('post', `leave-requests/${id}/${verb}-dates`, { dates, ...(note ? { note } : {}) }).expect(status);
  const statusesOf = (request: Row) => Object.fromEntries((request.dates as Row[]).map((d) => [d.date, d.status]));
  const events = async (aggregateId: string) => ((await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 ORDER BY created_at, id`, [aggregateId])) as { type: string; payload: Row }[]);

  it('the whole story: five days asked, a job blocks an approval until reassigned, three approved, one rejected, one in review; stats; a leave under way revoked from tomorrow', async () => {
    const driver = await addDriver(t, w);
    const days = [20, 21, 22, 23, 24].map(inDays);
    // A job of the driver on the third day.
    const order = await approvedOrder(t, w, { delivery_date: days[2] });
    const [job] = await assignOrder(t, w, order.id, { driver_id: driver.id });
    expect(job).toMatchObject({ driver_id: driver.id, status: 'assigned' });

    const asked = (await ask(driver, { from: days[0], to: days[4], reason: 'Family wedding.' })).body.data;
    expect(asked).toMatchObject({ driver: { id: driver.id, name: 'A driver' }, type: 'annual', status: 'pending', reason: 'Family wedding.', first_date: days[0], last_date: days[4], days: 5, cancelled_at: null });
    expect(asked.dates.map((d: Row) => [d.date, d.status, d.leave_id])).toEqual(days.map((d) => [d, 'pending', null]));

    // The job on the third day blocks its approval (409 listing the job); nothing changes.
    const blocked = await decide('approve', asked.id, days.slice(0, 3), 409);
    expect(blocked.body.code).toBe('DRIVER_HAS_JOBS');
    expect(blocked.body.message).toContain(job.id);
    expect(blocked.body.errors).toEqual({ dates: [`${days[2]}: job ${job.id} (delivery, assigned)`] });
    expect((await co('get', `leave-requests/${asked.id}`).expect(200)).body.data.status).toBe('pending');

    // Reassigned to another driver, the day is free: three days approved.
    await co('post', `driver/reassign/${order.id}`, { driver_id: w.driver.id }).expect(200);
    const approved = (await decide('approve', asked.id, days.slice(0, 3), 200, 'Enjoy the wedding.')).body.data;
    expect(approved.status).toBe('partially_approved');
    const leaveId = approved.dates[0].leave_id;
    expect(approved.dates.slice(0, 3).map((d: Row) => [d.status, d.leave_id, d.note])).toEqual(Array(3).fill(['approved', leaveId, 'Enjoy the wedding.']));
    expect(approved.dates[0].decided_at).not.toBeNull();
    await decide('reject', asked.id, [days[3]], 200, 'Two drivers are off that day.');
    const final = (await decide('review', asked.id, [days[4]])).body.data;
    expect(final.status).toBe('partially_approved');
    expect(statusesOf(final)).toEqual({ [days[0]]: 'approved', [days[1]]: 'approved', [days[2]]: 'approved', [days[3]]: 'rejected', [days[4]]: 'in_review' });

    // The three consecutive approved dates are one leave.
    const leave = (await co('get', `leaves/${leaveId}`).expect(200)).body.data;
    expect(leave).toMatchObject({ driver: { id: driver.id }, leave_request_id: asked.id, type: 'annual', status: 'approved', phase: 'upcoming', start_date: days[0], end_date: days[2], days: 3, revoked_from: null });
    expect((await api('get', 'driver/leaves', driver.token).expect(200)).body.data.map((l: Row) => l.id)).toEqual([leaveId]);

    // Stats: three days taken, one still in review, against the allowances the company set in its
    // settings over HTTP (annual 25, unpaid 5; sick and other keep their defaults 10 and 0).
    const set = (await co('post', 'company/settings', { annual_leave_allowance_days: 25, unpaid_leave_allowance_days: 5 }).expect(200)).body.data;
    expect(set).toMatchObject({ annual_leave_allowance_days: 25, sick_leave_allowance_days: 10, unpaid_leave_allowance_days: 5, other_leave_allowance_days: 0 });
    const stats = (await api('get', 'driver/leaves/stats', driver.token).expect(200)).body.data;
    const year = inDays(0).slice(0, 4);
    const annual = stats.types.find((s: Row) => s.type === 'annual');
    // The story's dates are 20–24 days ahead: near the year's end some fall in the next year.
    const inYear = (ds: string[]) => ds.filter((d) => d.startsWith(year)).length;
    expect(stats).toMatchObject({ year: Number(year), from: `${year}-01-01`, to: `${year}-12-31` });
    expect(annual).toEqual({ type: 'annual', allowance_days: 25, taken_days: inYear(days.slice(0, 3)), pending_days: inYear([days[4]]), remaining_days: 25 - inYear(days.slice(0, 3)) });
    expect(stats.types.map((s: Row) => [s.type, s.allowance_days, s.remaining_days])).toEqual([['annual', 25, 25 - inYear(days.slice(0, 3))], ['sick', 10, 10], ['unpaid', 5, 5], ['other', 0, 0]]);
    // Another company's drivers keep that company's allowances (the defaults: never saved).
    const rivalStats = (await api('get', 'driver/leaves/stats', rival.driver.token).expect(200)).body.data;
    expect(rivalStats.types.map((s: Row) => [s.type, s.allowance_days])).toEqual([['annual', 20], ['sick', 10], ['unpaid', 0], ['other', 0]]);

    // With dates approved, the driver can no longer edit or cancel.
    expect((await api('put', `driver/leave-requests/${asked.id}`, driver.token, { reason: 'Changed.' }).expect(409)).body.code).toBe('INVALID_TRANSITION');
    expect((await api('post', `driver/leave-requests/${asked.id}/cancel`, driver.token).expect(409)).body.code).toBe('INVALID_TRANSITION');

    // A leave under way (today to the day after tomorrow) is revoked from tomorrow.
    const now = (await ask(driver, { from: inDays(0), to: inDays(2) })).body.data;
    const nowLeaveId = (await decide('approve', now.id, [inDays(0), inDays(1), inDays(2)])).body.data.dates[0].leave_id;
    expect((await co('get', `leaves/${nowLeaveId}`).expect(200)).body.data).toMatchObject({ phase: 'under_way', start_date: inDays(0), end_date: inDays(2) });
    expect((await co('post', `leaves/${nowLeaveId}/cancel`, {}).expect(409)).body.message).toMatch(/revoke/);
    const revoked = (await co('post', `leaves/${nowLeaveId}/revoke`, { note: 'Storm clean-up.' }).expect(200)).body.data;
    expect(revoked).toMatchObject({ status: 'revoked', phase: 'under_way', start_date: inDays(0), end_date: inDays(0), days: 1, revoked_from: inDays(1), revoked_to: inDays(2), note: 'Storm clean-up.' });
    expect(revoked.revoked_at).not.toBeNull();
    expect((await co('post', `leaves/${nowLeaveId}/revoke`, {}).expect(409)).body.code).toBe('INVALID_TRANSITION');
    // The given-back days are free again (a new request may take them); today is still leave.
    await ask(driver, { dates: [inDays(1)] });
    expect((await ask(driver, { dates: [inDays(0)] }, 422)).body.code).toBe('DATES_TAKEN');

    // The upcoming leave is cancelled by the company; a cancelled leave can be neither cancelled nor revoked.
    const cancelled = (await co('post', `leaves/${leaveId}/cancel`, { note: 'Peak week.' }).expect(200)).body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', phase: null, note: 'Peak week.' });
    await co('post', `leaves/${leaveId}/cancel`, {}).expect(409);
    await co('post', `leaves/${leaveId}/revoke`).expect(409);

    // Events: submitted, each decision, the revocation and the cancellation.
    expect((await events(asked.id)).map((e) => [e.type, e.payload.decision ?? null])).toEqual([
      ['leave_request.submitted', null],
      ['leave_request.dates_decided', 'approved'],
      ['leave_request.dates_decided', 'rejected'],
      ['leave_request.dates_decided', 'in_review'],
    ]);
    expect((await events(asked.id))[1].payload).toMatchObject({ driver_id: driver.id, dates: days.slice(0, 3), status: 'partially_approved', leave_ids: [leaveId], note: 'Enjoy the wedding.' });
    expect((await events(nowLeaveId)).map((e) => e.type)).toEqual(['leave.revoked']);
    expect((await events(nowLeaveId))[0].payload).toMatchObject({ revoked_from: inDays(1), revoked_to: inDays(2), end_date: inDays(0) });
    expect((await events(leaveId)).map((e) => e.type)).toEqual(['leave.cancelled']);
  });

  describe('POST /driver/leave-requests', () => {
    it('takes a list or a range; refuses both or neither, half a range, more than 60 dates, past dates (sick may reach back 7 days)', async () => {
      const driver = await addDriver(t, w);
      const listed = (await ask(driver, { dates: [inDays(52), inDays(50)], type: 'other' })).body.data;
      expect(listed).toMatchObject({ type: 'other', first_date: inDays(50), last_date: inDays(52), days: 2 });
      expect(listed.dates.map((d: Row) => d.date)).toEqual([inDays(50), inDays(52)]);

      const errors = async (body: Record<string, unknown>) => (await ask(driver, body, 422)).body.errors;
      expect(await errors({ dates: [inDays(60)], from: inDays(60), to: inDays(61) })).toEqual({ dates: ['give dates, or from and to, not both'] });
      expect(await errors({})).toEqual({ dates: ['give the dates, or from and to'] });
      expect(await errors({ from: inDays(60) })).toEqual({ to: ['is required with from'] });
      expect(await errors({ to: inDays(60) })).toEqual({ from: ['is required with to'] });
      expect(await errors({ from: inDays(61), to: inDays(60) })).toEqual({ to: ['must be on or after from'] });
      expect(Object.keys(await errors({ from: inDays(60), to: inDays(120) }))).toEqual(['to']);
      expect(Object.keys(await errors({ dates: Array.from({ length: 61 }, (_, i) => inDays(60 + i)) }))).toEqual(['dates']);
      expect(Object.keys(await errors({ dates: [inDays(60), inDays(60)] }))).toEqual(['dates']);
      expect(Object.keys(await errors({ dates: ['2027-02-30'] }))).toEqual(['dates']);
      expect(Object.keys(await errors({ type: 'holiday', dates: [inDays(60)] }))).toEqual(['type']);
      expect(Object.keys(await errors({ dates: [inDays(60)], reason: '' }))).toEqual(['reason']);
      expect(Object.keys(await errors({ dates: [inDays(60)], extra: 1 }))).toEqual(['extra']);
      expect((await errors({ dates: [inDays(-1), inDays(60)] })).dates[0]).toMatch(new RegExp(`must not be in the past.*${inDays(-1)}`));
      // Sick leave reaches back seven days, not eight.
      expect((await ask(driver, { type: 'sick', dates: [inDays(-7), inDays(-6)] })).body.data.status).toBe('pending');
      expect((await errors({ type: 'sick', from: inDays(-8), to: inDays(-8) })).from[0]).toMatch(/sick leave reaches back 7 days/);
    });

    it('refuses dates already asked for (pending, in review) or on approved leave, naming them (422 DATES_TAKEN); rejected or cancelled dates are free', async () => {
      const driver = await addDriver(t, w);
      const first = (await ask(driver, { from: inDays(70), to: inDays(73) })).body.data;
      await decide('approve', first.id, [inDays(70)]);
      await decide('review', first.id, [inDays(71)]);
      await decide('reject', first.id, [inDays(72)]);
      const taken = await ask(driver, { from: inDays(69), to: inDays(74) }, 422);
      expect(taken.body.code).toBe('DATES_TAKEN');
      expect(taken.body.errors).toEqual({ from: [`${inDays(70)}: you are on approved leave`, `${inDays(71)}: already asked for in another request`, `${inDays(73)}: already asked for in another request`] });
      // The rejected date is free; another driver's dates do not count.
      await ask(driver, { dates: [inDays(72)] });
      await ask(await addDriver(t, w), { from: inDays(70), to: inDays(73) });
      // A cancelled request frees its dates.
      const second = (await ask(driver, { dates: [inDays(80)] })).body.data;
      expect((await api('post', `driver/leave-requests/${second.id}/cancel`, driver.token).expect(200)).body.data).toMatchObject({ status: 'cancelled' });
      await ask(driver, { dates: [inDays(80)] });
    });

    it('takes an attachment: an upload, not one of another company\'s requests (422 otherwise)', async () => {
      const driver = await addDriver(t, w);
      const media = await uploadPng(t);
      const withFile = (await ask(driver, { dates: [inDays(90)], type: 'sick', attachment_media_id: media })).body.data;
      expect(withFile).toMatchObject({ attachment_media_id: media, attachment_url: `/api/v1/media/${media}` });
      expect((await ask(driver, { dates: [inDays(91)], attachment_media_id: ABSENT_ID }, 422)).body.errors).toEqual({ attachment_media_id: ['not found'] });
      expect((await api('post', 'driver/leave-requests', rival.driver.token, { type: 'sick', dates: [inDays(90)], reason: 'x', attachment_media_id: media }).expect(422)).body.errors).toEqual({ attachment_media_id: ['not found'] });
    });

    it('is for drivers only (403)', async () => {
      await co('post', 'driver/leave-requests', { type: 'annual', dates: [inDays(60)], reason: 'x' }).expect(403);
      await api('post', 'driver/leave-requests', w.customer.token, { type: 'annual', dates: [inDays(60)], reason: 'x' }).expect(403);
    });
  });

  describe('the driver edits and cancels', () => {
    it('PUT replaces the dates (kept ones keep their decision, added ones are pending) and other fields; events', async () => {
      const driver = await addDriver(t, w);
      const r = (await ask(driver, { from: inDays(100), to: inDays(102) })).body.data;
      await decide('review', r.id, [inDays(100)]);
      await decide('reject', r.id, [inDays(101)]);
      const edited = (await api('put', `driver/leave-requests/${r.id}`, driver.token, { dates: [inDays(100), inDays(101), inDays(103)], reason: 'New plan.', type: 'unpaid' }).expect(200)).body.data;
      expect(edited).toMatchObject({ type: 'unpaid', reason: 'New plan.', first_date: inDays(100), last_date: inDays(103), days: 3, status: 'in_review' });
      expect(statusesOf(edited)).toEqual({ [inDays(100)]: 'in_review', [inDays(101)]: 'rejected', [inDays(103)]: 'pending' });
      // A range works too; only the reason: dates unchanged.
      const ranged = (await api('put', `driver/leave-requests/${r.id}`, driver.token, { from: inDays(103), to: inDays(104) }).expect(200)).body.data;
      expect(statusesOf(ranged)).toEqual({ [inDays(103)]: 'pending', [inDays(104)]: 'pending' });
      expect(ranged.status).toBe('pending');
      expect((await api('put', `driver/leave-requests/${r.id}`, driver.token, { reason: 'Only the reason.' }).expect(200)).body.data).toMatchObject({ reason: 'Only the reason.', days: 2 });
      // Added dates follow the rules of a new request.
      const other = (await ask(driver, { dates: [inDays(110)] })).body.data;
      expect((await api('put', `driver/leave-requests/${r.id}`, driver.token, { dates: [inDays(103), inDays(110)] }).expect(422)).body).toMatchObject({ code: 'DATES_TAKEN', errors: { dates: [`${inDays(110)}: already asked for in another request`] } });
      expect((await api('put', `driver/leave-requests/${r.id}`, driver.token, { dates: [inDays(-1)] }).expect(422)).body.errors.dates[0]).toMatch(/past/);
      await api('put', `driver/leave-requests/${r.id}`, driver.token, { reason: null }).expect(422);
      await api('put', `driver/leave-requests/${r.id}`, driver.token, { dates: [] }).expect(422);
      // The request's own dates do not collide with themselves.
      await api('put', `driver/leave-requests/${r.id}`, driver.token, { dates: [inDays(104), inDays(105)] }).expect(200);
      expect((await events(r.id)).map((e) => e.type)).toEqual([
        'leave_request.submitted',
        'leave_request.dates_decided',
        'leave_request.dates_decided',
        'leave_request.updated',
        'leave_request.updated',
        'leave_request.updated',
        'leave_request.updated',
      ]);
      expect((await events(r.id))[3].payload).toMatchObject({ fields: expect.arrayContaining(['type', 'dates', 'reason']), dates: [inDays(100), inDays(101), inDays(103)] });
      // Cancel: once; then no edit, no decision.
      const cancelled = (await api('post', `driver/leave-requests/${r.id}/cancel`, driver.token).expect(200)).body.data;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.cancelled_at).not.toBeNull();
      expect((await api('post', `driver/leave-requests/${r.id}/cancel`, driver.token).expect(409)).body.code).toBe('INVALID_TRANSITION');
      await api('put', `driver/leave-requests/${r.id}`, driver.token, { reason: 'x' }).expect(409);
      expect((await decide('approve', r.id, [inDays(104)], 409)).body.code).toBe('INVALID_TRANSITION');
      expect((await events(r.id)).at(-1)).toMatchObject({ type: 'leave_request.cancelled', payload: { driver_id: driver.id, dates: [inDays(104), inDays(105)] } });
      expect(other.status).toBe('pending');
    });

    it("reaches only the driver's own requests (404 for another driver's, another company's, an absent or malformed id)", async () => {
      const driver = await addDriver(t, w);
      const mine = (await ask(driver, { dates: [inDays(120)] })).body.data;
      const theirs = (await ask(await addDriver(t, w), { dates: [inDays(120)] })).body.data;
      await api('get', `driver/leave-requests/${mine.id}`, driver.token).expect(200);
      for (const id of [theirs.id, rivalRequestId, ABSENT_ID, 'not-a-uuid']) {
        await api('get', `driver/leave-requests/${id}`, driver.token).expect(404);
        await api('put', `driver/leave-requests/${id}`, driver.token, { reason: 'x' }).expect(404);
        await api('post', `driver/leave-requests/${id}/cancel`, driver.token).expect(404);
      }
      const list = (await api('get', 'driver/leave-requests?per_page=100', driver.token).expect(200)).body;
      expect(list.data.map((r: Row) => r.id)).toEqual([mine.id]);
      await co('get', `driver/leave-requests/${mine.id}`).expect(403);
      await co('put', `driver/leave-requests/${mine.id}`, { reason: 'x' }).expect(403);
    });
  });

  describe("the company's decisions", () => {
    it('takes only dates of the request (422), decidable ones (409 naming them), not a cancelled request (409); review takes pending dates only', async () => {
      const driver = await addDriver(t, w);
      const r = (await ask(driver, { from: inDays(130), to: inDays(132) })).body.data;
      expect((await decide('approve', r.id, [inDays(133)], 422)).body.errors).toEqual({ dates: [`not dates of this request: ${inDays(133)}`] });
      await decide('approve', r.id, [], 422);
      await decide('approve', r.id, ['not-a-date'], 422);
      await co('post', `leave-requests/${r.id}/approve-dates`, {}).expect(422);
      await co('post', `leave-requests/${r.id}/approve-dates`, { dates: [inDays(130)], note: 'x'.repeat(501) }).expect(422);
      await decide('review', r.id, [inDays(130)]);
      expect((await decide('review', r.id, [inDays(130)], 409)).body.message).toContain(`${inDays(130)} (in_review)`);
      await decide('approve', r.id, [inDays(130)]);
      await decide('reject', r.id, [inDays(131)]);
      expect((await decide('reject', r.id, [inDays(130), inDays(132)], 409)).body.message).toContain(`${inDays(130)} (approved)`);
      expect((await decide('approve', r.id, [inDays(131)], 409)).body.message).toContain(`${inDays(131)} (rejected)`);
      const all = (await decide('approve', r.id, [inDays(132)])).body.data;
      expect(all.status).toBe('partially_approved');
      // Approved and rejected dates: the request stays partially approved; all rejected is rejected.
      const other = (await ask(driver, { dates: [inDays(140), inDays(141)] })).body.data;
      await decide('reject', other.id, [inDays(140)]);
      expect((await co('get', `leave-requests/${other.id}`).expect(200)).body.data.status).toBe('pending');
      expect((await decide('reject', other.id, [inDays(141)])).body.data.status).toBe('rejected');
      const whole = (await ask(driver, { dates: [inDays(150)] })).body.data;
      expect((await decide('approve', whole.id, [inDays(150)])).body.data.status).toBe('approved');
    });

    it('joins consecutive approved dates of a request into one leave, also across decisions', async () => {
      const driver = await addDriver(t, w);
      const r = (await ask(driver, { from: inDays(160), to: inDays(165) })).body.data;
      const a = (await decide('approve', r.id, [inDays(160), inDays(162)])).body.data;
      const [l160, l162] = [a.dates[0].leave_id, a.dates[2].leave_id];
      expect(l160).not.toBe(l162);
      // 161 bridges the two leaves: one leave 160–162 (the earlier one's id).
      const b = (await decide('approve', r.id, [inDays(161)])).body.data;
      expect(b.dates.slice(0, 3).map((d: Row) => d.leave_id)).toEqual([l160, l160, l160]);
      await co('get', `leaves/${l162}`).expect(404);
      // 163 extends it; 165 alone is another leave.
      const c = (await decide('approve', r.id, [inDays(163), inDays(165)])).body.data;
      expect(c.dates[3].leave_id).toBe(l160);
      expect((await co('get', `leaves/${l160}`).expect(200)).body.data).toMatchObject({ start_date: inDays(160), end_date: inDays(163), days: 4 });
      const leaves = (await co('get', `leaves?leave_request_id=${r.id}&sort=start_date`).expect(200)).body.data;
      expect(leaves.map((l: Row) => [l.start_date, l.end_date])).toEqual([
        [inDays(160), inDays(163)],
        [inDays(165), inDays(165)],
      ]);
    });

    it('is for the company only (403), and only its own requests (404)', async () => {
      const driver = await addDriver(t, w);
      const r = (await ask(driver, { dates: [inDays(170)] })).body.data;
      for (const verb of ['approve', 'reject', 'review']) {
        await api('post', `leave-requests/${r.id}/${verb}-dates`, driver.token, { dates: [inDays(170)] }).expect(403);
        await api('post', `leave-requests/${rivalRequestId}/${verb}-dates`, w.company.token, { dates: [inDays(40)] }).expect(404);
        await api('post', `leave-requests/${r.id}/${verb}-dates`, rival.company.token, { dates: [inDays(170)] }).expect(404);
      }
      await api('get', 'leave-requests', driver.token).expect(403);
      await api('get', `leave-requests/${r.id}`, w.customer.token).expect(403);
      await co('get', `leave-requests/${rivalRequestId}`).expect(404);
      await co('get', 'leave-requests/not-a-uuid').expect(404);
    });
  });

  describe('lists', () => {
    it("GET /leave-requests: the company's, filtered by status, type, driver, dates and name; sorted; another company's never", async () => {
      const driver = await addDriver(t, w);
      const a = (await ask(driver, { dates: [inDays(180)], type: 'sick' })).body.data;
      const b = (await ask(driver, { from: inDays(185), to: inDays(186) })).body.data;
      await decide('reject', b.id, [inDays(185), inDays(186)]);
      const ids = async (query: string) => ((await co('get', `leave-requests?per_page=100&${query}`).expect(200)).body.data as Row[]).map((r) => r.id);
      expect(await ids(`driver_id=${driver.id}`)).toEqual([b.id, a.id]);
      expect(await ids(`driver_id=${driver.id}&sort=first_date`)).toEqual([a.id, b.id]);
      expect(await ids(`driver_id=${driver.id}&status=rejected`)).toEqual([b.id]);
      expect(await ids(`driver_id=${driver.id}&type=sick`)).toEqual([a.id]);
      expect(await ids(`driver_id=${driver.id}&from=${inDays(181)}`)).toEqual([b.id]);
      expect(await ids(`driver_id=${driver.id}&to=${inDays(184)}`)).toEqual([a.id]);
      const all = await ids('');
      expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(all).not.toContain(rivalRequestId);
      expect(await ids(`driver_id=${rival.driver.id}`)).toEqual([]);
      const page = (await co('get', `leave-requests?per_page=1&driver_id=${driver.id}`).expect(200)).body;
      expect(page.meta).toEqual({ page: 1, per_page: 1, total: 2, last_page: 2 });
      await co('get', 'leave-requests?status=approvedish').expect(422);
      await co('get', 'leave-requests?sort=reason').expect(422);
      await co('get', 'leave-requests?from=2027-13-01').expect(422);
      expect((await co('get', 'leave-requests?q=nobody-by-that-name').expect(200)).body.data).toEqual([]);
      // The driver's own list: the same filters without driver_id and q.
      const mine = (await api('get', `driver/leave-requests?status=pending`, driver.token).expect(200)).body.data as Row[];
      expect(mine.map((r) => r.id)).toEqual([a.id]);
      await api('get', `driver/leave-requests?driver_id=${driver.id}`, driver.token).expect(422);
    });

    it("GET /leaves: the company's, filtered by status, type, driver, request and dates; the driver's own", async () => {
      const driver = await addDriver(t, w);
      const r = (await ask(driver, { dates: [inDays(190), inDays(192)], type: 'unpaid' })).body.data;
      const approved = (await decide('approve', r.id, [inDays(190), inDays(192)])).body.data;
      const [l1, l2] = [approved.dates[0].leave_id, approved.dates[1].leave_id];
      await co('post', `leaves/${l2}/cancel`).expect(200);
      const ids = async (query: string) => ((await co('get', `leaves?per_page=100&driver_id=${driver.id}&${query}`).expect(200)).body.data as Row[]).map((l) => l.id);
      expect(await ids('')).toEqual([l2, l1]);
      expect(await ids('sort=start_date')).toEqual([l1, l2]);
      expect(await ids('status=cancelled')).toEqual([l2]);
      expect(await ids('type=annual')).toEqual([]);
      expect(await ids(`leave_request_id=${r.id}&status=approved`)).toEqual([l1]);
      expect(await ids(`from=${inDays(191)}`)).toEqual([l2]);
      expect(await ids(`to=${inDays(191)}`)).toEqual([l1]);
      expect((await api('get', 'driver/leaves?status=approved', driver.token).expect(200)).body.data.map((l: Row) => l.id)).toEqual([l1]);
      expect((await api('get', 'driver/leaves', rival.driver.token).expect(200)).body.data).toEqual([]);
      await api('get', 'leaves', driver.token).expect(403);
      await api('get', `leaves/${l1}`, rival.company.token).expect(404);
      await api('post', `leaves/${l1}/cancel`, rival.company.token, {}).expect(404);
      await api('post', `leaves/${l1}/revoke`, driver.token, {}).expect(403);
      await co('post', `leaves/${l1}/revoke`, { note: '' }).expect(422);
      // Not started: revoke is refused (cancel instead).
      expect((await co('post', `leaves/${l1}/revoke`, {}).expect(409)).body.message).toMatch(/cancel it instead/);
      await api('get', 'driver/leaves/stats', w.company.token).expect(403);
    });
  });
});
