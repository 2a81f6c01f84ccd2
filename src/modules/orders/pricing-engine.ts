import { applyBps, prorate, sumMinor } from '../../common/money';
import type { RedeemablePromotion } from '../promotions';
import type { FrozenTerms, LineKind } from './order.entity';

/**
 * The pricing engine: every quote and bill of an order is computed here, from the order's frozen
 * terms (price book item, delivery distance, taxes, payment term). Pure functions on integers: amounts
 * in minor units, rates in basis points, half-up rounding per line, and a total that is exactly the
 * sum of the lines.
 *
 * Choices where domain.md is silent (also in the README):
 * - A promotion discounts the rental charges (base and planned extra days), never fees; its minimum
 *   is compared with the subtotal before discount.
 * - Taxes apply after discount: `rental` taxes the rental charges (base, extra days, overage, minus
 *   discount), `fees` the fees (delivery, swap, dump-return, relocation, wasted trip, policy and
 *   cancellation fees), `all` both. Each tax is one line, rounded on its own.
 * - Planned extra days (pickup date beyond the included days) are billed at placement; extensions bill
 *   the difference; the final bill adds only the days beyond those already billed.
 */
export type ChargeKind = Exclude<LineKind, 'tax'>;
export interface PricedLine {
  kind: LineKind;
  description: string;
  quantity: number;
  unit_amount: number;
  amount: number;
}
export interface Bill {
  lines: PricedLine[];
  /** Charges before discount and tax. */
  subtotal_amount: number;
  /** The discount as a positive amount (its line is negative). */
  discount_amount: number;
  tax_amount: number;
  total_amount: number;
}

const RENTAL_KINDS: ReadonlySet<LineKind> = new Set<LineKind>(['rental', 'extra_days', 'overage', 'discount']);
const isRental = (l: PricedLine) => RENTAL_KINDS.has(l.kind);

export const charge = (kind: ChargeKind, description: string, quantity: number, unitAmount: number): PricedLine => ({
  kind,
  description,
  quantity,
  unit_amount: unitAmount,
  amount: prorate(unitAmount, quantity),
});

/** Whole days from one YYYY-MM-DD date to another (negative when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to + 'T00:00:00Z') - Date.parse(from + 'T00:00:00Z')) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date + 'T00:00:00Z') + days * 86_400_000).toISOString().slice(0, 10);
}

/** Great-circle distance in whole metres (haversine, mean Earth radius). */
export function haversineMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** Extra days a rental of `days` days bills beyond the included ones. */
export const extraDaysOf = (terms: Pick<FrozenTerms, 'included_days'>, days: number) => Math.max(0, days - terms.included_days);

/** Delivery: free within the radius, then the price per km, prorated per metre. Null when free. */
export function deliveryLine(terms: FrozenTerms): PricedLine | null {
  const billable = Math.max(0, terms.distance_m - terms.delivery_free_radius_m);
  if (billable === 0 || terms.delivery_price_per_km_amount === 0) return null;
  const amount = prorate(terms.delivery_price_per_km_amount, billable, 1000);
  if (amount === 0) return null; // a few metres that round to nothing: free, not a zero line
  const km = (billable / 1000).toFixed(1);
  return {
    kind: 'delivery',
    description: `Delivery: ${km} km beyond the free ${(terms.delivery_free_radius_m / 1000).toFixed(1)} km`,
    quantity: 1,
    unit_amount: amount,
    amount,
  };
}

export function extraDaysLine(terms: FrozenTerms, days: number, description = 'Extra days'): PricedLine | null {
  if (days === 0 || terms.extra_day_amount === 0) return null;
  return charge('extra_days', `${description} (${days} × day)`, days, terms.extra_day_amount);
}

/** The promotion as the engine sees it, with its redemption counts (excluding the order being priced). */
export interface PromotionTerms extends Omit<RedeemablePromotion, 'id'> {
  redemptions: number;
  customer_redemptions: number;
}
export type PromotionRefusal = 'INACTIVE' | 'NOT_STARTED' | 'EXPIRED' | 'EXHAUSTED' | 'CUSTOMER_LIMIT' | 'BELOW_MINIMUM' | 'NOT_APPLICABLE';
export const PROMOTION_REFUSALS: Record<PromotionRefusal, string> = {
  INACTIVE: 'This promotion is not active.',
  NOT_STARTED: 'This promotion has not started yet.',
  EXPIRED: 'This promotion has expired.',
  EXHAUSTED: 'This promotion has been fully redeemed.',
  CUSTOMER_LIMIT: 'You have already used this promotion as often as it allows.',
  BELOW_MINIMUM: 'The order is below the minimum subtotal of this promotion.',
  NOT_APPLICABLE: 'This promotion does not apply to the chosen container.',
};

