import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError, FieldErrors } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { AssetSpecification } from '../catalogue/catalogue.entities';
import { CompanyRecords, defined } from '../../common/records/company-records';
import { SpecificationLinks } from '../catalogue/specification-links';
import { Promotion } from './promotion.entity';
import { CreatePromotionDto, PromotionDto, PromotionQuery, PromotionSpecificationDto, PromotionSpecificationQuery, UpdatePromotionDto } from './promotions.dto';

const LINKS = new SpecificationLinks('promotion_asset_specifications', 'promotion_id');

@Injectable()
export class PromotionsService {
  private readonly records: CompanyRecords<Promotion>;
  constructor(private readonly ds: DataSource) {
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
    const [live] = await this.ds.query(
      `SELECT p.id FROM promotions p JOIN companies c ON c.id = p.company_id
        WHERE p.id = $1 AND p.company_id = $2 AND p.active AND p.deleted_at IS NULL
          AND (p.valid_from IS NULL OR p.valid_from <= (now() AT TIME ZONE c.timezone)::date)
          AND (p.valid_to IS NULL OR p.valid_to >= (now() AT TIME ZONE c.timezone)::date)`,
      [id, companyId],
    );
    if (!live) throw ApiError.notFound('Promotion');
    const qb = this.ds
      .getRepository(AssetSpecification)
      .createQueryBuilder('s')
      .where('s.companyId = :companyId AND s.active = true', { companyId })
      .andWhere(
        `(NOT EXISTS (SELECT 1 FROM promotion_asset_specifications l WHERE l.promotion_id = :id)
          OR EXISTS (SELECT 1 FROM promotion_asset_specifications l WHERE l.promotion_id = :id AND l.asset_specification_id = s.id))`,
        { id },
      );
    if (q.q) qb.andWhere('s.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 's.createdAt', name: 's.name', size: 's.size' }, defaultSort: 'name', map: PromotionSpecificationDto.of });
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
