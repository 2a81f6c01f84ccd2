import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { Scope } from '../../src/common/access/scope';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { DemeritService } from '../../src/modules/accountability';
import { memberActor, MemberActor } from '../support/actors';
import { checkIn, completedOrder, deliveredOrder } from '../support/delivery-fixtures';
import { approvedOrder, ApprovedOrder, coPost, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { uploadPng } from '../support/driver-fixtures';
import { inDays } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Demerit points, violations and disputes (issue #14), over HTTP on one world: a same-day company
 * (warning at 3 points, block at 6; tax 8.25 % on all lines), its driver checked in, orders carried
 * to completed / delivered by the driver. The tests run in order and share the world's state:
 * points go 2 → 5 (warning, once) → 6 (blocked) → 4 (a waiver) → 0 (the window).
 */
describe('Demerit points, violations and disputes', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let a: ApprovedOrder; // completed: overfill, then access
  let b: ApprovedOrder; // delivered: the replaced set
  let pending: ApprovedOrder; // approved only: no violations
  let policies: Record<'overfill' | 'access' | 'prohibited' | 'inactive', string>;
  let media: string;
  let other: MemberActor; // a second customer of the company
  let overfillOnA: Row;
  const co = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  const cu = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown, token = w.customer.token) => t.req(method, `/api/v1/${path}`, { token, body });
  const order = async (id: string) => (await co('get', `order/${id}`).expect(200)).body.data as Row;
  const points = async () => (await cu('get', 'customer/demerit-points').expect(200)).body.data as Row;
  const thresholdEvents = async () =>
    ((await t.ds.query(`SELECT payload FROM outbox_events WHERE type = 'customer.demerit_threshold_reached' AND aggregate_id = $1 ORDER BY created_at, id`, [w.customer.id])) as { payload: Row }[]).map((e) => e.payload.level);
  const relay = async () => {
    for (let i = 0; i < 5; i++) await t.app.get(OutboxRelay).runOnce();
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { name: 'Demerit Hauling', assets: 3, settings: { order_lead_time_days: 0, demerit_warning_threshold: 3, demerit_block_threshold: 6 } });
    await checkIn(t, w);
    const policy = (name: string, category: string, demerit_points: number, fee_amount: number, active = true) => coPost(t, w, 'policies', { name, category, demerit_points, fee_amount, active });
    policies = {
      overfill: (await policy('Overfilled container', 'overfill', 2, 7500)).id,
      access: (await policy('Blocked access', 'blocked_access', 1, 2000)).id,
      prohibited: (await policy('Prohibited item', 'prohibited_item', 2, 10000)).id,
      inactive: (await policy('Old rule', 'other', 1, 100, false)).id,
    };
    media = await uploadPng(t);
    a = await completedOrder(t, w);
    b = await deliveredOrder(t, w);
    pending = await approvedOrder(t, w, { delivery_date: inDays(2) });
    other = await memberActor(t, w.company, 'customer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records a violation on a completed order: points and fee copied, the fee (with tax) joins the balance', async () => {
    const before = await order(a.id);
    expect(before.status).toBe('completed');
    const res = await co('post', `orders/${a.id}/violated-policies`, { policy_ids: [policies.overfill], note: 'Loaded above the rim.', evidence_media_ids: [media] }).expect(201);
    const [v] = res.body.data as Row[];
    overfillOnA = v;
    // 7500 + 8.25 % tax (618.75 → 619) = 8119.
    expect(v).toMatchObject({ order_id: a.id, policy_id: policies.overfill, policy_name: 'Overfilled container', policy_category: 'overfill', points: 2, fee_amount: 7500, charged_amount: 8119, status: 'open', evidence_media_ids: [media], messages_count: 0 });
    expect(v.customer.id).toBe(w.customer.id);
    const after = await order(a.id);
    expect(after.total_amount).toBe(before.total_amount + 8119);
    expect(after.balance_amount).toBe(before.balance_amount + 8119);
    expect((after.lines as Row[]).filter((l) => l.description.includes('Overfilled container')).map((l) => [l.kind, l.amount])).toEqual([['policy_fee', 7500]]);
    // A later edit of the policy does not change the violation.
    await co('put', `policies/${policies.overfill}`, { fee_amount: 9999, demerit_points: 5 }).expect(200);
    expect((await co('get', `policy-violations/${v.id}`).expect(200)).body.data).toMatchObject({ points: 2, fee_amount: 7500 });
    await co('put', `policies/${policies.overfill}`, { fee_amount: 7500, demerit_points: 2 }).expect(200);
    expect(await points()).toMatchObject({ points: 2, warning_threshold: 3, block_threshold: 6, window_days: 365, warning_reached: false, blocked: false });
    expect(await thresholdEvents()).toEqual([]);
    // Both sides read the order's violations; the customer its own only.
    expect((await co('get', `demerit/${a.id}/violated-policies`).expect(200)).body.data.map((x: Row) => x.id)).toEqual([v.id]);
    expect((await cu('get', `customer/demerit/${a.id}/orders`).expect(200)).body.data.map((x: Row) => x.id)).toEqual([v.id]);
    await cu('get', `customer/policy-violations/${v.id}`).expect(200);
    await cu('get', `customer/policy-violations/${v.id}`, undefined, other.token).expect(404);
    await cu('get', `customer/demerit/${a.id}/orders`, undefined, other.token).expect(404);
  });

  it('refuses bad input (422), the wrong order state (409) and the wrong actor (403)', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await co('post', `orders/${b.id}/violated-policies`, body).expect(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    };
    await bad({ policy_ids: [] }, 'policy_ids');
    await bad({ policy_ids: ['not-a-uuid'] }, 'policy_ids');
    await bad({ policy_ids: [policies.access], colour: 'red' }, 'colour');
    await bad({ policy_ids: [policies.inactive] }, 'policy_ids.0');
    await bad({ policy_ids: [policies.access, '00000000-0000-4000-8000-000000000000'] }, 'policy_ids.1');
    await bad({ policy_ids: [policies.access], evidence_media_ids: ['00000000-0000-4000-8000-000000000000'] }, 'evidence_media_ids.0');
    await co('post', `orders/${a.id}/violated-policies`, { policy_ids: [policies.overfill] }).expect(422);
    expect((await co('post', `orders/${pending.id}/violated-policies`, { policy_ids: [policies.access] }).expect(409)).body.code).toBe('ORDER_STATE');
    expect((await cu('post', `orders/${b.id}/violated-policies`, { policy_ids: [policies.access] }).expect(403)).body.code).toBe('WRONG_ACTOR');
    await cu('get', 'demerit/customers').expect(403);
    await co('get', 'customer/demerit-points').expect(403);
    await co('post', `orders/00000000-0000-4000-8000-000000000000/violated-policies`, { policy_ids: [policies.access] }).expect(404);
    // Nothing was recorded on B.
    expect((await co('get', `demerit/${b.id}/violated-policies`).expect(200)).body.data).toEqual([]);
  });

  it('replaces the set while none is resolved: removed fees leave the balance, kept ones stay; the warning is recorded once', async () => {
    const start = await order(b.id);
    await co('post', `orders/${b.id}/violated-policies`, { policy_ids: [policies.overfill, policies.access] }).expect(201);
    // 2 (A) + 2 + 1 = 5: over the warning threshold (3).
    expect(await points()).toMatchObject({ points: 5, warning_reached: true, blocked: false });
    expect(await thresholdEvents()).toEqual(['warning']);
    const recorded = await order(b.id);
    expect(recorded.total_amount).toBe(start.total_amount + 8119 + 2165); // access: 2000 + 165 tax
    const kept = ((await co('get', `demerit/${b.id}/violated-policies`).expect(200)).body.data as Row[]).find((x) => x.policy_id === policies.access)!;

    const res = await co('put', `orders/${b.id}/violated-policies/update`, { policy_ids: [policies.access, policies.prohibited], note: 'Found a tyre at the scale.' }).expect(200);
    const set = res.body.data as Row[];
    expect(set.map((x) => x.policy_id)).toEqual([policies.access, policies.prohibited]);
    expect(set[0]).toMatchObject({ id: kept.id, note: 'Found a tyre at the scale.', charged_amount: 2165 });
    expect(set[1]).toMatchObject({ points: 2, fee_amount: 10000, charged_amount: 10825, status: 'open' });
    const replaced = await order(b.id);
    expect(replaced.total_amount).toBe(start.total_amount + 2165 + 10825);
    // The removed fee's lines are voided, still on record.
    const full = (await co('get', `order/${b.id}/full`).expect(200)).body.data as Row;
    expect((full.all_lines as Row[]).filter((l) => l.description.includes('Overfilled')).every((l) => l.voided_at)).toBe(true);
    // 2 (A) + 1 + 2 = 5: still warned, no second event.
    expect(await points()).toMatchObject({ points: 5, warning_reached: true });
    expect(await thresholdEvents()).toEqual(['warning']);
    // The same set again changes nothing; an inactive policy is refused.
    await co('put', `orders/${b.id}/violated-policies/update`, { policy_ids: [policies.access, policies.prohibited] }).expect(200);
    expect((await order(b.id)).total_amount).toBe(replaced.total_amount);
    await co('put', `orders/${b.id}/violated-policies/update`, { policy_ids: [policies.inactive] }).expect(422);
  });

  it('blocks placement over the block threshold (403 DEMERIT_BLOCKED) and lists the customer', async () => {
    await co('post', `orders/${a.id}/violated-policies`, { policy_ids: [policies.access] }).expect(201);
    expect(await points()).toMatchObject({ points: 6, blocked: true, warning_reached: true });
    expect(await thresholdEvents()).toEqual(['warning', 'block']);
    const refused = await cu('post', 'customer/orders', { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: inDays(3) }).expect(403);
    expect(refused.body.code).toBe('DEMERIT_BLOCKED');

    const list = (await co('get', 'demerit/customers').expect(200)).body;
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ customer_id: w.customer.id, points: 6, warning_reached: true, blocked: true, violations_count: 4 });
    expect((await co('get', 'demerit/customers?blocked=false').expect(200)).body.data).toEqual([]);
    expect((await co('get', 'demerit/customers?sort=name').expect(422)).body.errors.sort).toBeDefined();
    const details = (await co('get', `demerit/${w.customer.id}/customer/details`).expect(200)).body.data as Row;
    expect(details).toMatchObject({ points: 6, blocked: true, violations: { open: 4, disputed: 0, upheld: 0, waived: 0 } });
    expect(details.points_change_at).toBeTruthy();
    const orders = (await co('get', `demerit/${w.customer.id}/customer/orders?sort=-points`).expect(200)).body;
    expect(orders.meta.total).toBe(2);
    const byOrder = Object.fromEntries((orders.data as Row[]).map((o) => [o.order_id, o]));
    expect(byOrder[a.id]).toMatchObject({ points: 3, violations_count: 2, charged_amount: 8119 + 2165, credited_amount: 0, violations: { open: 2 } });
    expect(byOrder[b.id]).toMatchObject({ points: 3, violations_count: 2, charged_amount: 2165 + 10825, order_status: 'delivered' });
    expect((await cu('get', 'customer/demerit/orders').expect(200)).body.meta.total).toBe(2);
    expect((await cu('get', 'customer/demerit/details').expect(200)).body.data).toMatchObject({ points: 6, customer: { id: w.customer.id } });
    await co('get', `demerit/${other.id}/customer/details`).expect(200);
  });

  it('runs a dispute: the customer opens it, both write, the customer edits and deletes its own messages only', async () => {
    const v = overfillOnA.id as string;
    const opened = (await cu('post', `customer/policy-violations/${v}/dispute-messages`, { body: 'It was level with the rim.', evidence_media_ids: [media] }).expect(201)).body.data as Row;
    expect(opened.violation).toMatchObject({ status: 'disputed', messages_count: 1 });
    expect(opened.open).toBe(true);
    const mine = opened.messages[0] as Row;
    expect(mine).toMatchObject({ author_type: 'customer', author_id: w.customer.id, edited_at: null, resolution: null });
    const reply = ((await co('post', `policy-violations/${v}/dispute-messages`, { body: 'Our photo shows 40 cm above.' }).expect(201)).body.data.messages as Row[]).at(-1)!;
    expect(reply.author_type).toBe('company');
    const second = ((await cu('post', `customer/policy-violations/${v}/dispute-messages`, { body: 'Typo, ignore.' }).expect(201)).body.data.messages as Row[]).at(-1)!;

    const edited = (await cu('patch', `customer/policy-violation-disputes/messages/${mine.id}`, { body: 'It was level with the rim: photo attached.' }).expect(200)).body.data as Row;
    expect(edited.body).toBe('It was level with the rim: photo attached.');
    expect(edited.edited_at).toBeTruthy();
    expect((await cu('patch', `customer/policy-violation-disputes/messages/${reply.id}`, { body: 'Hacked.' }).expect(403)).body.code).toBe('NOT_AUTHOR');
    await cu('delete', `customer/policy-violation-disputes/messages/${reply.id}`).expect(403);
    await cu('patch', `customer/policy-violation-disputes/messages/${mine.id}`, { body: '' }).expect(422);
    await cu('patch', `customer/policy-violation-disputes/messages/${mine.id}`, { body: 'x' }, other.token).expect(404);
    await cu('delete', `customer/policy-violation-disputes/messages/${second.id}`).expect(200);
    await cu('get', `customer/policy-violation-disputes/messages/${second.id}`).expect(404);
    await co('get', `policy-violation-disputes/messages/${second.id}`).expect(404);
    expect((await cu('get', `customer/policy-violation-disputes/messages/${reply.id}`).expect(200)).body.data.body).toBe('Our photo shows 40 cm above.');

    const dispute = (await co('get', `policy-violation-disputes/${v}`).expect(200)).body.data as Row;
    expect(dispute.messages.map((x: Row) => x.id)).toEqual([mine.id, reply.id]);
    expect((await cu('get', `customer/policy-violation-disputes/${v}`).expect(200)).body.data.violation.messages_count).toBe(2);
    await cu('get', `customer/policy-violation-disputes/${v}`, undefined, other.token).expect(404);
    await cu('post', `customer/policy-violations/${v}/dispute-messages`, { body: 'Me too.' }, other.token).expect(404);
    expect(Object.keys((await cu('post', `customer/policy-violations/${v}/dispute-messages`, { body: 'x', resolution: 'waived' }).expect(422)).body.errors)).toContain('resolution');
    expect(Object.keys((await co('post', `policy-violations/${v}/dispute-messages`, { body: 'x', resolution: 'maybe' }).expect(422)).body.errors)).toContain('resolution');
  });

  it('waives: points gone, the fee credited on the bill, what was paid beyond it credited to the wallet', async () => {
    // What happened to the order before (its completion: nothing paid, nothing to credit) is relayed first, so the credit below is the waiver's.
    await relay();
    // The customer pays the whole balance (the fee included) first.
    const instrument = (await cu('post', 'customer/psp/payment-instrument', { token: 'tok_visa' }).expect(201)).body.data as Row;
    await cu('post', `customer/orders/${a.id}/pay`, { instrument_id: instrument.id }).expect(201);
    const paid = await order(a.id);
    expect(paid.balance_amount).toBe(0);

    const closed = (await co('post', `policy-violations/${overfillOnA.id}/dispute-messages`, { body: 'Fair enough: waived.', resolution: 'waived' }).expect(201)).body.data as Row;
    expect(closed.open).toBe(false);
    expect(closed.violation).toMatchObject({ status: 'waived', credited_amount: 8119 });
    expect(closed.violation.resolved_at).toBeTruthy();
    expect(closed.messages.at(-1)).toMatchObject({ author_type: 'company', resolution: 'waived' });
    const waived = await order(a.id);
    expect(waived.total_amount).toBe(paid.total_amount - 8119);
    expect((waived.lines as Row[]).filter((l) => l.description.startsWith('Waived:')).reduce((s, l) => s + l.amount, 0)).toBe(-8119);
    // 6 − 2 = 4: below the block threshold again, still warned.
    expect(await points()).toMatchObject({ points: 4, blocked: false, warning_reached: true });
    await cu('post', 'customer/orders', { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: inDays(3) }).expect(201);

    // The relay credits the overpayment (the waived fee, paid) to the wallet; the order is settled.
    await relay();
    expect((await cu('get', 'wallet').expect(200)).body.data.balance_amount).toBe(8119);
    expect(await order(a.id)).toMatchObject({ balance_amount: 0, paid_amount: waived.total_amount });
    // The ledger says what the credit is, naming the order as people know it.
    const [credit] = await t.ds.query(`SELECT description FROM payment_transactions WHERE order_id = $1 AND kind = 'wallet_credit'`, [a.id]);
    expect(credit.description).toBe(`Waived policy fee of ${waived.number}, credited to the wallet`);

    // Closed: no more messages, no edits; the order's set can no longer be replaced.
    await cu('post', `customer/policy-violations/${overfillOnA.id}/dispute-messages`, { body: 'Thanks!' }).expect(409);
    const mine = ((await cu('get', `customer/policy-violation-disputes/${overfillOnA.id}`).expect(200)).body.data.messages as Row[]).find((x) => x.author_type === 'customer')!;
    expect((await cu('patch', `customer/policy-violation-disputes/messages/${mine.id}`, { body: 'Edit.' }).expect(409)).body.code).toBe('INVALID_TRANSITION');
    await cu('delete', `customer/policy-violation-disputes/messages/${mine.id}`).expect(409);
    expect((await co('put', `orders/${a.id}/violated-policies/update`, { policy_ids: [] }).expect(409)).body.code).toBe('VIOLATION_RESOLVED');
  });

  it('upholds an undisputed violation (open → upheld), but does not waive one', async () => {
    const onB = (await co('get', `demerit/${b.id}/violated-policies`).expect(200)).body.data as Row[];
    const waive = await co('post', `policy-violations/${onB[1].id}/dispute-messages`, { body: 'Waived.', resolution: 'waived' }).expect(409);
    expect(waive.body.code).toBe('INVALID_TRANSITION');
    const upheld = (await co('post', `policy-violations/${onB[0].id}/dispute-messages`, { body: 'Confirmed by the driver.', resolution: 'upheld' }).expect(201)).body.data as Row;
    expect(upheld.violation).toMatchObject({ status: 'upheld', credited_amount: 0 });
    expect((await co('post', `policy-violations/${onB[0].id}/dispute-messages`, { body: 'Again.', resolution: 'waived' }).expect(409)).body.code).toBe('INVALID_TRANSITION');
    expect(await points()).toMatchObject({ points: 4 });
    expect((await cu('get', 'customer/demerit/details').expect(200)).body.data.violations).toEqual({ open: 2, disputed: 0, upheld: 1, waived: 1 });
  });

  it('lets points leave the window with time, and follows threshold changes', async () => {
    // A year and a day later (the recompute job's clock), every violation has left the 365-day window.
    expect(await t.app.get(DemeritService).refreshDue(new Date(Date.now() + 366 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await points()).toMatchObject({ points: 0, warning_reached: false, blocked: false, points_change_at: null });
    // Now again: the window counts them (1 on A, 1 + 2 on B): warned again, a second warning event.
    await t.app.get(UnitOfWork).transaction(() => t.app.get(DemeritService).refresh(Scope.company(w.company.companyId), w.customer.id));
    expect(await points()).toMatchObject({ points: 4, warning_reached: true, blocked: false });
    expect(await thresholdEvents()).toEqual(['warning', 'block', 'warning']);
    // A lower block threshold blocks the customer once the relay has run the settings change.
    await co('post', 'company/settings', { demerit_block_threshold: 4 }).expect(200);
    await relay();
    expect(await points()).toMatchObject({ points: 4, block_threshold: 4, blocked: true });
    expect((await cu('post', 'customer/orders', { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: inDays(3) }).expect(403)).body.code).toBe('DEMERIT_BLOCKED');
  });
});