/** Why a promotion cannot apply, or null when it can. `today` is the company's service date. */
export function refusePromotion(p: PromotionTerms, ctx: { today: string; subtotal: number; assetSpecificationId: string }): PromotionRefusal | null {
  if (!p.active) return 'INACTIVE';
  if (p.valid_from && ctx.today < p.valid_from) return 'NOT_STARTED';
  if (p.valid_to && ctx.today > p.valid_to) return 'EXPIRED';
  if (p.max_redemptions !== null && p.redemptions >= p.max_redemptions) return 'EXHAUSTED';
  if (p.max_redemptions_per_customer !== null && p.customer_redemptions >= p.max_redemptions_per_customer) return 'CUSTOMER_LIMIT';
  if (p.asset_specification_ids.length > 0 && !p.asset_specification_ids.includes(ctx.assetSpecificationId)) return 'NOT_APPLICABLE';
  if (ctx.subtotal < p.min_subtotal_amount) return 'BELOW_MINIMUM';
  return null;
}

/** The discount line for the rental charges (percent half up, or fixed capped at the rental charges). */
export function discountLine(p: Pick<PromotionTerms, 'code' | 'discount_type' | 'discount_value'>, charges: PricedLine[]): PricedLine | null {
  const rental = sumMinor(charges.filter(isRental).map((l) => l.amount));
  const amount = p.discount_type === 'percent' ? applyBps(rental, p.discount_value) : Math.min(p.discount_value, rental);
  if (amount <= 0) return null;
  return { kind: 'discount', description: `Promotion ${p.code}`, quantity: 1, unit_amount: -amount, amount: -amount };
}

/** Tax lines for charges (discount included): one per tax, on the base its `applies_to` names. */
export function taxLines(terms: Pick<FrozenTerms, 'taxes' | 'tax_exempt'>, charges: PricedLine[]): PricedLine[] {
  if (terms.tax_exempt) return [];
  const rental = sumMinor(charges.filter(isRental).map((l) => l.amount));
  const fees = sumMinor(charges.filter((l) => !isRental(l) && l.kind !== 'tax').map((l) => l.amount));
  const lines: PricedLine[] = [];
  for (const t of terms.taxes) {
    const base = t.applies_to === 'rental' ? rental : t.applies_to === 'fees' ? fees : rental + fees;
    const amount = applyBps(base, t.rate_bps);
    if (amount === 0) continue;
    lines.push({ kind: 'tax', description: `${t.name} (${(t.rate_bps / 100).toFixed(2)} %)`, quantity: 1, unit_amount: amount, amount });
  }
  return lines;
}

/** Charges (and a discount line, if any) plus their taxes, with totals that are the sum of the lines. */
export function bill(terms: Pick<FrozenTerms, 'taxes' | 'tax_exempt'>, charges: PricedLine[]): Bill {
  return totalsOf([...charges, ...taxLines(terms, charges)]);
}

/** A bill of lines already priced (charges, discount and taxes): totals that are sums of its lines. */
export function totalsOf(lines: PricedLine[]): Bill {
  const sum = (keep: (l: PricedLine) => boolean, sign = 1) => sumMinor(lines.filter(keep).map((l) => sign * l.amount));
  return {
    lines,
    subtotal_amount: sum((l) => l.kind !== 'discount' && l.kind !== 'tax'),
    // Negated per line, not after summing: -sumMinor([]) would be -0.
    discount_amount: sum((l) => l.kind === 'discount', -1),
    tax_amount: sum((l) => l.kind === 'tax'),
    total_amount: sum(() => true),
  };
}

/**
 * What an order costs at placement (and in the billing preview, and when the company reprices it):
 * the rental base, planned extra days when a pickup date is set, delivery, the promotion, taxes.
 * `o.promotion` is a code being redeemed (checked, `promotion_refusal` says why not); without it, the
 * promotion already frozen in `terms` (accepted at placement) is applied again without its limits.
 */
