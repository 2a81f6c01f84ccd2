import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { checkIn, completedOrder, deliveredOrder } from '../support/delivery-fixtures';
import { coPost, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { inDays } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Issue #14 end to end, over HTTP only (the relay is run in process, as the server's poller would): a
 * violation on a completed order, disputed and waived, with the notifications each side gets; a chat
 * among the company, the customer and the driver who did the job, with an edit and a delete; every
 * actor reads and deletes a notification; a customer over the block threshold cannot place an order.
 * The steps share one world and run in order.
 */
describe('flow: a disputed overfill, the order chat and everyone’s notifications', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let overfill: string;
  let prohibited: string;
  let orderId: string;
  let violationId: string;
  const as = (token: string) => (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  let co: ReturnType<typeof as>;
  let cu: ReturnType<typeof as>;
  let dr: ReturnType<typeof as>;
  const relay = async () => {
    for (let i = 0; i < 4; i++) await t.app.get(OutboxRelay).runOnce();
  };
  const balance = async () => ((await co('get', `order/${orderId}`).expect(200)).body.data as Row).balance_amount as number;
  const notifications = async (prefix: '' | 'customer/' | 'driver/', who: ReturnType<typeof as>) => (await who('get', `${prefix}notifications/get`).expect(200)).body as { data: Row[]; meta: Row };

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { name: 'Flow Hauling', assets: 3, settings: { order_lead_time_days: 0, demerit_warning_threshold: 2, demerit_block_threshold: 4 } });
    co = as(w.company.token);
    cu = as(w.customer.token);
    dr = as(w.driver.token);
    await checkIn(t, w);
    overfill = (await coPost(t, w, 'policies', { name: 'Overfilled container', category: 'overfill', demerit_points: 2, fee_amount: 7500, active: true })).id;
    prohibited = (await coPost(t, w, 'policies', { name: 'Prohibited item', category: 'prohibited_item', demerit_points: 2, fee_amount: 10000, active: true })).id;
    orderId = (await completedOrder(t, w)).id;
    await relay(); // the order's own notifications (placed, approved, scheduled, …) are out of the way
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the company records an overfill: the balance grows by the fee, the customer is notified and warned', async () => {
    const before = await balance();
    const [v] = (await co('post', `orders/${orderId}/violated-policies`, { policy_ids: [overfill], note: 'Loaded 40 cm above the rim.' }).expect(201)).body.data as Row[];
    violationId = v.id;
    expect(v).toMatchObject({ status: 'open', points: 2, fee_amount: 7500 });
    expect(v.charged_amount).toBeGreaterThanOrEqual(7500);
    expect(await balance()).toBe(before + v.charged_amount);
    expect((await cu('get', 'customer/demerit-points').expect(200)).body.data).toMatchObject({ points: 2, warning_reached: true, blocked: false });

    await relay();
    const mine = await notifications('customer/', cu);
    expect(mine.data.map((n) => n.type)).toEqual(expect.arrayContaining(['policy_violation.recorded', 'customer.demerit_threshold_reached']));
    expect(mine.data.find((n) => n.type === 'policy_violation.recorded')).toMatchObject({ read_at: null, data: expect.objectContaining({ order_id: orderId }) });
  });

  it('the customer disputes, both write, the customer edits its message; each side is told of the other’s', async () => {
    const opened = (await cu('post', `customer/policy-violations/${violationId}/dispute-messages`, { body: 'It was level with the rim.' }).expect(201)).body.data as Row;
    const first = (opened.messages as Row[]).at(-1)!;
    expect((await co('get', `policy-violations/${violationId}`).expect(200)).body.data.status).toBe('disputed');
    await co('post', `policy-violations/${violationId}/dispute-messages`, { body: 'Our photo shows 40 cm above.' }).expect(201);
    await cu('patch', `customer/policy-violation-disputes/messages/${first.id}`, { body: 'It was level with the rim: see the photo.' }).expect(200);
    const dispute = (await co('get', `policy-violation-disputes/${violationId}`).expect(200)).body.data as Row;
    expect((dispute.messages as Row[]).map((m) => [m.author_type, m.body])).toEqual([
      ['customer', 'It was level with the rim: see the photo.'],
      ['company', 'Our photo shows 40 cm above.'],
    ]);
    expect((dispute.messages as Row[])[0].edited_at).toBeTruthy();

    await relay();
    expect((await notifications('', co)).data.map((n) => n.type)).toContain('policy_violation.dispute_message_posted');
    expect((await notifications('customer/', cu)).data.map((n) => n.type)).toContain('policy_violation.dispute_message_posted');
  });

  it('the company waives: the points are gone, the fee is credited, the customer is told', async () => {
    const before = await balance();
    const closed = (await co('post', `policy-violations/${violationId}/dispute-messages`, { body: 'Fair enough: waived.', resolution: 'waived' }).expect(201)).body.data as Row;
    expect(closed.violation).toMatchObject({ status: 'waived' });
    expect(closed.violation.credited_amount).toBe(closed.violation.charged_amount);
    expect(await balance()).toBe(before - closed.violation.credited_amount);
    expect((await cu('get', 'customer/demerit-points').expect(200)).body.data).toMatchObject({ points: 0, blocked: false });
    await cu('patch', `customer/policy-violation-disputes/messages/${(closed.messages as Row[])[0].id}`, { body: 'Late edit.' }).expect(409);

    await relay();
    const resolved = (await notifications('customer/', cu)).data.find((n) => n.type === 'policy_violation.resolved');
    expect(resolved).toMatchObject({ title: 'Violation waived' });
  });

  it('a chat among the company, the customer and the driver on the order, with an edit and a delete', async () => {
    const chat = (await cu('post', `customer/chats/${orderId}/create`).expect(201)).body.data as Row;
    expect((await co('post', `company/chats/${orderId}/create`).expect(200)).body.data.id).toBe(chat.id);
    const fromCustomer = (await cu('post', `customer/chats/${chat.id}/message`, { body: 'Can you pick up the spare lid too?' }).expect(201)).body.data as Row;
    await co('post', `company/chats/${chat.id}/message`, { body: 'Yes, the driver will take it.' }).expect(201);
    const fromDriver = (await dr('post', `driver/chats/${chat.id}/message`, { body: 'Will do, tomorrow at 8.' }).expect(201)).body.data as Row;
    await dr('put', `chats/message/${fromDriver.id}`, { body: 'Will do, tomorrow at 9.' }).expect(200);
    await cu('delete', `chats/message/${fromCustomer.id}`).expect(200);
    await co('put', `chats/message/${fromDriver.id}`, { body: 'Not mine to edit.' }).expect(403);

    const seen = (await co('get', `company/chats/${chat.id}/messages`).expect(200)).body.data as Row[];
    expect(seen.map((m) => m.body)).toEqual(['Will do, tomorrow at 9.', 'Yes, the driver will take it.', null]);
    expect(seen[0].edited_at).toBeTruthy();
    expect(seen[2].deleted_at).toBeTruthy();
    expect((await dr('get', `driver/chats/${chat.id}/messages`).expect(200)).body.data).toHaveLength(3);
    const listed = ((await cu('get', 'chats').expect(200)).body.data as Row[]).find((c) => c.id === chat.id);
    expect(listed).toBeDefined();
    expect(listed!.unread_count).toBe(2);
  });

  it('every actor has notifications: reads one, reads all, deletes one', async () => {
    await relay();
    // The driver was told of the others' chat messages (the company's and the customer's), not of their own.
    expect((await notifications('driver/', dr)).data.filter((n) => n.type === 'chat.message_posted')).toHaveLength(2);
    for (const [prefix, who] of [['', co], ['customer/', cu], ['driver/', dr]] as const) {
      const list = await notifications(prefix, who);
      expect(list.data.length).toBeGreaterThan(0);
      expect(list.meta.unread_count).toBeGreaterThan(0);
      const [newest] = list.data;
      expect((await who('post', `${prefix}notifications/${newest.id}/read`).expect(200)).body.data.read_at).toBeTruthy();
      await who('post', `${prefix}notifications/mark-all-read`).expect(200);
      expect((await notifications(prefix, who)).meta.unread_count).toBe(0);
      await who('delete', `${prefix}notifications/${newest.id}`).expect(200);
      expect((await notifications(prefix, who)).data.map((n) => n.id)).not.toContain(newest.id);
    }
  });

  it('over the block threshold, the customer cannot place an order (403 DEMERIT_BLOCKED)', async () => {
    const delivered = await deliveredOrder(t, w);
    await co('post', `orders/${delivered.id}/violated-policies`, { policy_ids: [overfill, prohibited] }).expect(201);
    expect((await cu('get', 'customer/demerit-points').expect(200)).body.data).toMatchObject({ points: 4, blocked: true });
    const refused = await cu('post', 'customer/orders', { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: inDays(3) }).expect(403);
    expect(refused.body.code).toBe('DEMERIT_BLOCKED');
  });
});
