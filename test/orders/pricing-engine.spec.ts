import { applyBps, prorate } from '../../src/common/money';
import type { FrozenTerms } from '../../src/modules/orders/order.entity';
import {
  addDays,
  bill,
  charge,
  daysBetween,
  deliveryLine,
  discountLine,
  finalBill,
  haversineMetres,
  PROMOTION_REFUSALS,
  quoteRental,
  refusePromotion,
  rentalLengthChange,
  respecification,
  serviceFee,
  taxLines,
  type Bill,
  type PricedLine,
  type PromotionTerms,
} from '../../src/modules/orders/pricing-engine';

/**
 * The pricing engine, pure (no database). Every expected number is worked out by hand in the
 * comments; amounts are minor units (40000 = 400.00), rates basis points (825 = 8.25 %), and every
 * line is rounded half up (away from zero when negative) on its own.
 */

type Tax = FrozenTerms['taxes'][number];
const tax = (rate_bps: number, applies_to: Tax['applies_to'] = 'all', name = 'Sales tax'): Tax => ({ id: `tax-${name}`, name, rate_bps, applies_to });

/** The order fixtures' price book: base 40000 for 7 days / 2000 kg, extra day 1500, free 10 km then 200/km, 20 015 m away, 8.25 % on all. */
const TERMS: FrozenTerms = {
  pricing_profile_id: 'profile',
  pricing_profile_item_id: 'item',
  base_price_amount: 40000,
  included_days: 7,
  included_weight_kg: 2000,
  extra_day_amount: 1500,
  overage_per_tonne_amount: 9000,
  swap_fee_amount: 12000,
  dump_return_fee_amount: 14000,
  relocation_fee_amount: 8000,
  wasted_trip_fee_amount: 10000,
  delivery_free_radius_m: 10000,
  delivery_price_per_km_amount: 200,
  distance_m: 20015,
  taxes: [tax(825)],
  tax_exempt: false,
  due_days: 15,
  payment_term_id: null,
  promotion: null,
};
const terms = (patch: Partial<FrozenTerms> = {}): FrozenTerms => ({ ...TERMS, ...patch });

const SPEC = '20 yd roll-off';
const JUNE = { deliveryDate: '2025-06-02', pickupDate: '2025-06-12' }; // 10 days: 3 beyond the 7 included

const promo = (patch: Partial<PromotionTerms> = {}): PromotionTerms => ({
  code: 'SUMMER',
  discount_type: 'percent',
  discount_value: 1000,
  valid_from: null,
  valid_to: null,
  max_redemptions: null,
  max_redemptions_per_customer: null,
  min_subtotal_amount: 0,
  active: true,
  asset_specification_ids: [],
  redemptions: 0,
  customer_redemptions: 0,
  ...patch,
});

const kinds = (b: Bill) => b.lines.map((l) => [l.kind, l.amount]);
const sum = (lines: PricedLine[]) => lines.reduce((s, l) => s + l.amount, 0);
/** What breaks the invariants every bill keeps (integers, lines adding up exactly, consistent totals), or null. */
function inconsistency(b: Bill): string | null {
  const bad = b.lines.find((l) => !Number.isSafeInteger(l.amount) || !Number.isSafeInteger(l.unit_amount) || !Number.isSafeInteger(l.quantity));
  if (bad) return `not an integer: ${JSON.stringify(bad)}`;
  if (b.total_amount !== sum(b.lines)) return `total ${b.total_amount} ≠ sum of lines ${sum(b.lines)}`;
  if (b.subtotal_amount - b.discount_amount + b.tax_amount !== b.total_amount) return 'subtotal − discount + tax ≠ total';
  if (b.tax_amount !== sum(b.lines.filter((l) => l.kind === 'tax'))) return 'tax ≠ sum of tax lines';
  if (b.discount_amount !== sum(b.lines.filter((l) => l.kind === 'discount').map((l) => ({ ...l, amount: -l.amount })))) return 'discount ≠ −sum of discount lines';
  if (Object.is(b.discount_amount, -0) || Object.is(b.total_amount, -0) || Object.is(b.tax_amount, -0)) return 'a total is -0';
  return null;
}
const expectConsistent = (b: Bill) => expect(inconsistency(b)).toBeNull();

