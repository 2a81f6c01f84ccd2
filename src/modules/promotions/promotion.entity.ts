import { Column, DeleteDateColumn, Entity, Index } from 'typeorm';
import { BaseEntity } from '../../database/base.entity';

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/**
 * A promotion code: percent (basis points) or fixed (minor units) discount, valid between two dates
 * (company time zone), with redemption limits; applies to the specifications linked in
 * promotion_asset_specifications (none = all).
 */
@Entity('promotions')
export class Promotion extends BaseEntity {
  @Index() @Column({ type: 'uuid' }) companyId: string;
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
