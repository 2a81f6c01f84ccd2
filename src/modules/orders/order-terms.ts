import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { CustomerCatalogueService } from '../catalogue';
import { CustomerAddressesService } from '../customers';
import { PricingCatalog } from '../pricing';
import { PromotionsService } from '../promotions';
import { assertOpenResult, LotsService } from '../sites';
import type { AddressSnapshot, FrozenTerms } from './order.entity';
import { OrdersRepository } from './orders.repository';
import { haversineMetres, type PromotionTerms } from './pricing-engine';

export interface OrderTarget {
  companyId: string;
  customerId: string;
  addressId: string;
  assetSpecificationId: string;
  wasteTypeId: string;
  /** With a delivery date, the serving lot must be open that day (422 `HOLIDAY`, `CLOSED_DAY` on `delivery_date`). */
  deliveryDate?: string;
}

export interface ResolvedTerms {
  terms: FrozenTerms;
  address: AddressSnapshot;
  lotId: string;
  specificationName: string;
  wasteTypeName: string;
}

export { todayIn };

/**
 * Reads what the pricing engine needs for an order from the catalogue, inside the caller's
 * transaction: the customer's address, an active specification and an allowed, active waste type,
 * the price book item, the serving lot (the nearest active lot with a position) and its distance,
 * the default taxes and payment term. Anything missing or another tenant's is a 422 naming the field.
 */
@Injectable()
export class OrderTerms {
  constructor(
    private readonly catalog: PricingCatalog,
    private readonly catalogue: CustomerCatalogueService,
    private readonly addresses: CustomerAddressesService,
    private readonly lots: LotsService,
    private readonly promotions: PromotionsService,
    private readonly orders: OrdersRepository,
  ) {}

  async resolve(t: OrderTarget): Promise<ResolvedTerms> {
    // One statement per module (customers, catalogue, pricing, sites), one at a time: in a unit of work they share one connection.
    const company = Scope.company(t.companyId);
    const target = await this.addresses.snapshotWithTerms(Scope.customer(t.companyId, t.customerId), t.addressId);
    const address = target?.address ?? null;
    const { spec, waste, allowed, priceOverrideAmount } = await this.catalogue.orderable(company, t.assetSpecificationId, t.wasteTypeId);
    const errors: Record<string, string[]> = {};
    if (!address) errors.address_id = ['is not one of your addresses'];
    if (!spec) errors.asset_specification_id = ['is not an available container'];
    if (!waste) errors.waste_type_id = ['is not an available waste type'];
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    if (!allowed) throw ApiError.validation({ waste_type_id: [`is not allowed in a ${spec!.name}`] });

    const customer = target!.customer;
    const { profile, taxes, paymentTerm: term } = await this.catalog.placementTerms(company, customer.pricingProfileId);
    const item = profile && this.catalog.itemFor(profile, spec!.id, waste!.id);
    if (!profile || !item) throw ApiError.unprocessable('NOT_PRICED', `${spec!.name} has no price for this customer yet.`, { asset_specification_id: ['has no price in the price book'] });
    // A waste-type-specific item has its own base; else the specification's override for this waste type applies.
    const base = item.wasteTypeId === null && priceOverrideAmount !== null ? priceOverrideAmount : item.basePriceAmount;

    const lots = await this.lots.servingCandidates(company, t.deliveryDate);
    if (lots.positioned.length === 0) {
      throw ApiError.unprocessable(
        'NO_SERVING_LOT',
        lots.active === 0 ? 'The company has no active lot to deliver from.' : 'No active lot has a position (latitude and longitude) to deliver from.',
      );
    }
    const nearest = lots.positioned.map((l) => ({ id: l.id, day: l.day, distance: haversineMetres(l, address!) })).sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))[0];
    if (t.deliveryDate) assertOpenResult('lot', nearest.day!, t.deliveryDate, 'delivery_date');
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
      tax_exempt: customer.taxExempt,
      due_days: term?.due_days ?? 0,
      payment_term_id: term?.id ?? null,
      promotion: null,
    };
    return { terms, address: address!, lotId: nearest.id, specificationName: spec!.name, wasteTypeName: waste!.name };
  }

  /** The customer's (of a customer `scope`) live address as the order keeps it (snapshot), or null when it is not theirs. */
  address(scope: Scope, addressId: string): Promise<AddressSnapshot | null> {
    return this.addresses.snapshot(scope, addressId);
  }

  /**
   * A promotion by code (case-insensitive) with its redemption counts, locked for the rest of the
   * unit of work so that two placements cannot both take its last redemption (the customer of the customer `scope`). Orders that were
   * rejected or cancelled give their redemption back. null when no live promotion has that code.
   */
  async promotion(scope: Scope, code: string, excludeOrderId?: string): Promise<(PromotionTerms & { id: string }) | null> {
    // Promotions are the company's shared records: read with the company's reach, counted for the customer of `scope`.
    const p = await this.promotions.lockByCode(Scope.company(scope.companyId), code);
    if (!p) return null;
    return { ...p, ...(await this.orders.redemptions(scope, p.id, scope.customerId!, excludeOrderId)) };
  }
}
