import { CompanyActor, companyActor, MemberActor, memberActor } from './actors';
import { priceBookItem } from './price-book';
import { TestApp } from './test-app';

/**
 * A company ready to take orders, built through HTTP only: one lot (open every day) at a known place,
 * a 20-yard spec allowing general debris, a default price book, a default tax and payment term, a
 * customer with an address ~20 km from the lot, and a driver. Amounts are chosen for easy checking:
 * base 40000 for 7 days / 2000 kg, extra day 1500, delivery free for 10 km then 200 per km,
 * default tax 8.25 % on all lines, payment due in 15 days.
 */
export interface OrderWorld {
  company: CompanyActor;
  customer: MemberActor;
  driver: MemberActor;
  lotId: string;
  specId: string;
  otherSpecId: string;
  wasteId: string;
  otherWasteId: string;
  addressId: string;
  taxId: string;
  profileId: string;
}

/** A date `days` after today (UTC), YYYY-MM-DD. */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function orderWorld(t: TestApp, opts: { settings?: Record<string, unknown>; name?: string } = {}): Promise<OrderWorld> {
  const company = await companyActor(t, opts.name ?? 'Orders Co');
  const co = async (path: string, body: unknown, status = 201) => {
    const res = await t.req('post', `/api/v1/${path}`, { token: company.token, body });
    if (res.status !== status) throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  await co('company/settings', { timezone: 'UTC', order_lead_time_days: 1, free_cancellation_hours: 48, cancellation_fee_amount: 5000, ...opts.settings }, 200);
  const lot = await co('lot/create', { name: 'Main yard', latitude: 40.0, longitude: -89.0 });
  const category = await co('asset-categories', { name: 'Roll-off' });
  const spec = await co('asset-specifications', { name: '20 yd roll-off', asset_category_id: category.id, size: 20, size_unit: 'yd3', included_days: 7, included_weight_kg: 2000 });
  const other = await co('asset-specifications', { name: '30 yd roll-off', asset_category_id: category.id, size: 30, size_unit: 'yd3', included_days: 7, included_weight_kg: 3000 });
  const waste = await co('waste-types', { name: 'General debris', code: 'GEN' });
  const otherWaste = await co('waste-types', { name: 'Yard waste', code: 'YARD' });
  for (const s of [spec.id, other.id]) for (const w of [waste.id, otherWaste.id]) await co(`asset-specifications/${s}/waste-types`, { waste_type_id: w });
  const profile = await co('pricing-profiles', { name: 'Standard', is_default: true, delivery_free_radius_km: 10, delivery_price_per_km_amount: 200, items: [priceBookItem(spec.id, 40000), priceBookItem(other.id, 55000)] });
  const tax = await co('taxes', { name: 'Sales tax', rate_bps: 825, applies_to: 'all', is_default: true });
  await co('payment-terms', { name: 'Net 15', due_days: 15, is_default: true });
  const customer = await memberActor(t, company, 'customer');
  const driver = await memberActor(t, company, 'driver');
  // ~20.0 km north of the lot (0.18 degrees of latitude).
  const address = await t.req('post', '/api/v1/customer/addresses', { token: customer.token, body: { line1: '1 Site Rd', city: 'Springfield', latitude: 40.18, longitude: -89.0 } });
  if (address.status !== 201) throw new Error(`address → ${address.status} ${JSON.stringify(address.body)}`);
  return { company, customer, driver, lotId: lot.id, specId: spec.id, otherSpecId: other.id, wasteId: waste.id, otherWasteId: otherWaste.id, addressId: address.body.data.id, taxId: tax.id, profileId: profile.id };
}

/** A placement body for the world's customer; override any field. */
export const orderBody = (w: OrderWorld, extra: Record<string, unknown> = {}) => ({
  address_id: w.addressId,
  asset_specification_id: w.specId,
  waste_type_id: w.wasteId,
  delivery_date: inDays(3),
  ...extra,
});

/** Places an order as the world's customer (201 asserted) and returns `data`. */
export async function placeOrder(t: TestApp, w: OrderWorld, extra: Record<string, unknown> = {}, customer: MemberActor = w.customer) {
  const res = await t.req('post', '/api/v1/customer/orders', { token: customer.token, body: orderBody(w, extra) });
  if (res.status !== 201) throw new Error(`place → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
