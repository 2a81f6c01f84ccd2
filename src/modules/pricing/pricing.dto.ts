import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { AmountField, BoolField, BoolQuery, EnumField, EnumQuery, Given, IntField, MaxDecimals, NestedList, PartialInput, TextField, UuidField } from '../../common/validation/fields';
import { POLICY_CATEGORIES, PaymentTerm, Policy, PricingProfile, PricingProfileItem, Tax, TAX_APPLIES_TO } from './pricing.entity';

const iso = (d: Date) => d.toISOString();

// ---- Taxes -------------------------------------------------------------------------------------

export class CreateTaxDto {
  @TextField({ example: 'State sales tax' }) name: string;
  @IntField({ max: 100000, example: 825, description: 'Basis points (825 = 8.25 %).' }) rate_bps: number;
  @EnumField(TAX_APPLIES_TO, { optional: true, description: 'Default `all`.' }) applies_to?: (typeof TAX_APPLIES_TO)[number];
  @BoolField({ optional: true, description: 'The company\'s default tax (setting it clears the previous default).' }) is_default?: boolean;
}
export class UpdateTaxDto extends PartialInput(CreateTaxDto) {}

export class TaxQuery extends PageQuery {
  @EnumQuery(TAX_APPLIES_TO) applies_to?: string;
}

export class TaxDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 825 }) rate_bps: number;
  @ApiProperty({ enum: TAX_APPLIES_TO }) applies_to: string;
  @ApiProperty() is_default: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(t: Tax): TaxDto {
    return { id: t.id, name: t.name, rate_bps: t.rateBps, applies_to: t.appliesTo, is_default: t.isDefault, created_at: iso(t.createdAt), updated_at: iso(t.updatedAt) };
  }
}

// ---- Payment terms -----------------------------------------------------------------------------

export class CreatePaymentTermDto {
  @TextField({ example: 'Net 30' }) name: string;
  @IntField({ max: 3650, example: 30, description: 'Days after the invoice date; 0 = due on receipt.' }) due_days: number;
  @BoolField({ optional: true, description: 'The company\'s default term (setting it clears the previous default).' }) is_default?: boolean;
}
export class UpdatePaymentTermDto extends PartialInput(CreatePaymentTermDto) {}

export class PaymentTermQuery extends PageQuery {}

export class PaymentTermDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 30 }) due_days: number;
  @ApiProperty() is_default: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(p: PaymentTerm): PaymentTermDto {
    return { id: p.id, name: p.name, due_days: p.dueDays, is_default: p.isDefault, created_at: iso(p.createdAt), updated_at: iso(p.updatedAt) };
  }
}

// ---- Policies ----------------------------------------------------------------------------------

export class CreatePolicyDto {
  @TextField({ example: 'Overfilled container' }) name: string;
  @EnumField(POLICY_CATEGORIES) category: (typeof POLICY_CATEGORIES)[number];
  @IntField({ optional: true, max: 1000, example: 2 }) demerit_points?: number;
  @AmountField({ optional: true, example: 5000 }) fee_amount?: number;
  @TextField({ nullable: true, max: 2000 }) description?: string | null;
  @BoolField({ optional: true, description: 'Default true.' }) active?: boolean;
}
export class UpdatePolicyDto extends PartialInput(CreatePolicyDto) {}

export class PolicyQuery extends PageQuery {
  @EnumQuery(POLICY_CATEGORIES) category?: string;
  @BoolQuery() active?: boolean;
}

export class PolicyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: POLICY_CATEGORIES }) category: string;
  @ApiProperty() demerit_points: number;
  @ApiProperty({ description: 'Minor units.' }) fee_amount: number;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(p: Policy): PolicyDto {
    return {
      id: p.id,
      name: p.name,
      category: p.category,
      demerit_points: p.demeritPoints,
      fee_amount: p.feeAmount,
      description: p.description,
      active: p.active,
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
    };
  }
}

// ---- Pricing profiles --------------------------------------------------------------------------

