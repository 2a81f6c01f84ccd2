import { addDriver, approvedOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Concurrent leave decisions never leave a mixed state: each decision locks the request row, so the
 * second sees the first's outcome (409) instead of overwriting it. Also the races with the driver's own
 * requests (one driver never asks twice for a date) and with assignment (a driver is never both on
 * leave and assigned on a date: approval and assignment queue on the driver's row).
 */
describe('Leaves: concurrent decisions and races', () => {
  let t: TestApp;
  let w: DispatchWorld;
  const ROUNDS = 6;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: ROUNDS + 2 });
  }, 120_000);
  afterAll(async () => t?.close());

  const api = (method: 'get' | 'post', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const ask = async (token: string, dates: string[]) => (await api('post', 'driver/leave-requests', token, { type: 'annual', dates, reason: 'Race.' }).expect(201)).body.data as Row;
  const decide = (verb: string, id: string, dates: string[]) => api('post', `leave-requests/${id}/${verb}-dates`, w.company.token, { dates });
  const statuses = (r: Row) => (r.dates as Row[]).map((d) => d.status);

  it('approve and reject of the same dates at once: one wins, the other is 409; all dates end the same', async () => {
    const driver = await addDriver(t, w);
    for (let i = 0; i < ROUNDS; i++) {
      const dates = [inDays(30 + 3 * i), inDays(31 + 3 * i)];
      const r = await ask(driver.token, dates);
      const [approve, reject] = await Promise.all([decide('approve', r.id, dates), decide('reject', r.id, dates)]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expect(loser.body.code).toBe('INVALID_TRANSITION');
      const after = (await api('get', `leave-requests/${r.id}`, w.company.token).expect(200)).body.data;
      const won = approve.status === 200 ? 'approved' : 'rejected';
      expect({ status: after.status, dates: statuses(after) }).toEqual({ status: won, dates: [won, won] });
      const leaves = (await api('get', `leaves?leave_request_id=${r.id}`, w.company.token).expect(200)).body.data;
      expect(leaves.length).toBe(won === 'approved' ? 1 : 0);
    }
  });

  it('overlapping decisions (approve d1,d2 and reject d2,d3) at once: one applies whole, the other is 409 and changes nothing', async () => {
    const driver = await addDriver(t, w);
    for (let i = 0; i < ROUNDS; i++) {
      const [d1, d2, d3] = [inDays(60 + 4 * i), inDays(61 + 4 * i), inDays(62 + 4 * i)];
      const r = await ask(driver.token, [d1, d2, d3]);
      const [approve, reject] = await Promise.all([decide('approve', r.id, [d1, d2]), decide('reject', r.id, [d2, d3])]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const after = (await api('get', `leave-requests/${r.id}`, w.company.token).expect(200)).body.data;
      if (approve.status === 200) expect({ status: after.status, dates: statuses(after) }).toEqual({ status: 'partially_approved', dates: ['approved', 'approved', 'pending'] });
      else expect({ status: after.status, dates: statuses(after) }).toEqual({ status: 'pending', dates: ['pending', 'rejected', 'rejected'] });
    }
  });

  it('two requests of one driver for the same date at once: one is taken, the other 422 DATES_TAKEN', async () => {
    const driver = await addDriver(t, w);
    for (let i = 0; i < ROUNDS; i++) {
      const body = { type: 'annual', dates: [inDays(100 + i)], reason: 'Twice.' };
      const res = await Promise.all([api('post', 'driver/leave-requests', driver.token, body), api('post', 'driver/leave-requests', driver.token, body)]);
      expect(res.map((x) => x.status).sort()).toEqual([201, 422]);
      expect(res.find((x) => x.status === 422)!.body.code).toBe('DATES_TAKEN');
    }
  });

  it('approval of a date and assignment on it at once: never both (409 DRIVER_HAS_JOBS or 422 DRIVER_ON_LEAVE for the other)', async () => {
    const driver = await addDriver(t, w);
    for (let i = 0; i < ROUNDS; i++) {
      const date = inDays(10 + i);
      const order = await approvedOrder(t, w, { delivery_date: date });
      const r = await ask(driver.token, [date]);
      const [approve, assign] = await Promise.all([
        decide('approve', r.id, [date]),
        api('post', `driver/assign/${order.id}`, w.company.token, { driver_id: driver.id, truck_id: w.truckId }),
      ]);
      if (approve.status === 200) expect([assign.status, assign.body.code]).toEqual([422, 'DRIVER_ON_LEAVE']);
      else expect([approve.status, approve.body.code, assign.status]).toEqual([409, 'DRIVER_HAS_JOBS', 200]);
    }
  });
});
