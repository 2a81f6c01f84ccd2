import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { PaymentTerm, PricingProfile, PricingProfileItem, Tax, TaxAppliesTo } from './pricing.entity';

/** A tax as an order freezes it. */
export interface FrozenTax {
  id: string;
  name: string;
  rate_bps: number;
  applies_to: TaxAppliesTo;
}

/**
 * Read side of the price books for other modules (quotes, orders, invoices). Pass the transaction's
 * manager when calling from inside a transaction.
 */
@Injectable()
export class PricingCatalog {
  constructor(private readonly ds: DataSource) {}

  /**
   * The customer's assigned profile (`assignedProfileId`, the customers module keeps it) if live, else
   * the company's default; null when neither exists. Items loaded.
   */
  async profileFor(companyId: string, assignedProfileId: string | null, m: EntityManager = this.ds.manager): Promise<PricingProfile | null> {
    const repo = m.getRepository(PricingProfile);
    let profile: PricingProfile | null = null;
    if (assignedProfileId) profile = await repo.findOneBy({ id: assignedProfileId, companyId, deletedAt: IsNull() });
    profile ??= await repo.findOneBy({ companyId, isDefault: true, deletedAt: IsNull() });
    if (profile) profile.items = await m.getRepository(PricingProfileItem).find({ where: { pricingProfileId: profile.id }, order: { position: 'ASC', id: 'ASC' } });
    return profile;
  }

  /** The company's default taxes, as an order freezes them (name order). */
  async defaultTaxes(companyId: string, m: EntityManager = this.ds.manager): Promise<FrozenTax[]> {
    const taxes = await m.getRepository(Tax).find({ where: { companyId, isDefault: true }, order: { name: 'ASC', id: 'ASC' } });
    return taxes.map((t) => ({ id: t.id, name: t.name, rate_bps: t.rateBps, applies_to: t.appliesTo }));
  }

  /** The company's default payment term (the oldest if several), or null. */
  async defaultPaymentTerm(companyId: string, m: EntityManager = this.ds.manager): Promise<{ id: string; due_days: number } | null> {
    const term = await m.getRepository(PaymentTerm).findOne({ where: { companyId, isDefault: true }, order: { createdAt: 'ASC' } });
    return term && { id: term.id, due_days: term.dueDays };
  }

  /** The profile's price for a specification: the waste-type-specific item first, else the any-waste item. */
  itemFor(profile: PricingProfile, assetSpecificationId: string, wasteTypeId: string | null = null): PricingProfileItem | null {
    const items = (profile.items ?? []).filter((i) => i.assetSpecificationId === assetSpecificationId);
    return (wasteTypeId ? items.find((i) => i.wasteTypeId === wasteTypeId) : undefined) ?? items.find((i) => i.wasteTypeId === null) ?? null;
  }
}
