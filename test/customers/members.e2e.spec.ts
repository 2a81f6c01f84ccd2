import { companyActor, memberActor, PASSWORD, uniqueEmail } from '../support/actors';
import { ABSENT_ID, Cast, startWithCast } from '../support/fixtures';

const ADDRESS = { line1: '1200 Industrial Pkwy', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'us', latitude: 39.7817, longitude: -89.6501 };

describe('company back office: customers, drivers, profiles and addresses', () => {
  let { t, co, other, customer, driver } = {} as Cast;

  beforeAll(async () => ({ t, co, other, customer, driver } = await startWithCast()));
  afterAll(async () => t?.close());

  const events = async (id: string) => (await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 ORDER BY created_at`, [id])) as { type: string; payload: Record<string, unknown> }[];

  describe('customers (company side)', () => {
    it('shows a customer with user and profile fields', async () => {
      const res = await t.req('get', `/api/v1/customer/${customer.id}`, { token: co.token }).expect(200);
      expect(res.body.data).toEqual({
        id: customer.id,
        name: 'A customer',
        email: customer.email,
        phone: null,
        status: 'active',
        email_verified: false,
        billing_name: null,
        billing_email: null,
        tax_exempt: false,
        notes: null,
        pricing_profile_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(res.body.data).not.toHaveProperty('company_id');
    });

    it('404 for another company\'s customer, a driver id, a missing or malformed id; access rule', async () => {
      const foreign = await memberActor(t, other, 'customer');
      await t.req('get', `/api/v1/customer/${foreign.id}`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/customer/${driver.id}`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/customer/${ABSENT_ID}`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/customer/not-a-uuid`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/customer/${foreign.id}/update`, { token: co.token, body: { name: 'X' } }).expect(404);
      await t.req('post', `/api/v1/customer/${foreign.id}/deactivate`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/customer/${customer.id}`).expect(401);
      const wrong = await t.req('get', `/api/v1/customer/${customer.id}`, { token: driver.token }).expect(403);
      expect(wrong.body.code).toBe('WRONG_ACTOR');
      await t.req('get', '/api/v1/customers', { token: customer.token }).expect(403);
    });

    it('updates user and profile fields, records the event, and clears with null', async () => {
      const c = await memberActor(t, co, 'customer');
      const newEmail = uniqueEmail('renamed');
      const res = await t
        .req('put', `/api/v1/customer/${c.id}/update`, {
          token: co.token,
          body: { name: '  Bo Builders ', email: newEmail.toUpperCase(), phone: '+1 555 0199', billing_name: 'Bo Builders LLC', billing_email: 'AP@Bo.test', tax_exempt: true, notes: 'Gate code 4411' },
        })
        .expect(200);
      expect(res.body.data).toMatchObject({ name: 'Bo Builders', email: newEmail, phone: '+1 555 0199', billing_name: 'Bo Builders LLC', billing_email: 'ap@bo.test', tax_exempt: true, notes: 'Gate code 4411' });
      const ev = await events(c.id);
      expect(ev.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
      expect(ev[1].payload.fields).toEqual(expect.arrayContaining(['name', 'email', 'phone', 'billing_name', 'billing_email', 'tax_exempt', 'notes']));
      // The customer logs in with the new address.
      await t.req('post', '/api/v1/auth/login', { body: { email: newEmail, password: PASSWORD } }).expect(200);

      const cleared = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { phone: null, notes: null, billing_name: '' } }).expect(200);
      expect(cleared.body.data).toMatchObject({ name: 'Bo Builders', phone: null, notes: null, billing_name: null, tax_exempt: true });

      // No change: no new event.
      await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { tax_exempt: true } }).expect(200);
      expect((await events(c.id)).length).toBe(3);
    });

    it('refuses a taken e-mail with 409 EMAIL_TAKEN and bad input with 422', async () => {
      const c = await memberActor(t, co, 'customer');
      const taken = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { email: driver.email.toUpperCase() } }).expect(409);
      expect(taken.body.code).toBe('EMAIL_TAKEN');
      const bad = await t
        .req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { name: null, email: 'nope', billing_email: 'x', tax_exempt: 'yes', pricing_profile_id: 'abc', status: 'inactive' } })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['billing_email', 'email', 'name', 'pricing_profile_id', 'status', 'tax_exempt']);
      const unknownProfile = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { pricing_profile_id: ABSENT_ID } }).expect(422);
      expect(unknownProfile.body.errors).toEqual({ pricing_profile_id: ['not found'] });
    });

    it("assigns one of the company's pricing profiles (another company's or a deleted one is 422); null clears", async () => {
      const c = await memberActor(t, co, 'customer');
      const mine = await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'Contractors' } }).expect(201);
      const theirs = await t.req('post', '/api/v1/pricing-profiles', { token: other.token, body: { name: 'Theirs' } }).expect(201);
      const set = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { pricing_profile_id: mine.body.data.id } }).expect(200);
      expect(set.body.data.pricing_profile_id).toBe(mine.body.data.id);
      const filtered = await t.req('get', `/api/v1/customers?pricing_profile_id=${mine.body.data.id}`, { token: co.token }).expect(200);
      expect(filtered.body.data.map((x: { id: string }) => x.id)).toEqual([c.id]);

      const foreign = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { pricing_profile_id: theirs.body.data.id } }).expect(422);
      expect(foreign.body.errors).toEqual({ pricing_profile_id: ['not found'] });
      const spare = await t.req('post', '/api/v1/pricing-profiles', { token: co.token, body: { name: 'Old' } }).expect(201);
      await t.ds.query(`UPDATE pricing_profiles SET deleted_at = now() WHERE id = $1`, [spare.body.data.id]);
      await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { pricing_profile_id: spare.body.data.id } }).expect(422);

      const cleared = await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { pricing_profile_id: null } }).expect(200);
      expect(cleared.body.data.pricing_profile_id).toBeNull();
    });

    it('lists customers with search, status filter, sort and pagination', async () => {
      const co2 = await companyActor(t, 'Lister');
      const made: string[] = [];
      for (const [name, phone] of [
        ['Zed Zinc', '+1 555 0001'],
        ['Amy Apple', '+1 555 0002'],
        ['Mo Marble', '+1 555 7777'],
      ]) {
        const r = await t.req('post', '/api/v1/customer/create', { token: co2.token, body: { name, email: uniqueEmail('l'), phone, password: PASSWORD } }).expect(201);
        made.push(r.body.data.id);
      }
      await t.req('post', `/api/v1/customer/${made[2]}/deactivate`, { token: co2.token }).expect(200);

      const all = await t.req('get', '/api/v1/customers?sort=name', { token: co2.token }).expect(200);
      expect(all.body.data.map((c: { name: string }) => c.name)).toEqual(['Amy Apple', 'Mo Marble', 'Zed Zinc']);
      expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 3, last_page: 1 });

      const byPhone = await t.req('get', '/api/v1/customers?q=7777', { token: co2.token }).expect(200);
      expect(byPhone.body.data.map((c: { id: string }) => c.id)).toEqual([made[2]]);
      const byName = await t.req('get', '/api/v1/customers?q=apple', { token: co2.token }).expect(200);
      expect(byName.body.data.map((c: { id: string }) => c.id)).toEqual([made[1]]);
      const inactive = await t.req('get', '/api/v1/customers?status=inactive', { token: co2.token }).expect(200);
      expect(inactive.body.data.map((c: { id: string }) => c.id)).toEqual([made[2]]);
      const page2 = await t.req('get', '/api/v1/customers?sort=-name&per_page=2&page=2', { token: co2.token }).expect(200);
      expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(['Amy Apple']);
      expect(page2.body.meta).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
      // Never another company's customers; a wildcard is literal.
      const none = await t.req('get', '/api/v1/customers?q=%25', { token: co2.token }).expect(200);
      expect(none.body.data).toEqual([]);

      const bad = await t.req('get', '/api/v1/customers?status=gone&per_page=500&sort=password', { token: co2.token }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['per_page', 'status']);
      const badSort = await t.req('get', '/api/v1/customers?sort=password', { token: co2.token }).expect(422);
      expect(badSort.body.errors).toHaveProperty('sort');
    });

    it('deactivation takes effect at once; repeating a state is 409; activation restores access', async () => {
      const c = await memberActor(t, co, 'customer');
      await t.req('get', '/api/v1/customer/profile', { token: c.token }).expect(200);
      const off = await t.req('post', `/api/v1/customer/${c.id}/deactivate`, { token: co.token }).expect(200);
      expect(off.body.data.status).toBe('inactive');
      const denied = await t.req('get', '/api/v1/customer/profile', { token: c.token }).expect(403);
      expect(denied.body.code).toBe('USER_INACTIVE');
      await t.req('get', '/api/v1/customer/addresses', { token: c.token }).expect(403);

      const again = await t.req('post', `/api/v1/customer/${c.id}/deactivate`, { token: co.token }).expect(409);
      expect(again.body.code).toBe('INVALID_TRANSITION');

      const on = await t.req('post', `/api/v1/customer/${c.id}/activate`, { token: co.token }).expect(200);
      expect(on.body.data.status).toBe('active');
      await t.req('get', '/api/v1/customer/profile', { token: c.token }).expect(200);
      const twice = await t.req('post', `/api/v1/customer/${c.id}/activate`, { token: co.token }).expect(409);
      expect(twice.body.code).toBe('INVALID_TRANSITION');

      const ev = await events(c.id);
      expect(ev.map((e) => e.type)).toEqual(['customer.created', 'customer.deactivated', 'customer.activated']);
      expect(ev[1].payload).toEqual({ from: 'active', to: 'inactive' });
      await t.req('post', `/api/v1/customer/${c.id}/activate`, { token: customer.token }).expect(403);
      await t.req('post', `/api/v1/customer/${c.id}/activate`).expect(401);
    });
  });

  describe('drivers (company side)', () => {
    it('shows, updates, lists, deactivates and activates a driver', async () => {
      const d = await memberActor(t, co, 'driver');
      const shown = await t.req('get', `/api/v1/driver/${d.id}`, { token: co.token }).expect(200);
      expect(shown.body.data).toMatchObject({ id: d.id, email: d.email, status: 'active', license_number: null, license_expires_on: null, hired_on: null, notes: null });

      const upd = await t
        .req('put', `/api/v1/driver/${d.id}/update`, { token: co.token, body: { name: 'Cy Driver', license_number: 'D123-456', license_expires_on: '2028-02-29', hired_on: '2024-03-01', notes: 'CDL class B' } })
        .expect(200);
      expect(upd.body.data).toMatchObject({ name: 'Cy Driver', license_number: 'D123-456', license_expires_on: '2028-02-29', hired_on: '2024-03-01', notes: 'CDL class B' });
      const again = await t.req('get', `/api/v1/driver/${d.id}`, { token: co.token }).expect(200);
      expect(again.body.data.license_expires_on).toBe('2028-02-29');

      const list = await t.req('get', '/api/v1/drivers?q=cy%20driver', { token: co.token }).expect(200);
      expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([d.id]);
      expect(list.body.meta.total).toBe(1);

      await t.req('post', `/api/v1/driver/${d.id}/deactivate`, { token: co.token }).expect(200);
      const blocked = await t.req('post', '/api/v1/driver/profile/update', { token: d.token, body: { phone: '+1 555 0123' } }).expect(403);
      expect(blocked.body.code).toBe('USER_INACTIVE');
      const inactive = await t.req('get', '/api/v1/drivers?status=inactive', { token: co.token }).expect(200);
      expect(inactive.body.data.map((x: { id: string }) => x.id)).toEqual([d.id]);
      expect((await t.req('post', `/api/v1/driver/${d.id}/deactivate`, { token: co.token }).expect(409)).body.code).toBe('INVALID_TRANSITION');
      await t.req('post', `/api/v1/driver/${d.id}/activate`, { token: co.token }).expect(200);
      await t.req('post', '/api/v1/driver/profile/update', { token: d.token, body: { phone: '+1 555 0123' } }).expect(200);
      expect((await events(d.id)).map((e) => e.type)).toEqual(['driver.created', 'driver.updated', 'driver.deactivated', 'driver.activated', 'driver.updated']);
    });

    it('404 for another company\'s driver or a customer id; access; 409 and 422', async () => {
      const foreign = await memberActor(t, other, 'driver');
      await t.req('get', `/api/v1/driver/${foreign.id}`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/driver/${customer.id}`, { token: co.token }).expect(404);
      await t.req('put', `/api/v1/driver/${foreign.id}/update`, { token: co.token, body: { name: 'X' } }).expect(404);
      await t.req('post', `/api/v1/driver/${foreign.id}/activate`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/driver/${ABSENT_ID}`, { token: co.token }).expect(404);
      await t.req('get', `/api/v1/drivers`).expect(401);
      await t.req('get', `/api/v1/drivers`, { token: driver.token }).expect(403);
      await t.req('get', `/api/v1/driver/${driver.id}`, { token: customer.token }).expect(403);
      const taken = await t.req('put', `/api/v1/driver/${driver.id}/update`, { token: co.token, body: { email: customer.email } }).expect(409);
      expect(taken.body.code).toBe('EMAIL_TAKEN');
      const bad = await t.req('put', `/api/v1/driver/${driver.id}/update`, { token: co.token, body: { license_expires_on: '2027-02-30', hired_on: 'yesterday', phone: 'call me', extra: 1 } }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['extra', 'hired_on', 'license_expires_on', 'phone']);
    });

    it('the driver updates its own profile (not notes or hire date)', async () => {
      const d = await memberActor(t, co, 'driver');
      const res = await t.req('post', '/api/v1/driver/profile/update', { token: d.token, body: { name: 'Dee', phone: '+1 555 0456', license_number: 'L-9', license_expires_on: '2029-01-31' } }).expect(200);
      expect(res.body.data).toMatchObject({ id: d.id, name: 'Dee', phone: '+1 555 0456', license_number: 'L-9', license_expires_on: '2029-01-31' });
      expect(res.body.data).not.toHaveProperty('notes');
      const refused = await t.req('post', '/api/v1/driver/profile/update', { token: d.token, body: { notes: 'hi', hired_on: '2020-01-01', email: 'x@y.test' } }).expect(422);
      expect(Object.keys(refused.body.errors).sort()).toEqual(['email', 'hired_on', 'notes']);
      await t.req('post', '/api/v1/driver/profile/update', { token: customer.token, body: {} }).expect(403);
      await t.req('post', '/api/v1/driver/profile/update', { token: co.token, body: {} }).expect(403);
      await t.req('post', '/api/v1/driver/profile/update', { body: {} }).expect(401);
    });

    it('keeps /driver/create and /customer/create working', async () => {
      const r = await t.req('post', '/api/v1/driver/create', { token: co.token, body: { name: 'New', email: uniqueEmail('nd') } }).expect(201);
      expect(r.body.data).toMatchObject({ type: 'driver', has_password: false, company_id: co.companyId });
      const c = await t.req('post', '/api/v1/customer/create', { token: co.token, body: { name: 'New', email: uniqueEmail('nc') } }).expect(201);
      expect(c.body.data).toMatchObject({ type: 'customer', has_password: false });
      const shown = await t.req('get', `/api/v1/customer/${c.body.data.id}`, { token: co.token }).expect(200);
      expect(shown.body.data.tax_exempt).toBe(false);
    });
  });

  describe('customer self-service', () => {
    it('reads and updates the own profile (without the company notes)', async () => {
      const c = await memberActor(t, co, 'customer');
      await t.req('put', `/api/v1/customer/${c.id}/update`, { token: co.token, body: { notes: 'secret note', tax_exempt: true } }).expect(200);
      const me = await t.req('get', '/api/v1/customer/profile', { token: c.token }).expect(200);
      expect(me.body.data).toMatchObject({ id: c.id, company_id: co.companyId, email: c.email, tax_exempt: true, billing_name: null });
      expect(me.body.data).not.toHaveProperty('notes');
      expect(me.body.data).not.toHaveProperty('pricing_profile_id');
      const upd = await t.req('put', '/api/v1/customer/profile', { token: c.token, body: { name: 'Bo', phone: '+1 555 0777', billing_name: 'Bo LLC', billing_email: 'billing@bo.test' } }).expect(200);
      expect(upd.body.data).toMatchObject({ name: 'Bo', phone: '+1 555 0777', billing_name: 'Bo LLC', billing_email: 'billing@bo.test' });
      expect((await events(c.id)).map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
      const refused = await t.req('put', '/api/v1/customer/profile', { token: c.token, body: { tax_exempt: false, notes: 'x', email: 'a@b.test', billing_email: 'no' } }).expect(422);
      expect(Object.keys(refused.body.errors).sort()).toEqual(['billing_email', 'email', 'notes', 'tax_exempt']);
      await t.req('get', '/api/v1/customer/profile', { token: co.token }).expect(403);
      await t.req('get', '/api/v1/customer/profile', { token: driver.token }).expect(403);
      await t.req('put', '/api/v1/customer/profile', { body: { name: 'x' } }).expect(401);
    });

    it('adds addresses: the first is the default; a new default replaces it; lists only its own', async () => {
      const c = await memberActor(t, co, 'customer');
      const a1 = await t.req('post', '/api/v1/customer/addresses', { token: c.token, body: { ...ADDRESS, label: 'Yard', instructions: 'Gravel pad' } }).expect(201);
      expect(a1.body.data).toMatchObject({ customer_id: c.id, label: 'Yard', country: 'US', latitude: 39.7817, longitude: -89.6501, is_default: true, instructions: 'Gravel pad', line2: null });
      const a2 = await t.req('post', '/api/v1/customer/addresses', { token: c.token, body: { ...ADDRESS, line1: '2 Second St' } }).expect(201);
      expect(a2.body.data.is_default).toBe(false);
      const a3 = await t.req('post', '/api/v1/customer/addresses', { token: c.token, body: { ...ADDRESS, line1: '3 Third St', is_default: true } }).expect(201);
      expect(a3.body.data.is_default).toBe(true);

      const list = await t.req('get', '/api/v1/customer/addresses?sort=created_at', { token: c.token }).expect(200);
      expect(list.body.data.map((a: { id: string; is_default: boolean }) => [a.id, a.is_default])).toEqual([
        [a1.body.data.id, false],
        [a2.body.data.id, false],
        [a3.body.data.id, true],
      ]);
      expect(list.body.meta.total).toBe(3);
      const mine = await memberActor(t, co, 'customer');
      const empty = await t.req('get', '/api/v1/customer/addresses', { token: mine.token }).expect(200);
      expect(empty.body.data).toEqual([]);
      expect((await events(a1.body.data.id)).map((e) => e.type)).toEqual(['customer_address.created']);
    });

    it('makes an address the default (exactly one), deletes softly, and hides others\' addresses', async () => {
      const c = await memberActor(t, co, 'customer');
      const a1 = (await t.req('post', '/api/v1/customer/addresses', { token: c.token, body: ADDRESS }).expect(201)).body.data;
      const a2 = (await t.req('post', '/api/v1/customer/addresses', { token: c.token, body: { ...ADDRESS, line1: 'Two' } }).expect(201)).body.data;
      const made = await t.req('post', `/api/v1/customer/addresses/${a2.id}/default`, { token: c.token }).expect(200);
      expect(made.body.data).toMatchObject({ id: a2.id, is_default: true });
      // Idempotent: already the default.
      await t.req('post', `/api/v1/customer/addresses/${a2.id}/default`, { token: c.token }).expect(200);
      const defaults = await t.ds.query(`SELECT id FROM customer_addresses WHERE customer_id = $1 AND is_default AND deleted_at IS NULL`, [c.id]);
      expect(defaults).toEqual([{ id: a2.id }]);

      // Concurrent default changes still leave exactly one.
      await Promise.all([
        t.req('post', `/api/v1/customer/addresses/${a1.id}/default`, { token: c.token }).expect(200),
        t.req('post', `/api/v1/customer/addresses/${a2.id}/default`, { token: c.token }).expect(200),
      ]);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM customer_addresses WHERE customer_id = $1 AND is_default AND deleted_at IS NULL`, [c.id]);
      expect(n).toBe(1);

      // Another customer's address, even of the same company, is a 404.
      const stranger = await memberActor(t, co, 'customer');
      await t.req('delete', `/api/v1/customer/addresses/${a1.id}`, { token: stranger.token }).expect(404);
      await t.req('post', `/api/v1/customer/addresses/${a1.id}/default`, { token: stranger.token }).expect(404);
      await t.req('delete', `/api/v1/customer/addresses/not-a-uuid`, { token: c.token }).expect(404);

      // Deleting the default passes it on; the deleted row stays for history.
      const [current] = await t.ds.query(`SELECT id FROM customer_addresses WHERE customer_id = $1 AND is_default AND deleted_at IS NULL`, [c.id]);
      const remaining = current.id === a1.id ? a2.id : a1.id;
      const del = await t.req('delete', `/api/v1/customer/addresses/${current.id}`, { token: c.token }).expect(200);
      expect(del.body).toEqual({ success: true, data: null });
      const list = await t.req('get', '/api/v1/customer/addresses', { token: c.token }).expect(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: remaining, is_default: true })]);
      const [gone] = await t.ds.query(`SELECT deleted_at FROM customer_addresses WHERE id = $1`, [current.id]);
      expect(gone.deleted_at).not.toBeNull();
      await t.req('delete', `/api/v1/customer/addresses/${current.id}`, { token: c.token }).expect(404);
      await t.req('post', `/api/v1/customer/addresses/${current.id}/default`, { token: c.token }).expect(404);
      expect((await events(current.id)).map((e) => e.type)).toContain('customer_address.deleted');
    });

    it('validates addresses (422) and the access rule', async () => {
      const bad = await t
        .req('post', '/api/v1/customer/addresses', { token: customer.token, body: { line1: '', city: 'X', latitude: 91, longitude: '10', country: 'USA', is_default: 'yes', floor: 2 } })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['country', 'floor', 'is_default', 'latitude', 'line1', 'longitude']);
      const missing = await t.req('post', '/api/v1/customer/addresses', { token: customer.token, body: { line1: 'A', city: 'B' } }).expect(422);
      expect(Object.keys(missing.body.errors).sort()).toEqual(['latitude', 'longitude']);
      await t.req('post', '/api/v1/customer/addresses', { token: co.token, body: ADDRESS }).expect(403);
      await t.req('get', '/api/v1/customer/addresses', { token: driver.token }).expect(403);
      await t.req('get', '/api/v1/customer/addresses').expect(401);
    });
  });
});
