import { Injectable, type Type } from '@nestjs/common';
import { In, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords, type CompanyRecordsOptions, type CompanyRow, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { jsonValue } from '../../database/json-value';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { PaymentTermQuery, PolicyQuery, PricingProfileQuery, TaxQuery } from './pricing.dto';
import { PaymentTerm, Policy, PricingProfile, PricingProfileItem, Tax } from './pricing.entity';

/** A price-book row as other modules' documents freeze it (see pricing-catalog.ts). */
export interface PlacementRows {
  profiles: PricingProfile[];
  /** The company's default taxes (`FrozenTax` shape) and default payment term, as JSON of the first row; undefined without a row. */
  defaults?: { default_taxes: unknown; default_term: unknown };
}

/**
 * One company-owned price-book table through the one persistence base for company records
 * (`CompanyRecords`: tenancy, the single default, IN_USE, events), plus its list.
 */
abstract class PriceBookRepository<E extends CompanyRow> extends ModuleRepository {
  private readonly records: CompanyRecords<E>;

  protected constructor(
    uow: UnitOfWork,
    private readonly entity: Type<E>,
    options: Omit<CompanyRecordsOptions<E>, 'entity'>,
  ) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, { entity, ...options });
  }

  /** The scope's live row, else 404. */
  find(scope: Scope, id: string): Promise<E> {
    return this.records.find(scope.companyId, id, this.m);
  }

  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<E>, hooks?: WriteHooks<E, null>): Promise<E> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<E>, hooks?: WriteHooks<E, E>): Promise<E> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  /** Soft delete (409 IN_USE where the table says so). */
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** The scope's live rows, for a list. */
  protected query(scope: Scope, alias: string): SelectQueryBuilder<E> {
    return scopedQuery(this.m, this.entity, scope, alias);
  }
}

@Injectable()
export class TaxRepository extends PriceBookRepository<Tax> {
  constructor(uow: UnitOfWork) {
    super(uow, Tax, { what: 'Tax', event: 'tax', singleDefault: true });
  }

  page(scope: Scope, q: TaxQuery): Promise<Page<Tax>> {
    const qb = this.query(scope, 't');
    if (q.applies_to) qb.andWhere('t.appliesTo = :appliesTo', { appliesTo: q.applies_to });
    if (q.q) qb.andWhere('t.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 't.createdAt', name: 't.name', rate_bps: 't.rateBps' } });
  }
}

@Injectable()
export class PaymentTermRepository extends PriceBookRepository<PaymentTerm> {
  constructor(uow: UnitOfWork) {
    super(uow, PaymentTerm, { what: 'Payment term', event: 'payment_term', singleDefault: true });
  }

  page(scope: Scope, q: PaymentTermQuery): Promise<Page<PaymentTerm>> {
    const qb = this.query(scope, 'p');
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name', due_days: 'p.dueDays' } });
  }
}

@Injectable()
export class PolicyRepository extends PriceBookRepository<Policy> {
  constructor(uow: UnitOfWork) {
    super(uow, Policy, { what: 'Policy', event: 'policy', nullable: ['description'] });
  }

  page(scope: Scope, q: PolicyQuery): Promise<Page<Policy>> {
    const qb = this.query(scope, 'p');
    if (q.category) qb.andWhere('p.category = :category', { category: q.category });
    if (q.active !== undefined) qb.andWhere('p.active = :active', { active: q.active });
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name', demerit_points: 'p.demeritPoints', fee_amount: 'p.feeAmount' } });
  }

  /** The scope's company's live policies among `ids`, share-locked until the unit's commit. One statement. */
  lockAmong(scope: Scope, ids: readonly string[]): Promise<Policy[]> {
    return this.locked
      .createQueryBuilder(Policy, 'p')
      .where('p.companyId = :companyId AND p.id IN (:...ids)', { companyId: scope.companyId, ids: [...ids] })
      .setLock('pessimistic_read')
      .getMany();
  }
}

@Injectable()
export class PricingProfileRepository extends PriceBookRepository<PricingProfile> {
  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow, PricingProfile, {
      what: 'Pricing profile',
      event: 'pricing_profile',
      singleDefault: true,
      nullable: ['description'],
      // While a customer is assigned the profile (customers register that check).
      inUse: (m, row) => inUse.isUsed(m, 'pricing_profile', row.id),
    });
  }

  page(scope: Scope, q: PricingProfileQuery): Promise<Page<PricingProfile>> {
    const qb = this.query(scope, 'p');
    if (q.is_default !== undefined) qb.andWhere('p.isDefault = :d', { d: q.is_default });
    if (q.q) qb.andWhere('p.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', name: 'p.name' } });
  }

  /** Whether the id is a live pricing profile of the scope's company. */
  isLive(scope: Scope, id: string): Promise<boolean> {
    return this.m.existsBy(PricingProfile, { id, companyId: scope.companyId });
  }

  /** The items of the scope's company's profiles, in position order. */
  itemsOf(scope: Scope, profileIds: readonly string[]): Promise<PricingProfileItem[]> {
    if (!profileIds.length) return Promise.resolve([]);
    return this.m.getRepository(PricingProfileItem).find({ where: { companyId: scope.companyId, pricingProfileId: In([...profileIds]) }, order: { position: 'ASC', id: 'ASC' } });
  }

  /** Replaces the items of the scope's company's profile (inside the profile's write unit). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, [{ name: 'Delivery', kind: 'fee', amount: 5000, position: 0 }]] })
  async replaceItems(scope: Scope, profileId: string, items: readonly Omit<PricingProfileItem, 'id' | 'createdAt' | 'updatedAt' | 'companyId' | 'pricingProfileId' | 'pricingProfile'>[]): Promise<void> {
    const m = this.locked;
    await m.delete(PricingProfileItem, { companyId: scope.companyId, pricingProfileId: profileId });
    if (!items.length) return;
    await m.insert(PricingProfileItem, items.map((it) => ({ ...it, companyId: scope.companyId, pricingProfileId: profileId })));
  }

  /**
   * What pricing an order needs from the price book, in one statement: the scope's assigned profile
   * and the default one with their items, the company's default taxes and default payment term.
   */
  async placementRows(scope: Scope, assignedProfileId: string | null): Promise<PlacementRows> {
    // Placement's: prepared (planned once per connection).
    const { entities, raw } = await this.hot('pricing_placement', this.m.getRepository(PricingProfile).createQueryBuilder('p'))
      .leftJoinAndSelect('p.items', 'i')
      .addSelect(
        `(SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'rate_bps', t.rate_bps, 'applies_to', t.applies_to) ORDER BY t.name, t.id), '[]'::json)
            FROM taxes t WHERE t.company_id = p.company_id AND t.is_default AND t.deleted_at IS NULL)`,
        'default_taxes',
      )
      .addSelect(
        `(SELECT json_build_object('id', pt.id, 'due_days', pt.due_days) FROM payment_terms pt
           WHERE pt.company_id = p.company_id AND pt.is_default AND pt.deleted_at IS NULL ORDER BY pt.created_at LIMIT 1)`,
        'default_term',
      )
      .where('p.companyId = :companyId', { companyId: scope.companyId })
      .andWhere(assignedProfileId ? '(p.id = :assigned OR p.isDefault)' : 'p.isDefault', { assigned: assignedProfileId })
      .orderBy('i.position', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .getRawAndEntities();
    return { profiles: entities, defaults: raw[0] ? { default_taxes: jsonValue(raw[0].default_taxes), default_term: jsonValue(raw[0].default_term) } : undefined };
  }
}
