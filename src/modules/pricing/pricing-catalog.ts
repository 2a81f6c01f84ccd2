import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { POLICY_CATEGORIES, PricingProfile, PricingProfileItem, TaxAppliesTo, type PolicyCategory } from './pricing.entity';
import { PolicyRepository, PricingProfileRepository } from './pricing.repository';

/** A tax as an order freezes it. */
export interface FrozenTax {
  id: string;
  name: string;
  rate_bps: number;
  applies_to: TaxAppliesTo;
}

/** Policy categories, for other modules' documents (a violation copies its policy's). */
export { POLICY_CATEGORIES, type PolicyCategory };

/** What an order's placement reads of the price book (`PricingCatalog#placementTerms`). */
export interface PlacementTerms {
  profile: PricingProfile | null;
  taxes: FrozenTax[];
  paymentTerm: { id: string; due_days: number } | null;
}

/** A policy as a violation copies it. */
export interface PolicyTerms {
  id: string;
  name: string;
  category: PolicyCategory;
  active: boolean;
  demeritPoints: number;
  feeAmount: number;
}

/**
 * Read side of the price books for other modules (quotes, orders, invoices). Inside a unit of work it
 * reads through it.
 */
@Injectable()
export class PricingCatalog {
  constructor(
    private readonly profiles: PricingProfileRepository,
    private readonly policyRows: PolicyRepository,
  ) {}

  /**
   * What pricing an order needs from the price book, in one statement: the customer's assigned
   * profile (else the company's default) with its items, the default taxes and the default payment
   * term. `profile` null when neither profile exists (taxes and term are then not read: nothing is priced).
   */
  async placementTerms(scope: Scope, assignedProfileId: string | null): Promise<PlacementTerms> {
    const { profiles, defaults } = await this.profiles.placementRows(scope, assignedProfileId);
    const profile = profiles.find((p) => p.id === assignedProfileId) ?? profiles.find((p) => p.isDefault) ?? null;
    if (!profile || !defaults) return { profile: null, taxes: [], paymentTerm: null };
    return { profile, taxes: defaults.default_taxes as FrozenTax[], paymentTerm: defaults.default_term as { id: string; due_days: number } | null };
  }

  /**
   * The scope's company's policies among `ids` (accountability copies their points and fee when a
   * violation is recorded), share-locked until the caller's commit (inside its unit of work); ids that
   * are absent or another company's are left out.
   */
  async policies(scope: Scope, ids: readonly string[]): Promise<PolicyTerms[]> {
    if (!ids.length) return [];
    const rows = await this.policyRows.lockAmong(scope, ids);
    return rows.map((p) => ({ id: p.id, name: p.name, category: p.category, active: p.active, demeritPoints: p.demeritPoints, feeAmount: p.feeAmount }));
  }

  /** The profile's price for a specification: the waste-type-specific item first, else the any-waste item. */
  itemFor(profile: PricingProfile, assetSpecificationId: string, wasteTypeId: string | null = null): PricingProfileItem | null {
    const items = (profile.items ?? []).filter((i) => i.assetSpecificationId === assetSpecificationId);
    return (wasteTypeId ? items.find((i) => i.wasteTypeId === wasteTypeId) : undefined) ?? items.find((i) => i.wasteTypeId === null) ?? null;
  }
}
