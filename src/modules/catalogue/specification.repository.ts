import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { assertReachable, findScoped, PlatformReach, scopedQuery, type BodyRef } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { likePattern, paginate, type PageQuery } from '../../common/http/pagination';
import type { EventNamed, EventPayload, EventVerb } from '../../common/outbox/event-catalogue';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import { UnitOfWork } from '../../database/unit-of-work';
import { Asset, AssetCategory, AssetSpecification, AssetSpecificationWasteType, AssetStyle, WasteType } from './catalogue.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);
const SAMPLE_ACTOR = { id: SQL_SAMPLE.actorId };
const SAMPLE_SPEC = { name: '20 yd roll-off', assetCategoryId: SQL_SAMPLE.otherId, size: 20, sizeUnit: 'yd3' } as const;

/** A specification's allowed waste type with the waste type's row. */
export type LinkWithType = AssetSpecificationWasteType & { wasteType: WasteType };

/** The filters of the company's and the administrators' specification lists. */
export interface SpecificationFilters extends PageQuery {
  active?: boolean;
  asset_category_id?: string;
  asset_style_id?: string;
}

/** The specification, waste type and their link an order names, as one statement reads them. */
export interface OrderableRow {
  spec_id: string;
  spec_name: string;
  waste_id: string | null;
  waste_name: string | null;
  link_id: string | null;
  price_override_amount: number | null;
}

/**
 * The `asset_specifications` table and its link table `asset_specification_waste_types` (the waste
 * types allowed in a specification): the company's records (tenancy, unique name, IN_USE on delete,
 * events), the customer's view of the active ones, what orders ask (orderable, names) and the check
 * other modules make before they write their own link tables. Runs in the open unit of work.
 */
