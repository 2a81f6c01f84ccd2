import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { documentOpenAccess } from '../access/access.decorator';
import { ACCESS_CODES, ACCESS_RULES } from '../access/access-codes';
import { documentPropertyConventions, documentResponseFields } from './openapi-examples';
import { documentExclusiveFields, documentHeaderParameters, documentNullables, documentQueryParameters } from './openapi-strict';
import { describeError, errorExample, errorResponseContent, GENERIC_ERROR_CODES } from './openapi';
import { documentRegistryEnums } from './openapi-registry';

/** One description per controller tag (the top-level `tags`; `redocly lint` fails on a tag without one). */
export const API_TAGS: Record<string, string> = {
  Auth: 'Company users, customers and drivers: registration, login, tokens, one-time codes and passwords.',
  'Admin auth': 'Platform administrators: registration (with the server\'s registration key), login with lock-out, tokens, passwords.',
  Administration: 'Platform administrators across companies: companies (with their owner, status and platform settings, audit log), their customers, drivers, asset specifications and assets, waste types and orders (read only).',
  Company: 'The caller\'s company: creation, profile, owner, documents and settings (back office).',
  Customers: 'The company\'s customers: creation, profile, activation (company side).',
  'Customer self-service': 'A customer\'s own profile and delivery addresses.',
  'Customer catalogue': 'What a customer can order: the company\'s active asset specifications and waste types.',
  Drivers: 'The company\'s drivers: creation, profile, activation; a driver\'s own profile.',
  'Asset categories': 'Container categories (roll-off, front-load…) of the company\'s catalogue.',
  'Asset styles': 'Container styles (open top, compactor…) of the company\'s catalogue.',
  'Asset specifications': 'Orderable container sizes (a 20-yard roll-off): dimensions, weights, included days and the waste types each takes.',
  Assets: 'The company\'s physical containers, their codes, serials, status and location.',
  'Waste types': 'Waste the company accepts (construction debris, yard waste…), with its disposal terms.',
  'QR codes': 'Signed QR codes printed on containers, and their verification.',
  Lots: 'Yards where containers are kept, with opening hours (per weekday, or for one date), and holidays; the serving lot prices delivery.',
  Stations: 'Disposal stations (landfills, transfer stations), with opening hours (per weekday, or for one date), and holidays.',
  Taxes: 'Taxes the company charges (basis points) on rental charges, fees or both.',
  'Payment terms': 'Payment terms offered to customers (due in N days).',
  'Payments (customer)': 'A customer\'s buyer identity and cards, paying an order or every due (card or wallet), dues and ledger rows.',
  'Payments (company)': 'Offline payments received, dues with ageing, and the company\'s ledger (transactions, payments).',
  'Payments (wallet and instruments)': 'Wallets (a customer\'s own; the company\'s summed) and any user\'s payment instruments, masked.',
  Policies: 'Company policies customers accept (cancellation, damage, overage) and their fees.',
  'Pricing profiles': 'Price books: per specification and waste type prices, delivery radius and per-km fees.',
  'Truck types': 'Kinds of trucks in the fleet and the containers they carry.',
  Trucks: 'The company\'s trucks, their plates and current location.',
  Promotions: 'Promotion codes: discounts on rental charges, validity window and redemption limits.',
  'Orders (customer)': 'A customer\'s orders: billing preview, placement, cancellation, feedback.',
  Orders: 'The company\'s orders: lists, details, edits, approval and rejection.',
  'Orders (public)': 'The order PDF, reachable by the order\'s UUID without a token.',
  'Order change requests (customer)': 'A customer asks to change an order (reschedule, extend, pick up early…) and sees the price first.',
  'Order change requests': 'The company decides on customers\' change requests.',
  Media: 'File uploads (JPEG, PNG, WebP, PDF) and serving them back by URL.',
  'Attendance (driver)': 'A driver\'s day: check-in (position, truck), breaks, check-out, resume; today\'s state and past days.',
  Attendance: 'Drivers\' days as the company sees them: lists, one day with its breaks, a driver\'s worked minutes over a range.',
  'Leave (driver)': 'A driver\'s leave: requests (dates, reason, attachment) with the decision on each date, editing and cancelling them, approved leaves, the year\'s days taken and pending against the allowance.',
  Leave: 'Drivers\' leave as the company handles it: requests, approving, rejecting or reviewing their dates, leaves, cancelling one before it starts or revoking the rest of one under way.',
  'Demerit points': 'Policy violations the company records on delivered or completed orders (points and fee copied from the policy; the fee joins the balance), replacing an order\'s set, disputes and their resolution (upheld or waived), customers\' demerit points against the thresholds.',
  'Demerit points (customer)': 'A customer\'s demerit points and violations, and disputing them: messages, edited or deleted while the dispute is open.',
  'Driver jobs': 'A driver\'s own jobs: the day in sequence, one job, start, evidence (photos, signatures, QR scans, station tickets), issues, completion, location points, the tracking view, history.',
  'Job issues': 'Issues drivers report on jobs, as the company sees and resolves them (a blocking one stops completion until resolved).',
  Dispatch: 'The dispatcher\'s day: context (drivers, trucks, jobs, lots, stations, free assets), available drivers, assignable orders, assigning and reassigning drivers.',
  Jobs: 'The company\'s jobs: lists, the job tree (date → driver → sequence), adding, editing, bulk edits, deleting and aborting jobs, route collapse.',
  'Merchant onboarding': 'The company\'s merchant account with the payment provider: onboarding state (start, return and refresh URLs, restart), the platform\'s fees and payout schedule, the merchant terms of service.',
  Subscriptions: "The company's plan (free, starter, pro: price, trial, limits on drivers, assets and monthly orders), its one trial, its subscription charged through the payment provider, cancel at period end.",
  Webhooks: 'Outbound webhook endpoints (signed event deliveries, retried, logged; only URLs that reach public addresses over https: see each route) and the payment provider\'s inbound events.',
  Notifications: "A company user's own notifications (orders placed, payments, disputes, plan limits…): list with the unread count, read, read all, delete.",
  'Notifications (customer)': "A customer's own notifications (order progress, payments, violations and disputes, demerit thresholds): list with the unread count, read, read all, delete.",
  'Notifications (driver)': "A driver's own notifications (jobs assigned or changed, leave decisions, chat messages): list with the unread count, read, read all, delete.",
  Contact: 'The contact form: a message to the platform, kept and mailed to its address.',
  Chats: "One chat per order between the company's users, the order's customer and its drivers: opening it, messages (text and attachments) newest first with a cursor, the caller's chats with the last message and unread count, editing and deleting one's own messages.",
  Reports: "The company's figures over a date range: the dashboard (revenue billed and collected, orders, jobs, drivers' productivity, tonnage, asset utilisation, on-time delivery, dues ageing, top customers), chart series, and report tables as JSON or CSV.",
  'Dashboards (customer)': "A customer's dashboard: containers on site, next jobs, balance and overdue, demerit points, latest orders.",
  'Dashboards (driver)': "A driver's dashboard (today's jobs and progress, worked time, the month's jobs, km and tonnage) and report by day, as JSON or CSV.",
  'Reports (admin)': "The platform's figures for administrators: companies, users, orders and GMV by day, plans; the companies and customers reports as JSON or CSV.",
  Health: 'Liveness and readiness probes (extensions outside the seed).',
  Documentation: 'The interactive documentation\'s OAuth2 redirect page.',
};

