import { Injectable } from '@nestjs/common';
import { CompaniesService, type CompanyLetterhead } from '../companies';
import type PDFKitDocument from 'pdfkit';
import { ApiError } from '../../common/http/api-error';
import { Scope, SystemReach } from '../../common/access/scope';
import { currencyDigits, formatMinor } from '../../common/money';
import { OrderBillRepository } from './order-bill.repository';
import type { Order, AddressSnapshot, LineKind, OrderStatus, PaymentStatus, TimeWindow } from './order.entity';
import { todayIn } from './order-terms';
import { orderNumber } from './orders.dto';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/** One received (or refunded) payment as the document lists it; supplied by the payments module once it exists. */
export interface DocumentPayment {
  date: Date;
  /** e.g. "Card", "Wallet", "Offline payment", "Refund". */
  method: string;
  reference: string | null;
  /** Minor units; a refund is negative. */
  amount: number;
}

/** Everything the order PDF shows, already read from the database (the renderer is a pure function of it). */
export interface OrderDocumentData {
  number: string;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  currency: string;
  company: CompanyLetterhead;
  customerName: string;
  address: AddressSnapshot;
  specification: string;
  wasteType: string;
  placedAt: Date;
  deliveryDate: string;
  pickupDate: string | null;
  timeWindow: TimeWindow;
  deliveredOn: string | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  rejectionReason: string | null;
  promotionCode: string | null;
  notes: string | null;
  lines: { kind: LineKind; description: string; quantity: number; unitAmount: number; amount: number }[];
  subtotalAmount: number;
  discountAmount: number;
  taxAmount: number;
  totalAmount: number;
  paidAmount: number;
  dueDate: string;
  payments: DocumentPayment[];
  history: { from: OrderStatus | null; to: OrderStatus; at: Date; actorType: string; reason: string | null }[];
  /** The company's service date today (for the overdue mark). */
  today: string;
  generatedAt: Date;
}

/**
 * The order's public document (domain.md §4 "public download"): a PDF with the summary, the live bill
 * lines and totals, payments and the status history, built in memory with pdfkit.
 */
@Injectable()
export class OrderDocumentService {
  constructor(
    private readonly rows: OrdersRepository,
    private readonly bill: OrderBillRepository,
    private readonly orders: OrdersService,
    private readonly companies: CompaniesService,
  ) {}

  /** The PDF of an order, by its UUID alone; 404 when there is no such order (or its company is gone). */
  async render(id: string): Promise<{ filename: string; pdf: Buffer }> {
    const data = await this.load(id);
    return { filename: `${data.number}.pdf`, pdf: await renderOrderPdf(data) };
  }

  async load(id: string): Promise<OrderDocumentData> {
    // The route names the order by its UUID alone (no token): the order's company is known from its row.
    const order = await this.rows.byId(SystemReach.of('public order document named by its UUID'), id);
    if (!order) throw ApiError.notFound('Order');
    const scope = Scope.company(order.companyId);
    const [company, names, lines, history, payments] = await Promise.all([
      this.companies.letterhead(scope),
      this.orders.names(scope, [order]),
      this.orders.liveLines(scope, order.id),
      this.bill.history(scope, order.id),
      this.payments(order),
    ]);
    if (!company) throw ApiError.notFound('Order');
    const n = names(order);
    return {
      number: orderNumber(order.number),
      status: order.status,
      paymentStatus: order.paymentStatus,
      currency: order.currency,
      company,
      customerName: n.customer,
      address: order.address,
      specification: n.specification,
      wasteType: n.wasteType,
      placedAt: order.createdAt,
      deliveryDate: order.deliveryDate,
      pickupDate: order.pickupDate,
      timeWindow: order.timeWindow,
      deliveredOn: order.deliveredOn,
      completedAt: order.completedAt,
      cancelledAt: order.cancelledAt,
      cancellationReason: order.cancellationReason,
      rejectionReason: order.rejectionReason,
      promotionCode: order.promotionCode,
      notes: order.notes,
      lines: lines.map((l) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unitAmount: l.unitAmount, amount: l.amount })),
      subtotalAmount: order.subtotalAmount,
      discountAmount: order.discountAmount,
      taxAmount: order.taxAmount,
      totalAmount: order.totalAmount,
      paidAmount: order.paidAmount,
      dueDate: order.dueDate,
      payments,
      history: history.map((h) => ({ from: h.fromStatus, to: h.toStatus, at: h.createdAt, actorType: h.actorType, reason: h.reason })),
      today: safeToday(company.timezone),
      generatedAt: new Date(),
    };
  }

  /**
   * Seam for the payments module (domain.md §8). There is no payments table yet, so there is nothing
   * to itemise: the document shows the order's `paid_amount` and "No payments recorded." when it is 0.
   * When payments exist, return the order's succeeded charges, offline payments and refunds here,
   * oldest first; the renderer lists them as they come.
   */
  protected async payments(_order: Order): Promise<DocumentPayment[]> {
    return [];
  }
}

