import { OpenAPIObject } from '@nestjs/swagger';

/**
 * The document's conventions for properties, applied once to every component schema where the DTO
 * says nothing else (a DTO's own `example`, `format` or `type` always wins):
 *
 * - `…_at` strings are `date-time` (ISO 8601, UTC), `…_id`/`id` strings and `…_ids` items are `uuid`;
 * - `…_amount` numbers are integers in minor units of the company currency, and so are counts and whole
 *   units (`…_days`, `…_kg`, `…_mm`, `…_bps`, `quantity`, … : INTEGER);
 * - an example a person recognises, by property name (and by schema where the same name means
 *   different things: a company's `name` is "Acme Hauling", a specification's "20-yard roll-off"),
 *   else the first value of an enum. Dates are in the future, phones E.164.
 *
 * The e2e response validation (test/support/openapi-validator.ts) checks every response against these
 * formats and types, and `redocly lint` checks that every example fits its schema.
 */

const UUID = '3f2b9c1e-7a4d-4e8b-9c21-5d6f7a8b9c0d';
/** Integer columns by name: amounts (minor units), basis points, counts and whole units of days, hours, kg, mm. */
const INTEGER = /(_amount|_bps|_days|_hours|_kg|_mm|_points|_threshold)$|^(quantity|rating|feedback_rating|size|days|pending|approved|rejected|total|page|per_page|last_page)$/;
/** `…_id` names that are not record ids: the request id is the client's `X-Request-Id` when sane; a route plan's id is a digest (32 hex digits). */
const NOT_UUID = new Set(['request_id', 'plan_id']);
/** Ids that are another system's, by schema: the payment provider's event id (inbound webhooks). */
const NOT_UUID_IN: Record<string, readonly string[]> = { InboundEventDto: ['id'] };
const AT = '2027-03-15T14:30:00.000Z';

