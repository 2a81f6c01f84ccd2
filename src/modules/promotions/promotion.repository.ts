import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { Promotion } from './promotion.entity';
import type { PromotionQuery } from './promotions.dto';

/** The company scope the statement snapshots run with (test/database/sql-snapshots.spec.ts). */
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** The `promotions` table and its link table `promotion_asset_specifications`: the module's only SQL (docs/data-layer.md). */
@Injectable()
export class PromotionRepository extends ModuleRepository {
  private readonly records: CompanyRecords<Promotion>;

  constructor(uow: UnitOfWork) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: Promotion,
      what: 'Promotion',
      event: 'promotion',
      nullable: ['validFrom', 'validTo', 'maxRedemptions', 'maxRedemptionsPerCustomer'],
      unique: [{ property: 'code', index: 'uq_promotions_code', code: 'DUPLICATE_CODE', message: 'A promotion with this code already exists.' }],
    });
  }

  /** A page of the scope's live promotions (filters: active, q on code/name). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { active: true, q: 'spring', sort: 'code', page: 2, per_page: 10 }] })
  list(scope: Scope, q: PromotionQuery): Promise<Page<Promotion>> {
    const qb = scopedQuery(this.m, Promotion, scope, 'p');
    if (q.active !== undefined) qb.andWhere('p.active = :active', { active: q.active });
    if (q.q) qb.andWhere('(p.code ILIKE :q OR p.name ILIKE :q)', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'p.createdAt', code: 'p.code', name: 'p.name', valid_from: 'p.validFrom', valid_to: 'p.validTo' } });
  }

  /** A live promotion the scope reaches, else 404. */
  find(scope: Scope, id: string): Promise<Promotion> {
    return this.records.find(scope.companyId, id, this.m);
  }

  /** A live promotion the scope reaches, locked (FOR UPDATE) for the rest of the unit; else 404. */
  lock(scope: Scope, id: string): Promise<Promotion> {
    return this.records.find(scope.companyId, id, this.locked, true);
  }

  /** A live promotion by code (case-insensitive), locked (FOR UPDATE) for the rest of the unit; null when none. */
  @GenerateSql({ params: [SAMPLE_SCOPE, 'SPRING10'] })
  lockByCode(scope: Scope, code: string): Promise<Promotion | null> {
    return scopedQuery(this.locked, Promotion, scope, 'p').andWhere('lower(p.code) = lower(:code)', { code }).setLock('pessimistic_write').getOne();
  }

  /** An active promotion valid on `today` (YYYY-MM-DD), or null. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date] })
  findLive(scope: Scope, id: string, today: string): Promise<Promotion | null> {
    return scopedQuery(this.m, Promotion, scope, 'p')
      .andWhere('p.id = :id AND p.active', { id })
      .andWhere('(p.validFrom IS NULL OR p.validFrom <= :today) AND (p.validTo IS NULL OR p.validTo >= :today)', { today })
      .getOne();
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, { code: 'SPRING10', name: 'Spring', discountType: 'percent', discountValue: 1000 }, {}] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<Promotion>, hooks: WriteHooks<Promotion, null>): Promise<Promotion> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { code: 'SPRING10', name: 'Spring', discountType: 'percent', discountValue: 1000 }, {}] })
  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<Promotion>, hooks: WriteHooks<Promotion, Promotion>): Promise<Promotion> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** The linked specification ids of each promotion, in id order (one statement for a whole page). */
  async specificationIds(promotionIds: string[]): Promise<Map<string, string[]>> {
    const ids = new Map<string, string[]>(promotionIds.map((id) => [id, []]));
    if (!promotionIds.length) return ids;
    const rows = await this.sql<{ owner: string; spec: string }>(
      'SELECT promotion_id AS owner, asset_specification_id AS spec FROM promotion_asset_specifications WHERE promotion_id = ANY($1::uuid[]) ORDER BY asset_specification_id',
      [promotionIds],
    );
    for (const r of rows) ids.get(r.owner)?.push(r.spec);
    return ids;
  }

  /** Replaces a promotion's linked specifications (the caller checked them and holds the promotion's row lock). */
  async replaceSpecifications(promotionId: string, specIds: string[]): Promise<void> {
    await this.locked.query('DELETE FROM promotion_asset_specifications WHERE promotion_id = $1', [promotionId]);
    if (specIds.length) await this.locked.query('INSERT INTO promotion_asset_specifications (promotion_id, asset_specification_id) SELECT $1, unnest($2::uuid[])', [promotionId, specIds]);
  }
}