export function quoteRental(
  terms: FrozenTerms,
  o: { specificationName: string; deliveryDate: string; pickupDate: string | null; promotion?: PromotionTerms | null; today?: string; assetSpecificationId?: string },
): Bill & { promotion_refusal: PromotionRefusal | null } {
  const charges: PricedLine[] = [charge('rental', `${o.specificationName} rental, ${terms.included_days} days and ${terms.included_weight_kg} kg included`, 1, terms.base_price_amount)];
  if (o.pickupDate) {
    const extra = extraDaysLine(terms, extraDaysOf(terms, daysBetween(o.deliveryDate, o.pickupDate)), 'Planned extra days');
    if (extra) charges.push(extra);
  }
  const delivery = deliveryLine(terms);
  if (delivery) charges.push(delivery);
  let refusal: PromotionRefusal | null = null;
  if (o.promotion) {
    const subtotal = sumMinor(charges.map((l) => l.amount));
    refusal = refusePromotion(o.promotion, { today: o.today ?? o.deliveryDate, subtotal, assetSpecificationId: o.assetSpecificationId ?? '' });
  }
  const accepted = o.promotion ? (refusal ? null : o.promotion) : terms.promotion;
  const discount = accepted ? discountLine(accepted, charges) : null;
  if (discount) charges.push(discount);
  return { ...bill(terms, charges), promotion_refusal: refusal };
}

/** The bill of a rental-length change (reschedule, pickup date, extension): the difference in extra days. */
export function rentalLengthChange(terms: FrozenTerms, before: { deliveryDate: string; pickupDate: string | null }, after: { deliveryDate: string; pickupDate: string | null }): Bill {
  const extra = (r: { deliveryDate: string; pickupDate: string | null }) => (r.pickupDate ? extraDaysOf(terms, daysBetween(r.deliveryDate, r.pickupDate)) : 0);
  const line = extraDaysLine(terms, extra(after) - extra(before), 'Extra days');
  return bill(terms, line ? [line] : []);
}

/** A one-off service fee (swap, dump and return, relocation, wasted trip) with its taxes. */
export function serviceFee(terms: FrozenTerms, kind: 'swap_fee' | 'dump_return_fee' | 'relocation_fee' | 'wasted_trip_fee'): Bill {
  const amounts = { swap_fee: terms.swap_fee_amount, dump_return_fee: terms.dump_return_fee_amount, relocation_fee: terms.relocation_fee_amount, wasted_trip_fee: terms.wasted_trip_fee_amount };
  const names = { swap_fee: 'Swap', dump_return_fee: 'Dump and return', relocation_fee: 'Relocation', wasted_trip_fee: 'Wasted trip' };
  return bill(terms, amounts[kind] ? [charge(kind, names[kind], 1, amounts[kind])] : []);
}

/**
 * A change of container or waste type before delivery: the new rental base and planned extra days
 * against the old ones (the promotion is not re-applied; delivery does not change).
 */
export function respecification(before: FrozenTerms, after: FrozenTerms, r: { deliveryDate: string; pickupDate: string | null; specificationName: string }): Bill {
  const planned = (t: FrozenTerms) => (r.pickupDate ? extraDaysOf(t, daysBetween(r.deliveryDate, r.pickupDate)) * t.extra_day_amount : 0);
  const delta = after.base_price_amount + planned(after) - (before.base_price_amount + planned(before));
  return bill(after, delta === 0 ? [] : [charge('rental', `Change to ${r.specificationName}: rental difference`, 1, delta)]);
}

/** A flat fee (the late-cancellation fee) with its taxes. */
export function flatFee(terms: Pick<FrozenTerms, 'taxes' | 'tax_exempt'>, kind: ChargeKind, description: string, amount: number): Bill {
  return bill(terms, amount ? [charge(kind, description, 1, amount)] : []);
}

/**
 * The final bill at completion: extra days from the real delivery date beyond those already billed
 * (never a credit), weight over the allowance only with a station ticket, and policy fees.
 */
export function finalBill(
  terms: FrozenTerms,
  f: { deliveredOn: string; pickedUpOn: string; billedExtraDays: number; netWeightKg: number | null; policyFees: { name: string; amount: number }[] },
): Bill {
  const charges: PricedLine[] = [];
  const extra = extraDaysOf(terms, daysBetween(f.deliveredOn, f.pickedUpOn)) - f.billedExtraDays;
  const extraLine = extra > 0 ? extraDaysLine(terms, extra, 'Extra days') : null;
  if (extraLine) charges.push(extraLine);
  if (f.netWeightKg !== null) {
    const overKg = Math.max(0, f.netWeightKg - terms.included_weight_kg);
    if (overKg > 0 && terms.overage_per_tonne_amount > 0) {
      const amount = prorate(terms.overage_per_tonne_amount, overKg, 1000);
      if (amount > 0) charges.push({ kind: 'overage', description: `Weight over the allowance: ${overKg} kg`, quantity: 1, unit_amount: amount, amount });
    }
  }
  for (const p of f.policyFees) if (p.amount) charges.push(charge('policy_fee', `Policy: ${p.name}`, 1, p.amount));
  return bill(terms, charges);
}