/** Examples by schema (a regular expression on its name) and property name, tried before NAME_EXAMPLES. */
const SCHEMA_EXAMPLES: [RegExp, Record<string, unknown>][] = [
  // People, by who they are: each role reads like its own person (a customer's contact is not the dispatcher).
  [/^(Admin)?(Customer|UpdateCustomer|CustomerProfile|UpdateCustomerProfile)Dto$/, { name: 'Maria Ortiz', email: 'maria.ortiz@bo-builders.test', phone: '+12175550147', notes: 'Pays by cheque; call the site foreman before the first delivery.' }],
  [/^(Admin)?(Driver|UpdateDriver|DriverProfile|UpdateDriverProfile|CreateDriver|DispatchDriver|AttendanceDriver|LeaveDriver|DriverFigures)Dto$/, { name: 'Luis Moreno', email: 'luis.moreno@acme-hauling.test', phone: '+12175550182', notes: 'CDL class B; trained on the roll-off and hook-lift trucks.' }],
  [/^Admin(Register)?Dto$|^AdminCreateMemberDto$/, { name: 'Priya Shah', email: 'priya.shah@haulops.test', phone: '+12175550110' }],
  [/^CompanyOwnerDto$/, { name: 'Tom Becker', email: 'tom.becker@acme-hauling.test', phone: '+12175550100' }],
  [/^(Admin)?Company(Detail|WithPlatform)?Dto$|^(Admin)?(Create|Update)CompanyDto$/, { email: 'office@acme-hauling.test', phone: '+12175550100' }],
  [/^ChatAuthorDto$/, { name: 'Maria Ortiz' }],
  // Free text, by what it describes.
  [/^(Create|Update)NamedDto$/, { description: 'Containers with a swing door at the back, for walk-in loading.' }],
  [/Line/, { description: '20-yard roll-off, 7 days included' }],
  [/^TransactionDto$/, { description: 'Payment of ORD-000042 from the wallet' }],
  [/Job/, { notes: 'Gate code 1942; set it on boards, the driveway is new.' }],
  [/Asset/, { notes: 'Dent on the left door; works fine.' }],
  [/^(Admin)?Company(Summary|Detail|WithPlatform)?Dto$|^(Admin)?(Create|Update)CompanyDto$/, { name: 'Acme Hauling', email: 'office@acme-hauling.test', address: '1200 Industrial Pkwy, Springfield, IL 62704' }],
  [/^CompanyDocument|^DocumentInput/, { name: 'General liability insurance', type: 'insurance', url: 'https://files.acme-hauling.test/insurance-2027.pdf' }],
  [/WasteType/, { name: 'Construction debris', code: 'CD', description: 'Wood, drywall, roofing and concrete from building work.' }],
  [/AssetCategor/, { name: 'Roll-off', description: 'Open containers dropped and picked up by a roll-off truck.' }],
  [/AssetStyle/, { name: 'Open top', description: 'No lid; loaded from above.' }],
  [/AssetSpecification|Specification/, { name: '20-yard roll-off', description: 'Fits a kitchen remodel or a roof tear-off (about 6 pickup loads).' }],
  [/^(Create|Update)?AssetDto$|^AssetLocation|^QrCode|^QrVerification/, { code: 'RO20-0042', notes: 'Dent on the left door; works fine.' }],
  [/^(Create|Update)?LotDto$/, { name: 'North yard', address: '1200 Industrial Pkwy, Springfield, IL 62704' }],
  [/^(Create|Update)?StationDto$/, { name: 'Sangamon County landfill', address: '3000 Landfill Rd, Springfield, IL 62707' }],
  [/Holiday/, { name: 'Founders day', date: '2027-07-05' }],
  [/^(Create|Update)?TaxDto$/, { name: 'Illinois sales tax', description: 'State rate on container rental.' }],
  [/PaymentTerm/, { name: 'Net 30', description: 'Invoice due 30 days after delivery.' }],
  [/Polic/, { name: 'Late cancellation', description: 'Cancelling within 24 hours of delivery costs the cancellation fee.' }],
  [/PricingProfile/, { name: 'Contractor rates', description: 'Volume prices for general contractors.' }],
  [/TruckType/, { name: 'Roll-off truck', description: 'Carries one roll-off container up to 30 yards.' }],
  [/^(Create|Update)?TruckDto$/, { name: 'Truck 12' }],
  [/Promotion/, { name: 'Spring cleanup', code: 'SPRING27', description: '10 % off rentals booked in April.' }],
  [/^(User|Admin|Member|Customer|CustomerProfile|Driver|DriverProfile)Dto$|Register|Member/, { name: 'Dana Reyes', email: 'dana.reyes@acme-hauling.test' }],
  [/Address/, { label: 'Job site', line1: '42 Oak Street', line2: 'Gate code 1942', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US', instructions: 'Place on the driveway, left side.' }],
  [/Order|Quote|Bill|ChangeRequest/, { notes: 'Please call 15 minutes before delivery.', reason: 'Delivery date moved by the customer.', description: '20-yard roll-off, 7 days' }],
];

/** Examples by property name (the same meaning everywhere). */
const NAME_EXAMPLES: Record<string, unknown> = {
  id: UUID,
  name: 'Acme Hauling',
  email: 'dana.reyes@acme-hauling.test',
  billing_email: 'accounts@bo-builders.test',
  billing_name: 'Bo Builders LLC',
  phone: '+15125550123',
  description: 'Kept up to date by the office; shown to dispatchers and drivers.',
  notes: 'Gate closes at 6 pm.',
  address: '1200 Industrial Pkwy, Springfield, IL 62704',
  active: true,
  is_default: false,
  email_verified: true,
  has_password: true,
  tax_exempt: false,
  hazardous: false,
  overdue: false,
  auto_approve_orders: false,
  token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzZjJiOWMxZSJ9.c2lnbmF0dXJl',
  registration_key: 'platform-admin-key-2027',
  code: 'CD',
  serial: 'WCX-20-118734',
  asset_code: 'RO20-0042',
  plate: 'IL 4821 HK',
  image_url: 'https://files.acme-hauling.test/specs/20-yard.png',
  url: 'https://files.acme-hauling.test/insurance-2027.pdf',
  payload: 'eyJhIjoiM2YyYjljMWUiLCJjIjoiYWNtZSJ9.c2lnbmF0dXJl',
  svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29">…</svg>',
  label: 'Job site',
  line1: '42 Oak Street',
  line2: 'Gate code 1942',
  city: 'Springfield',
  region: 'IL',
  postal_code: '62704',
  country: 'US',
  instructions: 'Place on the driveway, left side.',
  currency: 'USD',
  license_number: 'D1234-5678-9012',
  promotion_code: 'SPRING27',
  reason: 'Customer asked for a later date.',
  rejection_reason: 'No container of this size is free that week.',
  cancellation_reason: 'Project postponed.',
  comment: 'On time and the driver placed it exactly where asked.',
  feedback_comment: 'On time and the driver placed it exactly where asked.',
  note: 'Please extend by three days; the roofers are late.',
  date: '2027-03-15',
  delivery_date: '2027-03-15',
  pickup_date: '2027-03-22',
  due_date: '2027-04-14',
  delivered_on: '2027-03-15',
  scheduled_date: '2027-03-15',
  valid_from: '2027-04-01',
  valid_to: '2027-04-30',
  expires_on: '2027-12-31',
  license_expires_on: '2028-06-30',
  hired_on: '2027-01-04',
  latitude: 39.7817,
  longitude: -89.6501,
  lat: 39.7817,
  lng: -89.6501,
  distance_km: 12.4,
  size: 20,
  length_mm: 6706,
  width_mm: 2438,
  height_mm: 1372,
  max_weight_kg: 4536,
  included_weight_kg: 1814,
  capacity_kg: 27000,
  tare_weight_kg: 11800,
  included_days: 7,
  days: 3,
  quantity: 1,
  rating: 5,
  feedback_rating: 5,
  demerit_points: 2,
  discount_value: 1000,
  max_redemptions: 100,
  max_redemptions_per_customer: 1,
  order_lead_time_days: 1,
  free_cancellation_hours: 24,
  demerit_warning_threshold: 3,
  demerit_block_threshold: 6,
  demerit_window_days: 90,
  annual_leave_allowance_days: 15,
  sick_leave_allowance_days: 5,
  pending: 1,
  approved: 4,
  rejected: 0,
  total: 5,
  prohibited_items: ['Asbestos', 'Paint cans', 'Tires'],
  // Amounts in minor units (12999 = 129.99).
  amount: 34500,
  unit_amount: 34500,
  base_price_amount: 34500,
  extra_day_amount: 1500,
  overage_per_tonne_amount: 8500,
  swap_fee_amount: 9500,
  dump_return_fee_amount: 12500,
  relocation_fee_amount: 7500,
  wasted_trip_fee_amount: 9900,
  price_override_amount: 37500,
  fee_amount: 5000,
  cancellation_fee_amount: 5000,
  min_subtotal_amount: 20000,
  subtotal_amount: 34500,
  discount_amount: 3450,
  tax_amount: 2562,
  total_amount: 33612,
  paid_amount: 0,
  balance_amount: 33612,
};

const isString = (s: Schema) => s.type === 'string';
const isNumber = (s: Schema) => s.type === 'number' || s.type === 'integer';
type Schema = Record<string, unknown>;

function exampleFor(schemaName: string, prop: string, s: Schema): unknown {
  for (const [re, examples] of SCHEMA_EXAMPLES) if (re.test(schemaName) && prop in examples) return examples[prop];
  if (prop in NAME_EXAMPLES) return NAME_EXAMPLES[prop];
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null);
  if (s.format === 'uuid') return UUID;
  if (s.format === 'date-time') return AT;
  if (s.format === 'date') return '2027-03-15';
  if (s.format === 'email') return 'dana.reyes@acme-hauling.test';
  if (s.type === 'array' && (s.items as Schema | undefined)?.format === 'uuid') return [UUID];
  if (/_amount$/.test(prop) && isNumber(s)) return 12999;
  return undefined;
}

/** Applies the conventions above to one property schema; returns whether it has an example afterwards. */
function complete(schemaName: string, prop: string, s: Schema): void {
  if (s.$ref || s.allOf || s.oneOf || s.anyOf) return; // a nested object: its own schema has the examples
  if (isString(s) && !s.format && /(^|_)at$/.test(prop)) s.format = 'date-time';
  if (isString(s) && !s.format && (prop === 'id' || /_id$/.test(prop)) && !NOT_UUID.has(prop) && !NOT_UUID_IN[schemaName]?.includes(prop)) s.format = 'uuid';
  if (s.type === 'array' && /_ids$/.test(prop) && isString((s.items as Schema) ?? {}) && !(s.items as Schema).format) (s.items as Schema).format = 'uuid';
  if (s.type === 'number' && INTEGER.test(prop)) s.type = 'integer';
  if (s.example !== undefined || (s.type === 'object' && !s.properties)) return;
  let example = exampleFor(schemaName, prop, s);
  if (example === undefined && s.type === 'boolean') example = true;
  if (example === undefined && s.type === 'array' && Array.isArray((s.items as Schema | undefined)?.enum)) example = [((s.items as Schema).enum as unknown[])[0]];
  if (example !== undefined && s.type === 'array' && !Array.isArray(example)) example = [example];
  if (example !== undefined) s.example = example;
}

/** Completes the component schemas' properties (formats, integer amounts, examples) in place. */
export function documentPropertyConventions(doc: OpenAPIObject): void {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    for (const [prop, s] of Object.entries(((schema as Schema).properties ?? {}) as Record<string, Schema>)) complete(name, prop, s);
  }
}

