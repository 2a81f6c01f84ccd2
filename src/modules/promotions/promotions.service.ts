import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import type { Actor } from '../../common/access/actor';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { AssetSpecificationsService, CustomerCatalogueService } from '../catalogue';
import { CompaniesService } from '../companies';
import { todayIn } from '../../common/dates';
import { defined } from '../../common/records/company-records';
import { UnitOfWork } from '../../database/unit-of-work';
import { DiscountType, Promotion } from './promotion.entity';
import { PromotionRepository } from './promotion.repository';

/** A promotion as an order redeems it (the pricing engine's terms, without redemption counts). */
export interface RedeemablePromotion {
  id: string;
  code: string;
  discount_type: DiscountType;
  discount_value: number;
  valid_from: string | null;
  valid_to: string | null;
  max_redemptions: number | null;
  max_redemptions_per_customer: number | null;
  min_subtotal_amount: number;
  active: boolean;
  /** Specifications it applies to; empty = all. */
  asset_specification_ids: string[];
}
import { CreatePromotionDto, PromotionDto, PromotionQuery, PromotionSpecificationDto, PromotionSpecificationQuery, UpdatePromotionDto } from './promotions.dto';

@Injectable()
export class PromotionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly promotions: PromotionRepository,
    private readonly companies: CompaniesService,
    private readonly catalogue: CustomerCatalogueService,
    private readonly specifications: AssetSpecificationsService,
  ) {}

  async list(scope: Scope, q: PromotionQuery): Promise<Page<PromotionDto>> {
    const page = await this.promotions.list(scope, q);
    return new Page(await this.render(page.items), page.meta);
  }

  /**
   * A live promotion by code (case-insensitive) as an order redeems it, locked for the rest of the
   * caller's unit of work so that two placements cannot both take its last redemption; null when no
   * live promotion has that code. Redemption counts are the orders module's to add.
   */
  async lockByCode(scope: Scope, code: string): Promise<RedeemablePromotion | null> {
    const p = await this.promotions.lockByCode(scope, code);
    if (!p) return null;
    const specIds = (await this.promotions.specificationIds([p.id])).get(p.id)!;
    return {
      id: p.id,
      code: p.code,
      discount_type: p.discountType,
      discount_value: p.discountValue,
      valid_from: p.validFrom,
      valid_to: p.validTo,
      max_redemptions: p.maxRedemptions,
      max_redemptions_per_customer: p.maxRedemptionsPerCustomer,
      min_subtotal_amount: p.minSubtotalAmount,
      active: p.active,
      asset_specification_ids: specIds,
    };
  }

  async get(scope: Scope, id: string): Promise<PromotionDto> {
    const [dto] = await this.render([await this.promotions.find(scope, id)]);
    return dto;
  }

  async create(actor: Actor, scope: Scope, d: CreatePromotionDto): Promise<PromotionDto> {
    const values = fields(d);
    checkRules({ discountType: d.discount_type, discountValue: d.discount_value, validFrom: d.valid_from ?? null, validTo: d.valid_to ?? null });
    const p = await this.promotions.create(actor, scope, values, { after: (_m, row) => this.replaceLinks(scope, row.id, d.asset_specification_ids ?? []) });
    return this.get(scope, p.id);
  }

  async update(actor: Actor, scope: Scope, id: string, d: UpdatePromotionDto): Promise<PromotionDto> {
    const values = fields(d);
    await this.promotions.update(actor, scope, id, values, {
      before: (_m, current) => checkRules({ ...current, ...defined(values) }), // new values against the stored type and dates
      after: async (_m, row) => {
        if (d.asset_specification_ids) await this.replaceLinks(scope, row.id, d.asset_specification_ids);
      },
    });
    return this.get(scope, id);
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.promotions.remove(actor, scope, id);
  }

  /**
   * Replaces the specifications a promotion applies to (the link table `promotion_asset_specifications`
   * is this module's): the ids must be the company's live specifications (422 on
   * `asset_specification_ids.<i>`); a promotion the scope does not reach is 404 (it is locked until
   * the commit). In the caller's unit of work (one is opened when none is).
   */
  linkSpecifications(scope: Scope, promotionId: string, specIds: string[]): Promise<void> {
    return this.uow.transaction(async () => {
      await this.promotions.lock(scope, promotionId);
      await this.replaceLinks(scope, promotionId, specIds);
    });
  }

  /** `linkSpecifications` inside the open unit of work (the write of a promotion). */
  private async replaceLinks(scope: Scope, promotionId: string, specIds: string[]): Promise<void> {
    // catalogue's check still takes a manager: the unit's
    await this.specifications.assertOwned(scope, specIds.map((id, i) => ({ field: `asset_specification_ids.${i}`, id })));
    await this.promotions.replaceSpecifications(promotionId, specIds);
  }

  /**
   * A customer's view: the active specifications a live promotion applies to (its linked ones, or all
   * when none are linked). An inactive, expired, not yet valid or another company's promotion is 404.
   */
  async specificationsForCustomer(scope: Scope, id: string, q: PromotionSpecificationQuery): Promise<Page<PromotionSpecificationDto>> {
    const today = todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
    const live = await this.promotions.findLive(scope, id, today);
    if (!live) throw ApiError.notFound('Promotion');
    const specIds = (await this.promotions.specificationIds([live.id])).get(live.id)!;
    return this.catalogue.pageOfActive(scope, q, specIds.length ? specIds : null, PromotionSpecificationDto.of);
  }

  /** Promotions with their linked specification ids (one statement for the whole page). */
  private async render(rows: Promotion[]): Promise<PromotionDto[]> {
    const specIds = await this.promotions.specificationIds(rows.map((p) => p.id));
    return rows.map((p) => PromotionDto.of(p, specIds.get(p.id)!));
  }
}

/** Cross-field rules: a percent is at most 100 % (10000 bps); valid_to is not before valid_from. */
function checkRules(p: Pick<Promotion, 'discountType' | 'discountValue' | 'validFrom' | 'validTo'>): void {
  const errors: FieldErrors = {};
  if (p.discountType === 'percent' && p.discountValue > 10000) errors.discount_value = ['must not exceed 10000 basis points (100 %) for a percent discount'];
  if (p.validFrom && p.validTo && p.validTo < p.validFrom) errors.valid_to = ['must not be before valid_from'];
  if (Object.keys(errors).length) throw ApiError.validation(errors);
}

const fields = (d: UpdatePromotionDto): Partial<Promotion> => ({
  code: d.code,
  name: d.name,
  discountType: d.discount_type,
  discountValue: d.discount_value,
  validFrom: d.valid_from,
  validTo: d.valid_to,
  maxRedemptions: d.max_redemptions,
  maxRedemptionsPerCustomer: d.max_redemptions_per_customer,
  minSubtotalAmount: d.min_subtotal_amount,
  active: d.active,
});
