/** What other modules may use of pricing (never its entities). */
export { PricingModule } from './pricing.module';
export { PricingCatalog } from './pricing-catalog';
export { PricingProfilesService } from './pricing-profiles.service';
export type { FrozenTax, PolicyTerms } from './pricing-catalog';
export { POLICY_CATEGORIES, type PolicyCategory } from './pricing-catalog';