/**
 * The file under docs/ (from the repository root) that describes each tag's area; the tag's description
 * ends with it. test/project/docs.spec.ts checks that every tag has one and that it exists.
 */
export const TAG_DOCS: Record<string, string> = {
  Auth: 'docs/architecture.md#access-codes',
  'Admin auth': 'docs/architecture.md#access-codes',
  Administration: 'docs/administration.md',
  Company: 'docs/architecture.md#module-map',
  Customers: 'docs/architecture.md#module-map',
  'Customer self-service': 'docs/architecture.md#module-map',
  'Customer catalogue': 'docs/architecture.md#module-map',
  Drivers: 'docs/architecture.md#module-map',
  'Asset categories': 'docs/architecture.md#module-map',
  'Asset styles': 'docs/architecture.md#module-map',
  'Asset specifications': 'docs/orders-and-pricing.md',
  Assets: 'docs/dispatch.md',
  'Waste types': 'docs/orders-and-pricing.md',
  'QR codes': 'docs/dispatch.md',
  Lots: 'docs/orders-and-pricing.md',
  Stations: 'docs/dispatch.md',
  Taxes: 'docs/orders-and-pricing.md',
  'Payment terms': 'docs/architecture.md#module-map',
  'Payments (customer)': 'docs/payments.md',
  'Payments (company)': 'docs/payments.md',
  'Payments (wallet and instruments)': 'docs/payments.md',
  Policies: 'docs/orders-and-pricing.md',
  'Pricing profiles': 'docs/orders-and-pricing.md',
  'Truck types': 'docs/dispatch.md',
  Trucks: 'docs/dispatch.md',
  Promotions: 'docs/orders-and-pricing.md',
  'Orders (customer)': 'docs/orders-and-pricing.md',
  Orders: 'docs/orders-and-pricing.md',
  'Orders (public)': 'docs/orders-and-pricing.md',
  'Order change requests (customer)': 'docs/orders-and-pricing.md',
  'Order change requests': 'docs/orders-and-pricing.md',
  Media: 'docs/architecture.md#extensions-outside-the-seed',
  'Attendance (driver)': 'docs/dispatch.md',
  Attendance: 'docs/dispatch.md',
  'Leave (driver)': 'docs/dispatch.md',
  Leave: 'docs/dispatch.md',
  'Demerit points': 'docs/orders-and-pricing.md',
  'Demerit points (customer)': 'docs/orders-and-pricing.md',
  'Driver jobs': 'docs/dispatch.md',
  'Job issues': 'docs/dispatch.md',
  Dispatch: 'docs/dispatch.md',
  Jobs: 'docs/dispatch.md',
  'Merchant onboarding': 'docs/payments.md',
  Subscriptions: 'docs/payments.md',
  Webhooks: 'docs/payments.md',
  Notifications: 'docs/notifications.md',
  'Notifications (customer)': 'docs/notifications.md',
  'Notifications (driver)': 'docs/notifications.md',
  Contact: 'docs/notifications.md',
  Chats: 'docs/notifications.md',
  Reports: 'docs/reports.md',
  'Dashboards (customer)': 'docs/reports.md',
  'Dashboards (driver)': 'docs/reports.md',
  'Reports (admin)': 'docs/reports.md',
  Health: 'docs/operations.md',
  Documentation: 'docs/architecture.md',
};

