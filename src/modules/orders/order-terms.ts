import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { PricingCatalog } from '../pricing/pricing-catalog';
import type { AddressSnapshot, FrozenTerms } from './order.entity';
import { haversineMetres, type PromotionTerms } from './pricing-engine';

export interface OrderTarget {
  companyId: string;
  customerId: string;
  addressId: string;
  assetSpecificationId: string;
  wasteTypeId: string;
}

export interface ResolvedTerms {
  terms: FrozenTerms;
  address: AddressSnapshot;
  lotId: string;
  specificationName: string;
  wasteTypeName: string;
}

/** The service date today in a time zone (YYYY-MM-DD). */
export function todayIn(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Reads what the pricing engine needs for an order from the catalogue, inside the caller's
 * transaction: the customer's address, an active specification and an allowed, active waste type,
 * the price book item, the serving lot (the nearest active lot with a position) and its distance,
 * the default taxes and payment term. Anything missing or another tenant's is a 422 naming the field.
 */
@Injectable()
export class OrderTerms {
  constructor(private readonly catalog: PricingCatalog) {}

  async resolve(m: EntityManager, t: OrderTarget): Promise<ResolvedTerms> {
    // One query at a time: inside a transaction they share one connection.
    const address = await this.address(m, t.companyId, t.customerId, t.addressId);
    const [spec]: { id: string; name: string }[] = await m.query(`SELECT id, name FROM asset_specifications WHERE id = $1 AND company_id = $2 AND active AND deleted_at IS NULL`, [t.assetSpecificationId, t.companyId]);
    const [waste]: { id: string; name: string; price_override_amount: number | null }[] = await m.query(
      `SELECT w.id, w.name, l.price_override_amount
         FROM waste_types w
         LEFT JOIN asset_specification_waste_types l ON l.waste_type_id = w.id AND l.asset_specification_id = $3
        WHERE w.id = $1 AND w.company_id = $2 AND w.active AND w.deleted_at IS NULL`,
      [t.wasteTypeId, t.companyId, t.assetSpecificationId],
    );
    const errors: Record<string, string[]> = {};
    if (!address) errors.address_id = ['is not one of your addresses'];
    if (!spec) errors.asset_specification_id = ['is not an available container'];
    if (!waste) errors.waste_type_id = ['is not an available waste type'];
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    const [allowed] = await m.query(`SELECT 1 FROM asset_specification_waste_types WHERE asset_specification_id = $1 AND waste_type_id = $2`, [spec.id, waste.id]);
    if (!allowed) throw ApiError.validation({ waste_type_id: [`is not allowed in a ${spec.name}`] });

    const profile = await this.catalog.profileFor(t.companyId, t.customerId, m);
    const item = profile && this.catalog.itemFor(profile, spec.id, waste.id);
    if (!profile || !item) throw ApiError.unprocessable('NOT_PRICED', `${spec.name} has no price for this customer yet.`, { asset_specification_id: ['has no price in the price book'] });
    // A waste-type-specific item has its own base; else the specification's override for this waste type applies.
    const base = item.wasteTypeId === null && waste.price_override_amount !== null ? waste.price_override_amount : item.basePriceAmount;

    const lots: { id: string; latitude: number; longitude: number }[] = await m.query(
      `SELECT id, latitude, longitude FROM lots WHERE company_id = $1 AND active AND deleted_at IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL`,
      [t.companyId],
    );
    if (lots.length === 0) throw ApiError.unprocessable('NO_SERVING_LOT', 'The company has no active lot to deliver from.');
    const nearest = lots.map((l) => ({ id: l.id, distance: haversineMetres(l, address!) })).sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))[0];

    const taxes = await m.query(`SELECT id, name, rate_bps, applies_to FROM taxes WHERE company_id = $1 AND is_default AND deleted_at IS NULL ORDER BY name, id`, [t.companyId]);
    const [term] = await m.query(`SELECT id, due_days FROM payment_terms WHERE company_id = $1 AND is_default AND deleted_at IS NULL ORDER BY created_at LIMIT 1`, [t.companyId]);
    const [customer] = await m.query(`SELECT tax_exempt FROM customers WHERE id = $1`, [t.customerId]);
    const terms: FrozenTerms = {
      pricing_profile_id: profile.id,
      pricing_profile_item_id: item.id,
      base_price_amount: base,
      included_days: item.includedDays,
      included_weight_kg: item.includedWeightKg,
      extra_day_amount: item.extraDayAmount,
      overage_per_tonne_amount: item.overagePerTonneAmount,
      swap_fee_amount: item.swapFeeAmount,
      dump_return_fee_amount: item.dumpReturnFeeAmount,
      relocation_fee_amount: item.relocationFeeAmount,
      wasted_trip_fee_amount: item.wastedTripFeeAmount,
      delivery_free_radius_m: Math.round(profile.deliveryFreeRadiusKm * 1000),
      delivery_price_per_km_amount: profile.deliveryPricePerKmAmount,
      distance_m: nearest.distance,
      taxes,
      tax_exempt: !!customer?.tax_exempt,
      due_days: term?.due_days ?? 0,
      payment_term_id: term?.id ?? null,
      promotion: null,
    };
    return { terms, address: address!, lotId: nearest.id, specificationName: spec.name, wasteTypeName: waste.name };
  }

  /** The customer's live address as the order keeps it (snapshot), or null when it is not theirs. */
  async address(m: EntityManager, companyId: string, customerId: string, addressId: string): Promise<AddressSnapshot | null> {
    const [a] = await m.query(
      `SELECT label, line1, line2, city, region, postal_code, country, latitude, longitude, instructions
         FROM customer_addresses WHERE id = $1 AND company_id = $2 AND customer_id = $3 AND deleted_at IS NULL`,
      [addressId, companyId, customerId],
    );
    return a ? { ...a, latitude: Number(a.latitude), longitude: Number(a.longitude) } : null;
  }

  /**
   * A promotion by code (case-insensitive) with its redemption counts, locked for the rest of the
   * transaction so that two placements cannot both take its last redemption. Orders that were
   * rejected or cancelled give their redemption back. null when no live promotion has that code.
   */
  async promotion(m: EntityManager, companyId: string, customerId: string, code: string, excludeOrderId?: string): Promise<(PromotionTerms & { id: string }) | null> {
    const [p] = await m.query(
      `SELECT id, code, discount_type, discount_value, valid_from::text, valid_to::text, max_redemptions, max_redemptions_per_customer, min_subtotal_amount, active
         FROM promotions WHERE company_id = $1 AND lower(code) = lower($2) AND deleted_at IS NULL FOR UPDATE`,
      [companyId, code],
    );
    if (!p) return null;
    const [counts] = await m.query(
      `SELECT count(*)::int AS redemptions, count(*) FILTER (WHERE customer_id = $2)::int AS customer_redemptions
         FROM orders WHERE promotion_id = $1 AND status NOT IN ('rejected', 'cancelled') AND id <> $3`,
      [p.id, customerId, excludeOrderId ?? '00000000-0000-0000-0000-000000000000'],
    );
    const links = await m.query(`SELECT asset_specification_id FROM promotion_asset_specifications WHERE promotion_id = $1`, [p.id]);
    return { ...p, ...counts, asset_specification_ids: links.map((l: { asset_specification_id: string }) => l.asset_specification_id) };
  }
}