@Injectable()
export class SpecificationRepository extends ModuleRepository {
  private readonly records: CompanyRecords<AssetSpecification, 'asset_specification'>;

  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow);
    this.records = new CompanyRecords(uow.ds, {
      entity: AssetSpecification,
      what: 'Asset specification',
      event: 'asset_specification',
      nullable: ['description', 'assetStyleId', 'lengthMm', 'widthMm', 'heightMm', 'maxWeightKg', 'includedWeightKg', 'includedDays', 'imageUrl', 'checkAvailability'],
      unique: [{ property: 'name', index: 'uq_asset_specifications_company_name', code: 'DUPLICATE_NAME', message: 'An asset specification with this name already exists.' }],
      // A live asset of this specification, or what other modules register (a running order).
      inUse: async (m, row) => (await m.existsBy(Asset, { assetSpecificationId: row.id })) || (await inUse.isUsed(m, 'asset_specification', row.id)),
    });
  }

  /** The references must be live specifications `scope` reaches, share-locked until the commit (422 on their fields otherwise). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'asset_specification_ids.0', id: SQL_SAMPLE.id }]] })
  assertReachable(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(this.locked, AssetSpecification, scope, refs);
  }

  // ------------------------------------------------------------ the company's records

  /** A page of the live specifications of the scope's company (or of those an administrator's `reach` covers). */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { active: true, asset_category_id: SQL_SAMPLE.id, asset_style_id: SQL_SAMPLE.otherId, q: 'roll', sort: 'size' }] })
  page(who: Scope | PlatformReach, query: SpecificationFilters): Promise<Page<AssetSpecification>> {
    const qb = this.records.query(who instanceof PlatformReach ? who : who.companyId, 'e', this.m);
    if (query.active !== undefined) qb.andWhere('e.active = :active', { active: query.active });
    if (query.asset_category_id) qb.andWhere('e.assetCategoryId = :cat', { cat: query.asset_category_id });
    if (query.asset_style_id) qb.andWhere('e.assetStyleId = :style', { style: query.asset_style_id });
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name', size: 'e.size' } });
  }

  /** The company of a live specification, or null. */
  companyOf(id: string): Promise<string | null> {
    return this.records.companyOf(id, this.m);
  }

  /** A live specification of the scope's company, else 404; `lock`: FOR UPDATE (inside a unit). */
  @GenerateSql({ name: 'read', params: [SAMPLE_SCOPE, SQL_SAMPLE.id] }, { name: 'locked', params: [SAMPLE_SCOPE, SQL_SAMPLE.id, true] })
  find(scope: Scope, id: string, lock = false): Promise<AssetSpecification> {
    return this.records.find(scope.companyId, id, lock ? this.locked : this.m, lock);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SAMPLE_SPEC, {}] })
  create(actor: Pick<Actor, 'id'>, scope: Scope, values: Partial<AssetSpecification>, hooks: WriteHooks<AssetSpecification, null>): Promise<AssetSpecification> {
    return this.records.create(actor, scope.companyId, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id, SAMPLE_SPEC, {}] })
  update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, values: Partial<AssetSpecification>, hooks: WriteHooks<AssetSpecification, AssetSpecification>): Promise<AssetSpecification> {
    return this.records.update(actor, scope.companyId, id, values, hooks);
  }

  @GenerateSql({ params: [SAMPLE_ACTOR, SAMPLE_SCOPE, SQL_SAMPLE.id] })
  remove(actor: Pick<Actor, 'id'>, scope: Scope, id: string): Promise<void> {
    return this.records.remove(actor, scope.companyId, id);
  }

  /** Body references must be the company's live specifications (share-locked until the commit): 422 `not found` on their fields otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'items.0.asset_specification_id', id: SQL_SAMPLE.id }]] })
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(this.m, scope.companyId, refs);
  }

  /** Records `asset_specification.<what>` about a specification, in the open unit. */
  @GenerateSql.skip("common's outbox insert (recordEventOf), snapshotted with common")
  recordEvent<V extends EventVerb<'asset_specification'>>(actor: Pick<Actor, 'id'>, row: { id: string; companyId: string }, what: V, payload: EventPayload<EventNamed<'asset_specification', V>>): Promise<void> {
    return this.records.recordEvent(this.m, actor, row, what, payload);
  }

  // ------------------------------------------------------------ allowed waste types (the link table)

  private linkQuery(scope: Scope, specId: string) {
    return scopedQuery(this.m, AssetSpecificationWasteType, Scope.company(scope.companyId), 'e')
      .innerJoinAndMapOne('e.wasteType', WasteType, 'w', 'w.id = e.wasteTypeId')
      .andWhere('e.assetSpecificationId = :specId', { specId });
  }

  /** A page of a specification's allowed waste types with their rows (`q` on the waste type's name or code). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { q: 'deb', sort: 'name' }] })
  linkPage(scope: Scope, specId: string, query: PageQuery): Promise<Page<LinkWithType>> {
    const qb = this.linkQuery(scope, specId);
    if (query.q) qb.andWhere('(w.name ILIKE :q OR w.code ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'w.name' } }) as Promise<Page<LinkWithType>>;
  }

  /** One allowed waste type of a specification with its row, or null. */
  async findLink(scope: Scope, specId: string, id: string): Promise<LinkWithType | null> {
    return (await this.linkQuery(scope, specId).andWhere('e.id = :id', { id }).getOne()) as LinkWithType | null;
  }

  /** One allowed waste type of a specification, locked (inside a unit); 404 otherwise. */
  lockLink(scope: Scope, specId: string, id: string): Promise<AssetSpecificationWasteType> {
    return findScoped(this.locked, AssetSpecificationWasteType, Scope.company(scope.companyId), id, { what: 'Specification waste type', where: { assetSpecificationId: specId }, lock: true });
  }

  /** Whether the waste type is already allowed in the specification (of the scope's company). */
  linkExists(scope: Scope, specId: string, wasteTypeId: string): Promise<boolean> {
    return this.m.getRepository(AssetSpecificationWasteType).exists({ where: { companyId: scope.companyId, assetSpecificationId: specId, wasteTypeId } });
  }

  /** A waste type allowed in a specification of the scope's company. */
  @GenerateSql({ params: [SAMPLE_SCOPE, { assetSpecificationId: SQL_SAMPLE.id, wasteTypeId: SQL_SAMPLE.otherId, priceOverrideAmount: null }] })
  insertLink(scope: Scope, values: Pick<AssetSpecificationWasteType, 'assetSpecificationId' | 'wasteTypeId' | 'priceOverrideAmount'>): Promise<AssetSpecificationWasteType> {
    return this.m.save(this.m.create(AssetSpecificationWasteType, { ...values, companyId: scope.companyId }));
  }

  /** Changes a link of the scope's company (locked by `lockLink` in the caller's unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { priceOverrideAmount: 4500, updatedAt: SQL_SAMPLE.at }] })
  async updateLink(scope: Scope, id: string, values: Partial<AssetSpecificationWasteType>): Promise<void> {
    await this.m.update(AssetSpecificationWasteType, { id, companyId: scope.companyId }, values);
  }

  /** Deletes a link of the scope's company (locked by `lockLink` in the caller's unit). */
  async deleteLink(scope: Scope, id: string): Promise<void> {
    await this.m.delete(AssetSpecificationWasteType, { id, companyId: scope.companyId });
  }

  // ------------------------------------------------------------ the customer's view and orders' reads

  private activeQuery(scope: Scope) {
    return scopedQuery(this.m, AssetSpecification, Scope.company(scope.companyId), 'e').andWhere('e.active = true');
  }

  /**
   * A page of the company's active specifications (only `ids` when given; `asset_category_id`, `q` on
   * the name); by `defaultSort` unless the query sorts.
   */
  @GenerateSql({ name: 'customer', params: [SAMPLE_SCOPE, { asset_category_id: SQL_SAMPLE.id, q: 'roll' }, null] }, { name: 'of ids, by name', params: [SAMPLE_SCOPE, {}, [SQL_SAMPLE.id], 'name'] })
  activePage(scope: Scope, query: PageQuery & { asset_category_id?: string }, ids: readonly string[] | null, defaultSort?: string): Promise<Page<AssetSpecification>> {
    const qb = this.activeQuery(scope);
    if (ids) qb.andWhere('e.id IN (:...ids)', { ids: ids.length ? [...ids] : ['00000000-0000-0000-0000-000000000000'] });
    if (query.asset_category_id) qb.andWhere('e.assetCategoryId = :cat', { cat: query.asset_category_id });
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name', size: 'e.size' }, ...(defaultSort ? { defaultSort } : {}) });
  }

  /** An active specification of the company, or null. */
  findActive(scope: Scope, id: string): Promise<AssetSpecification | null> {
    return this.activeQuery(scope).andWhere('e.id = :id', { id }).getOne();
  }

  /** The categories, styles and active allowed waste types of a page of specifications (three statements, at once outside a unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ id: SQL_SAMPLE.id, assetCategoryId: SQL_SAMPLE.otherId, assetStyleId: SQL_SAMPLE.otherId }]] })
  async expansions(scope: Scope, specs: readonly Pick<AssetSpecification, 'id' | 'assetCategoryId' | 'assetStyleId'>[]): Promise<{ categories: AssetCategory[]; styles: AssetStyle[]; links: LinkWithType[] }> {
    const companyId = scope.companyId;
    const ids = specs.map((s) => s.id);
    const reads = [
      () => this.m.getRepository(AssetCategory).find({ where: { companyId, id: In([...new Set(specs.map((s) => s.assetCategoryId))]) }, withDeleted: true }),
      () => this.m.getRepository(AssetStyle).find({ where: { companyId, id: In([...new Set(specs.flatMap((s) => (s.assetStyleId ? [s.assetStyleId] : [])))]) }, withDeleted: true }),
      () =>
        this.m
          .getRepository(AssetSpecificationWasteType)
          .createQueryBuilder('e')
          .innerJoinAndMapOne('e.wasteType', WasteType, 'w', 'w.id = e.wasteTypeId AND w.active = true')
          .where('e.companyId = :companyId AND e.assetSpecificationId IN (:...ids)', { companyId, ids })
          .orderBy('w.name', 'ASC')
          .getMany(),
    ] as const;
    // At once on the pool; one after the other inside a unit (its one connection).
    const [categories, styles, links] = this.uow.active
      ? [await reads[0](), await reads[1](), await reads[2]()]
      : await Promise.all([reads[0](), reads[1](), reads[2]()]);
    return { categories, styles, links: links as LinkWithType[] };
  }

  /** The active specification with the active waste type and their link joined (one statement), or undefined. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.otherId] })
  async orderable(scope: Scope, specId: string, wasteTypeId: string): Promise<OrderableRow | undefined> {
    // Placement's: prepared (planned once per connection).
    const qb = scopedQuery(this.m, AssetSpecification, scope, 'e')
      .select(['e.id AS spec_id', 'e.name AS spec_name', 'w.id AS waste_id', 'w.name AS waste_name', 'l.id AS link_id', 'l.price_override_amount AS price_override_amount'])
      .leftJoin(WasteType, 'w', 'w.id = :wasteTypeId AND w.company_id = e.company_id AND w.active AND w.deleted_at IS NULL', { wasteTypeId })
      .leftJoin(AssetSpecificationWasteType, 'l', 'l.asset_specification_id = e.id AND l.waste_type_id = w.id')
      .andWhere('e.id = :specId AND e.active', { specId });
    return (await this.preparedRows<OrderableRow>('catalogue_orderable', qb))[0];
  }

  /** An active waste type of the scope's company (id and name), or null. */
  activeWasteType(scope: Scope, wasteTypeId: string): Promise<Pick<WasteType, 'id' | 'name'> | null> {
    return scopedQuery(this.m, WasteType, scope, 'w').select(['w.id', 'w.name']).andWhere('w.id = :wasteTypeId AND w.active', { wasteTypeId }).getOne();
  }

  /** Id and name of the scope's company's specifications (deleted ones too). */
  specNames(scope: Scope, specIds: readonly string[]): Promise<Pick<AssetSpecification, 'id' | 'name'>[]> {
    return this.m.getRepository(AssetSpecification).find({ select: { id: true, name: true }, where: { companyId: scope.companyId, id: In([...specIds]) }, withDeleted: true });
  }

  /** Id and name of the scope's company's waste types (deleted ones too). */
  wasteTypeNames(scope: Scope, wasteTypeIds: readonly string[]): Promise<Pick<WasteType, 'id' | 'name'>[]> {
    return this.m.getRepository(WasteType).find({ select: { id: true, name: true }, where: { companyId: scope.companyId, id: In([...wasteTypeIds]) }, withDeleted: true });
  }
}
