import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index, JoinColumn, ManyToOne, OneToMany } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const TAX_APPLIES_TO = ['all', 'rental', 'fees'] as const;
export type TaxAppliesTo = (typeof TAX_APPLIES_TO)[number];

export const POLICY_CATEGORIES = ['overfill', 'prohibited_item', 'blocked_access', 'contamination', 'damage', 'late_payment', 'other'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

/** numeric columns come back from the driver as strings; kilometres are plain numbers in the API. */
const numeric = { to: (v: number | null | undefined) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A tax rate in basis points (825 = 8.25 %), applied to all lines, rentals or fees. */
@Tenant({ customer: false, driver: false })
@Entity('taxes')
@Index('idx_taxes_company_id', ['companyId', 'appliesTo'])
@Index('uq_taxes_default', ['companyId'], { unique: true, where: 'is_default AND deleted_at IS NULL' })
@Check('taxes_rate_bps_check', `rate_bps BETWEEN 0 AND 100000`)
@Check('taxes_applies_to_check', `applies_to IN ('all', 'rental', 'fees')`)
export class Tax extends BaseEntity {
  @ForeignKey('companies', { name: 'taxes_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int' }) rateBps: number;
  @Column({ type: 'text', default: 'all' }) appliesTo: TaxAppliesTo;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** When an invoice is due: `due_days` after issue (0 = on receipt). */
@Tenant({ customer: false, driver: false })
@Entity('payment_terms')
@Index('idx_payment_terms_company_id', ['companyId'])
@Index('uq_payment_terms_default', ['companyId'], { unique: true, where: 'is_default AND deleted_at IS NULL' })
@Check('payment_terms_due_days_check', `due_days BETWEEN 0 AND 3650`)
export class PaymentTerm extends BaseEntity {
  @ForeignKey('companies', { name: 'payment_terms_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int' }) dueDays: number;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** A rule customers can violate: demerit points and a fee. */
@Tenant({ customer: false, driver: false })
@Entity('policies')
@Index('idx_policies_company_id', ['companyId', 'category', 'active'])
@Check('policies_category_check', `category IN ('overfill', 'prohibited_item', 'blocked_access', 'contamination', 'damage', 'late_payment', 'other')`)
@Check('policies_demerit_points_check', `demerit_points >= 0`)
@Check('policies_fee_amount_check', `fee_amount >= 0`)
export class Policy extends BaseEntity {
  @ForeignKey('companies', { name: 'policies_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) category: PolicyCategory;
  @Column({ type: 'int', default: 0 }) demeritPoints: number;
  @Column({ type: 'int', default: 0 }) feeAmount: number;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'boolean', default: true }) active: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** A price book: customers are assigned one, else the company's default applies. */
@Tenant({ customer: false, driver: false })
@Entity('pricing_profiles')
@Index('idx_pricing_profiles_company_id', ['companyId'])
@Index('uq_pricing_profiles_default', ['companyId'], { unique: true, where: 'is_default AND deleted_at IS NULL' })
@Check('pricing_profiles_delivery_free_radius_km_check', `delivery_free_radius_km >= 0`)
@Check('pricing_profiles_delivery_price_per_km_amount_check', `delivery_price_per_km_amount >= 0`)
export class PricingProfile extends BaseEntity {
  @ForeignKey('companies', { name: 'pricing_profiles_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @Column({ type: 'numeric', precision: 8, scale: 2, default: 0, transformer: numeric }) deliveryFreeRadiusKm: number;
  @Column({ type: 'int', default: 0 }) deliveryPricePerKmAmount: number;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
  @OneToMany(() => PricingProfileItem, (i) => i.pricingProfile) items?: PricingProfileItem[];
}

/** Prices of one specification (optionally for one waste type; null = any) in a price book. */
@Tenant({ customer: false, driver: false })
@Entity('pricing_profile_items')
@Index('idx_pricing_profile_items_company_id', ['companyId'])
// Expression index UNIQUE (pricing_profile_id, asset_specification_id, COALESCE(waste_type_id, '00000000-…'::uuid)): TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_pricing_profile_items_key', { synchronize: false })
@Check('pricing_profile_items_base_price_amount_check', `base_price_amount >= 0`)
@Check('pricing_profile_items_included_days_check', `included_days >= 0`)
@Check('pricing_profile_items_included_weight_kg_check', `included_weight_kg >= 0`)
@Check('pricing_profile_items_extra_day_amount_check', `extra_day_amount >= 0`)
@Check('pricing_profile_items_overage_per_tonne_amount_check', `overage_per_tonne_amount >= 0`)
@Check('pricing_profile_items_swap_fee_amount_check', `swap_fee_amount >= 0`)
@Check('pricing_profile_items_dump_return_fee_amount_check', `dump_return_fee_amount >= 0`)
@Check('pricing_profile_items_relocation_fee_amount_check', `relocation_fee_amount >= 0`)
@Check('pricing_profile_items_wasted_trip_fee_amount_check', `wasted_trip_fee_amount >= 0`)
export class PricingProfileItem extends BaseEntity {
  @ForeignKey('companies', { name: 'pricing_profile_items_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'uuid' }) pricingProfileId: string;
  @ManyToOne(() => PricingProfile, (p) => p.items, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pricing_profile_id', foreignKeyConstraintName: 'pricing_profile_items_pricing_profile_id_fkey' })
  pricingProfile?: PricingProfile;
  @Index('idx_pricing_profile_items_asset_specification_id')
  @ForeignKey('asset_specifications', { name: 'pricing_profile_items_asset_specification_id_fkey' })
  @Column({ type: 'uuid' })
  assetSpecificationId: string;
  @Index('idx_pricing_profile_items_waste_type_id')
  @ForeignKey('waste_types', { name: 'pricing_profile_items_waste_type_id_fkey' })
  @Column({ type: 'uuid', nullable: true })
  wasteTypeId: string | null;
  /** Order of the item in the profile's list, as last written. */
  @Column({ type: 'int', default: 0 }) position: number;
  @Column({ type: 'int' }) basePriceAmount: number;
  @Column({ type: 'int', default: 0 }) includedDays: number;
  @Column({ type: 'int', default: 0 }) includedWeightKg: number;
  @Column({ type: 'int', default: 0 }) extraDayAmount: number;
  @Column({ type: 'int', default: 0 }) overagePerTonneAmount: number;
  @Column({ type: 'int', default: 0 }) swapFeeAmount: number;
  @Column({ type: 'int', default: 0 }) dumpReturnFeeAmount: number;
  @Column({ type: 'int', default: 0 }) relocationFeeAmount: number;
  @Column({ type: 'int', default: 0 }) wastedTripFeeAmount: number;
}
