import { randomUUID } from 'node:crypto';
import { MemberActor, memberActor } from '../support/actors';
import { addDriver, approvedOrder, ApprovedOrder, assignOrder, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { uploadPng } from '../support/driver-fixtures';
import { ABSENT_ID } from '../support/fixtures';
import { orderWorld, OrderWorld } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Chats over HTTP (issue #14): one chat per order between the company, the order's customer and the
 * drivers on it; messages newest first with a cursor, unread counts, edits and tombstones, author-only
 * changes, a driver losing the chat when taken off the order, validation and access. One app, the
 * world built once; the tests run in order and build on each other's messages.
 */
describe('Chats: one per order, between the company, the customer and the drivers on it', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: OrderWorld;
  let order: ApprovedOrder;
  let onOrder: MemberActor; // the world's driver, assigned to the order's delivery
  let offOrder: MemberActor; // another driver of the company, on no job of the order
  let neighbour: MemberActor; // another customer of the company
  let chatId: string;
  let rivalChatId: string;
  let rivalUpload: string;
  const ids: Record<'customer' | 'company' | 'driver', string> = { customer: '', company: '', driver: '' };

  beforeAll(async () => {
    t = await startTestApp();
    [w, rival] = [await dispatchWorld(t, { assets: 1 }), await orderWorld(t, { name: 'Rival Co' })];
    order = await approvedOrder(t, w);
    await assignOrder(t, w, order.id);
    onOrder = w.driver;
    offOrder = await addDriver(t, w);
    neighbour = await memberActor(t, w.company, 'customer');
    // The rival's chat holds one of its uploads.
    const rivalOrder = await approvedOrder(t, rival);
    rivalChatId = (await api('post', `company/chats/${rivalOrder.id}/create`, rival.company.token).expect(201)).body.data.id;
    rivalUpload = await uploadPng(t);
    await api('post', `company/chats/${rivalChatId}/message`, rival.company.token, { attachment_media_ids: [rivalUpload] }).expect(201);
  }, 120_000);
  afterAll(async () => t?.close());

  const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });
  const post = (side: 'company' | 'customer' | 'driver', token: string, body: unknown, status = 201, chat = chatId) => api('post', `${side}/chats/${chat}/message`, token, body).expect(status);
  const read = (side: 'company' | 'customer' | 'driver', token: string, query = '', status = 200) => api('get', `${side}/chats/${chatId}/messages${query}`, token).expect(status);
  const myChats = async (token: string) => (await api('get', 'chats', token).expect(200)).body.data as Row[];
  const events = async (type: string, key: string, value: string) =>
    (await t.ds.query(`SELECT actor_id, company_id, payload FROM outbox_events WHERE type = $1 AND payload->>'${key}' = $2 ORDER BY created_at, id`, [type, value])) as Row[];
  const sorted = (xs: string[]) => [...xs].sort();

  it('opens one chat per order: 201 the first time, 200 with the same chat after, from either side; a stranger gets 404', async () => {
    const made = await api('post', `customer/chats/${order.id}/create`, w.customer.token).expect(201);
    chatId = made.body.data.id;
    expect(made.body.data).toMatchObject({ order_id: order.id, order_number: order.number, customer: { id: w.customer.id, name: 'A customer' }, last_message: null, unread_count: 0 });
    const again = await api('post', `company/chats/${order.id}/create`, w.company.token).expect(200);
    expect(again.body.data.id).toBe(chatId);
    expect((await api('post', `customer/chats/${order.id}/create`, w.customer.token).expect(200)).body.data.id).toBe(chatId);
    expect(await events('chat.created', 'order_id', order.id)).toEqual([{ actor_id: w.customer.id, company_id: w.company.companyId, payload: { order_id: order.id } }]);

    // Another customer of the company, another company, an absent order: 404; the wrong actor: 403.
    await api('post', `customer/chats/${order.id}/create`, neighbour.token).expect(404);
    await api('post', `company/chats/${order.id}/create`, rival.company.token).expect(404);
    await api('post', `company/chats/${ABSENT_ID}/create`, w.company.token).expect(404);
    expect((await api('post', `company/chats/${order.id}/create`, w.customer.token).expect(403)).body.code).toBe('WRONG_ACTOR');
    await api('post', `customer/chats/${order.id}/create`, onOrder.token).expect(403);
  });

  it('lets the three talk: events name the other members; unread counts follow who read what', async () => {
    const upload = await uploadPng(t);
    ids.customer = (await post('customer', w.customer.token, { body: '  Can you put it left of the driveway?  ' })).body.data.id;
    const company = (await post('company', w.company.token, { body: 'Sure, noted for the driver.' })).body.data;
    ids.company = company.id;
    expect(company).toMatchObject({ chat_id: chatId, author: { id: w.company.userId, name: 'Owner', type: 'company' }, body: 'Sure, noted for the driver.', attachments: [], edited_at: null, deleted_at: null });
    const driver = (await post('driver', onOrder.token, { body: 'Photo of the spot.', attachment_media_ids: [upload.toUpperCase()] })).body.data;
    ids.driver = driver.id;
    expect(driver).toMatchObject({ author: { id: onOrder.id, type: 'driver' }, attachments: [{ id: upload, url: `/api/v1/media/${upload}` }] });

    // Each event names the members other than the author (user ids); the text is trimmed.
    const [posted] = await events('chat.message_posted', 'message_id', ids.customer);
    expect(posted.payload).toEqual({ chat_id: chatId, order_id: order.id, message_id: ids.customer, author_user_id: w.customer.id, recipient_user_ids: expect.any(Array), preview: 'Can you put it left of the driveway?' });
    expect(sorted(posted.payload.recipient_user_ids)).toEqual(sorted([w.company.userId, onOrder.id]));
    const [byDriver] = await events('chat.message_posted', 'message_id', ids.driver);
    expect(sorted(byDriver.payload.recipient_user_ids)).toEqual(sorted([w.company.userId, w.customer.id]));

    // Posting reads the chat up to one's message: the customer has two unread, the owner one, the driver none.
    const customerView = (await myChats(w.customer.token)).find((c) => c.id === chatId)!;
    expect(customerView).toMatchObject({ unread_count: 2, last_message: { id: ids.driver, body: 'Photo of the spot.' } });
    expect((await myChats(w.company.token)).find((c) => c.id === chatId)!.unread_count).toBe(1);
    expect((await myChats(onOrder.token)).map((c) => [c.id, c.unread_count])).toEqual([[chatId, 0]]);

    // Reading the newest messages marks the chat read.
    const page = (await read('customer', w.customer.token)).body;
    expect(page.data.map((m: Row) => m.id)).toEqual([ids.driver, ids.company, ids.customer]);
    expect(page.meta).toEqual({ per_page: 20, next_cursor: null });
    expect((await myChats(w.customer.token)).find((c) => c.id === chatId)!.unread_count).toBe(0);

    // Lists: the customer's neighbour, the rival and a driver off the order do not see the chat.
    for (const who of [neighbour, offOrder]) expect((await myChats(who.token)).map((c) => c.id)).not.toContain(chatId);
    expect((await myChats(rival.company.token)).map((c) => c.id)).toEqual([rivalChatId]);
  });

  it('pages messages newest first with a cursor (`before` = meta.next_cursor)', async () => {
    for (let i = 1; i <= 5; i++) await post('company', w.company.token, { body: `Update ${i}` });
    const all = (await read('company', w.company.token, '?per_page=100')).body.data.map((m: Row) => m.id) as string[];
    expect(all).toHaveLength(8);
    expect(all.slice(-3)).toEqual([ids.driver, ids.company, ids.customer]);
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const res: Row = (await read('company', w.company.token, `?per_page=3${cursor ? `&before=${cursor}` : ''}`)).body;
      seen.push(...res.data.map((m: Row) => m.id));
      pages.push(res.data.length);
      cursor = res.meta.next_cursor;
      expect(res.meta.per_page).toBe(3);
    } while (cursor);
    expect(pages).toEqual([3, 3, 2]);
    expect(seen).toEqual(all);
    // A cursor of another chat, or not a uuid: 422.
    const foreign = await read('company', w.company.token, `?before=${ABSENT_ID}`, 422);
    expect(foreign.body.errors).toEqual({ before: ['not a message of this chat'] });
    await read('company', w.company.token, '?before=nope', 422);
    await read('company', w.company.token, '?per_page=101', 422);
    // The customer has five unread now.
    expect((await myChats(w.customer.token)).find((c) => c.id === chatId)!.unread_count).toBe(5);
  });

  it('lets authors edit (edited_at) and delete (a tombstone stays) their own messages; others get 403, strangers 404', async () => {
    const edited = (await api('put', `chats/message/${ids.customer}`, w.customer.token, { body: 'Left of the driveway, please, by the fence.' }).expect(200)).body.data;
    expect(edited).toMatchObject({ id: ids.customer, body: 'Left of the driveway, please, by the fence.', deleted_at: null });
    expect(edited.edited_at).not.toBeNull();
    const [editEvent] = await events('chat.message_edited', 'message_id', ids.customer);
    expect(sorted(editEvent.payload.recipient_user_ids)).toEqual(sorted([w.company.userId, onOrder.id]));

    // Another member: 403 NOT_AUTHOR; another company's user, another customer, an absent message: 404.
    expect((await api('put', `chats/message/${ids.customer}`, w.company.token, { body: 'Hijack' }).expect(403)).body.code).toBe('NOT_AUTHOR');
    expect((await api('delete', `chats/message/${ids.customer}`, onOrder.token).expect(403)).body.code).toBe('NOT_AUTHOR');
    await api('put', `chats/message/${ids.customer}`, rival.company.token, { body: 'Hijack' }).expect(404);
    await api('delete', `chats/message/${ids.customer}`, neighbour.token).expect(404);
    await api('delete', `chats/message/${ids.customer}`, offOrder.token).expect(404);
    await api('put', `chats/message/${ABSENT_ID}`, w.customer.token, { body: 'x' }).expect(404);

    // An edit keeps text or attachments: removing the only content is 422; an empty edit too.
    expect((await api('put', `chats/message/${ids.customer}`, w.customer.token, { body: null }).expect(422)).body.errors).toHaveProperty('body');
    await api('put', `chats/message/${ids.customer}`, w.customer.token, {}).expect(422);
    // The driver's photo message keeps its photo without text.
    const photoOnly = (await api('put', `chats/message/${ids.driver}`, onOrder.token, { body: null }).expect(200)).body.data;
    expect(photoOnly).toMatchObject({ body: null, attachments: [{ id: expect.any(String) }] });

    // Delete: the tombstone stays in the list, without body or attachments.
    const gone = (await api('delete', `chats/message/${ids.driver}`, onOrder.token).expect(200)).body.data;
    expect(gone).toMatchObject({ id: ids.driver, body: null, attachments: [], deleted_at: expect.any(String) });
    const listed = (await read('customer', w.customer.token, '?per_page=100')).body.data.find((m: Row) => m.id === ids.driver);
    expect(listed).toEqual(gone);
    const [deleteEvent] = await events('chat.message_deleted', 'message_id', ids.driver);
    expect(sorted(deleteEvent.payload.recipient_user_ids)).toEqual(sorted([w.company.userId, w.customer.id]));
    // A deleted message can no longer be edited or deleted.
    await api('put', `chats/message/${ids.driver}`, onOrder.token, { body: 'Back' }).expect(404);
    await api('delete', `chats/message/${ids.driver}`, onOrder.token).expect(404);
  });

  it('refuses empty, too long and unknown content (422 with errors)', async () => {
    const errorsOf = async (body: unknown) => (await post('customer', w.customer.token, body, 422)).body.errors;
    expect(await errorsOf({})).toEqual({ body: ['give a text, attachments or both'] });
    expect(Object.keys(await errorsOf({ body: '   ' }))).toEqual(['body']);
    expect(Object.keys(await errorsOf({ body: 'x'.repeat(4001) }))).toEqual(['body']);
    expect(Object.keys(await errorsOf({ body: 'Hi', colour: 'red' }))).toEqual(['colour']);
    expect(Object.keys(await errorsOf({ attachment_media_ids: ['not-a-uuid'] }))).toEqual(['attachment_media_ids']);
    expect(Object.keys(await errorsOf({ attachment_media_ids: Array.from({ length: 11 }, () => randomUUID()) }))).toContain('attachment_media_ids');
    // Ids that name no upload, or another company's chat upload: 422 naming the element.
    expect(await errorsOf({ body: 'See attached', attachment_media_ids: [ABSENT_ID] })).toEqual({ 'attachment_media_ids.0': ['not found'] });
    const mine = await uploadPng(t);
    expect(await errorsOf({ attachment_media_ids: [mine, rivalUpload] })).toEqual({ 'attachment_media_ids.1': ['not found'] });
    await api('put', `chats/message/${ids.customer}`, w.customer.token, { attachment_media_ids: [rivalUpload] }).expect(422);
    // 4,000 characters are fine.
    expect((await post('customer', w.customer.token, { body: 'y'.repeat(4000) })).body.data.body).toHaveLength(4000);
  });

  it('admits only members: a driver off the order, another customer or company get 404; wrong actors 403', async () => {
    await read('driver', offOrder.token, '', 404);
    await post('driver', offOrder.token, { body: 'Hello?' }, 404);
    await read('customer', neighbour.token, '', 404);
    await post('customer', neighbour.token, { body: 'Hello?' }, 404);
    await read('company', rival.company.token, '', 404);
    await post('company', w.company.token, { body: 'Hello?' }, 404, rivalChatId);
    await read('driver', rival.driver.token, '', 404);
    await api('get', `customer/chats/${chatId}/messages`, w.company.token).expect(403);
    await api('get', `driver/chats/${chatId}/messages`, w.customer.token).expect(403);
    await api('get', `company/chats/${chatId}/messages`, onOrder.token).expect(403);
    await api('get', `company/chats/not-a-uuid/messages`, w.company.token).expect(404);
  });

  it('takes the chat from a driver reassigned off the order (or whose job is aborted), and gives it to the new one', async () => {
    const mine = (await post('driver', onOrder.token, { body: 'Running 10 minutes late.' })).body.data.id;
    await api('post', `driver/reassign/${order.id}`, w.company.token, { driver_id: offOrder.id }).expect(200);
    await read('driver', onOrder.token, '', 404);
    await post('driver', onOrder.token, { body: 'Still there?' }, 404);
    await api('put', `chats/message/${mine}`, onOrder.token, { body: 'Edited' }).expect(404);
    expect((await myChats(onOrder.token)).map((c) => c.id)).not.toContain(chatId);
    // The new driver reads it (and their messages reach the others); the old one is no longer a recipient.
    expect((await read('driver', offOrder.token)).body.data[0].id).toBe(mine);
    expect((await myChats(offOrder.token)).map((c) => c.id)).toEqual([chatId]);
    const posted = (await post('driver', offOrder.token, { body: 'I take it from here.' })).body.data.id;
    const [event] = await events('chat.message_posted', 'message_id', posted);
    expect(sorted(event.payload.recipient_user_ids)).toEqual(sorted([w.company.userId, w.customer.id]));
    const [byCompany] = await events('chat.message_posted', 'message_id', (await post('company', w.company.token, { body: 'Thanks.' })).body.data.id);
    expect(sorted(byCompany.payload.recipient_user_ids)).toEqual(sorted([w.customer.id, offOrder.id]));

    // The new driver's job aborted: no job left on the order, no chat.
    await api('post', `order/jobs/${order.deliveryJobId}/abort`, w.company.token, { reason: 'The customer is not ready.' }).expect(200);
    await read('driver', offOrder.token, '', 404);
    expect(await myChats(offOrder.token)).toEqual([]);
  });
});