function safeToday(timezone: string): string {
  try {
    return todayIn(timezone || 'UTC');
  } catch {
    return todayIn('UTC');
  }
}

// ---------------------------------------------------------------------------------------- rendering

/**
 * The standard PDF fonts (no font files to ship, nothing to embed: small and fast) only encode
 * Windows-1252. pdfkit would write any other character as a corrupt code, so text is brought into
 * that set first: accents outside it are dropped (ő → o), a few symbols spelt out (→ as ->), and
 * anything else (e.g. CJK) becomes "?".
 */
const WIN_ANSI_BEYOND_LATIN1 = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030,
  0x2039, 0x203a, 0x20ac, 0x2122,
]);
const SPELT_OUT: Record<string, string> = { '\u2192': '->', '\u2190': '<-', '\u2212': '-', '\u2010': '-', '\u2011': '-', '\u2264': '<=', '\u2265': '>=', '\u0141': 'L', '\u0142': 'l', '\u0110': 'D', '\u0111': 'd', '\u0131': 'i', '\u2009': ' ', '\u202f': ' ', '\u2007': ' ', '\t': ' ', '\u200b': '' };
const encodable = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_BEYOND_LATIN1.has(cp) || cp === 0x0a;

export function pdfSafe(text: string | null | undefined): string {
  let out = '';
  for (const ch of (text ?? '').replace(/\r\n?/g, '\n')) {
    const cp = ch.codePointAt(0)!;
    if (encodable(cp)) out += ch;
    else if (ch in SPELT_OUT) out += SPELT_OUT[ch];
    else {
      const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += base && [...base].every((c) => encodable(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

/** Free text the customer or company typed is clipped so that one field can never outgrow a page. */
const clip = (text: string | null | undefined, max: number) => (text && text.length > max ? text.slice(0, max - 1).trimEnd() + '\u2026' : (text ?? ''));

const labelOf = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : s);
const WINDOW_LABEL: Record<TimeWindow, string> = { anytime: 'any time', morning: 'morning', afternoon: 'afternoon' };

/** "YYYY-MM-DD HH:mm" in the company's time zone (UTC if the zone is unknown). */
function timestampFormat(timezone: string): (d: Date) => string {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  let f: Intl.DateTimeFormat;
  try {
    f = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: timezone });
  } catch {
    f = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: 'UTC' });
  }
  return (d) => {
    const p: Record<string, string> = {};
    for (const part of f.formatToParts(d)) p[part.type] = part.value;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  };
}

