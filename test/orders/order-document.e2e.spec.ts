import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import request from 'supertest';
import { ORDER_DOWNLOADS_PER_MINUTE } from '../../src/modules/orders/order-document.controller';
import { pdfSafe } from '../../src/modules/orders/order-document.service';
import { inDays, orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** supertest buffers an application/pdf body as a Buffer with this parser. */
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * The text a PDF shows, good enough for pdfkit's output: every content stream (inflated when it is
 * FlateDecode, as pdfkit writes them by default), its `[...] TJ` and `(...) Tj` / `<...> Tj` strings
 * decoded as WinAnsi (latin1 here), one text operation a line. Kerning splits a word inside a TJ
 * array, so the pieces of one array are joined without a space.
 */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  const dict = /<<((?:(?!<<|>>)[^])*)>>\s*stream\r?\n/g;
  for (let m = dict.exec(raw); m; m = dict.exec(raw)) {
    const length = Number(/\/Length (\d+)/.exec(m[1])?.[1]);
    const start = m.index + m[0].length;
    let data = pdf.subarray(start, start + length);
    if (/\/FlateDecode/.test(m[1])) data = inflateSync(data);
    const content = data.toString('latin1');
    const ops = /\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F]*>|\((?:[^)\\]|\\.)*\))\s*Tj/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const strings = (op[1] ?? op[2]).match(/<[0-9a-fA-F]*>|\((?:[^)\\]|\\.)*\)/g) ?? [];
      out.push(strings.map((s) => (s.startsWith('<') ? Buffer.from(s.slice(1, -1), 'hex').toString('latin1') : s.slice(1, -1).replace(/\\(.)/g, '$1'))).join(''));
    }
  }
  return out.join('\n');
}