export class PricingItemInput {
  @UuidField() asset_specification_id: string;
  @UuidField({ nullable: true, description: 'A price for this waste type only; null or absent = any waste type.' }) waste_type_id?: string | null;
  @AmountField({ example: 39900 }) base_price_amount: number;
  @IntField({ optional: true, max: 3650, example: 7 }) included_days?: number;
  @IntField({ optional: true, example: 2000 }) included_weight_kg?: number;
  @AmountField({ optional: true }) extra_day_amount?: number;
  @AmountField({ optional: true, description: 'Per tonne over the included weight, prorated per kg.' }) overage_per_tonne_amount?: number;
  @AmountField({ optional: true }) swap_fee_amount?: number;
  @AmountField({ optional: true }) dump_return_fee_amount?: number;
  @AmountField({ optional: true }) relocation_fee_amount?: number;
  @AmountField({ optional: true }) wasted_trip_fee_amount?: number;
}

export class CreatePricingProfileDto {
  @TextField({ example: 'Contractors 2027' }) name: string;
  @TextField({ nullable: true, max: 2000 }) description?: string | null;
  @BoolField({ optional: true, description: 'The company\'s default price book (setting it clears the previous default).' }) is_default?: boolean;
  @ApiPropertyOptional({ example: 15, description: 'Kilometres from the lot delivered free (up to 2 decimals).' })
  @Given()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @MaxDecimals(2)
  @Min(0)
  @Max(100000)
  delivery_free_radius_km?: number;
  @AmountField({ optional: true, example: 250, description: 'Per km beyond the free radius, minor units.' }) delivery_price_per_km_amount?: number;
  @ApiPropertyOptional({ type: [PricingItemInput], description: 'The whole item set; on PUT it replaces the current items.' })
  @IsOptional()
  @NestedList(() => PricingItemInput, { max: 1000 })
  items?: PricingItemInput[];
}
export class UpdatePricingProfileDto extends PartialInput(CreatePricingProfileDto) {}

export class PricingProfileQuery extends PageQuery {
  @BoolQuery() is_default?: boolean;
}

export class PricingItemDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) waste_type_id: string | null;
  @ApiProperty() base_price_amount: number;
  @ApiProperty() included_days: number;
  @ApiProperty() included_weight_kg: number;
  @ApiProperty() extra_day_amount: number;
  @ApiProperty() overage_per_tonne_amount: number;
  @ApiProperty() swap_fee_amount: number;
  @ApiProperty() dump_return_fee_amount: number;
  @ApiProperty() relocation_fee_amount: number;
  @ApiProperty() wasted_trip_fee_amount: number;

  static of(i: PricingProfileItem): PricingItemDto {
    return {
      id: i.id,
      asset_specification_id: i.assetSpecificationId,
      waste_type_id: i.wasteTypeId,
      base_price_amount: i.basePriceAmount,
      included_days: i.includedDays,
      included_weight_kg: i.includedWeightKg,
      extra_day_amount: i.extraDayAmount,
      overage_per_tonne_amount: i.overagePerTonneAmount,
      swap_fee_amount: i.swapFeeAmount,
      dump_return_fee_amount: i.dumpReturnFeeAmount,
      relocation_fee_amount: i.relocationFeeAmount,
      wasted_trip_fee_amount: i.wastedTripFeeAmount,
    };
  }
}

export class PricingProfileDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() is_default: boolean;
  @ApiProperty({ example: 15 }) delivery_free_radius_km: number;
  @ApiProperty({ example: 250 }) delivery_price_per_km_amount: number;
  @ApiProperty({ type: [PricingItemDto] }) items: PricingItemDto[];
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(p: PricingProfile, items: PricingProfileItem[] = p.items ?? []): PricingProfileDto {
    return {
      id: p.id,
      name: p.name,
      description: p.description,
      is_default: p.isDefault,
      delivery_free_radius_km: Number(p.deliveryFreeRadiusKm),
      delivery_price_per_km_amount: p.deliveryPricePerKmAmount,
      items: items.map(PricingItemDto.of),
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
    };
  }
}
