import { Check, Column, DeleteDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';
import { Tenant } from '../../common/access/tenant-policy';

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * A promotion code: percent (basis points) or fixed (minor units) discount, valid between two dates
 * (company time zone), with redemption limits; applies to the specifications linked in
 * promotion_asset_specifications (none = all).
 */
@Tenant()
@Entity('promotions')
@Index('idx_promotions_company_id', ['companyId', 'active'])
// Expression index UNIQUE (company_id, lower(code)) WHERE deleted_at IS NULL: TypeORM cannot express it, so it is declared by name and left alone.
@Index('uq_promotions_code', { synchronize: false })
@Check('promotions_discount_type_check', `discount_type IN ('percent', 'fixed')`)
@Check('promotions_check', `discount_value > 0 AND (discount_type <> 'percent' OR discount_value <= 10000)`)
@Check('promotions_max_redemptions_check', `max_redemptions > 0`)
@Check('promotions_max_redemptions_per_customer_check', `max_redemptions_per_customer > 0`)
@Check('promotions_min_subtotal_amount_check', `min_subtotal_amount >= 0`)
@Check('promotions_check1', `valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to`)
export class Promotion extends BaseEntity {
  @ForeignKey('companies', { name: 'promotions_company_id_fkey' }) @Column({ type: 'uuid' }) companyId: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) discountType: DiscountType;
  @Column({ type: 'int' }) discountValue: number;
  @Column({ type: 'date', nullable: true }) validFrom: string | null;
  @Column({ type: 'date', nullable: true }) validTo: string | null;
  @Column({ type: 'int', nullable: true }) maxRedemptions: number | null;
  @Column({ type: 'int', nullable: true }) maxRedemptionsPerCustomer: number | null;
  @Column({ type: 'int', default: 0 }) minSubtotalAmount: number;
  @Column({ type: 'boolean', default: true }) active: boolean;
  @DeleteDateColumn({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

/** The asset specifications a promotion applies to (none: all); migration 1763800003000-PricingFleet. */
@Entity('promotion_asset_specifications')
export class PromotionAssetSpecification {
  @ForeignKey('promotions', { name: 'promotion_asset_specifications_promotion_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ type: 'uuid' })
  promotionId: string;

  @Index('idx_promotion_asset_specifications_spec')
  @ForeignKey('asset_specifications', { name: 'promotion_asset_specifications_asset_specification_id_fkey' })
  @PrimaryColumn({ type: 'uuid' })
  assetSpecificationId: string;
}
