import { MemberActor, memberActor } from './actors';
import { inDays, orderWorld, OrderWorld, placeOrder } from './order-fixtures';
import { freshIp, TestApp } from './test-app';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A company with ONE record of every kind a mounted route takes as a path id, built through HTTP only
 * on top of `orderWorld` (which gives the lot, specifications, waste types, price book, tax, payment
 * term, customer with an address, and driver). Used by the tenant-isolation sweep
 * (test/tenant-isolation.e2e.spec.ts): company A is the victim, company B the attacker, and B's ids
 * fill the `*_id` fields of the bodies B sends.
 */

/**
 * A module's own kinds of record in the sweep: its `test/<module>/tenant-kinds.ts` exports `TENANT_KINDS`
 * (what `nest g module-feature` writes), loaded here, so that no list below names a generated module.
 */
export interface ModuleTenantKind {
  kind: string;
  /** Path parameters (`{invoice}`) that name it. */
  params: string[];
  /** Body or query fields (`invoice_id`, `invoice_ids`' singular) that name it. */
  bodyIds?: string[];
  /** Makes one record in the world (through HTTP, as its owner: `co(path, body, status = 201)` answers `data`) and returns its id. */
  create(ctx: { t: TestApp; world: OrderWorld; co: (path: string, body: unknown, status?: number) => Promise<any> }): Promise<string>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
const TEST_DIR = join(__dirname, '..');
export const MODULE_KINDS: ModuleTenantKind[] = readdirSync(TEST_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(TEST_DIR, d.name, 'tenant-kinds.ts')))
  .sort((a, b) => a.name.localeCompare(b.name))
  .flatMap((d) => (require(join(TEST_DIR, d.name, 'tenant-kinds.ts')) as { TENANT_KINDS: ModuleTenantKind[] }).TENANT_KINDS);

/** Every kind of record a path parameter or a body `*_id` field can name (the modules' own kinds last). */
const CORE_KINDS = [
  'lot',
  'lotHoliday',
  'station',
  'stationHoliday',
  'wasteType',
  'assetCategory',
  'assetStyle',
  'assetSpecification',
  'assetSpecificationWasteType',
  'asset',
  'truckType',
  'truck',
  'tax',
  'paymentTerm',
  'policy',
  'pricingProfile',
  'promotion',
  'document',
  'customer',
  'address',
  'driver',
  'qrCode',
  'media',
  'order',
  'orderChangeRequest',
  'attendance',
  'job',
  'jobIssue',
  'driverOrder',
  'leaveRequest',
  'leave',
  'transaction',
  'instrument',
  'walletTransaction',
  'subscription',
  'customerPolicyViolation',
  'policyViolationDisputeMessage',
  'company',
  'chat',
  'driverChat',
  'chatMessage',
  'notification',
  'customerNotification',
  'driverNotification',
  'webhookEndpoint',
  'webhookDelivery',
] as const;
/** A kind of this file's lists, or a module's own (MODULE_KINDS). */
export type RecordKind = (typeof CORE_KINDS)[number] | (string & {});
export const RECORD_KINDS: readonly RecordKind[] = [...CORE_KINDS, ...MODULE_KINDS.map((k) => k.kind)];

export interface TenantWorld extends OrderWorld {
  name: string;
  owner: OrderWorld['company'];
  /**
   * One id per kind (the order is approved, so it has its delivery and pickup jobs; its change request is
   * pending). `job` is the driver's job: the delivery of the second customer's order (`driverOrder`),
   * assigned to the driver, with an open issue (`jobIssue`).
   */
  ids: Record<RecordKind, string>;
  /** A second customer of the same company, with its own address (same-company isolation). */
  customer2: MemberActor;
  customer2AddressId: string;
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Every UUID in a text (lower case). */
export const uuidsIn = (text: string | undefined): string[] => (text?.match(UUID_RE) ?? []).map((u) => u.toLowerCase());

/** A 1×1 PNG (detected by content by the media module). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Lot and station holidays sit far away so that no order or generated date falls on them. */
const HOLIDAY = () => inDays(300);

/** Runs the outbox relay until it finds nothing due (at most 20 batches): every event recorded so far is handled. */
export async function relayAll(t: TestApp): Promise<void> {
  for (let i = 0; i < 20 && (await t.app.get(OutboxRelay).runOnce()).claimed > 0; i++);
}

/** A listener on 127.0.0.1 (one per process, unref'd) that answers 204: where the worlds' webhook endpoints point. */
let hookListener: Promise<string> | undefined;
function hookUrl(): Promise<string> {
  hookListener ??= new Promise<string>((resolve) => {
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    });
  });
  return hookListener;
}

