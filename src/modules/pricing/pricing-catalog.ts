import { jsonValue } from '../../database/json-value';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Policy, POLICY_CATEGORIES, PricingProfile, PricingProfileItem, TaxAppliesTo, type PolicyCategory } from './pricing.entity';

/** A tax as an order freezes it. */
export interface FrozenTax {
  id: string;
  name: string;
  rate_bps: number;
  applies_to: TaxAppliesTo;
}

/** Policy categories, for other modules' documents (a violation copies its policy's). */
export { POLICY_CATEGORIES, type PolicyCategory };

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
 * Read side of the price books for other modules (quotes, orders, invoices). Pass the transaction's
 * manager when calling from inside a transaction.
 */
@Injectable()
export class PricingCatalog {
  constructor(private readonly ds: DataSource) {}

  /**
   * What pricing an order needs from the price book, in one statement: the customer's assigned
   * profile (else the company's default) with its items, the default taxes and the default payment
   * term. `profile` null when neither profile exists (taxes and term are then not read: nothing is priced).
   */
  async placementTerms(companyId: string, assignedProfileId: string | null, m: EntityManager = this.ds.manager): Promise<{ profile: PricingProfile | null; taxes: FrozenTax[]; paymentTerm: { id: string; due_days: number } | null }> {
    const { entities, raw } = await m
      .getRepository(PricingProfile)
      .createQueryBuilder('p')
      .leftJoinAndSelect('p.items', 'i')
      .addSelect(
        `(SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'rate_bps', t.rate_bps, 'applies_to', t.applies_to) ORDER BY t.name, t.id), '[]'::json)
            FROM taxes t WHERE t.company_id = p.company_id AND t.is_default AND t.deleted_at IS NULL)`,
        'default_taxes',
      )
      .addSelect(
        `(SELECT json_build_object('id', pt.id, 'due_days', pt.due_days) FROM payment_terms pt
           WHERE pt.company_id = p.company_id AND pt.is_default AND pt.deleted_at IS NULL ORDER BY pt.created_at LIMIT 1)`,
        'default_term',
      )
      .where('p.companyId = :companyId', { companyId })
      .andWhere(assignedProfileId ? '(p.id = :assigned OR p.isDefault)' : 'p.isDefault', { assigned: assignedProfileId })
      .orderBy('i.position', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .getRawAndEntities();
    const profile = entities.find((p) => p.id === assignedProfileId) ?? entities.find((p) => p.isDefault) ?? null;
    if (!profile || !raw[0]) return { profile: null, taxes: [], paymentTerm: null };
    return { profile, taxes: jsonValue<FrozenTax[]>(raw[0].default_taxes), paymentTerm: jsonValue<{ id: string; due_days: number } | null>(raw[0].default_term) };
  }





  /**
   * The company's live policies among `ids` (accountability copies their points and fee when a
   * violation is recorded), share-locked until the caller's commit; ids that are absent, deleted or
   * another company's are left out.
   */
  async policies(m: EntityManager, companyId: string, ids: readonly string[]): Promise<PolicyTerms[]> {
    if (!ids.length) return [];
    const rows = await m
      .createQueryBuilder(Policy, 'p')
      .where('p.companyId = :companyId AND p.id IN (:...ids)', { companyId, ids: [...ids] })
      .setLock('pessimistic_read')
      .getMany();
    return rows.map((p) => ({ id: p.id, name: p.name, category: p.category, active: p.active, demeritPoints: p.demeritPoints, feeAmount: p.feeAmount }));
  }

  /** The profile's price for a specification: the waste-type-specific item first, else the any-waste item. */
  itemFor(profile: PricingProfile, assetSpecificationId: string, wasteTypeId: string | null = null): PricingProfileItem | null {
    const items = (profile.items ?? []).filter((i) => i.assetSpecificationId === assetSpecificationId);
    return (wasteTypeId ? items.find((i) => i.wasteTypeId === wasteTypeId) : undefined) ?? items.find((i) => i.wasteTypeId === null) ?? null;
  }
}
