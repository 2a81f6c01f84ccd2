import { Scope } from '../../src/common/access/scope';
import { todayIn } from '../../src/common/dates';
import { AttendanceService } from '../../src/modules/attendance';
import { CompanyActor, companyActor, MemberActor, memberActor } from '../support/actors';
import { ABSENT_ID } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;
const ZONE = 'America/Chicago'; // companyActor's time zone

/** A date `n` days from `date` (YYYY-MM-DD). */
const shift = (date: string, n: number) => new Date(Date.parse(date + 'T00:00:00Z') + n * 86_400_000).toISOString().slice(0, 10);
/** An ISO time `minutes` after `base`. */
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000).toISOString();

describe('Attendance: the driver\'s day, the company\'s view', () => {
  let t: TestApp;
  let co: CompanyActor;
  let other: CompanyActor;
  let d1: MemberActor;
  let d2: MemberActor;
  let customer: MemberActor;
  let otherDriver: MemberActor;
  let truckId: string;
  let maintenanceTruckId: string;
  let otherTruckId: string;
  let today: string;
  /** Driver 1's day (the whole-day story). */
  let dayId: string;

  const api = (method: 'get' | 'post' | 'put', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const truck = async (owner: CompanyActor, plate: string, status = 'active') => {
    const type = await api('post', 'truck-types', owner.token, { name: `Hoist ${plate}`, capacity_kg: 15000 }).expect(201);
    return (await api('post', 'trucks', owner.token, { plate, truck_type_id: type.body.data.id, status }).expect(201)).body.data.id as string;
  };
  const events = async (aggregateId: string) =>
    (await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 ORDER BY created_at, id`, [aggregateId])) as { type: string; payload: Row }[];

  beforeAll(async () => {
    t = await startTestApp();
    co = await companyActor(t, 'Day Hauling');
    other = await companyActor(t, 'Night Hauling');
    d1 = await memberActor(t, co, 'driver');
    d2 = await memberActor(t, co, 'driver');
    customer = await memberActor(t, co, 'customer');
    otherDriver = await memberActor(t, other, 'driver');
    truckId = await truck(co, 'IL-AT-1');
    maintenanceTruckId = await truck(co, 'IL-AT-2', 'maintenance');
    otherTruckId = await truck(other, 'IL-AT-3');
    today = todayIn(ZONE);
  });
  afterAll(async () => t?.close());

  it('runs a whole day: check-in, break, check-out, resume, check-out; every repeated move is 409; worked minutes exclude the break and the time checked out', async () => {
    const status0 = await api('get', 'driver/status/check-in', d1.token).expect(200);
    expect(status0.body.data).toEqual({ checked_in: false, status: 'not_checked_in', date: today, attendance: null });
    // DR-IN routes before a check-in: the access layer answers 403 NOT_CHECKED_IN.
    for (const move of ['start-break', 'end-break', 'check-out']) expect((await api('post', `driver/${move}`, d1.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
    expect((await api('post', 'driver/resume-attendance', d1.token).expect(409)).body.code).toBe('INVALID_TRANSITION');

    const checkedIn = await api('post', 'driver/check-in', d1.token, { lat: 41.8781, lng: -87.6298, truck_id: truckId }).expect(201);
    const day = checkedIn.body.data;
    dayId = day.id;
    expect(day).toMatchObject({ driver: { id: d1.id, name: 'A driver' }, work_date: today, status: 'checked_in', checked_out_at: null, check_in: { lat: 41.8781, lng: -87.6298 }, check_out: null, truck_id: truckId, break_minutes: 0, breaks: [] });

    const repeat = async (move: string, body?: unknown) => expect((await api('post', `driver/${move}`, d1.token, body).expect(409)).body.code).toBe('INVALID_TRANSITION');
    await repeat('check-in', { lat: 41.8781, lng: -87.6298 });
    await repeat('end-break');
    await repeat('resume-attendance');

    expect((await api('post', 'driver/start-break', d1.token).expect(200)).body.data).toMatchObject({ status: 'on_break', breaks: [{ kind: 'break', ended_at: null }] });
    await repeat('start-break');
    expect((await api('get', 'driver/status/check-in', d1.token).expect(200)).body.data).toMatchObject({ checked_in: true, status: 'on_break', attendance: { id: dayId } });
    expect((await api('post', 'driver/end-break', d1.token).expect(200)).body.data.status).toBe('checked_in');
    await repeat('end-break');

    const out = await api('post', 'driver/check-out', d1.token, { lat: 41.88, lng: -87.63 }).expect(200);
    expect(out.body.data).toMatchObject({ status: 'checked_out', check_out: { lat: 41.88, lng: -87.63 } });
    expect(out.body.data.checked_out_at).not.toBeNull();
    // Checked out: the DR-IN moves are refused by the access layer; a second check-in the same day is 409.
    for (const move of ['start-break', 'end-break', 'check-out']) expect((await api('post', `driver/${move}`, d1.token).expect(403)).body.code).toBe('NOT_CHECKED_IN');
    const again = await api('post', 'driver/check-in', d1.token, { lat: 41.8781, lng: -87.6298 }).expect(409);
    expect(again.body).toMatchObject({ code: 'INVALID_TRANSITION', message: expect.stringMatching(/resume/) });
    expect((await api('get', 'driver/status/check-in', d1.token).expect(200)).body.data).toMatchObject({ checked_in: false, status: 'checked_out', attendance: { id: dayId } });

    const resumed = await api('post', 'driver/resume-attendance', d1.token).expect(200);
    expect(resumed.body.data).toMatchObject({ status: 'checked_in', checked_out_at: null, check_out: null });
    expect(resumed.body.data.breaks.map((b: Row) => b.kind)).toEqual(['break', 'checked_out']);
    await repeat('resume-attendance');
    expect((await api('post', 'driver/check-out', d1.token).expect(200)).body.data).toMatchObject({ status: 'checked_out', check_out: null });

    // Exact times: in at 07:00, break 09:00–09:30, out 12:00, resumed 13:00, out 16:00 → 9 h − 30 min − 60 min = 450 min.
    const base = new Date('2026-01-05T13:00:00.000Z');
    await t.ds.query(`UPDATE attendances SET checked_in_at = $2, checked_out_at = $3 WHERE id = $1`, [dayId, at(base, 0), at(base, 540)]);
    await t.ds.query(`UPDATE attendance_breaks SET started_at = $2, ended_at = $3 WHERE attendance_id = $1 AND kind = 'break'`, [dayId, at(base, 120), at(base, 150)]);
    await t.ds.query(`UPDATE attendance_breaks SET started_at = $2, ended_at = $3 WHERE attendance_id = $1 AND kind = 'checked_out'`, [dayId, at(base, 300), at(base, 360)]);

    const shown = (await api('get', `attendances/${dayId}`, co.token).expect(200)).body.data;
    expect(shown).toMatchObject({ id: dayId, status: 'checked_out', checked_in_at: at(base, 0), checked_out_at: at(base, 540), worked_minutes: 450, break_minutes: 30 });
    expect(shown.breaks).toEqual([
      { id: expect.any(String), kind: 'break', started_at: at(base, 120), ended_at: at(base, 150), minutes: 30 },
      { id: expect.any(String), kind: 'checked_out', started_at: at(base, 300), ended_at: at(base, 360), minutes: 60 },
    ]);
    const mine = (await api('get', 'driver/attendances/get', d1.token).expect(200)).body;
    expect(mine.meta.total).toBe(1);
    expect(mine.data[0]).toEqual(shown);

    // One typed event per move, in order.
    const recorded = await events(dayId);
    expect(recorded.map((e) => e.type)).toEqual([
      'attendance.checked_in',
      'attendance.break_started',
      'attendance.break_ended',
      'attendance.checked_out',
      'attendance.resumed',
      'attendance.checked_out',
    ]);
    expect(recorded[0].payload).toEqual({ driver_id: d1.id, work_date: today, truck_id: truckId, lat: 41.8781, lng: -87.6298 });
    expect(recorded[3].payload).toMatchObject({ driver_id: d1.id, work_date: today, auto: false });
  });

  it('counts an open break up to now, and check-out closes it; dispatch reads states and breaks through the service', async () => {
    await api('post', 'driver/check-in', d2.token, { lat: 41.8, lng: -87.6 }).expect(201);
    const day = (await api('post', 'driver/start-break', d2.token).expect(200)).body.data;
    // In 60 minutes ago, on a break for the last 20: 40 worked, whatever the clock says now.
    await t.ds.query(`UPDATE attendances SET checked_in_at = now() - interval '60 minutes' WHERE id = $1`, [day.id]);
    await t.ds.query(`UPDATE attendance_breaks SET started_at = now() - interval '20 minutes' WHERE attendance_id = $1`, [day.id]);
    const open = (await api('get', `attendances/${day.id}`, co.token).expect(200)).body.data;
    expect(open).toMatchObject({ status: 'on_break', worked_minutes: 40, break_minutes: 20, breaks: [{ kind: 'break', ended_at: null, minutes: 20 }] });

    const service = t.app.get(AttendanceService);
    expect(await service.isOnBreak(Scope.company(co.companyId), d2.id)).toBe(true);
    expect(await service.isOnBreak(Scope.company(co.companyId), d1.id)).toBe(false);
    expect(await service.isOnBreak(Scope.company(other.companyId), d2.id)).toBe(false);
    const states = await service.statesOn(Scope.company(co.companyId), today);
    expect(states.get(d2.id)).toEqual({ status: 'on_break', checked_in_at: expect.any(String), checked_out_at: null, truck_id: null });
    expect(states.get(d1.id)).toMatchObject({ status: 'checked_out', truck_id: truckId });
    expect([...(await service.statesOn(Scope.company(co.companyId), today, [d2.id])).keys()]).toEqual([d2.id]);
    expect((await service.statesOn(Scope.company(other.companyId), today)).size).toBe(0);

    const out = (await api('post', 'driver/check-out', d2.token).expect(200)).body.data;
    expect(out.status).toBe('checked_out');
    expect(out.breaks[0].ended_at).toBe(out.checked_out_at);
    expect(out.worked_minutes).toBe(40);
    expect((await events(day.id)).map((e) => e.type)).toEqual(['attendance.checked_in', 'attendance.break_started', 'attendance.checked_out']);
  });

  it('closes a day left open on an earlier date at the end of that date when the driver checks in', async () => {
    const d3 = await memberActor(t, co, 'driver');
    const yesterday = shift(today, -1);
    const [old] = await t.ds.query(
      `INSERT INTO attendances (company_id, driver_id, work_date, status, checked_in_at) VALUES ($1, $2, $3, 'on_break', (($3::date + 0)::timestamp + interval '8 hours') AT TIME ZONE $4) RETURNING id`,
      [co.companyId, d3.id, yesterday, ZONE],
    );
    await t.ds.query(`INSERT INTO attendance_breaks (company_id, attendance_id, started_at) VALUES ($1, $2, (($3::date)::timestamp + interval '12 hours') AT TIME ZONE $4)`, [co.companyId, old.id, yesterday, ZONE]);
    // Still open, so the driver passes DR-IN and the status shows that day.
    expect((await api('get', 'driver/status/check-in', d3.token).expect(200)).body.data).toMatchObject({ checked_in: true, status: 'on_break', attendance: { id: old.id, work_date: yesterday } });

    const fresh = (await api('post', 'driver/check-in', d3.token, { lat: 41.8, lng: -87.6 }).expect(201)).body.data;
    expect(fresh).toMatchObject({ work_date: today, status: 'checked_in' });
    const [{ midnight }] = await t.ds.query(`SELECT (($1::date + 1)::timestamp AT TIME ZONE $2) AS midnight`, [yesterday, ZONE]);
    const closed = (await api('get', `attendances/${old.id}`, co.token).expect(200)).body.data;
    // 08:00 to midnight, break from 12:00: 4 h worked, 12 h on the break.
    expect(closed).toMatchObject({ status: 'checked_out', checked_out_at: new Date(midnight).toISOString(), worked_minutes: 240, break_minutes: 720 });
    expect(closed.breaks[0].ended_at).toBe(new Date(midnight).toISOString());
    expect((await events(old.id)).map((e) => [e.type, e.payload.auto])).toEqual([['attendance.checked_out', true]]);
  });

  it('lets one of two concurrent moves pass (the day row is locked)', async () => {
    const d4 = await memberActor(t, co, 'driver');
    const checkIns = await Promise.all([1, 2].map(() => api('post', 'driver/check-in', d4.token, { lat: 41.8, lng: -87.6 })));
    expect(checkIns.map((r) => r.status).sort()).toEqual([201, 409]);
    const breaks = await Promise.all([1, 2].map(() => api('post', 'driver/start-break', d4.token)));
    expect(breaks.map((r) => r.status).sort()).toEqual([200, 409]);
    const ends = await Promise.all([1, 2].map(() => api('post', 'driver/end-break', d4.token)));
    expect(ends.map((r) => r.status).sort()).toEqual([200, 409]);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM attendance_breaks b JOIN attendances a ON a.id = b.attendance_id WHERE a.driver_id = $1`, [d4.id]);
    expect(n).toBe(1);
  });

  it('refuses bad input with 422 (never 500)', async () => {
    const d5 = await memberActor(t, co, 'driver');
    const refuse = async (body: unknown, field: string) => {
      const res = await api('post', 'driver/check-in', d5.token, body).expect(422);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors?.[field]).toBeDefined();
    };
    await refuse({ lat: 91, lng: -87.6 }, 'lat');
    await refuse({ lat: 'north', lng: -87.6 }, 'lat');
    await refuse({ lat: 41.8, lng: -181 }, 'lng');
    await refuse({ lat: 41.8 }, 'lng');
    await refuse({ lat: null, lng: -87.6 }, 'lat');
    await refuse({ lat: 41.8, lng: -87.6, shoe_size: 44 }, 'shoe_size');
    await refuse({ lat: 41.8, lng: -87.6, truck_id: 'not-a-uuid' }, 'truck_id');
    await refuse({ lat: 41.8, lng: -87.6, truck_id: otherTruckId }, 'truck_id');
    await refuse({ lat: 41.8, lng: -87.6, truck_id: ABSENT_ID }, 'truck_id');
    const maintenance = await api('post', 'driver/check-in', d5.token, { lat: 41.8, lng: -87.6, truck_id: maintenanceTruckId }).expect(422);
    expect(maintenance.body.errors.truck_id).toEqual(['is in maintenance']);
    // Nothing was written by the refused check-ins.
    expect((await api('get', 'driver/status/check-in', d5.token).expect(200)).body.data.status).toBe('not_checked_in');

    await api('post', 'driver/check-in', d5.token, { lat: 41.8, lng: -87.6 }).expect(201);
    expect((await api('post', 'driver/check-out', d5.token, { lat: 41.8 }).expect(422)).body.errors.lng).toBeDefined();
    expect((await api('post', 'driver/check-out', d5.token, { lng: 200, lat: 41.8 }).expect(422)).body.errors.lng).toBeDefined();
    expect((await api('post', 'driver/check-out', d5.token, { lat: 41.8, lng: -87.6, extra: 1 }).expect(422)).body.errors.extra).toBeDefined();

    for (const q of ['from=2027-02-30', 'to=yesterday', 'status=asleep', 'driver_id=nope', 'sort=name', 'per_page=101']) {
      expect((await api('get', `attendances?${q}`, co.token).expect(422)).body.code).toBe('VALIDATION_FAILED');
    }
    for (const q of ['from=2027-13-01', 'q=anything']) await api('get', `driver/attendances/get?${q}`, d5.token).expect(422);
    for (const q of ['from=2027-02-30', 'to=2027-01-01&from=2027-02-01', 'from=2025-01-01&to=2027-01-01', 'extra=1']) {
      expect((await api('get', `attendances/${d5.id}/details?${q}`, co.token).expect(422)).body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('lists, filters and details for the company; other actors and other companies are refused', async () => {
    // Two earlier days of driver 1, written directly: 8 h − 45 min and 6 h − 0 min.
    const day = async (driverId: string, date: string, hours: number, breakMinutes: number) => {
      const [row] = await t.ds.query(
        `INSERT INTO attendances (company_id, driver_id, work_date, status, checked_in_at, checked_out_at)
         VALUES ($1, $2, $3, 'checked_out', ($3::date + time '07:00') AT TIME ZONE $4, ($3::date + time '07:00') AT TIME ZONE $4 + make_interval(hours => $5)) RETURNING id`,
        [co.companyId, driverId, date, ZONE, hours],
      );
      if (breakMinutes) {
        await t.ds.query(
          `INSERT INTO attendance_breaks (company_id, attendance_id, started_at, ended_at)
           VALUES ($1, $2, ($3::date + time '11:00') AT TIME ZONE $4, ($3::date + time '11:00') AT TIME ZONE $4 + make_interval(mins => $5))`,
          [co.companyId, row.id, date, ZONE, breakMinutes],
        );
      }
      return row.id as string;
    };
    const d1Old = await day(d1.id, shift(today, -3), 8, 45);
    const d1Older = await day(d1.id, shift(today, -10), 6, 0);
    const d2Old = await day(d2.id, shift(today, -3), 5, 0);

    const list = async (q = '') => (await api('get', `attendances${q}`, co.token).expect(200)).body;
    const all = await list('?per_page=100');
    // Newest day first; other companies' days never appear.
    const dates = all.data.map((a: Row) => a.work_date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.data.every((a: Row) => a.driver.id !== otherDriver.id)).toBe(true);
    expect(all.data.find((a: Row) => a.id === d1Old)).toMatchObject({ worked_minutes: 435, break_minutes: 45, status: 'checked_out', driver: { id: d1.id } });

    const ofD1 = await list(`?driver_id=${d1.id}`);
    expect(ofD1.data.map((a: Row) => a.id)).toEqual([dayId, d1Old, d1Older]);
    expect(ofD1.meta).toMatchObject({ total: 3, page: 1 });
    expect((await list(`?driver_id=${d1.id}&sort=work_date`)).data.map((a: Row) => a.id)).toEqual([d1Older, d1Old, dayId]);
    expect((await list(`?from=${shift(today, -3)}&to=${shift(today, -3)}`)).data.map((a: Row) => a.id).sort()).toEqual([d1Old, d2Old].sort());
    const checkedOut = await list('?status=checked_out&per_page=100');
    expect(checkedOut.data.length).toBeGreaterThan(3);
    expect(checkedOut.data.every((a: Row) => a.status === 'checked_out')).toBe(true);
    expect((await list('?status=on_break')).data.every((a: Row) => a.status === 'on_break')).toBe(true);
    expect((await list(`?status=checked_out&driver_id=${d2.id}`)).data.map((a: Row) => a.id)).toContain(d2Old);
    const paged = await list(`?driver_id=${d1.id}&per_page=1&page=2`);
    expect(paged.data.map((a: Row) => a.id)).toEqual([d1Old]);
    expect(paged.meta).toMatchObject({ total: 3, last_page: 3, per_page: 1 });
    expect((await list(`?driver_id=${otherDriver.id}`)).data).toEqual([]);

    // Details: days oldest first with their worked minutes, and totals.
    const details = (await api('get', `attendances/${d1.id}/details?from=${shift(today, -10)}&to=${today}`, co.token).expect(200)).body.data;
    expect(details.driver).toEqual({ id: d1.id, name: 'A driver' });
    expect(details.attendances.map((a: Row) => [a.id, a.worked_minutes, a.break_minutes])).toEqual([
      [d1Older, 360, 0],
      [d1Old, 435, 45],
      [dayId, 450, 30],
    ]);
    expect(details.totals).toEqual({ days: 3, worked_minutes: 1245, break_minutes: 75 });
    const month = (await api('get', `attendances/${d1.id}/details`, co.token).expect(200)).body.data;
    expect(month.from).toBe(`${today.slice(0, 7)}-01`);
    expect(month.to.slice(0, 7)).toBe(today.slice(0, 7));
    expect(month.attendances.map((a: Row) => a.id)).toContain(dayId);
    const none = (await api('get', `attendances/${d1.id}/details?from=2020-01-01&to=2020-01-31`, co.token).expect(200)).body.data;
    expect(none).toMatchObject({ attendances: [], totals: { days: 0, worked_minutes: 0, break_minutes: 0 } });

    // Another company's day and driver, a customer's id, absent and malformed ids: 404.
    for (const path of [`attendances/${dayId}`, `attendances/${d1.id}/details`]) expect((await api('get', path, other.token).expect(404)).body.code).toBe('NOT_FOUND');
    for (const path of [`attendances/${ABSENT_ID}`, 'attendances/not-a-uuid', `attendances/${d1.id}`, `attendances/${ABSENT_ID}/details`, `attendances/${customer.id}/details`, `attendances/${otherDriver.id}/details`]) {
      await api('get', path, co.token).expect(404);
    }
    // The wrong actor.
    for (const path of ['attendances', `attendances/${dayId}`, `attendances/${d1.id}/details`]) expect((await api('get', path, d1.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    expect((await api('post', 'driver/check-in', co.token, { lat: 41.8, lng: -87.6 }).expect(403)).body.code).toBe('WRONG_ACTOR');
    expect((await api('get', 'driver/attendances/get', customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    // A driver sees only their own days.
    const d2Days = (await api('get', 'driver/attendances/get?per_page=100', d2.token).expect(200)).body.data;
    expect(d2Days.every((a: Row) => a.driver.id === d2.id)).toBe(true);
    expect((await api('get', `driver/attendances/get?from=${shift(today, -3)}&to=${shift(today, -3)}`, d2.token).expect(200)).body.data.map((a: Row) => a.id)).toEqual([d2Old]);
  });
});
