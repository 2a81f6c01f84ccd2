import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import type { BodyRef } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { AssetCategory, AssetStyle } from './catalogue.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };

/** Which of the two named tables: `asset_categories` or `asset_styles`. */
export type NamedKind = 'category' | 'style';
export type NamedRow = AssetCategory | AssetStyle;

/**
 * The `asset_categories` and `asset_styles` tables (a name, unique per company, and a description):
 * the company's records (tenancy, IN_USE while a live specification names the row, events). Runs in the
 * open unit of work.
 */
@Injectable()
export class AssetCategoryStyleRepository extends ModuleRepository {
  private readonly records: Record<NamedKind, CompanyRecords<NamedRow>>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    const records = <E extends NamedRow>(entity: new () => E, what: string, event: 'asset_category' | 'asset_style', index: string, specColumn: string) =>
      new CompanyRecords<E>(uow.ds, {
        entity,
        what,
        event,
        nullable: ['description'],
        unique: [{ property: 'name', index, code: 'DUPLICATE_NAME', message: `${what} with this name already exists.` }],
        // A live specification of this category (style), or what other modules register.
        inUse: async (m, row) =>
          !!(await m.query<{ '?column?': number }[]>(`SELECT 1 FROM asset_specifications WHERE ${specColumn} = $1 AND deleted_at IS NULL LIMIT 1`, [row.id]))[0] || (await inUse.isUsed(m, event, row.id)),
      }) as unknown as CompanyRecords<NamedRow>;
    this.records = {
      category: records(AssetCategory, 'Asset category', 'asset_category', 'uq_asset_categories_company_name', 'asset_category_id'),
      style: records(AssetStyle, 'Asset style', 'asset_style', 'uq_asset_styles_company_name', 'asset_style_id'),
    };
  }

  /** A page of the company's live rows (`q` on the name). */
  @GenerateSql({ name: 'categories', params: ['category', SAMPLE_SCOPE, { q: 'roll', sort: 'name' }] }, { name: 'styles', params: ['style', SAMPLE_SCOPE, {}] })
  page(kind: NamedKind, scope: Scope, query: PageQuery): Promise<Page<NamedRow>> {
    const qb = this.records[kind].query(scope.companyId, 'e', this.m);
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name' } });
  }

  /** A live row of the company, else 404. */
  @GenerateSql({ name: 'category', params: ['category', SAMPLE_SCOPE, SQL_SAMPLE.id] }, { name: 'style', params: ['style', SAMPLE_SCOPE, SQL_SAMPLE.id] })
  find(kind: NamedKind, scope: Scope, id: string): Promise<NamedRow> {
    return this.records[kind].find(scope.companyId, id, this.m);
  }

  @GenerateSql({ params: ['category', SAMPLE_ACTOR, SAMPLE_SCOPE, { name: 'Roll-off', description: null }] })
  create(kind: NamedKind, actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<NamedRow>): Promise<NamedRow> {
    return this.records[kind].create(actor, scope.companyId, values);
  }

  @GenerateSql({ params: ['style', SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, { name: 'Open top' }] })
  update(kind: NamedKind, actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<NamedRow>): Promise<NamedRow> {
    return this.records[kind].update(actor, scope.companyId, id, values);
  }

  @GenerateSql({ params: ['category', SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(kind: NamedKind, actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records[kind].remove(actor, scope.companyId, id);
  }

  /** Body references must be the company's live rows (share-locked until the commit): 422 `not found` on their fields otherwise. */
  @GenerateSql({ params: ['style', SAMPLE_SCOPE, [{ field: 'asset_style_id', id: SQL_SAMPLE.id }]] })
  assertOwned(kind: NamedKind, scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records[kind].assertOwned(this.m, scope.companyId, refs);
  }
}
