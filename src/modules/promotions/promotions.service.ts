import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import type { Actor } from '../../common/access/actor';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CustomerCatalogueService } from '../catalogue';
import { CompaniesService } from '../companies';
import { todayIn } from '../../common/dates';
import { CompanyRecords, defined } from '../../common/records/company-records';
import { SpecificationLinks } from '../catalogue';
import { DiscountType, Promotion } from './promotion.entity';

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

const LINKS = new SpecificationLinks('promotion_asset_specifications', 'promotion_id');

@Injectable()
export class PromotionsService {
  private readonly records: CompanyRecords<Promotion>;
  constructor(
    private readonly ds: DataSource,
    private readonly companies: CompaniesService,
    private readonly catalogue: CustomerCatalogueService,
  ) {
    this.records = new CompanyRecords(ds, {
      entity: Promotion,
      what: 'Promotion',
      event: 'promotion',
      nullable: ['validFrom', 'validTo', 'maxRedemptions', 'maxRedemptionsPerCustomer'],
      unique: [{ property: 'code', index: 'uq_promotions_code', code: 'DUPLICATE_CODE', message: 'A promotion with this code already exists.' }],
    });
  }

  async list(companyId: string, q: PromotionQuery): Promise<Page<PromotionDto>> {
    const qb = this.records.query(companyId, 'p');
    if (q.active !== undefined) qb.andWhere('p.active = :active', { active: q.active });
    if (q.q) qb.andWhere('(p.code ILIKE :q OR p.name ILIKE :q)', { q: likePattern(q.q) });
    const page = await paginate(qb, q, { sortable: { created_at: 'p.createdAt', code: 'p.code', name: 'p.name', valid_from: 'p.validFrom', valid_to: 'p.validTo' } });
    return new Page(await LINKS.render(this.ds.manager, page.items, PromotionDto.of), page.meta);
  }

  /**
   * A live promotion by code (case-insensitive) as an order redeems it, locked for the rest of the
   * caller's transaction so that two placements cannot both take its last redemption; null when no
   * live promotion has that code. Redemption counts are the orders module's to add.
   */
  async lockByCode(m: EntityManager, companyId: string, code: string): Promise<RedeemablePromotion | null> {
    const p = await scopedQuery(m, Promotion, Scope.company(companyId), 'p').andWhere('lower(p.code) = lower(:code)', { code }).setLock('pessimistic_write').getOne();
    if (!p) return null;
    const [withLinks] = await LINKS.render(m, [p], (row, specIds) => ({ row, specIds }));
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
      asset_specification_ids: withLinks.specIds,
    };
  }

  async get(companyId: string, id: string): Promise<PromotionDto> {
    const [dto] = await LINKS.render(this.ds.manager, [await this.records.find(companyId, id)], PromotionDto.of);
    return dto;
  }

  async create(actor: Actor, companyId: string, d: CreatePromotionDto): Promise<PromotionDto> {
    const values = fields(d);
    checkRules({ discountType: d.discount_type, discountValue: d.discount_value, validFrom: d.valid_from ?? null, validTo: d.valid_to ?? null });
    const p = await this.records.create(actor, companyId, values, { after: (m, row) => LINKS.replace(m, row, d.asset_specification_ids ?? []) });
    return this.get(companyId, p.id);
  }

  async update(actor: Actor, companyId: string, id: string, d: UpdatePromotionDto): Promise<PromotionDto> {
    const values = fields(d);
    await this.records.update(actor, companyId, id, values, {
      before: (_m, current) => checkRules({ ...current, ...defined(values) }), // new values against the stored type and dates
      after: async (m, row) => {
        if (d.asset_specification_ids) await LINKS.replace(m, row, d.asset_specification_ids);
      },
    });
    return this.get(companyId, id);
  }

  remove(actor: Actor, companyId: string, id: string): Promise<void> {
    return this.records.remove(actor, companyId, id);
  }

  /**
   * A customer's view: the active specifications a live promotion applies to (its linked ones, or all
   * when none are linked). An inactive, expired, not yet valid or another company's promotion is 404.
   */
  async specificationsForCustomer(companyId: string, id: string, q: PromotionSpecificationQuery): Promise<Page<PromotionSpecificationDto>> {
    const today = todayIn(await this.companies.timezone(companyId));
    const live = await scopedQuery(this.ds.manager, Promotion, Scope.company(companyId), 'p')
      .andWhere('p.id = :id AND p.active', { id })
      .andWhere('(p.validFrom IS NULL OR p.validFrom <= :today) AND (p.validTo IS NULL OR p.validTo >= :today)', { today })
      .getOne();
    if (!live) throw ApiError.notFound('Promotion');
    const [{ specIds }] = await LINKS.render(this.ds.manager, [live], (_p, specIds) => ({ specIds }));
    return this.catalogue.pageOfActive(companyId, q, specIds.length ? specIds : null, PromotionSpecificationDto.of);
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
