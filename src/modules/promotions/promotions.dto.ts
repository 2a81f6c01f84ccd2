import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { SpecificationSummaryDto, specificationSummary } from '../catalogue';
import type { AssetSpecification } from '../catalogue';
import { AmountField, BoolField, BoolQuery, DateField, EnumField, IntField, PartialInput, TextField, UuidListField } from '../../common/validation/fields';
import { DISCOUNT_TYPES, Promotion } from './promotion.entity';

export class CreatePromotionDto {
  @TextField({ max: 40, example: 'SPRING27', description: 'Unique per company, case-insensitive.' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'may contain letters, digits, - and _ only' })
  code: string;
  @TextField({ example: 'Spring clean-up' }) name: string;
  @EnumField(DISCOUNT_TYPES) discount_type: (typeof DISCOUNT_TYPES)[number];
  @IntField({ min: 1, example: 2500, description: 'percent: basis points (2500 = 25 %, at most 10000); fixed: minor units.' }) discount_value: number;
  @DateField({ nullable: true, description: 'First valid day (company time zone); null = no start.' }) valid_from?: string | null;
  @DateField({ nullable: true, description: 'Last valid day (inclusive); null = no end.' }) valid_to?: string | null;
  @IntField({ nullable: true, min: 1, description: 'Overall limit; null = unlimited.' }) max_redemptions?: number | null;
  @IntField({ nullable: true, min: 1, description: 'Limit per customer; null = unlimited.' }) max_redemptions_per_customer?: number | null;
  @AmountField({ optional: true, description: 'Minimum order subtotal, minor units (default 0).' }) min_subtotal_amount?: number;
  @UuidListField({ optional: true, description: 'Specifications the promotion applies to; [] or absent = all.' }) asset_specification_ids?: string[];
  @BoolField({ optional: true, description: 'Default true.' }) active?: boolean;
}
export class UpdatePromotionDto extends PartialInput(CreatePromotionDto) {}

export class PromotionQuery extends PageQuery {
  @BoolQuery() active?: boolean;
}

export class PromotionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: DISCOUNT_TYPES }) discount_type: string;
  @ApiProperty() discount_value: number;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) valid_from: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date' }) valid_to: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_redemptions: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_redemptions_per_customer: number | null;
  @ApiProperty() min_subtotal_amount: number;
  @ApiProperty({ type: [String], format: 'uuid', description: '[] = all specifications.' }) asset_specification_ids: string[];
  @ApiProperty() active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(p: Promotion, specIds: string[]): PromotionDto {
    return {
      id: p.id,
      code: p.code,
      name: p.name,
      discount_type: p.discountType,
      discount_value: p.discountValue,
      valid_from: p.validFrom,
      valid_to: p.validTo,
      max_redemptions: p.maxRedemptions,
      max_redemptions_per_customer: p.maxRedemptionsPerCustomer,
      min_subtotal_amount: p.minSubtotalAmount,
      asset_specification_ids: specIds,
      active: p.active,
      created_at: p.createdAt.toISOString(),
      updated_at: p.updatedAt.toISOString(),
    };
  }
}

/** A specification as a customer sees it under a promotion. */
export class PromotionSpecificationDto extends SpecificationSummaryDto {
  @ApiProperty({ format: 'uuid' }) asset_category_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) asset_style_id: string | null;

  static of(s: AssetSpecification): PromotionSpecificationDto {
    return { ...specificationSummary(s), asset_category_id: s.assetCategoryId, asset_style_id: s.assetStyleId };
  }
}

export class PromotionSpecificationQuery extends PageQuery {}
