import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { PricingProfile, PricingProfileItem } from './pricing.entity';

/**
 * Read side of the price books for other modules (quotes, orders, invoices). Pass the transaction's
 * manager when calling from inside a transaction.
 */
@Injectable()
export class PricingCatalog {
  constructor(private readonly ds: DataSource) {}

  /** The customer's assigned profile (if live), else the company's default; null when neither exists. Items loaded. */
  async profileFor(companyId: string, customerId: string | null, m: EntityManager = this.ds.manager): Promise<PricingProfile | null> {
    const repo = m.getRepository(PricingProfile);
    let profile: PricingProfile | null = null;
    if (customerId) {
      const [row] = await m.query(`SELECT pricing_profile_id FROM customers WHERE id = $1 AND company_id = $2`, [customerId, companyId]);
      if (row?.pricing_profile_id) profile = await repo.findOneBy({ id: row.pricing_profile_id, companyId, deletedAt: IsNull() });
    }
    profile ??= await repo.findOneBy({ companyId, isDefault: true, deletedAt: IsNull() });
    if (profile) profile.items = await m.getRepository(PricingProfileItem).find({ where: { pricingProfileId: profile.id }, order: { position: 'ASC', id: 'ASC' } });
    return profile;
  }

  /** The profile's price for a specification: the waste-type-specific item first, else the any-waste item. */
  itemFor(profile: PricingProfile, assetSpecificationId: string, wasteTypeId: string | null = null): PricingProfileItem | null {
    const items = (profile.items ?? []).filter((i) => i.assetSpecificationId === assetSpecificationId);
    return (wasteTypeId ? items.find((i) => i.wasteTypeId === wasteTypeId) : undefined) ?? items.find((i) => i.wasteTypeId === null) ?? null;
  }
}