export async function tenantWorld(t: TestApp, name: string): Promise<TenantWorld> {
  const w = await orderWorld(t, { name });
  const send = async (method: 'get' | 'post' | 'put' | 'patch', path: string, body: unknown, token: string, status: number) => {
    const res = await t.req(method, `/api/v1/${path}`, { token, body });
    if (res.status !== status) throw new Error(`[${name}] ${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const co = (path: string, body: unknown, status = 201) => send('post', path, body, w.company.token, status);
  const get = (path: string) => send('get', path, undefined, w.company.token, 200);

  const spec = await get(`asset-specifications/${w.specId}`);
  const lotHoliday = await co(`lot/${w.lotId}/holidays`, { date: HOLIDAY(), name: 'Founders Day' });
  const station = await co('station/create', { name: 'Transfer station', latitude: 40.05, longitude: -89.05, dump_cost_per_tonne_amount: 6500, waste_type_ids: [w.wasteId] });
  const stationHoliday = await co(`station/${station.id}/holidays`, { date: HOLIDAY(), name: 'Founders Day' });
  const style = await co('asset-styles', { name: 'Open top' });
  const links = await get(`asset-specifications/${w.specId}/waste-types`);
  const link = (links as { id: string; waste_type_id: string }[]).find((l) => l.waste_type_id === w.wasteId);
  if (!link) throw new Error(`[${name}] no waste-type link on the specification`);
  const asset = await co('assets', { code: 'RO20-001', asset_specification_id: w.specId, home_lot_id: w.lotId });
  const truckType = await co('truck-types', { name: 'Roll-off hoist', capacity_kg: 15000, asset_specification_ids: [w.specId] });
  const truck = await co('trucks', { plate: 'IL-RO-101', truck_type_id: truckType.id, home_lot_id: w.lotId });
  const terms = await get('payment-terms');
  const policy = await co('policies', { name: 'Overfilled container', category: 'overfill', demerit_points: 2, fee_amount: 7500 });
  const promotion = await co('promotions/create', { code: 'SPRING20', name: 'Spring', discount_type: 'percent', discount_value: 2000, asset_specification_ids: [w.specId] });
  const documents = await co('company/documents', { documents: [{ name: 'Liability insurance', type: 'insurance', url: 'https://files.example.test/insurance.pdf', expires_on: inDays(365) }] }, 200);
  const qr = await co('qr-codes', { asset_id: asset.id });
  const upload = await t.http.post('/api/v1/upload-media').set('X-Forwarded-For', freshIp()).attach('file', PNG, 'dot.png');
  if (upload.status !== 201) throw new Error(`[${name}] upload-media → ${upload.status} ${JSON.stringify(upload.body)}`);

  // An order placed by the customer and approved by the company (so it has jobs), with a pending change request.
  const order = await placeOrder(t, w, { pickup_date: inDays(13) });
  await send('patch', `approve/order/${order.id}`, undefined, w.company.token, 200);
  const change = await send('post', `customer/orders/${order.id}/order-change-requests`, { type: 'extend_rental', days: 1 }, w.customer.token, 201);
  // The driver checks in with the truck (today's day stays open, so DR-IN routes admit the driver).
  const attendance = await send('post', 'driver/check-in', { lat: 40.0, lng: -89.0, truck_id: truck.id }, w.driver.token, 201);

  // A second customer of the same company with an address and an order of its own.
  const customer2 = await memberActor(t, w.company, 'customer');
  const address2 = await send('post', 'customer/addresses', { line1: '2 Site Rd', city: 'Springfield', latitude: 40.17, longitude: -89.0 }, customer2.token, 201);
  // Each order's container is recorded before it is placed: the container calendar refuses an order no container is free for.
  const asset2 = await co('assets', { code: 'RO20-002', asset_specification_id: w.specId, home_lot_id: w.lotId });
  const order2 = await placeOrder(t, { ...w, addressId: address2.id }, {}, customer2);
  // The driver's job: the second customer's order, approved and assigned to the driver with an asset of
  // its own (so the first customer's order stays one the driver has no job on), with an issue reported on it.
  await send('patch', `approve/order/${order2.id}`, undefined, w.company.token, 200);
  await send('post', `driver/assign/${order2.id}`, { driver_id: w.driver.id, truck_id: truck.id, asset_id: asset2.id }, w.company.token, 200);
  const delivery = ((await get(`order/${order2.id}/full`)).jobs as { id: string; type: string }[]).find((j) => j.type === 'delivery');
  if (!delivery) throw new Error(`[${name}] the approved order has no delivery job`);
  const issue = await send('post', `driver/jobs/${delivery.id}/issues`, { type: 'not_ready', description: 'Gate locked.' }, w.driver.token, 201);
  // Chats: the first customer's order's, with the owner's message (the one the message routes name), and, for
  // the driver's chat routes, one of an order the driver has a job on: a third order (the second customer's)
  // assigned to the driver, which no other route of the sweep touches (it aborts the driver's job above).
  const chat = await co(`company/chats/${order.id}/create`, undefined);
  const chatMessage = await co(`company/chats/${chat.id}/message`, { body: 'Your container arrives Tuesday morning.' });
  const chatAsset = await co('assets', { code: 'RO20-CHAT', asset_specification_id: w.specId, home_lot_id: w.lotId });
  const order3 = await placeOrder(t, { ...w, addressId: address2.id }, {}, customer2);
  await send('patch', `approve/order/${order3.id}`, undefined, w.company.token, 200);
  await send('post', `driver/assign/${order3.id}`, { driver_id: w.driver.id, truck_id: truck.id, asset_id: chatAsset.id }, w.company.token, 200);
  const driverChat = await co(`company/chats/${order3.id}/create`, undefined);
  await send('post', `driver/chats/${driverChat.id}/message`, { body: 'On my way.' }, w.driver.token, 201);
  // The driver's leave request (two dates far from any job, with the upload attached); the company approves the second: a leave.
  const leaveRequest = await send('post', 'driver/leave-requests', { type: 'annual', dates: [inDays(200), inDays(201)], reason: 'Family visit.', attachment_media_id: upload.body.data.id }, w.driver.token, 201);
  const decided = await send('post', `leave-requests/${leaveRequest.id}/approve-dates`, { dates: [inDays(201)] }, w.company.token, 200);
  const leaveId = (decided.dates as { leave_id: string | null }[]).find((d) => d.leave_id)?.leave_id;
  if (!leaveId) throw new Error(`[${name}] the approved date made no leave`);
  // Payments: the first customer's card pays part of the order (a ledger row of theirs).
  const instrument = await send('post', 'customer/psp/payment-instrument', { token: 'tok_visa' }, w.customer.token, 201);
  const payment = await send('post', `customer/orders/${order.id}/pay`, { instrument_id: instrument.id, amount: 1000 }, w.customer.token, 201);
  // A paid order cancelled in the free window: the relay refunds it to the wallet (a wallet row of theirs).
  const asset3 = await co('assets', { code: 'RO20-003', asset_specification_id: w.specId, home_lot_id: w.lotId });
  const refunded = await placeOrder(t, w, { delivery_date: inDays(6) });
  await send('post', `customer/orders/${refunded.id}/pay`, { instrument_id: instrument.id }, w.customer.token, 201);
  await send('post', `customer/order/${refunded.id}/cancel`, {}, w.customer.token, 200);
  for (let i = 0; i < 3; i++) await t.app.get(OutboxRelay).runOnce();
  const walletRows = (await send('get', 'wallet/transactions', undefined, w.customer.token, 200)) as { id: string }[];
  if (!walletRows.length) throw new Error(`[${name}] the cancelled paid order was not refunded to the wallet`);
  // Subscriptions: a trial of the starter plan (no charge); the sweep cancels it at period end.
  const subscription = await send('post', 'psp/plans/starter/trial', undefined, w.company.token, 201);
  // Accountability: a third order of the first customer, delivered by the driver (assigned with an asset of its own,
  // started, photographed, completed), with the policy recorded as violated and disputed by the customer.
  const delivered = await placeOrder(t, w);
  await send('patch', `approve/order/${delivered.id}`, undefined, w.company.token, 200);
  const assigned = (await send('post', `driver/assign/${delivered.id}`, { driver_id: w.driver.id, truck_id: truck.id, asset_id: asset3.id }, w.company.token, 200)).jobs as { id: string; type: string }[];
  const drop = assigned.find((j) => j.type === 'delivery');
  if (!drop) throw new Error(`[${name}] assignment gave no delivery job`);
  await send('post', `driver/jobs/${drop.id}/start`, undefined, w.driver.token, 200);
  await send('post', `driver/jobs/${drop.id}/evidence`, { kind: 'photo', url: 'https://files.example.test/drop.jpg' }, w.driver.token, 201);
  await send('post', `driver/jobs/${drop.id}/complete`, undefined, w.driver.token, 200);
  const [violation] = await co(`orders/${delivered.id}/violated-policies`, { policy_ids: [policy.id], note: 'Overfilled.', evidence_media_ids: [upload.body.data.id] });
  const dispute = await send('post', `customer/policy-violations/${violation.id}/dispute-messages`, { body: 'It was level with the rim.' }, w.customer.token, 201);
  // An outbound webhook endpoint (to a listener on 127.0.0.1; the test app allows loopback) and one delivery of it: a ping.
  const webhook = await co('psp/create/webhook', { url: await hookUrl(), events: ['order.placed'] });
  const webhookPing = await co(`psp/webhook-endpoints/${webhook.id}/ping`, undefined);
  // Notifications (made by the relay's subscribers): the owner's (order placed), the customer's (order approved), the driver's (job assigned).
  await relayAll(t);
  const firstNotification = async (path: string, token: string) => {
    const list = (await send('get', path, undefined, token, 200)) as { id: string }[];
    if (!list.length) throw new Error(`[${name}] no notification at ${path}`);
    return list[0].id;
  };
  const notification = await firstNotification('notifications/get', w.company.token);
  const customerNotification = await firstNotification('customer/notifications/get', w.customer.token);
  const driverNotification = await firstNotification('driver/notifications/get', w.driver.token);

  // The modules' own kinds (test/<module>/tenant-kinds.ts).
  const moduleIds: Record<string, string> = {};
  for (const k of MODULE_KINDS) moduleIds[k.kind] = await k.create({ t, world: w, co });

  return {
    ...w,
    name,
    owner: w.company,
    customer2,
    customer2AddressId: address2.id,
    ids: {
      lot: w.lotId,
      lotHoliday: lotHoliday.id,
      station: station.id,
      stationHoliday: stationHoliday.id,
      wasteType: w.wasteId,
      assetCategory: spec.asset_category_id,
      assetStyle: style.id,
      assetSpecification: w.specId,
      assetSpecificationWasteType: link.id,
      asset: asset.id,
      truckType: truckType.id,
      truck: truck.id,
      tax: w.taxId,
      paymentTerm: terms[0].id,
      policy: policy.id,
      pricingProfile: w.profileId,
      promotion: promotion.id,
      document: documents[0].id,
      customer: w.customer.id,
      address: w.addressId,
      driver: w.driver.id,
      qrCode: qr.id,
      media: upload.body.data.id,
      order: order.id,
      orderChangeRequest: change.id,
      attendance: attendance.id,
      job: delivery.id,
      jobIssue: issue.id,
      driverOrder: order2.id,
      leaveRequest: leaveRequest.id,
      leave: leaveId,
      transaction: payment.transaction.id,
      instrument: instrument.id,
      walletTransaction: walletRows[0].id,
      subscription: subscription.id,
      customerPolicyViolation: violation.id,
      policyViolationDisputeMessage: dispute.messages[0].id,
      company: w.company.companyId,
      chat: chat.id,
      driverChat: driverChat.id,
      chatMessage: chatMessage.id,
      notification,
      customerNotification,
      driverNotification,
      webhookEndpoint: webhook.id,
      webhookDelivery: webhookPing.id,
      ...moduleIds,
    },
  };
}

// ------------------------------------------------------------------ which ids name which kinds
// (shared by the tenant-isolation sweep and the bad-input property test)

/** Path parameter name → record kind. */
export const PARAM_KINDS: Record<string, RecordKind> = {
  lot: 'lot',
  station: 'station',
  wasteType: 'wasteType',
  assetCategory: 'assetCategory',
  assetStyle: 'assetStyle',
  assetSpecification: 'assetSpecification',
  assetSpecificationWasteType: 'assetSpecificationWasteType',
  asset: 'asset',
  truckType: 'truckType',
  truck: 'truck',
  tax: 'tax',
  paymentTerm: 'paymentTerm',
  policy: 'policy',
  pricingProfile: 'pricingProfile',
  promotion: 'promotion',
  document: 'document',
  customerId: 'customer',
  driverId: 'driver',
  address: 'address',
  qrCode: 'qrCode',
  media: 'media',
  order: 'order',
  orderId: 'order',
  orderChangeRequest: 'orderChangeRequest',
  attendanceId: 'attendance',
  driverJob: 'job',
  issue: 'jobIssue',
  leaveRequest: 'leaveRequest',
  leave: 'leave',
  transaction: 'transaction',
  transactionId: 'transaction',
  subscriptionId: 'subscription',
  // Accountability: `/demerit/{customer}/customer/...` names a customer; violations and their dispute messages.
  customer: 'customer',
  customerPolicyViolation: 'customerPolicyViolation',
  policyViolationDisputeMessage: 'policyViolationDisputeMessage',
  // Platform administration (AD routes): a company, and a specification named by its long parameter name.
  companyId: 'company',
  company: 'company',
  assetSpecificationId: 'assetSpecification',
  chat: 'chat',
  message: 'chatMessage',
  webhookEndpoint: 'webhookEndpoint',
  webhookDelivery: 'webhookDelivery',
  ...Object.fromEntries(MODULE_KINDS.flatMap((k) => k.params.map((p) => [p, k.kind]))),
};

/**
 * Path parameters that name GLOBAL records (the same rows for every tenant), with the value to send:
 * not tenant ids, so the sweep neither counts them as ids nor expects another tenant's value to be 404.
 * `{plan}` is a plan code (plans are global rows seeded by a migration; README "Subscriptions and plans").
 * `{provider}` is a payment provider's name (the inbound webhook route; README "Webhooks").
 */
// `{weekday}` and `{date}` are a lot's or station's weekday and dated opening exception (issue #25): values, not records.
export const SHARED_PARAMS: Record<string, string> = { plan: 'starter', provider: 'sandbox', weekday: 'sun', date: '2099-06-01' };

/** Ambiguous parameter names (`{holiday}`, `{id}`, …): the kind depends on the path. Checked before PARAM_KINDS. */
export const PATH_OVERRIDES: { path: RegExp; param: string; kind: RecordKind }[] = [
  { path: /^\/api\/v1\/lot\/\{lot\}\/holidays\/\{holiday\}$/, param: 'holiday', kind: 'lotHoliday' },
  { path: /^\/api\/v1\/station\/\{station\}\/holidays\/\{holiday\}$/, param: 'holiday', kind: 'stationHoliday' },
  // An order the driver has a job on (the second customer's): the route exists for such orders only.
  { path: /^\/api\/v1\/driver\/order\/\{order\}$/, param: 'order', kind: 'driverOrder' },
  { path: /^\/api\/v1\/wallet\/transactions\/\{transactionId\}$/, param: 'transactionId', kind: 'walletTransaction' },
  // A chat the driver is a member of (the driver's order's): the driver's chat routes.
  { path: /^\/api\/v1\/driver\/chats\/\{chat\}\/messages?$/, param: 'chat', kind: 'driverChat' },
  // A user's own notifications: `{id}` under each actor's prefix.
  { path: /^\/api\/v1\/notifications\/\{id\}/, param: 'id', kind: 'notification' },
  { path: /^\/api\/v1\/customer\/notifications\/\{id\}/, param: 'id', kind: 'customerNotification' },
  { path: /^\/api\/v1\/driver\/notifications\/\{id\}/, param: 'id', kind: 'driverNotification' },
];

/** Body or query field `*_id` (or `*_ids` for arrays) → the kind of record it names. */
export const BODY_ID_KINDS: Record<string, RecordKind> = {
  address_id: 'address',
  asset_id: 'asset',
  asset_category_id: 'assetCategory',
  asset_specification_id: 'assetSpecification',
  asset_style_id: 'assetStyle',
  customer_id: 'customer',
  // The administrators' creates name their company.
  company_id: 'company',
  // POST /order/jobs (relocate): another address of the order's customer.
  destination_address_id: 'address',
  document_id: 'document',
  // Uploads attached to a violation or a dispute message (`evidence_media_ids`).
  evidence_media_id: 'media',
  driver_id: 'driver',
  // POST /multi/reassign: the driver whose jobs move.
  from_driver_id: 'driver',
  home_lot_id: 'lot',
  job_id: 'job',
  // A leave request's attachment (an upload); GET /leaves?leave_request_id=.
  attachment_media_id: 'media',
  leave_request_id: 'leaveRequest',
  lot_id: 'lot',
  // AssetLocationDto: with location_type 'lot'.
  location_id: 'lot',
  media_id: 'media',
  instrument_id: 'instrument',
  order_id: 'order',
  payment_term_id: 'paymentTerm',
  policy_id: 'policy',
  pricing_profile_id: 'pricingProfile',
  promotion_id: 'promotion',
  station_id: 'station',
  tax_id: 'tax',
  truck_id: 'truck',
  truck_type_id: 'truckType',
  waste_type_id: 'wasteType',
  ...Object.fromEntries(MODULE_KINDS.flatMap((k) => (k.bodyIds ?? []).map((f) => [f, k.kind]))),
};

/** The kind of record a route's path parameter names (the path overrides first), or undefined. */
export const paramKind = (path: string, param: string): RecordKind | undefined =>
  PATH_OVERRIDES.find((o) => o.param === param && o.path.test(path))?.kind ?? (Object.hasOwn(PARAM_KINDS, param) ? PARAM_KINDS[param] : undefined);
