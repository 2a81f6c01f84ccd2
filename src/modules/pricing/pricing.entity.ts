import { Column, DeleteDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToMany } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const TAX_APPLIES_TO = ['all', 'rental', 'fees'] as const;
export type TaxAppliesTo = (typeof TAX_APPLIES_TO)[number];

export const POLICY_CATEGORIES = ['overfill', 'prohibited_item', 'blocked_access', 'contamination', 'damage', 'late_payment', 'other'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

/** numeric columns come back from the driver as strings; kilometres are plain numbers in the API. */
const numeric = { to: (v: number | null | undefined) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/** A tax rate in basis points (825 = 8.25 %), applied to all lines, rentals or fees. */
@Entity('taxes')
export class Tax extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int' }) rateBps: number;
  @Column({ type: 'text', default: 'all' }) appliesTo: TaxAppliesTo;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** When an invoice is due: `due_days` after issue (0 = on receipt). */
@Entity('payment_terms')
export class PaymentTerm extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'int' }) dueDays: number;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** A rule customers can violate: demerit points and a fee. */
@Entity('policies')
export class Policy extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) category: PolicyCategory;
  @Column({ type: 'int', default: 0 }) demeritPoints: number;
  @Column({ type: 'int', default: 0 }) feeAmount: number;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'boolean', default: true }) active: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** A price book: customers are assigned one, else the company's default applies. */
@Entity('pricing_profiles')
export class PricingProfile extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @Column({ type: 'numeric', precision: 8, scale: 2, default: 0, transformer: numeric }) deliveryFreeRadiusKm: number;
  @Column({ type: 'int', default: 0 }) deliveryPricePerKmAmount: number;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
  @OneToMany(() => PricingProfileItem, (i) => i.pricingProfile) items?: PricingProfileItem[];
}

/** Prices of one specification (optionally for one waste type; null = any) in a price book. */
@Entity('pricing_profile_items')
export class PricingProfileItem extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
  @Index() @Column({ type: 'uuid' }) pricingProfileId: string;
  @ManyToOne(() => PricingProfile, (p) => p.items, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'pricing_profile_id' }) pricingProfile?: PricingProfile;
  @Index() @Column({ type: 'uuid' }) assetSpecificationId: string;
  @Index() @Column({ type: 'uuid', nullable: true }) wasteTypeId: string | null;
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