describe('GET /api/public/order/{orderId}/download: the order PDF', () => {
  let t: TestApp;
  let w: OrderWorld;
  let order: Record<string, any>;
  beforeAll(async () => {
    t = await startTestApp();
    w = await orderWorld(t, { name: 'Docs Hauling' });
    // Lines (order-fixtures): rental 40000, 3 planned extra days 4500, delivery 10.015 km × 200 = 2003,
    // tax 8.25 % of 46503 = 3836 → total 50339 (503.39 USD).
    order = await placeOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(13), notes: 'Gate code 1234 → side entrance' });
    await t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token }).expect(200);
  });
  afterAll(async () => t?.close());

  const download = (id: string, ip?: string) => t.req('get', `/api/public/order/${id}/download`, { ip }).buffer(true).parse(binary);

  it('serves a real PDF without a token, inline, not cached, with the order in it', async () => {
    const started = Date.now();
    const res = await download(order.id).expect(200);
    const elapsed = Date.now() - started;
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="${order.number}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const pdf: Buffer = res.body;
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(pdf.length);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    // Content streams are compressed (pdfkit's default, kept in production and here).
    expect(pdf.toString('latin1')).toMatch(/\/Filter \/FlateDecode/);
    expect(elapsed).toBeLessThan(2000);

    const text = pdfText(pdf);
    expect(order.number).toMatch(/^ORD-\d{6}$/);
    for (const expected of [
      'Docs Hauling',
      order.number,
      'Status: Approved',
      'Payment: Unpaid',
      'A customer', // the customer's name (support/actors)
      '1 Site Rd',
      'Springfield',
      '20 yd roll-off',
      'General debris',
      inDays(3),
      inDays(13),
      '400.00', // rental
      '45.00', // 3 extra days
      '15.00', // unit price of an extra day
      '20.03', // delivery
      '38.36', // tax
      'USD 503.39', // total (and balance)
      `Due date`,
      'No payments recorded.',
      'Gate code 1234 -> side entrance', // "→" is outside the standard fonts' encoding: spelt out
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Total\nUSD 503\.39/);
    expect(text).toMatch(/Paid\nUSD 0\.00/);
    expect(text).toMatch(/Balance\nUSD 503\.39/);
    // Status history: placed → pending, pending → approved.
    expect(text).toMatch(/\(placed\)\nPending\n/);
    expect(text).toMatch(/Pending\nApproved\n/);
    expect(text).toContain('Page 1 of 1');
  });

  it('shows "Call when full" without a pickup date, and a cancelled order\'s bill', async () => {
    const open = await placeOrder(t, w, { delivery_date: inDays(30) });
    const text = pdfText((await download(open.id).expect(200)).body);
    expect(text).toContain('Call when full');
    expect(text).toContain('Status: Pending');

    await t.req('post', `/api/v1/customer/order/${open.id}/cancel`, { token: w.customer.token, body: { reason: 'Plans changed' } }).expect(200);
    const cancelled = pdfText((await download(open.id).expect(200)).body);
    expect(cancelled).toContain('Status: Cancelled');
    expect(cancelled).toContain('Plans changed');
    expect(cancelled).toMatch(/Pending\nCancelled\n/);
  });

  it('shows the paid amount when there is one (payments module seam)', async () => {
    const paid = await placeOrder(t, w);
    await t.ds.query(`UPDATE orders SET paid_amount = 10000, payment_status = 'partially_paid' WHERE id = $1`, [paid.id]);
    const text = pdfText((await download(paid.id).expect(200)).body);
    expect(text).toContain('Payment: Partially paid');
    expect(text).not.toContain('No payments recorded.');
    expect(text).toContain('Paid to date: USD 100.00.');
  });

  it('runs over pages with many lines, repeating the table header', async () => {
    const long = await placeOrder(t, w);
    const values = Array.from({ length: 70 }, (_, i) => `('${w.company.companyId}', '${long.id}', 'policy_fee', 'final', 'Policy fee ${i + 1}', 1, 100, 100, ${100 + i})`).join(', ');
    await t.ds.query(`INSERT INTO order_lines (company_id, order_id, kind, source, description, quantity, unit_amount, amount, position) VALUES ${values}`);
    const text = pdfText((await download(long.id).expect(200)).body);
    expect(text).toContain('Policy fee 70');
    expect(text).toMatch(/Page 1 of [2-9]/);
    expect(text.match(/^Description$/gm)?.length).toBeGreaterThan(1);
  });

  it('answers 404 with the JSON error envelope for an unknown or malformed id', async () => {
    const unknown = await t.req('get', `/api/public/order/${randomUUID()}/download`).expect(404);
    expect(unknown.headers['content-type']).toMatch(/application\/json/);
    expect(unknown.body).toMatchObject({ success: false, code: 'NOT_FOUND', request_id: expect.any(String) });
    const malformed = await t.req('get', '/api/public/order/not-a-uuid/download').expect(404);
    expect(malformed.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    await t.req('get', '/api/public/order/42/download').expect(404);
  });

  it(`throttles to ${ORDER_DOWNLOADS_PER_MINUTE} a minute per client address`, async () => {
    const ip = '10.250.0.1';
    for (let i = 0; i < ORDER_DOWNLOADS_PER_MINUTE; i++) {
      const res = await download(i % 3 === 2 ? randomUUID() : order.id, ip); // 404s count too
      expect([200, 404]).toContain(res.status);
    }
    const limited = await t.req('get', `/api/public/order/${order.id}/download`, { ip }).expect(429);
    expect(limited.body).toMatchObject({ success: false, code: 'THROTTLED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(ORDER_DOWNLOADS_PER_MINUTE));
    // Another address is not affected.
    await download(order.id, '10.250.0.2').expect(200);
  });
});

describe('pdfSafe: text brought into the standard fonts\' encoding', () => {
  it('keeps Latin-1 and the Windows-1252 extras, drops foreign accents, spells out arrows, marks the rest', () => {
    expect(pdfSafe('Café Müller – “quoted” € 5 × 3')).toBe('Café Müller – “quoted” € 5 × 3');
    expect(pdfSafe('Łódź Őrség')).toBe('Lódz Orség'); // ó, é are Latin-1; ź, Ő decompose; Ł is spelt out
    expect(pdfSafe('a → b ≥ c')).toBe('a -> b >= c');
    expect(pdfSafe('東京\r\nline\ttab')).toBe('??\nline tab');
    expect(pdfSafe(null)).toBe('');
  });
});
