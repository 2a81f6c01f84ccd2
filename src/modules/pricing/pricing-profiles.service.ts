import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { AssetSpecificationsService, WasteTypesService } from '../catalogue';
import { CreatePricingProfileDto, PricingItemInput, PricingProfileDto, PricingProfileQuery, UpdatePricingProfileDto } from './pricing.dto';
import { PricingProfile } from './pricing.entity';
import { PricingProfileRepository } from './pricing.repository';

/** Price books and their items (PUT with `items` replaces the whole set). */
@Injectable()
export class PricingProfilesService {
  constructor(
    private readonly profiles: PricingProfileRepository,
    private readonly specs: AssetSpecificationsService,
    private readonly wasteTypes: WasteTypesService,
  ) {}

  async list(scope: Scope, q: PricingProfileQuery): Promise<Page<PricingProfileDto>> {
    const page = await this.profiles.page(scope, q);
    const items = await this.profiles.itemsOf(scope, page.items.map((p) => p.id));
    return new Page(page.items.map((p) => PricingProfileDto.of(p, items.filter((i) => i.pricingProfileId === p.id))), page.meta);
  }

  async get(scope: Scope, id: string): Promise<PricingProfileDto> {
    const profile = await this.profiles.find(scope, id);
    return PricingProfileDto.of(profile, await this.profiles.itemsOf(scope, [id]));
  }

  async create(actor: Actor, scope: Scope, d: CreatePricingProfileDto): Promise<PricingProfileDto> {
    const profile = await this.profiles.create(actor, scope, fields(d), { after: (_m, row) => this.replaceItems(row, d.items ?? []) });
    return this.get(scope, profile.id);
  }

  async update(actor: Actor, scope: Scope, id: string, d: UpdatePricingProfileDto): Promise<PricingProfileDto> {
    await this.profiles.update(actor, scope, id, fields(d), {
      after: async (_m, row) => {
        if (d.items) await this.replaceItems(row, d.items);
      },
    });
    return this.get(scope, id);
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.profiles.remove(actor, scope, id);
  }

  /** Whether the id is a live pricing profile of the scope's company (references from other modules). */
  isLive(scope: Scope, id: string): Promise<boolean> {
    return this.profiles.isLive(scope, id);
  }

  private async replaceItems(profile: PricingProfile, items: PricingItemInput[]): Promise<void> {
    const seen = new Map<string, number>();
    const dup: FieldErrors = {};
    items.forEach((it, i) => {
      const key = `${it.asset_specification_id.toLowerCase()}/${it.waste_type_id?.toLowerCase() ?? '*'}`;
      if (seen.has(key)) dup[`items.${i}.asset_specification_id`] = [`duplicates items.${seen.get(key)} (same specification and waste type)`];
      else seen.set(key, i);
    });
    if (Object.keys(dup).length) throw ApiError.validation(dup);
    const scope = Scope.company(profile.companyId);
    await this.specs.assertOwned(scope, items.map((it, i) => ({ field: `items.${i}.asset_specification_id`, id: it.asset_specification_id })));
    await this.wasteTypes.assertOwned(scope, items.map((it, i) => ({ field: `items.${i}.waste_type_id`, id: it.waste_type_id })));
    await this.profiles.replaceItems(
      scope,
      profile.id,
      items.map((it, position) => ({
        position,
        assetSpecificationId: it.asset_specification_id,
        wasteTypeId: it.waste_type_id ?? null,
        basePriceAmount: it.base_price_amount,
        includedDays: it.included_days ?? 0,
        includedWeightKg: it.included_weight_kg ?? 0,
        extraDayAmount: it.extra_day_amount ?? 0,
        overagePerTonneAmount: it.overage_per_tonne_amount ?? 0,
        swapFeeAmount: it.swap_fee_amount ?? 0,
        dumpReturnFeeAmount: it.dump_return_fee_amount ?? 0,
        relocationFeeAmount: it.relocation_fee_amount ?? 0,
        wastedTripFeeAmount: it.wasted_trip_fee_amount ?? 0,
      })),
    );
  }
}

const fields = (d: UpdatePricingProfileDto): Partial<PricingProfile> => ({
  name: d.name,
  description: d.description,
  isDefault: d.is_default,
  deliveryFreeRadiusKm: d.delivery_free_radius_km,
  deliveryPricePerKmAmount: d.delivery_price_per_km_amount,
});