/** Names of the component schemas a JSON value under `root` refers to, transitively. */
function referencedSchemas(doc: OpenAPIObject, roots: unknown[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')) {
          const name = x.slice('#/components/schemas/'.length);
          if (!seen.has(name)) {
            seen.add(name);
            stack.push(doc.components?.schemas?.[name]);
          }
        } else stack.push(x);
      }
    }
  }
  return seen;
}

/**
 * A field of a response that is documented nullable is always sent (null when empty): it is listed as
 * required, so that clients can rely on it. Applies to the schemas only responses use (a request body's
 * nullable field stays optional). The e2e response validation checks that the server does send them.
 */
export function documentResponseFields(doc: OpenAPIObject): void {
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item) as { responses?: Record<string, unknown>; requestBody?: unknown; parameters?: unknown }[]);
  const inResponses = referencedSchemas(doc, operations.map((op) => Object.entries(op?.responses ?? {}).filter(([status]) => status.startsWith('2')).map(([, r]) => r)));
  const inRequests = referencedSchemas(doc, operations.map((op) => [op?.requestBody, op?.parameters]));
  for (const name of inResponses) {
    if (inRequests.has(name)) continue;
    const schema = doc.components?.schemas?.[name] as Schema | undefined;
    const properties = (schema?.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [prop, s] of Object.entries(properties)) if (s.nullable === true) required.add(prop);
    if (schema && required.size) schema.required = [...required];
  }
}
