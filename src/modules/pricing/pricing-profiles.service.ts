import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { AssetSpecificationsService, WasteTypesService } from '../catalogue';
import { CreatePricingProfileDto, PricingItemInput, PricingProfileDto, PricingProfileQuery, UpdatePricingProfileDto } from './pricing.dto';
import { PricingProfile, PricingProfileItem } from './pricing.entity';

/** Price books and their items (PUT with `items` replaces the whole set). */
@Injectable()
export class PricingProfilesService {
  private readonly records: CompanyRecords<PricingProfile>;
  constructor(
    private readonly ds: DataSource,
    inUse: InUseRegistry,
    private readonly specs: AssetSpecificationsService,
    private readonly wasteTypes: WasteTypesService,
  ) {
    this.records = new CompanyRecords(ds, {
      entity: PricingProfile,
      what: 'Pricing profile',
      event: 'pricing_profile',
      singleDefault: true,
      nullable: ['description'],
      // While a customer is assigned the profile (customers register that check).
      inUse: (m, row) => inUse.isUsed(m, 'pricing_profile', row.id),
    });
  }

  async list(companyId: string, q: PricingProfileQuery): Promise<Page<PricingProfileDto>> {
    const qb = this.records.query(companyId, 'p');
    if (q.is_default !== undefined) qb.andWhere('p.isDefault = :d', { d: q.is_default });
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    const page = await paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name' } });
    const items = await this.itemsOf(this.ds.manager, page.items.map((p) => p.id));
    return new Page(page.items.map((p) => PricingProfileDto.of(p, items.filter((i) => i.pricingProfileId === p.id))), page.meta);
  }

  async get(companyId: string, id: string): Promise<PricingProfileDto> {
    const profile = await this.records.find(companyId, id);
    return PricingProfileDto.of(profile, await this.itemsOf(this.ds.manager, [id]));
  }

  async create(actor: Actor, companyId: string, d: CreatePricingProfileDto): Promise<PricingProfileDto> {
    const profile = await this.records.create(actor, companyId, fields(d), { after: (m, row) => this.replaceItems(m, row, d.items ?? []) });
    return this.get(companyId, profile.id);
  }

  async update(actor: Actor, companyId: string, id: string, d: UpdatePricingProfileDto): Promise<PricingProfileDto> {
    await this.records.update(actor, companyId, id, fields(d), {
      after: async (m, row) => {
        if (d.items) await this.replaceItems(m, row, d.items);
      },
    });
    return this.get(companyId, id);
  }

  remove(actor: Actor, companyId: string, id: string): Promise<void> {
    return this.records.remove(actor, companyId, id);
  }

  /** Whether the id is a live pricing profile of the company (references from other modules). */
  isLive(m: EntityManager, companyId: string, id: string): Promise<boolean> {
    return m.existsBy(PricingProfile, { id, companyId });
  }

  private itemsOf(m: EntityManager, profileIds: string[]): Promise<PricingProfileItem[]> {
    if (!profileIds.length) return Promise.resolve([]);
    return m.getRepository(PricingProfileItem).find({ where: { pricingProfileId: In(profileIds) }, order: { position: 'ASC', id: 'ASC' } });
  }

  private async replaceItems(m: EntityManager, profile: PricingProfile, items: PricingItemInput[]): Promise<void> {
    const seen = new Map<string, number>();
    const dup: FieldErrors = {};
    items.forEach((it, i) => {
      const key = `${it.asset_specification_id.toLowerCase()}/${it.waste_type_id?.toLowerCase() ?? '*'}`;
      if (seen.has(key)) dup[`items.${i}.asset_specification_id`] = [`duplicates items.${seen.get(key)} (same specification and waste type)`];
      else seen.set(key, i);
    });
    if (Object.keys(dup).length) throw ApiError.validation(dup);
    await this.specs.assertOwned(m, profile.companyId, items.map((it, i) => ({ field: `items.${i}.asset_specification_id`, id: it.asset_specification_id })));
    await this.wasteTypes.assertOwned(m, profile.companyId, items.map((it, i) => ({ field: `items.${i}.waste_type_id`, id: it.waste_type_id })));
    await m.delete(PricingProfileItem, { pricingProfileId: profile.id });
    if (!items.length) return;
    await m.insert(
      PricingProfileItem,
      items.map((it, position) => ({
        position,
        companyId: profile.companyId,
        pricingProfileId: profile.id,
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
