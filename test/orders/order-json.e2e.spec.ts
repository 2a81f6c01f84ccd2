import { inDays, orderWorld, placeOrder, type OrderWorld } from '../support/order-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The order lists' rows are rendered as JSON by their statement (`OrdersRepository#pageJson`, issue #24),
 * the order read by `OrderDto.of`. Both must give the same order (the read's lines and next arrival aside): every field, on orders with each
 * nullable field set and unset, text that needs escaping, an overdue balance, feedback, a rejection.
 */
describe('order JSON rendered by the list statement', () => {
  let t: TestApp;
  let w: OrderWorld;

  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Json "Quoted" Hauling \\ Co' });
  });
  afterAll(() => t.close());

  it('equals the order read (without its lines) for every order of the page', async () => {
    const tricky = 'Gate code "7#9" \\ back\nline two\ttab — ünïcødé 🚛 </script>';
    const a = await placeOrder(t, w, { delivery_date: inDays(3), notes: tricky });
    const b = await placeOrder(t, w, { delivery_date: inDays(4), pickup_date: inDays(9) });
    const c = await placeOrder(t, w, { delivery_date: inDays(5) });
    await t.req('patch', `/api/v1/approve/order/${b.id}`, { token: w.company.token }).expect(200);
    await t.req('patch', `/api/v1/reject/order/${c.id}`, { token: w.company.token, body: { reason: 'No "access" \\ for trucks' } }).expect(200);
    // An overdue balance, a delivered day, a feedback with text to escape, a timestamp with microseconds.
    await t.ds.query(`UPDATE orders SET due_date = current_date - 3, delivered_on = current_date - 1, feedback_rating = 4, feedback_comment = $2,
                             updated_at = '2026-01-02 03:04:05.678999+00' WHERE id = $1`, [a.id, 'Great "service"\n']);
    // A number past six digits (ORD-1234567: SQL's lpad alone would cut it to six).
    await t.ds.query(`UPDATE orders SET number = 1234567 WHERE id = $1`, [b.id]);

    const list = await t.req('get', '/api/v1/orders?per_page=50', { token: w.company.token }).expect(200);
    const rows = list.body.data as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
    for (const row of rows) {
      const read = await t.req('get', `/api/v1/order/${row.id as string}`, { token: w.company.token }).expect(200);
      // The read's own parts: its bill lines and (issue #26) its next arrival, which no list row carries.
      const { lines, arrival, ...order } = read.body.data as Record<string, unknown>;
      expect(lines).toEqual(expect.any(Array));
      expect(arrival).toBeNull(); // no job assigned
      expect(row).toEqual(order);
      expect(Object.keys(row)).toEqual(Object.keys(order));
    }
    const first = rows.find((r) => r.id === a.id)!;
    expect(first).toMatchObject({ notes: tricky, overdue: true, feedback_rating: 4, feedback_comment: 'Great "service"\n', updated_at: '2026-01-02T03:04:05.678Z' });
    expect(rows.find((r) => r.id === b.id)).toMatchObject({ number: 'ORD-1234567' });
    expect(rows.find((r) => r.id === c.id)).toMatchObject({ status: 'rejected', rejection_reason: 'No "access" \\ for trucks', pickup_date: null, feedback_rating: null });
    // The customer's list renders the same way.
    const mine = await t.req('get', '/api/v1/customer/orders?per_page=50', { token: w.customer.token }).expect(200);
    expect(mine.body.data).toEqual(expect.arrayContaining(rows.map((r) => expect.objectContaining({ id: r.id, notes: r.notes, updated_at: r.updated_at }))));
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