const PAGE = { size: 'LETTER', width: 612, height: 792, margin: 50 } as const;
const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 14; // room for the footer
const INK = '#1a1a1a';
const MUTED = '#666666';
const RULE = '#d0d0d0';
const REGULAR = 'Helvetica';
const BOLD = 'Helvetica-Bold';

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** Renders the order document; resolves with the whole PDF (a few kB, a few ms). */
export function renderOrderPdf(d: OrderDocumentData): Promise<Buffer> {
  const digits = currencyDigits(d.currency);
  const money = (minor: number) => formatMinor(minor, digits);
  const withCurrency = (minor: number) => `${d.currency} ${money(minor)}`;
  const at = timestampFormat(d.company.timezone);
  const balance = d.totalAmount - d.paidAmount;

  // pdfkit is loaded on the first document, not at start (about 0.2 s of the server's start otherwise).
  const PDFDocument = require('pdfkit') as typeof PDFKitDocument;
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    bufferPages: true, // for "Page i of n" in the footers
    info: { Title: `Order ${d.number}`, Author: d.company.name, Subject: `Order ${d.number}: summary, bill, payments and status history`, CreationDate: d.generatedAt },
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (c: Uint8Array) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  let y = PAGE.margin;
  const newPage = () => {
    doc.addPage();
    y = PAGE.margin;
  };
  const ensure = (height: number) => {
    if (y + height > BOTTOM) newPage();
  };
  const write = (text: string, x: number, top: number, o: { width: number; font?: string; size?: number; color?: string; align?: 'left' | 'right' | 'center' }) => {
    const t = pdfSafe(text);
    doc.font(o.font ?? REGULAR).fontSize(o.size ?? 9).fillColor(o.color ?? INK);
    doc.text(t, x, top, { width: o.width, align: o.align ?? 'left' });
    return doc.heightOfString(t, { width: o.width });
  };
  const measure = (text: string, width: number, font = REGULAR, size = 9) => doc.font(font).fontSize(size).heightOfString(pdfSafe(text), { width });
  const rule = (top: number, color = RULE, x = LEFT, width = WIDTH) => {
    doc.moveTo(x, top).lineTo(x + width, top).lineWidth(0.5).strokeColor(color).stroke();
  };
  const heading = (title: string) => {
    ensure(50); // a heading never ends a page
    y += 14;
    y += write(title, LEFT, y, { width: WIDTH, font: BOLD, size: 11 }) + 4;
  };

  /** A table with a header row repeated on every page it runs over. */
  const table = (columns: Column[], rows: { cells: string[]; bold?: boolean }[]) => {
    const pad = 4;
    const header = () => {
      let x = LEFT;
      let h = 0;
      for (const c of columns) {
        h = Math.max(h, write(c.title, x + pad, y, { width: c.width - 2 * pad, font: BOLD, size: 8, color: MUTED, align: c.align }));
        x += c.width;
      }
      y += h + 3;
      rule(y, INK);
      y += 4;
    };
    ensure(40);
    header();
    for (const row of rows) {
      const font = row.bold ? BOLD : REGULAR;
      const h = Math.max(...row.cells.map((cell, i) => measure(cell, columns[i].width - 2 * pad, font)));
      if (y + h + 6 > BOTTOM) {
        newPage();
        header();
      }
      let x = LEFT;
      row.cells.forEach((cell, i) => {
        write(cell, x + pad, y, { width: columns[i].width - 2 * pad, font, align: columns[i].align });
        x += columns[i].width;
      });
      y += h + 3;
      rule(y);
      y += 3;
    }
  };

  /** Label / value pairs in a column; returns the column's bottom. */
  const facts = (x: number, top: number, width: number, pairs: [string, string][]) => {
    const labelWidth = 78;
    let yy = top;
    for (const [label, value] of pairs) {
      write(label, x, yy, { width: labelWidth, color: MUTED });
      yy += Math.max(measure(label, labelWidth), write(value, x + labelWidth, yy, { width: width - labelWidth })) + 3;
    }
    return yy;
  };

  // ------------------------------------------------------------ header
  const headerRight = 190;
  const headerLeftWidth = WIDTH - headerRight - 20;
  let left = y;
  left += write(clip(d.company.name, 120), LEFT, left, { width: headerLeftWidth, font: BOLD, size: 16 }) + 2;
  for (const detail of [clip(d.company.address, 200), d.company.phone ? `Phone: ${d.company.phone}` : null, d.company.email]) {
    if (detail) left += write(detail, LEFT, left, { width: headerLeftWidth, color: MUTED });
  }
  const rx = LEFT + WIDTH - headerRight;
  let right = y;
  right += write('ORDER', rx, right, { width: headerRight, size: 9, color: MUTED, align: 'right' });
  right += write(d.number, rx, right, { width: headerRight, font: BOLD, size: 16, align: 'right' }) + 2;
  right += write(`Status: ${labelOf(d.status)}`, rx, right, { width: headerRight, align: 'right' });
  const overdue = balance > 0 && d.today > d.dueDate && d.status !== 'cancelled' && d.status !== 'rejected';
  right += write(`Payment: ${labelOf(d.paymentStatus)}${overdue ? ' (overdue)' : ''}`, rx, right, { width: headerRight, align: 'right', font: overdue ? BOLD : REGULAR });
  y = Math.max(left, right) + 10;
  rule(y, INK);
  y += 12;

  // ------------------------------------------------------------ customer and service
  const half = (WIDTH - 20) / 2;
  const a = d.address;
  const place = [a.city, a.region, a.postal_code].filter(Boolean).join(', ');
  let customer = y;
  customer += write('CUSTOMER', LEFT, customer, { width: half, font: BOLD, size: 8, color: MUTED }) + 3;
  customer += write(d.customerName || '-', LEFT, customer, { width: half, font: BOLD, size: 10 }) + 4;
  customer += write('Service address', LEFT, customer, { width: half, color: MUTED });
  for (const line of [a.label, a.line1, a.line2, place, a.country]) if (line) customer += write(line, LEFT, customer, { width: half });
  if (a.instructions) customer += 3 + write(`Instructions: ${clip(a.instructions, 300)}`, LEFT, customer + 3, { width: half, color: MUTED });

  const sx = LEFT + half + 20;
  let service = y;
  service += write('SERVICE', sx, service, { width: half, font: BOLD, size: 8, color: MUTED }) + 3;
  const pairs: [string, string][] = [
    ['Container', d.specification || '-'],
    ['Waste type', d.wasteType || '-'],
    ['Placed', at(d.placedAt)],
    ['Delivery', `${d.deliveryDate}${d.timeWindow !== 'anytime' ? ` (${WINDOW_LABEL[d.timeWindow]})` : ''}`],
    ['Pickup', d.pickupDate ?? 'Call when full'],
  ];
  if (d.deliveredOn) pairs.push(['Delivered', d.deliveredOn]);
  if (d.completedAt) pairs.push(['Completed', at(d.completedAt)]);
  if (d.cancelledAt) pairs.push(['Cancelled', at(d.cancelledAt) + (d.cancellationReason ? ` - ${clip(d.cancellationReason, 300)}` : '')]);
  if (d.status === 'rejected' && d.rejectionReason) pairs.push(['Rejected', clip(d.rejectionReason, 300)]);
  if (d.promotionCode) pairs.push(['Promotion', d.promotionCode]);
  if (d.notes) pairs.push(['Notes', clip(d.notes, 400)]);
  service = facts(sx, service, half, pairs);
  y = Math.max(customer, service) + 6;

  // ------------------------------------------------------------ bill
  heading('Bill');
  table(
    [
      { title: 'Description', width: WIDTH - 230 },
      { title: 'Qty', width: 40, align: 'right' },
      { title: `Unit (${d.currency})`, width: 95, align: 'right' },
      { title: `Amount (${d.currency})`, width: 95, align: 'right' },
    ],
    d.lines.length
      ? d.lines.map((l) => ({ cells: [l.description, String(l.quantity), money(l.unitAmount), money(l.amount)] }))
      : [{ cells: ['No charges.', '', '', money(0)] }],
  );
  const totals: [string, string, boolean?][] = [['Subtotal', withCurrency(d.subtotalAmount)]];
  if (d.discountAmount) totals.push(['Discount', withCurrency(-d.discountAmount)]);
  totals.push(['Taxes', withCurrency(d.taxAmount)], ['Total', withCurrency(d.totalAmount), true], ['Paid', withCurrency(d.paidAmount)], ['Balance', withCurrency(balance), true], ['Due date', d.dueDate + (overdue ? ' (overdue)' : '')]);
  ensure(totals.length * 14 + 6);
  y += 4;
  const tx = LEFT + WIDTH - 250;
  for (const [label, value, strong] of totals) {
    write(label, tx, y, { width: 110, font: strong ? BOLD : REGULAR, color: strong ? INK : MUTED });
    write(value, tx + 110, y, { width: 136, font: strong ? BOLD : REGULAR, align: 'right' });
    y += 14;
  }

  // ------------------------------------------------------------ payments
  heading('Payments');
  if (d.payments.length) {
    table(
      [
        { title: 'Date', width: 110 },
        { title: 'Method', width: 120 },
        { title: 'Reference', width: WIDTH - 325 },
        { title: `Amount (${d.currency})`, width: 95, align: 'right' },
      ],
      d.payments.map((p) => ({ cells: [at(p.date), p.method, p.reference ?? '', money(p.amount)] })),
    );
    y += 4;
  } else if (d.paidAmount === 0) {
    y += write('No payments recorded.', LEFT, y, { width: WIDTH, color: MUTED }) + 4;
  }
  if (d.payments.length || d.paidAmount !== 0) {
    ensure(14);
    y += write(`Paid to date: ${withCurrency(d.paidAmount)}. Balance: ${withCurrency(balance)}.`, LEFT, y, { width: WIDTH }) + 4;
  }

  // ------------------------------------------------------------ status history
  heading('Status history');
  table(
    [
      { title: 'From', width: 80 },
      { title: 'To', width: 80 },
      { title: `When (${d.company.timezone})`, width: 120 },
      { title: 'By', width: 60 },
      { title: 'Reason', width: WIDTH - 340 },
    ],
    d.history.map((h) => ({ cells: [h.from ? labelOf(h.from) : '(placed)', labelOf(h.to), at(h.at), h.actorType, clip(h.reason, 300)] })),
  );

  // ------------------------------------------------------------ footers
  const range = doc.bufferedPageRange();
  const footer = `${clip(d.company.name, 60)} - ${d.number} - generated ${at(d.generatedAt)} (${d.company.timezone})`;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0; // writing below the bottom margin must not open a page
    const top = PAGE.height - PAGE.margin + 10;
    write(footer, LEFT, top, { width: WIDTH - 80, size: 7, color: MUTED });
    write(`Page ${i - range.start + 1} of ${range.count}`, LEFT + WIDTH - 80, top, { width: 80, size: 7, color: MUTED, align: 'right' });
  }
  doc.end();
  return done;
}
