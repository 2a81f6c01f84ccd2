import { Scope } from '../../src/common/access/scope';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { CompanySettingsService } from '../../src/modules/companies/company-settings.service';
import { PASSWORD, companyActor, uniqueEmail } from '../support/actors';
import { ABSENT_ID, Cast, startWithCast } from '../support/fixtures';

const DEFAULTS = {
  order_lead_time_days: 1,
  auto_approve_orders: false,
  free_cancellation_hours: 24,
  cancellation_fee_amount: 0,
  demerit_warning_threshold: 10,
  demerit_block_threshold: 20,
  demerit_window_days: 365,
  annual_leave_allowance_days: 20,
  sick_leave_allowance_days: 10,
  unpaid_leave_allowance_days: 0,
  other_leave_allowance_days: 0,
  refund_excess_to: 'customer',
  shift_start_time: '07:00',
  shift_minutes: 600,
  average_speed_kmh: 40,
  service_minutes_delivery: 15,
  service_minutes_pickup: 15,
  service_minutes_swap: 25,
  service_minutes_dump_return: 20,
  service_minutes_relocate: 20,
  station_minutes: 20,
  arrival_slip_minutes: 15,
};

describe('company back office (/api/v1/company/update, user/update, documents, settings)', () => {
  let { t, co, other, customer, driver } = {} as Cast;

  beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast({ other: 'Rival Hauling' })));
  afterAll(async () => t?.close());

  it('applies the access rule on every route: no token 401, customer or driver 403, no company 403', async () => {
    const reg = await t.req('post', '/api/v1/auth/register', { body: { name: 'New', email: uniqueEmail('n'), password: PASSWORD, type: 'company' } }).expect(201);
    const routes: [('get' | 'post' | 'delete'), string, unknown][] = [
      ['post', '/api/v1/company/update', { name: 'X' }],
      ['post', '/api/v1/company/user/update', { name: 'X' }],
      ['get', '/api/v1/company/documents', undefined],
      ['post', '/api/v1/company/documents', { documents: [] }],
      ['delete', `/api/v1/company/documents/${ABSENT_ID}`, undefined],
      ['get', '/api/v1/company/settings', undefined],
      ['post', '/api/v1/company/settings', {}],
      ['post', '/api/v1/company/settings/reset', undefined],
    ];
    for (const [method, path, body] of routes) {
      await t.req(method, path, { body }).expect(401);
      expect((await t.req(method, path, { token: customer.token, body }).expect(403)).body.code).toBe('WRONG_ACTOR');
      await t.req(method, path, { token: driver.token, body }).expect(403);
      expect((await t.req(method, path, { token: reg.body.data.token, body }).expect(403)).body.code).toBe('NO_COMPANY');
    }
  });

  describe('company/update', () => {
    it('updates the caller\'s company only, mirrors timezone/currency into settings, records the event', async () => {
      await t.req('post', '/api/v1/company/settings', { token: co.token, body: { order_lead_time_days: 2 } }).expect(200);
      const res = await t.req('post', '/api/v1/company/update', { token: co.token, body: { name: 'Acme Roll-Off', email: 'Office@Acme.test', phone: '+1 555 0199', timezone: 'Europe/Berlin', currency: 'eur' } }).expect(200);
      expect(res.body.data).toMatchObject({ id: co.companyId, name: 'Acme Roll-Off', email: 'office@acme.test', phone: '+1 555 0199', timezone: 'Europe/Berlin', currency: 'EUR' });
      const settings = await t.req('get', '/api/v1/company/settings', { token: co.token }).expect(200);
      expect(settings.body.data).toMatchObject({ timezone: 'Europe/Berlin', currency: 'EUR', order_lead_time_days: 2 });
      const [row] = await t.ds.query(`SELECT timezone, currency FROM company_settings WHERE company_id = $1`, [co.companyId]);
      expect(row).toEqual({ timezone: 'Europe/Berlin', currency: 'EUR' });
      const cleared = await t.req('post', '/api/v1/company/update', { token: co.token, body: { phone: null } }).expect(200);
      expect(cleared.body.data).toMatchObject({ phone: null, name: 'Acme Roll-Off' });
      const theirs = await t.req('get', '/api/v1/company', { token: other.token }).expect(200);
      expect(theirs.body.data.name).toBe('Rival Hauling');
      const events = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'company.updated' AND company_id = $1`, [co.companyId]);
      expect(events[0].n).toBe(2);
    });

    it('rejects bad input with 422', async () => {
      const res = await t.req('post', '/api/v1/company/update', { token: co.token, body: { name: null, email: 'nope', timezone: 'Mars/Olympus', currency: 'XXXX', plan: 'gold' } }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['currency', 'email', 'name', 'plan', 'timezone']);
      await t.req('post', '/api/v1/company/update', { token: co.token, body: { timezone: null } }).expect(422);
    });
  });

  describe('company/user/update', () => {
    it('updates the caller\'s own name, phone and e-mail (new address unverified)', async () => {
      const me = await companyActor(t, 'Solo Hauling');
      await t.ds.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [me.userId]);
      const email = uniqueEmail('renamed');
      const res = await t.req('post', '/api/v1/company/user/update', { token: me.token, body: { name: 'Dana Reyes', phone: '+1 555 0100', email: email.toUpperCase() } }).expect(200);
      expect(res.body.data).toMatchObject({ id: me.userId, name: 'Dana Reyes', phone: '+1 555 0100', email, email_verified: false, company_id: me.companyId });
      expect(res.body.data).not.toHaveProperty('password_hash');
      const profile = await t.req('get', '/api/v1/auth/me', { token: me.token }).expect(200);
      expect(profile.body.data).toMatchObject({ name: 'Dana Reyes', email });
      await t.req('post', '/api/v1/auth/login', { body: { email, password: PASSWORD } }).expect(200);
      // Same address again: no conflict with itself.
      await t.req('post', '/api/v1/company/user/update', { token: me.token, body: { email } }).expect(200);
    });

    it('refuses an address another user has (409 EMAIL_TAKEN) and bad input (422)', async () => {
      const taken = await t.req('post', '/api/v1/company/user/update', { token: co.token, body: { email: other.email.toUpperCase() } }).expect(409);
      expect(taken.body.code).toBe('EMAIL_TAKEN');
      const bad = await t.req('post', '/api/v1/company/user/update', { token: co.token, body: { name: '', email: null, phone: 'call me', status: 'inactive' } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'name', 'phone', 'status']);
      const [row] = await t.ds.query(`SELECT email FROM users WHERE id = $1`, [co.userId]);
      expect(row.email).toBe(co.email);
    });
  });

  describe('documents', () => {
    const docs = [
      { name: 'Operating permit', type: 'Permit', url: 'https://files.acme.test/permit.pdf' },
      { name: 'Insurance certificate', type: 'insurance', url: 'https://files.acme.test/ins.pdf', expires_on: '2031-06-30' },
    ];

    it('replaces the set, lists (type, q filters) and deletes one; scoped to the company', async () => {
      const set = await t.req('post', '/api/v1/company/documents', { token: co.token, body: { documents: docs } }).expect(200);
      expect(set.body.data.map((d: { name: string }) => d.name)).toEqual(['Insurance certificate', 'Operating permit']);
      expect(set.body.data[0]).toMatchObject({ type: 'insurance', expires_on: '2031-06-30', url: 'https://files.acme.test/ins.pdf' });
      expect(set.body.data[1]).toMatchObject({ type: 'permit', expires_on: null });
      await t.req('post', '/api/v1/company/documents', { token: other.token, body: { documents: [{ name: 'Theirs', type: 'license', url: 'https://rival.test/l.pdf' }] } }).expect(200);

      const list = await t.req('get', '/api/v1/company/documents', { token: co.token }).expect(200);
      expect(list.body.meta.total).toBe(2);
      expect((await t.req('get', '/api/v1/company/documents?type=permit', { token: co.token }).expect(200)).body.data.map((d: { name: string }) => d.name)).toEqual(['Operating permit']);
      expect((await t.req('get', '/api/v1/company/documents?q=insur', { token: co.token }).expect(200)).body.data).toHaveLength(1);
      expect((await t.req('get', '/api/v1/company/documents?sort=-expires_on', { token: co.token }).expect(200)).body.data).toHaveLength(2);

      // Replacing again drops the old rows.
      const again = await t.req('post', '/api/v1/company/documents', { token: co.token, body: { documents: [docs[0]] } }).expect(200);
      expect(again.body.data).toHaveLength(1);
      await t.req('get', '/api/v1/company/documents', { token: co.token }).expect(200).then((r) => expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([again.body.data[0].id]));

      const theirs = (await t.req('get', '/api/v1/company/documents', { token: other.token }).expect(200)).body.data[0];
      await t.req('delete', `/api/v1/company/documents/${theirs.id}`, { token: co.token }).expect(404);
      await t.req('delete', `/api/v1/company/documents/${ABSENT_ID}`, { token: co.token }).expect(404);
      await t.req('delete', '/api/v1/company/documents/not-a-uuid', { token: co.token }).expect(404);
      expect((await t.req('get', '/api/v1/company/documents', { token: other.token }).expect(200)).body.data).toHaveLength(1);

      const del = await t.req('delete', `/api/v1/company/documents/${again.body.data[0].id}`, { token: co.token }).expect(200);
      expect(del.body).toMatchObject({ success: true, data: null });
      expect((await t.req('get', '/api/v1/company/documents', { token: co.token }).expect(200)).body.data).toEqual([]);
      const cleared = await t.req('post', '/api/v1/company/documents', { token: other.token, body: { documents: [] } }).expect(200);
      expect(cleared.body.data).toEqual([]);
    });

    it('rejects bad documents with 422', async () => {
      const res = await t.req('post', '/api/v1/company/documents', { token: co.token, body: { documents: [{ name: '', type: 'x', url: 'javascript:alert(1)', expires_on: '2031-02-30', extra: true }] } }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['documents.0.expires_on', 'documents.0.extra', 'documents.0.name', 'documents.0.url']);
      await t.req('post', '/api/v1/company/documents', { token: co.token, body: docs }).expect(422);
      await t.req('post', '/api/v1/company/documents', { token: co.token, body: { documents: 'all' } }).expect(422);
      await t.req('get', '/api/v1/company/documents?sort=url', { token: co.token }).expect(422);
    });
  });

  describe('settings', () => {
    it('reads the defaults before any write, updates partially, resets to defaults', async () => {
      const fresh = await companyActor(t, 'Fresh Hauling');
      const shown = await t.req('get', '/api/v1/company/settings', { token: fresh.token }).expect(200);
      expect(shown.body.data).toEqual({ timezone: 'America/Chicago', currency: 'USD', ...DEFAULTS, updated_at: null });
      expect(await t.ds.query(`SELECT 1 FROM company_settings WHERE company_id = $1`, [fresh.companyId])).toEqual([]);

      const upd = await t.req('post', '/api/v1/company/settings', { token: fresh.token, body: { auto_approve_orders: true, cancellation_fee_amount: 2500, demerit_warning_threshold: 5, timezone: 'America/Denver' } }).expect(200);
      expect(upd.body.data).toMatchObject({ ...DEFAULTS, auto_approve_orders: true, cancellation_fee_amount: 2500, demerit_warning_threshold: 5, timezone: 'America/Denver', currency: 'USD' });
      expect(upd.body.data.updated_at).toEqual(expect.any(String));
      expect((await t.req('get', '/api/v1/company', { token: fresh.token }).expect(200)).body.data.timezone).toBe('America/Denver');
      const again = await t.req('post', '/api/v1/company/settings', { token: fresh.token, body: { sick_leave_allowance_days: 12, unpaid_leave_allowance_days: 5 } }).expect(200);
      expect(again.body.data).toMatchObject({ auto_approve_orders: true, sick_leave_allowance_days: 12, unpaid_leave_allowance_days: 5, other_leave_allowance_days: 0 });

      // Other modules read them through the service (here: another company still has defaults).
      const svc = t.app.get(CompanySettingsService);
      expect(await svc.get(Scope.company(fresh.companyId))).toMatchObject({ auto_approve_orders: true, cancellation_fee_amount: 2500 });
      expect(await svc.get(Scope.company(other.companyId))).toMatchObject(DEFAULTS);
      await t.app.get(UnitOfWork).transaction(async () => expect((await svc.get(Scope.company(fresh.companyId))).sick_leave_allowance_days).toBe(12));

      const reset = await t.req('post', '/api/v1/company/settings/reset', { token: fresh.token }).expect(200);
      expect(reset.body.data).toMatchObject({ ...DEFAULTS, timezone: 'America/Denver', currency: 'USD' });
      const events = await t.ds.query(`SELECT type FROM outbox_events WHERE company_id = $1 AND type LIKE 'company.settings%' ORDER BY created_at`, [fresh.companyId]);
      expect(events.map((e: { type: string }) => e.type)).toEqual(['company.settings_updated', 'company.settings_updated', 'company.settings_reset']);
    });

    it('rejects bad settings with 422 (types, ranges, unknown fields, block below warning)', async () => {
      const res = await t.req('post', '/api/v1/company/settings', { token: co.token, body: { order_lead_time_days: -1, auto_approve_orders: 'yes', cancellation_fee_amount: 9.99, demerit_window_days: 0, currency: 'ZZZ', colour: 'red', free_cancellation_hours: null, unpaid_leave_allowance_days: -1, other_leave_allowance_days: 367 } }).expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['auto_approve_orders', 'cancellation_fee_amount', 'colour', 'currency', 'demerit_window_days', 'free_cancellation_hours', 'order_lead_time_days', 'other_leave_allowance_days', 'unpaid_leave_allowance_days']);
      const order = await t.req('post', '/api/v1/company/settings', { token: co.token, body: { demerit_warning_threshold: 30 } }).expect(422);
      expect(order.body.errors).toHaveProperty('demerit_block_threshold');
      expect((await t.req('get', '/api/v1/company/settings', { token: co.token }).expect(200)).body.data.demerit_warning_threshold).toBe(10);
    });

    it('keeps the planning settings (issue #26): shift, speed, minutes per stop, arrival slip; bad ones are 422', async () => {
      const fresh = await companyActor(t, 'Planning Hauling');
      const body = { shift_start_time: '06:30', shift_minutes: 540, average_speed_kmh: 35, service_minutes_swap: 30, station_minutes: 25, arrival_slip_minutes: 10 };
      const upd = await t.req('post', '/api/v1/company/settings', { token: fresh.token, body }).expect(200);
      expect(upd.body.data).toMatchObject({ ...body, service_minutes_delivery: 15, service_minutes_pickup: 15 });
      const bad = await t.req('post', '/api/v1/company/settings', { token: fresh.token, body: { shift_start_time: '24:00', shift_minutes: 10, average_speed_kmh: 0, service_minutes_pickup: 601, arrival_slip_minutes: 0 } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['arrival_slip_minutes', 'average_speed_kmh', 'service_minutes_pickup', 'shift_minutes', 'shift_start_time']);
      expect((await t.req('get', '/api/v1/company/settings', { token: fresh.token }).expect(200)).body.data.shift_start_time).toBe('06:30');
    });
  });
});