/**
 * A module's own tag description, declared beside its controller (what `nest g module-feature` writes),
 * so that a new module edits no list of layer 0: `describeApiTag('Invoices', 'What they are.', 'docs/….md')`.
 */
export function describeApiTag(name: string, description: string, doc?: string): void {
  API_TAGS[name] ??= description;
  if (doc) TAG_DOCS[name] ??= doc;
}

/** A tag's description: what it covers, then where its area is described. */
function tagDescription(name: string): string | undefined {
  const what = API_TAGS[name];
  if (!what) return undefined;
  return TAG_DOCS[name] ? `${what} Details: \`${TAG_DOCS[name]}\` in the repository.` : what;
}

/** Checks of the request itself, before any route: any operation can answer them. */
const REQUEST_ERRORS = [400, 413, 415, 422] as const;
const REQUEST_ERROR_NAMES: Record<(typeof REQUEST_ERRORS)[number], string> = { 400: 'BadRequest', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType', 422: 'ValidationFailed' };

interface ResponseObject {
  description?: string;
  content?: Record<string, { examples?: Record<string, unknown> }>;
}

/**
 * Builds the OpenAPI document of the app's routes and completes what decorators cannot say: the
 * request checks' errors on every operation, `security: []` on open routes, the tags with their
 * descriptions, servers, contact and license. Used by `createApp` (served at /api/documentation-json)
 * and by `npm run lint:openapi`.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const codes = ACCESS_CODES.map((c) => `- \`${c}\`: ${ACCESS_RULES[c].description}`).join('\n');
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('HaulOps API')
      .setDescription(
        'Operations platform for waste haulers: companies, their customers and drivers, and platform administrators.\n\n' +
          'Every response is `{"success": true, "data": …}` (lists add `meta`, some routes a `message`) or the error envelope ' +
          '`{"success": false, "message", "code", "errors"?, "request_id"}`; each error response lists the `code`s it can carry. ' +
          'Money is in integer minor units of the company currency (12999 = 129.99), rates in basis points (825 = 8.25 %), ' +
          'dates `YYYY-MM-DD`, timestamps ISO 8601 in UTC, phones E.164. Each operation names its access code in `x-access-code`:\n\n' +
          codes,
      )
      .setVersion('1')
      .addServer('/', 'This server')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The `token` of /auth/login, /auth/register or /admin/auth/login.' }, 'bearer')
      .build(),
  );
  doc.info.license = { name: 'Proprietary (package.json: UNLICENSED)' };
  documentRegistryEnums(doc);
  documentPropertyConventions(doc);
  documentResponseFields(doc);
  documentNullables(doc);
  documentHeaderParameters(doc);
  documentQueryParameters(doc);
  documentExclusiveFields(doc);
  documentOpenAccess(doc);
  documentRequestErrors(doc);
  // The error examples the responses refer to, once each.
  const referenced = new Set([...JSON.stringify(doc.paths).matchAll(/"#\/components\/examples\/([A-Z0-9_]+)"/g), ...JSON.stringify(doc.components?.responses ?? {}).matchAll(/"#\/components\/examples\/([A-Z0-9_]+)"/g)].map((m) => m[1]));
  doc.components!.examples = Object.fromEntries([...referenced].sort().map((code) => [code, errorExample(code)]));
  const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags?: string[] })?.tags ?? [])));
  doc.tags = [...used].sort().map((name) => ({ name, ...(API_TAGS[name] ? { description: tagDescription(name) } : {}) }));
  return doc;
}

/** 400/413/415/422 from the body parser and the request checks, on every operation (merged with its own). */
function documentRequestErrors(doc: OpenAPIObject): void {
  doc.components ??= {};
  doc.components.responses ??= {};
  for (const status of REQUEST_ERRORS) {
    const codes = GENERIC_ERROR_CODES[status] ?? [];
    doc.components.responses[REQUEST_ERROR_NAMES[status]] = { description: describeError(status, codes), content: { 'application/json': errorResponseContent(status, codes) } } as never;
  }
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as { responses?: Record<string, ResponseObject | { $ref: string }> }[]) {
      if (!op?.responses) continue;
      for (const status of REQUEST_ERRORS) {
        const own = op.responses[status] as ResponseObject | undefined;
        if (!own) op.responses[status] = { $ref: `#/components/responses/${REQUEST_ERROR_NAMES[status]}` };
        else {
          // The route documents this status with its own codes: add the request checks' codes to them.
          const json = own.content?.['application/json'];
          const codes = [...new Set([...Object.keys(json?.examples ?? {}), ...(GENERIC_ERROR_CODES[status] ?? [])])];
          own.description = describeError(status, codes);
          own.content = { ...own.content, 'application/json': errorResponseContent(status, codes) };
        }
      }
    }
  }
}

