import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { MemberActor } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Leave wired into dispatch through its hook (DriverLeaveCheck): assignment refuses a driver on approved
 * leave that day (422 DRIVER_ON_LEAVE naming driver_id), and the dispatch context and GET /available/drivers show it;
 * pending dates, cancelled leaves and revoked days do not count.
 */
describe('Leaves in dispatch: assignment and the dispatch context', () => {
  let t: TestApp;
  let w: DispatchWorld;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 6 });
  }, 120_000);
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  /** The driver asks for `dates`; the company approves `approve` of them (default all). Returns the request and the leave ids by date. */
  async function leave(driver: MemberActor, dates: string[], approve = dates) {
    const r = (await t.req('post', '/api/v1/driver/leave-requests', { token: driver.token, body: { type: 'annual', dates, reason: 'Off.' } }).expect(201)).body.data;
    const decided = approve.length ? (await co('post', `leave-requests/${r.id}/approve-dates`, { dates: approve }).expect(200)).body.data : r;
    return { id: r.id as string, leaveOf: Object.fromEntries((decided.dates as Row[]).map((d) => [d.date, d.leave_id])) as Record<string, string | null> };
  }
  const contextDriver = async (date: string, id: string) => ((await co('get', `dispatch/context?date=${date}`).expect(200)).body.data.drivers as Row[]).find((d) => d.id === id);
  const available = async (date: string) => ((await co('get', `available/drivers?date=${date}`).expect(200)).body.data as Row[]).map((d) => d.id);

  it('refuses to assign, reassign or move a job to a driver on approved leave that day (422 DRIVER_ON_LEAVE); the leave cancelled, it passes', async () => {
    const away = await addDriver(t, w);
    const day = inDays(3);
    const l = await leave(away, [day]);
    const o = await approvedOrder(t, w, { delivery_date: day });
    const refused = await co('post', `driver/assign/${o.id}`, { driver_id: away.id, truck_id: w.truckId }).expect(422);
    expect(refused.body.code).toBe('DRIVER_ON_LEAVE');
    expect(refused.body.errors).toEqual({ driver_id: [`is on leave on ${day}`] });
    // Nothing was kept: the delivery is still unassigned and no asset reserved.
    expect((await co('get', `jobs/${o.deliveryJobId}`).expect(200)).body.data).toMatchObject({ status: 'unassigned', driver_id: null, asset_id: null });
    // Assigned to someone else, it cannot be reassigned or moved to the driver on leave either.
    await assignOrder(t, w, o.id);
    expect((await co('post', `driver/reassign/${o.id}`, { driver_id: away.id }).expect(422)).body.code).toBe('DRIVER_ON_LEAVE');
    expect((await co('put', `order/jobs/${o.deliveryJobId}`, { driver_id: away.id }).expect(422)).body.code).toBe('DRIVER_ON_LEAVE');
    // The day before and after are fine: the job moves to the driver the day after.
    await co('put', `order/jobs/${o.deliveryJobId}`, { driver_id: away.id, date: inDays(4) }).expect(200);
    // The leave cancelled, the day is open again.
    await co('post', `leaves/${l.leaveOf[day]}/cancel`, {}).expect(200);
    await co('put', `order/jobs/${o.deliveryJobId}`, { date: day }).expect(200);
  });

  it('shows on_leave in the dispatch context and leaves the driver out of GET /available/drivers (only approved dates count)', async () => {
    const away = await addDriver(t, w);
    const asking = await addDriver(t, w);
    const day = inDays(5);
    await leave(away, [day]);
    await leave(asking, [day], []); // pending only
    expect(await contextDriver(day, away.id)).toMatchObject({ on_leave: true, load: { jobs: 0 } });
    expect(await contextDriver(day, asking.id)).toMatchObject({ on_leave: false });
    expect(await contextDriver(day, w.driver.id)).toMatchObject({ on_leave: false });
    expect(await contextDriver(inDays(6), away.id)).toMatchObject({ on_leave: false });
    expect(await available(day)).not.toContain(away.id);
    expect(await available(day)).toEqual(expect.arrayContaining([asking.id, w.driver.id]));
    expect(await available(inDays(6))).toContain(away.id);
  });

  it('a leave under way revoked from tomorrow: on leave today, available from tomorrow', async () => {
    const away = await addDriver(t, w);
    const l = await leave(away, [inDays(0), inDays(1), inDays(2)]);
    expect(await contextDriver(inDays(1), away.id)).toMatchObject({ on_leave: true });
    await co('post', `leaves/${l.leaveOf[inDays(0)]}/revoke`, {}).expect(200);
    expect(await contextDriver(inDays(0), away.id)).toMatchObject({ on_leave: true });
    expect(await contextDriver(inDays(1), away.id)).toMatchObject({ on_leave: false });
    expect(await available(inDays(0))).not.toContain(away.id);
    expect(await available(inDays(2))).toContain(away.id);
    const o = await approvedOrder(t, w, { delivery_date: inDays(1) });
    await assignOrder(t, w, o.id, { driver_id: away.id });
    const today = await approvedOrder(t, w, { delivery_date: inDays(1) });
    expect((await co('post', `driver/assign/${today.id}`, { driver_id: away.id, truck_id: w.truckId, date: inDays(0) }).expect(422)).body.code).toBe('DRIVER_ON_LEAVE');
  });
});