describe('pricing engine', () => {
  describe('placement quote (quoteRental)', () => {
    it('bills the base, planned extra days, delivery beyond the free radius and the tax', () => {
      // 2025-06-02 → 2025-06-12 = 10 days, 7 included: 3 × 1500 = 4500.
      // Delivery: 20 015 m − 10 000 m free = 10 015 m at 200 per km: 200 × 10 015 / 1000 = 2003.
      // Subtotal 40000 + 4500 + 2003 = 46503; tax 8.25 %: 46503 × 0.0825 = 3836.4975 → 3836.
      // Total 46503 + 3836 = 50339.
      const b = quoteRental(TERMS, { specificationName: SPEC, ...JUNE });
      expect(kinds(b)).toEqual([
        ['rental', 40000],
        ['extra_days', 4500],
        ['delivery', 2003],
        ['tax', 3836],
      ]);
      expect(b).toMatchObject({ subtotal_amount: 46503, discount_amount: 0, tax_amount: 3836, total_amount: 50339, promotion_refusal: null });
      expect(b.lines[0].description).toBe('20 yd roll-off rental, 7 days and 2000 kg included');
      expect(b.lines[1]).toEqual({ kind: 'extra_days', description: 'Planned extra days (3 × day)', quantity: 3, unit_amount: 1500, amount: 4500 });
      expect(b.lines[2].description).toBe('Delivery: 10.0 km beyond the free 10.0 km');
      expect(b.lines[3].description).toBe('Sales tax (8.25 %)');
      expectConsistent(b);
    });

    it('bills no extra days for "call when full" or a pickup within the included days', () => {
      // No pickup: 40000 + 2003 = 42003; tax 42003 × 0.0825 = 3465.2475 → 3465; total 45468.
      const open = quoteRental(TERMS, { specificationName: SPEC, deliveryDate: '2025-06-02', pickupDate: null });
      expect(kinds(open)).toEqual([
        ['rental', 40000],
        ['delivery', 2003],
        ['tax', 3465],
      ]);
      expect(open.total_amount).toBe(45468);
      // Exactly 7 days: nothing extra.
      const seven = quoteRental(TERMS, { specificationName: SPEC, deliveryDate: '2025-06-02', pickupDate: '2025-06-09' });
      expect(seven.lines.map((l) => l.kind)).not.toContain('extra_days');
      expect(seven.total_amount).toBe(45468);
    });
  });

  describe('delivery (deliveryLine)', () => {
    it('is prorated per metre beyond the free radius', () => {
      // 12 345 − 10 000 = 2 345 m at 200/km: 200 × 2345 / 1000 = 469.
      expect(deliveryLine(terms({ distance_m: 12345 }))).toMatchObject({ kind: 'delivery', quantity: 1, unit_amount: 469, amount: 469, description: 'Delivery: 2.3 km beyond the free 10.0 km' });
      // At 333/km: 333 × 2345 / 1000 = 780.885 → 781.
      expect(deliveryLine(terms({ distance_m: 12345, delivery_price_per_km_amount: 333 }))?.amount).toBe(781);
      // 1 m beyond at 500/km: 0.5 → 1 (half up).
      expect(deliveryLine(terms({ distance_m: 10001, delivery_price_per_km_amount: 500 }))?.amount).toBe(1);
    });

    it('is free (no line) within the radius, at its edge, at a zero price, or when it rounds to nothing', () => {
      expect(deliveryLine(terms({ distance_m: 9000 }))).toBeNull();
      expect(deliveryLine(terms({ distance_m: 10000 }))).toBeNull();
      expect(deliveryLine(terms({ delivery_price_per_km_amount: 0 }))).toBeNull();
      // 2 m beyond at 200/km: 0.4 → 0: free, so no zero-amount line.
      expect(deliveryLine(terms({ distance_m: 10002 }))).toBeNull();
      // Free radius 0: the whole distance, 20 015 m × 200 / 1000 = 4003.
      expect(deliveryLine(terms({ delivery_free_radius_m: 0 }))?.amount).toBe(4003);
    });
  });

  describe('promotions', () => {
    it('a percent promotion discounts the rental charges (not delivery), half up, before tax', () => {
      // Rental charges 40000 + 4500 = 44500; 12.5 %: 5562.5 → 5563 (half up).
      // Taxed base 46503 − 5563 = 40940; 8.25 %: 3377.55 → 3378. Total 40940 + 3378 = 44318.
      const b = quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: promo({ discount_value: 1250 }), today: '2025-06-01' });
      expect(kinds(b)).toEqual([
        ['rental', 40000],
        ['extra_days', 4500],
        ['delivery', 2003],
        ['discount', -5563],
        ['tax', 3378],
      ]);
      expect(b).toMatchObject({ subtotal_amount: 46503, discount_amount: 5563, tax_amount: 3378, total_amount: 44318, promotion_refusal: null });
      expect(b.lines[3]).toMatchObject({ description: 'Promotion SUMMER', quantity: 1, unit_amount: -5563 });
      expectConsistent(b);
    });

    it('a fixed promotion is capped at the rental charges', () => {
      // 500.00 off, but the rental charges are 44500: the discount is 44500.
      // Taxed base 46503 − 44500 = 2003 (delivery only); 8.25 %: 165.2475 → 165. Total 2168.
      const capped = quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: promo({ discount_type: 'fixed', discount_value: 50000 }) });
      expect(kinds(capped)).toEqual([
        ['rental', 40000],
        ['extra_days', 4500],
        ['delivery', 2003],
        ['discount', -44500],
        ['tax', 165],
      ]);
      expect(capped.total_amount).toBe(2168);
      // Below the cap it is the fixed amount: 46503 − 2500 = 44003; tax 3630.2475 → 3630; total 47633.
      const fixed = quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: promo({ discount_type: 'fixed', discount_value: 2500 }) });
      expect(fixed).toMatchObject({ discount_amount: 2500, tax_amount: 3630, total_amount: 47633 });
    });

    it('no discount line when nothing is discounted', () => {
      expect(discountLine(promo(), [charge('swap_fee', 'Swap', 1, 12000)])).toBeNull();
      expect(discountLine(promo({ discount_value: 1 }), [charge('rental', 'r', 1, 10)])).toBeNull(); // 10 × 0.01 % = 0.001 → 0
    });

    describe('refusals (refusePromotion)', () => {
      // Valid in June 2025, 100 redemptions, once per customer, minimum 100.00, 20-yard only.
      const base = promo({ valid_from: '2025-06-01', valid_to: '2025-06-30', max_redemptions: 100, max_redemptions_per_customer: 1, min_subtotal_amount: 10000, asset_specification_ids: ['spec-20'], redemptions: 5 });
      const ctx = { today: '2025-06-10', subtotal: 46503, assetSpecificationId: 'spec-20' };

      it('accepts a promotion inside all its limits, the limits being inclusive', () => {
        expect(refusePromotion(base, ctx)).toBeNull();
        expect(refusePromotion(base, { ...ctx, today: '2025-06-01' })).toBeNull();
        expect(refusePromotion(base, { ...ctx, today: '2025-06-30' })).toBeNull();
        expect(refusePromotion({ ...base, redemptions: 99 }, ctx)).toBeNull();
        expect(refusePromotion(base, { ...ctx, subtotal: 10000 })).toBeNull();
        expect(refusePromotion({ ...base, asset_specification_ids: [] }, { ...ctx, assetSpecificationId: 'any' })).toBeNull();
        expect(refusePromotion(promo({ redemptions: 1e6, customer_redemptions: 1e6 }), ctx)).toBeNull(); // no limits
      });

      it.each([
        ['INACTIVE', { ...base, active: false }, ctx],
        ['NOT_STARTED', base, { ...ctx, today: '2025-05-31' }],
        ['EXPIRED', base, { ...ctx, today: '2025-07-01' }],
        ['EXHAUSTED', { ...base, redemptions: 100 }, ctx],
        ['CUSTOMER_LIMIT', { ...base, customer_redemptions: 1 }, ctx],
        ['NOT_APPLICABLE', base, { ...ctx, assetSpecificationId: 'spec-30' }],
        ['BELOW_MINIMUM', base, { ...ctx, subtotal: 9999 }],
      ] as const)('%s', (refusal, p, c) => {
        expect(refusePromotion(p, c)).toBe(refusal);
        expect(PROMOTION_REFUSALS[refusal]).toEqual(expect.any(String));
      });

      it('a run-out promotion in a quote: refused, no discount, the plain total', () => {
        const b = quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: { ...base, redemptions: 100 }, today: '2025-06-10', assetSpecificationId: 'spec-20' });
        expect(b.promotion_refusal).toBe('EXHAUSTED');
        expect(b.lines.map((l) => l.kind)).not.toContain('discount');
        expect(b.total_amount).toBe(50339);
      });

      it('the minimum is compared with the subtotal before discount, delivery included', () => {
        // Subtotal 46503: a minimum of 465.03 passes, 465.04 does not.
        const at = (min: number) => quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: promo({ min_subtotal_amount: min }) }).promotion_refusal;
        expect(at(46503)).toBeNull();
        expect(at(46504)).toBe('BELOW_MINIMUM');
      });

      it('dates are checked against `today`, or the delivery date when none is given', () => {
        const june = promo({ valid_to: '2025-06-01' });
        expect(quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: june, today: '2025-06-01' }).promotion_refusal).toBeNull();
        expect(quoteRental(TERMS, { specificationName: SPEC, ...JUNE, promotion: june }).promotion_refusal).toBe('EXPIRED');
      });
    });
  });

  describe('taxes', () => {
    it('a tax-exempt customer gets no tax lines', () => {
      const b = quoteRental(terms({ tax_exempt: true }), { specificationName: SPEC, ...JUNE });
      expect(b.lines.map((l) => l.kind)).toEqual(['rental', 'extra_days', 'delivery']);
      expect(b).toMatchObject({ tax_amount: 0, total_amount: 46503 });
      expect(serviceFee(terms({ tax_exempt: true }), 'swap_fee').total_amount).toBe(12000);
    });

    it('each tax on the base its applies_to names, after the discount, one line each', () => {
      // Charges: rental 40000 + extra days 4500 − discount 4000 = rental base 40500; fees: delivery 2003.
      // County 6 % on rental: 40500 × 0.06 = 2430.
      // Fee tax 10 % on fees: 2003 × 0.10 = 200.3 → 200.
      // State 8.25 % on all: 42503 × 0.0825 = 3506.4975 → 3506.
      // Total 42503 + 2430 + 200 + 3506 = 48639.
      const t = terms({ taxes: [tax(600, 'rental', 'County'), tax(1000, 'fees', 'Fee tax'), tax(825, 'all', 'State')] });
      const b = quoteRental(t, { specificationName: SPEC, ...JUNE, promotion: promo({ discount_type: 'fixed', discount_value: 4000 }) });
      expect(b.lines.filter((l) => l.kind === 'tax').map((l) => [l.description, l.amount])).toEqual([
        ['County (6.00 %)', 2430],
        ['Fee tax (10.00 %)', 200],
        ['State (8.25 %)', 3506],
      ]);
      expect(b).toMatchObject({ subtotal_amount: 46503, discount_amount: 4000, tax_amount: 6136, total_amount: 48639 });
      expectConsistent(b);
    });

    it('skips a tax that comes to zero (no fees to tax, a 0 % rate)', () => {
      // Within the free radius there is no delivery, so the fee tax has nothing to tax.
      const t = terms({ distance_m: 5000, taxes: [tax(1000, 'fees', 'Fee tax'), tax(0, 'all', 'Zero')] });
      expect(quoteRental(t, { specificationName: SPEC, ...JUNE }).lines.map((l) => l.kind)).toEqual(['rental', 'extra_days']);
      expect(taxLines(t, [])).toEqual([]);
    });
  });

  describe('rental length changes (rentalLengthChange)', () => {
    it('the same dates bill nothing: no lines, total 0', () => {
      for (const dates of [JUNE, { deliveryDate: '2025-06-02', pickupDate: null }]) {
        const b = rentalLengthChange(TERMS, dates, dates);
        expect(b.lines).toEqual([]);
        expect(b).toEqual({ lines: [], subtotal_amount: 0, discount_amount: 0, tax_amount: 0, total_amount: 0 });
      }
      // 5 → 7 days: both inside the 7 included, nothing to bill.
      expect(rentalLengthChange(TERMS, { deliveryDate: '2025-06-02', pickupDate: '2025-06-07' }, { deliveryDate: '2025-06-02', pickupDate: '2025-06-09' }).lines).toEqual([]);
    });

    it('an extension bills the extra days it adds', () => {
      // 10 → 13 days: 3 → 6 extra days, +3 × 1500 = 4500; tax 371.25 → 371; total 4871.
      const b = rentalLengthChange(TERMS, JUNE, { ...JUNE, pickupDate: '2025-06-15' });
      expect(kinds(b)).toEqual([
        ['extra_days', 4500],
        ['tax', 371],
      ]);
      expect(b.total_amount).toBe(4871);
      // "Call when full" → a pickup on day 10: the 3 planned extra days.
      expect(rentalLengthChange(TERMS, { ...JUNE, pickupDate: null }, JUNE).lines[0]).toMatchObject({ quantity: 3, amount: 4500 });
    });

    it('a shortened rental is a credit (negative difference), its tax rounded away from zero', () => {
      // 10 → 8 days: 3 → 1 extra days, −2 × 1500 = −3000; tax −3000 × 0.0825 = −247.5 → −248; total −3248.
      const b = rentalLengthChange(TERMS, JUNE, { ...JUNE, pickupDate: '2025-06-10' });
      expect(b.lines[0]).toEqual({ kind: 'extra_days', description: 'Extra days (-2 × day)', quantity: -2, unit_amount: 1500, amount: -3000 });
      expect(kinds(b)).toEqual([
        ['extra_days', -3000],
        ['tax', -248],
      ]);
      expect(b.total_amount).toBe(-3248);
      expectConsistent(b);
    });
  });

  describe('rounding (half up per line, away from zero when negative)', () => {
    it('8.25 % of 1999 = 164.9175 → 165', () => {
      expect(applyBps(1999, 825)).toBe(165);
      // A 19.99 swap fee: tax 165, total 2164.
      const b = serviceFee(terms({ swap_fee_amount: 1999 }), 'swap_fee');
      expect(kinds(b)).toEqual([
        ['swap_fee', 1999],
        ['tax', 165],
      ]);
      expect(b.total_amount).toBe(2164);
    });

    it('an exact half rounds up: 8.25 % of 200 = 16.5 → 17', () => {
      expect(serviceFee(terms({ swap_fee_amount: 200 }), 'swap_fee').tax_amount).toBe(17);
      // 8.25 % of 1 = 0.0825 → 0: the tax line is dropped.
      expect(serviceFee(terms({ swap_fee_amount: 1 }), 'swap_fee').lines.map((l) => l.kind)).toEqual(['swap_fee']);
    });

    it('a negative half rounds away from zero: 8.25 % of −200 = −16.5 → −17', () => {
      expect(applyBps(-200, 825)).toBe(-17);
      expect(prorate(-1, 1, 2)).toBe(-1);
      // A respecification down by 2.00 (base 40000 → 39800): rental −200, tax −17, total −217.
      const b = respecification(TERMS, terms({ base_price_amount: 39800 }), { deliveryDate: JUNE.deliveryDate, pickupDate: null, specificationName: 'Cheaper 20 yd' });
      expect(kinds(b)).toEqual([
        ['rental', -200],
        ['tax', -17],
      ]);
      expect(b.total_amount).toBe(-217);
    });
  });

  describe('every bill adds up exactly (property check over random integer inputs)', () => {
    // A small seeded PRNG (mulberry32), so that a failure can be replayed.
    const rng = (seed: number) => () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const APPLIES = ['all', 'rental', 'fees'] as const;

    it('for quotes, changes, respecifications, service fees and final bills', () => {
      const r = rng(20250602);
      const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
      const randomTerms = (): FrozenTerms =>
        terms({
          base_price_amount: int(0, 500_000),
          included_days: int(0, 30),
          included_weight_kg: int(0, 10_000),
          extra_day_amount: int(0, 20_000),
          overage_per_tonne_amount: int(0, 50_000),
          swap_fee_amount: int(0, 50_000),
          delivery_free_radius_m: int(0, 50_000),
          delivery_price_per_km_amount: int(0, 5_000),
          distance_m: int(0, 200_000),
          taxes: Array.from({ length: int(0, 3) }, (_, i) => tax(int(0, 3000), APPLIES[int(0, 2)], `T${i}`)),
          tax_exempt: r() < 0.1,
        });
      const problems: string[] = [];
      const check = (i: number, what: string, problem: string | null) => {
        if (problem && problems.length < 10) problems.push(`#${i} ${what}: ${problem}`);
      };
      for (let i = 0; i < 2000; i++) {
        const t = randomTerms();
        const deliveryDate = addDays('2024-01-01', int(0, 900));
        const pickupDate = r() < 0.2 ? null : addDays(deliveryDate, int(0, 60));
        const promotion = r() < 0.5 ? null : promo(r() < 0.5 ? { discount_value: int(1, 10_000) } : { discount_type: 'fixed', discount_value: int(1, 600_000) });
        const q = quoteRental(t, { specificationName: SPEC, deliveryDate, pickupDate, promotion });
        check(i, 'quote', inconsistency(q));
        // The discount never exceeds the rental charges, and each tax line is its rate of its own base.
        const rental = sum(q.lines.filter((l) => ['rental', 'extra_days', 'overage'].includes(l.kind)));
        if (q.discount_amount < 0 || q.discount_amount > rental) check(i, 'quote', `discount ${q.discount_amount} outside 0..${rental}`);
        const rentalBase = rental - q.discount_amount;
        const feeBase = sum(q.lines.filter((l) => l.kind === 'delivery'));
        const taxes = t.tax_exempt ? [] : t.taxes.map((x) => applyBps(x.applies_to === 'rental' ? rentalBase : x.applies_to === 'fees' ? feeBase : rentalBase + feeBase, x.rate_bps)).filter((a) => a !== 0);
        const got = q.lines.filter((l) => l.kind === 'tax').map((l) => l.amount);
        if (got.join() !== taxes.join()) check(i, 'quote taxes', `${got} ≠ ${taxes}`);
        if (q.lines.some((l) => l.amount === 0 && l.kind !== 'rental')) check(i, 'quote', 'a zero-amount line');

        const later = pickupDate ? addDays(pickupDate, int(-10, 10)) : null;
        check(i, 'length change', inconsistency(rentalLengthChange(t, { deliveryDate, pickupDate }, { deliveryDate, pickupDate: later && later >= deliveryDate ? later : null })));
        check(i, 'respecification', inconsistency(respecification(t, randomTerms(), { deliveryDate, pickupDate, specificationName: SPEC })));
        check(i, 'service fee', inconsistency(serviceFee(t, 'swap_fee')));
        const f = finalBill(t, {
          deliveredOn: deliveryDate,
          pickedUpOn: addDays(deliveryDate, int(0, 90)),
          billedExtraDays: int(0, 20),
          netWeightKg: r() < 0.3 ? null : int(0, 15_000),
          policyFees: Array.from({ length: int(0, 2) }, (_, k) => ({ name: `P${k}`, amount: int(0, 30_000) })),
        });
        check(i, 'final bill', inconsistency(f));
        if (f.total_amount < 0) check(i, 'final bill', `a credit: ${f.total_amount}`);
        if (f.lines.some((l) => l.amount === 0)) check(i, 'final bill', 'a zero-amount line');
      }
      expect(problems).toEqual([]);
    });

    it('bill() on hand-made charges', () => {
      const b = bill({ taxes: [tax(825)], tax_exempt: false }, [charge('rental', 'r', 1, 1999), charge('policy_fee', 'p', 3, 333)]);
      // 1999 + 999 = 2998; 8.25 %: 247.335 → 247; total 3245.
      expect(b).toMatchObject({ subtotal_amount: 2998, tax_amount: 247, total_amount: 3245 });
    });
  });

  describe('final bill (finalBill)', () => {
    it('extra days from the real delivery date beyond those billed, overage per kg, policy fees taxed as fees', () => {
      // Delivered 2025-06-03 (a day late), picked up 2025-06-14: 11 days, 4 extra; 3 billed at placement → 1 × 1500.
      // Net 2750 kg, 2000 included: 750 kg × 9000 per tonne / 1000 = 6750.
      // Policy fee Overfill 5000 (the zero one is left out).
      // Taxes: County 6 % on rental (1500 + 6750 = 8250 → 495), Fee tax 10 % on fees (5000 → 500).
      // Total 1500 + 6750 + 5000 + 495 + 500 = 14245.
      const t = terms({ taxes: [tax(600, 'rental', 'County'), tax(1000, 'fees', 'Fee tax')] });
      const b = finalBill(t, { deliveredOn: '2025-06-03', pickedUpOn: '2025-06-14', billedExtraDays: 3, netWeightKg: 2750, policyFees: [{ name: 'Overfill', amount: 5000 }, { name: 'Warning', amount: 0 }] });
      expect(b.lines).toEqual([
        { kind: 'extra_days', description: 'Extra days (1 × day)', quantity: 1, unit_amount: 1500, amount: 1500 },
        { kind: 'overage', description: 'Weight over the allowance: 750 kg', quantity: 1, unit_amount: 6750, amount: 6750 },
        { kind: 'policy_fee', description: 'Policy: Overfill', quantity: 1, unit_amount: 5000, amount: 5000 },
        { kind: 'tax', description: 'County (6.00 %)', quantity: 1, unit_amount: 495, amount: 495 },
        { kind: 'tax', description: 'Fee tax (10.00 %)', quantity: 1, unit_amount: 500, amount: 500 },
      ]);
      expect(b).toMatchObject({ subtotal_amount: 13250, discount_amount: 0, tax_amount: 995, total_amount: 14245 });
      // With the fixtures' 8.25 % on all: 13250 × 0.0825 = 1093.125 → 1093; total 14343.
      expect(finalBill(TERMS, { deliveredOn: '2025-06-03', pickedUpOn: '2025-06-14', billedExtraDays: 3, netWeightKg: 2750, policyFees: [{ name: 'Overfill', amount: 5000 }] }).total_amount).toBe(14343);
    });

    it('is never a credit for days: an early pickup bills nothing', () => {
      // Delivered 06-02, picked up 06-05: 3 days, 0 extra, 3 billed: −3 → no line.
      const b = finalBill(TERMS, { deliveredOn: '2025-06-02', pickedUpOn: '2025-06-05', billedExtraDays: 3, netWeightKg: null, policyFees: [] });
      expect(b).toEqual({ lines: [], subtotal_amount: 0, discount_amount: 0, tax_amount: 0, total_amount: 0 });
    });

    it('bills overage only with a recorded net weight, prorated per kg from the per-tonne price', () => {
      const f = (netWeightKg: number | null, patch: Partial<FrozenTerms> = {}) =>
        finalBill(terms({ tax_exempt: true, ...patch }), { deliveredOn: '2025-06-02', pickedUpOn: '2025-06-09', billedExtraDays: 0, netWeightKg, policyFees: [] });
      expect(f(null).lines).toEqual([]); // no station ticket
      expect(f(2000).lines).toEqual([]); // exactly the allowance
      expect(f(2001).total_amount).toBe(9); // 1 kg × 9000 / 1000 = 9
      expect(f(2333, { overage_per_tonne_amount: 1234 }).total_amount).toBe(411); // 333 × 1234 / 1000 = 410.922 → 411
      expect(f(2500, { overage_per_tonne_amount: 1 }).total_amount).toBe(1); // 500 × 1 / 1000 = 0.5 → 1
      expect(f(2001, { overage_per_tonne_amount: 400 }).lines).toEqual([]); // 0.4 → 0: no zero-amount line
      expect(f(9000, { overage_per_tonne_amount: 0 }).lines).toEqual([]);
    });
  });

  describe('service fees (serviceFee)', () => {
    it('each kind with its name and taxes; fees are not taxed by a rental-only tax', () => {
      // Swap 12000, tax 990 → 12990. Dump and return 14000 + 1155 = 15155. Relocation 8000 + 660 = 8660.
      // Wasted trip 10000 + 825 = 10825.
      const cases = [
        ['swap_fee', 'Swap', 12990],
        ['dump_return_fee', 'Dump and return', 15155],
        ['relocation_fee', 'Relocation', 8660],
        ['wasted_trip_fee', 'Wasted trip', 10825],
      ] as const;
      for (const [kind, name, total] of cases) {
        const b = serviceFee(TERMS, kind);
        expect(b.lines[0]).toMatchObject({ kind, description: name, quantity: 1 });
        expect(b.total_amount).toBe(total);
      }
      expect(serviceFee(terms({ taxes: [tax(600, 'rental')] }), 'swap_fee').lines.map((l) => l.kind)).toEqual(['swap_fee']);
      expect(serviceFee(terms({ swap_fee_amount: 0 }), 'swap_fee')).toEqual({ lines: [], subtotal_amount: 0, discount_amount: 0, tax_amount: 0, total_amount: 0 });
    });
  });

  describe('respecification', () => {
    const thirty = terms({ base_price_amount: 55000, extra_day_amount: 2000 });

    it('prices the new base and planned extra days against the old ones', () => {
      // Before: 40000 + 3 × 1500 = 44500. After: 55000 + 3 × 2000 = 61000. Difference 16500.
      // Tax 16500 × 0.0825 = 1361.25 → 1361; total 17861.
      const up = respecification(TERMS, thirty, { ...JUNE, specificationName: '30 yd roll-off' });
      expect(up.lines[0]).toEqual({ kind: 'rental', description: 'Change to 30 yd roll-off: rental difference', quantity: 1, unit_amount: 16500, amount: 16500 });
      expect(kinds(up)).toEqual([
        ['rental', 16500],
        ['tax', 1361],
      ]);
      expect(up.total_amount).toBe(17861);
      // Back down: −16500, tax −1361.25 → −1361, total −17861.
      expect(respecification(thirty, TERMS, { ...JUNE, specificationName: SPEC }).total_amount).toBe(-17861);
    });

    it('without a pickup date only the bases differ; the same price bills nothing; the new terms\' taxes apply', () => {
      // 55000 − 40000 = 15000; tax 1237.5 → 1238; total 16238.
      expect(respecification(TERMS, thirty, { deliveryDate: JUNE.deliveryDate, pickupDate: null, specificationName: '30 yd' }).total_amount).toBe(16238);
      // More included days after: 55000 + 0 extra − 44500 = 10500.
      expect(respecification(TERMS, terms({ base_price_amount: 55000, included_days: 10 }), { ...JUNE, specificationName: '30 yd' }).subtotal_amount).toBe(10500);
      expect(respecification(TERMS, terms(), { ...JUNE, specificationName: SPEC }).lines).toEqual([]);
      expect(respecification(TERMS, terms({ base_price_amount: 55000, tax_exempt: true }), { ...JUNE, specificationName: '30 yd' }).tax_amount).toBe(0);
    });
  });

  describe('distances and dates', () => {
    it('haversineMetres: a meridian arc exactly, and a known route within 0.5 %', () => {
      // 0.18° of latitude on the mean Earth radius: 0.18 × π / 180 × 6 371 008.8 = 20 015.11 m.
      expect(haversineMetres({ latitude: 40.0, longitude: -89.0 }, { latitude: 40.18, longitude: -89.0 })).toBe(20015);
      // Nashville (BNA 36.12, −86.67) to Los Angeles (LAX 33.94, −118.40): 2887.26 km (the classic haversine example, R = 6372.8 km).
      const bnaLax = haversineMetres({ latitude: 36.12, longitude: -86.67 }, { latitude: 33.94, longitude: -118.4 });
      expect(Math.abs(bnaLax - 2_887_260) / 2_887_260).toBeLessThan(0.005);
      // Symmetric, zero for one point, half the circumference for antipodes (π × 6 371 008.8 = 20 015 114.4).
      expect(haversineMetres({ latitude: 33.94, longitude: -118.4 }, { latitude: 36.12, longitude: -86.67 })).toBe(bnaLax);
      expect(haversineMetres({ latitude: 51.5, longitude: -0.12 }, { latitude: 51.5, longitude: -0.12 })).toBe(0);
      expect(haversineMetres({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBe(20_015_114);
    });

    describe('daysBetween / addDays are calendar arithmetic, whatever the process time zone', () => {
      const tz = process.env.TZ;
      afterEach(() => {
        if (tz === undefined) delete process.env.TZ;
        else process.env.TZ = tz;
      });

      it.each(['America/New_York', 'Europe/London', 'Australia/Sydney', 'UTC'])('across DST changes (TZ=%s)', (zone) => {
        process.env.TZ = zone;
        // US clocks go forward on 2025-03-09 and back on 2025-11-02; Europe on 03-30 and 10-26; Sydney back on 04-06.
        expect(daysBetween('2025-03-08', '2025-03-10')).toBe(2);
        expect(daysBetween('2025-11-01', '2025-11-03')).toBe(2);
        expect(daysBetween('2025-03-29', '2025-03-31')).toBe(2);
        expect(daysBetween('2025-10-25', '2025-10-27')).toBe(2);
        expect(daysBetween('2025-04-05', '2025-04-07')).toBe(2);
        expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
        expect(addDays('2025-03-08', 1)).toBe('2025-03-09');
        expect(addDays('2025-03-09', 1)).toBe('2025-03-10');
        expect(addDays('2025-11-02', 1)).toBe('2025-11-03');
        expect(addDays('2025-10-26', -1)).toBe('2025-10-25');
        // A planned rental across the US change: 2025-03-05 → 2025-03-15 is 10 days, 3 extra.
        expect(quoteRental(TERMS, { specificationName: SPEC, deliveryDate: '2025-03-05', pickupDate: '2025-03-15' }).lines[1]).toMatchObject({ kind: 'extra_days', quantity: 3 });
      });

      it('across month and year ends, leap years, and backwards', () => {
        expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
        expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
        expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
        expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
        expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
        expect(addDays('2025-01-31', 30)).toBe('2025-03-02');
        expect(addDays('2025-06-02', 0)).toBe('2025-06-02');
        expect(daysBetween('2024-02-01', '2024-03-01')).toBe(29);
        expect(daysBetween('2025-02-01', '2025-03-01')).toBe(28);
        expect(daysBetween('2025-12-30', '2026-01-02')).toBe(3);
        expect(daysBetween('2025-03-10', '2025-03-08')).toBe(-2);
        expect(daysBetween('2025-06-02', '2025-06-02')).toBe(0);
        for (let n = -400; n <= 400; n += 37) expect(daysBetween('2024-02-29', addDays('2024-02-29', n))).toBe(n);
      });
    });
  });
});
