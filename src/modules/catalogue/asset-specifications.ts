import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsUrl, MaxLength } from 'class-validator';
import { DataSource, EntityManager, In } from 'typeorm';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { type BodyRef, findScoped, type PlatformReach, scopedQuery } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import { Page, withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { likePattern, paginate, PageQuery } from '../../common/http/pagination';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { BoolField, BoolQuery, EnumField, IntField, PartialInput, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { AssetCategoriesService, AssetStylesService } from './asset-categories-styles';
import { WasteTypesService } from './waste-types';
import { Asset, AssetCategory, AssetSpecification, AssetSpecificationWasteType, AssetStyle, SIZE_UNITS, SizeUnit, WasteType } from './catalogue.entities';
import { runUnit } from '../../database/unit-of-work';
import { SpecificationRepository } from './specification.repository';

export class CreateAssetSpecificationDto {
  @TextField({ example: '20 yd roll-off' }) name: string;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) description?: string | null;
  @UuidField() asset_category_id: string;
  @UuidField({ nullable: true }) asset_style_id?: string | null;
  @IntField({ min: 1, max: 1_000_000, example: 20 }) size: number;
  @EnumField(SIZE_UNITS, { example: 'yd3' }) size_unit: SizeUnit;
  @IntField({ nullable: true, min: 1, max: 100_000, example: 6700 }) length_mm?: number | null;
  @IntField({ nullable: true, min: 1, max: 100_000, example: 2400 }) width_mm?: number | null;
  @IntField({ nullable: true, min: 1, max: 100_000, example: 1400 }) height_mm?: number | null;
  @IntField({ nullable: true, max: 1_000_000, example: 9000 }) max_weight_kg?: number | null;
  @IntField({ nullable: true, max: 1_000_000, example: 1800 }) included_weight_kg?: number | null;
  @IntField({ nullable: true, max: 3650, example: 7 }) included_days?: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 2000 })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @MaxLength(2000)
  image_url?: string | null;
  @BoolField({ optional: true, example: true }) active?: boolean;
}
export class UpdateAssetSpecificationDto extends PartialInput(CreateAssetSpecificationDto) {}

export class AssetSpecificationQuery extends PageQuery {
  @BoolQuery() active?: boolean;
  @UuidQuery() asset_category_id?: string;
  @UuidQuery() asset_style_id?: string;
}
export class CustomerAssetSpecificationQuery extends PageQuery {
  @UuidQuery() asset_category_id?: string;
}

/** What every view of a specification shows (company, customer, promotion). */
export class SpecificationSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() size: number;
  @ApiProperty({ enum: SIZE_UNITS }) size_unit: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_weight_kg: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) included_weight_kg: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) included_days: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) image_url: string | null;
}

export const specificationSummary = (s: AssetSpecification): SpecificationSummaryDto => ({
  id: s.id,
  name: s.name,
  description: s.description,
  size: s.size,
  size_unit: s.sizeUnit,
  max_weight_kg: s.maxWeightKg,
  included_weight_kg: s.includedWeightKg,
  included_days: s.includedDays,
  image_url: s.imageUrl,
});

export class AssetSpecificationDto extends SpecificationSummaryDto {
  @ApiProperty({ format: 'uuid' }) asset_category_id: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) asset_style_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) length_mm: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) width_mm: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) height_mm: number | null;
  @ApiProperty() active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(s: AssetSpecification): AssetSpecificationDto {
    return {
      ...specificationSummary(s),
      asset_category_id: s.assetCategoryId,
      asset_style_id: s.assetStyleId,
      length_mm: s.lengthMm,
      width_mm: s.widthMm,
      height_mm: s.heightMm,
      active: s.active,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
    };
  }
}

const specValues = (dto: UpdateAssetSpecificationDto): Partial<AssetSpecification> => ({
  name: dto.name,
  description: dto.description,
  assetCategoryId: dto.asset_category_id,
  assetStyleId: dto.asset_style_id,
  size: dto.size,
  sizeUnit: dto.size_unit,
  lengthMm: dto.length_mm,
  widthMm: dto.width_mm,
  heightMm: dto.height_mm,
  maxWeightKg: dto.max_weight_kg,
  includedWeightKg: dto.included_weight_kg,
  includedDays: dto.included_days,
  imageUrl: dto.image_url,
  active: dto.active,
});

/** The included weight cannot exceed the maximum weight. */
function checkWeights(s: Partial<AssetSpecification>): void {
  if (s.maxWeightKg != null && s.includedWeightKg != null && s.includedWeightKg > s.maxWeightKg) {
    throw ApiError.validation({ included_weight_kg: ['must not exceed max_weight_kg'] });
  }
}

@Injectable()
export class AssetSpecificationsService {
  readonly records: CompanyRecords<AssetSpecification, 'asset_specification'>;
  constructor(
    ds: DataSource,
    inUse: InUseRegistry,
    private readonly categories: AssetCategoriesService,
    private readonly styles: AssetStylesService,
    private readonly specifications: SpecificationRepository,
  ) {
    this.records = new CompanyRecords(ds, {
      entity: AssetSpecification,
      what: 'Asset specification',
      event: 'asset_specification',
      nullable: ['description', 'assetStyleId', 'lengthMm', 'widthMm', 'heightMm', 'maxWeightKg', 'includedWeightKg', 'includedDays', 'imageUrl'],
      unique: [{ property: 'name', index: 'uq_asset_specifications_company_name', code: 'DUPLICATE_NAME', message: 'An asset specification with this name already exists.' }],
      // A live asset of this specification, or what other modules register (a running order).
      inUse: async (m, row) => (await m.existsBy(Asset, { assetSpecificationId: row.id })) || (await inUse.isUsed(m, 'asset_specification', row.id)),
    });
  }

  list(companyId: string, query: AssetSpecificationQuery) {
    return this.page(companyId, query, AssetSpecificationDto.of);
  }

  /** The specifications of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: AssetSpecificationQuery) {
    return this.page(reach, query, (s) => ({ ...AssetSpecificationDto.of(s), company_id: s.companyId }));
  }

  /** The company of a live specification, or null: an administrator names one by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.records.companyOf(id);
  }

  private page<R>(companyId: string | PlatformReach, query: AssetSpecificationQuery, map: (s: AssetSpecification) => R) {
    const qb = this.records.query(companyId, 'e');
    if (query.active !== undefined) qb.andWhere('e.active = :active', { active: query.active });
    if (query.asset_category_id) qb.andWhere('e.assetCategoryId = :cat', { cat: query.asset_category_id });
    if (query.asset_style_id) qb.andWhere('e.assetStyleId = :style', { style: query.asset_style_id });
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name', size: 'e.size' }, map });
  }

  async get(companyId: string, id: string) {
    return AssetSpecificationDto.of(await this.records.find(companyId, id));
  }

  /** `audit` (platform administration) records the write in its transaction. */
  async create(actor: Pick<Actor, 'id'>, companyId: string, dto: CreateAssetSpecificationDto, audit?: WriteAudit) {
    const values = specValues(dto);
    checkWeights(values);
    return AssetSpecificationDto.of(
      await this.records.create(actor, companyId, values, { before: (m) => this.checkRefs(m, companyId, dto), ...(audit && { audit: { write: audit, view: AssetSpecificationDto.of } }) }),
    );
  }

  async update(actor: Pick<Actor, 'id'>, companyId: string, id: string, dto: UpdateAssetSpecificationDto, audit?: WriteAudit) {
    const values = specValues(dto);
    const row = await this.records.update(actor, companyId, id, values, {
      ...(audit && { audit: { write: audit, view: AssetSpecificationDto.of } }),
      before: async (m, current) => {
        checkWeights({
          maxWeightKg: values.maxWeightKg !== undefined ? values.maxWeightKg : current.maxWeightKg,
          includedWeightKg: values.includedWeightKg !== undefined ? values.includedWeightKg : current.includedWeightKg,
        });
        await this.checkRefs(m, companyId, dto);
      },
    });
    return AssetSpecificationDto.of(row);
  }

  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }

  /** Body references must be the company's live specifications (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }

  /**
   * The specifications another module links its rows to (a promotion's, a truck type's): they must be
   * live specifications `scope` reaches, share-locked until the unit commits; 422 `not found` on
   * `<field>.<i>` otherwise. Run inside the owner's unit of work, before it replaces its link rows (its
   * link table is its own: the owner writes it).
   */
  assertLinkable(scope: Scope, specIds: readonly string[], field = 'asset_specification_ids'): Promise<void> {
    return this.specifications.assertReachable(scope, specIds.map((id, i) => ({ field: `${field}.${i}`, id })));
  }

  /** The category and style given must be the company's (422 otherwise). */
  private async checkRefs(m: EntityManager, companyId: string, dto: UpdateAssetSpecificationDto): Promise<void> {
    await this.categories.assertOwned(m, companyId, [{ field: 'asset_category_id', id: dto.asset_category_id }]);
    await this.styles.assertOwned(m, companyId, [{ field: 'asset_style_id', id: dto.asset_style_id }]);
  }
}

// ---- Waste types allowed in a specification (nested) ----

const PRICE_OVERRIDE = { nullable: true, max: 1_000_000_000, example: 4500 } as const;

export class CreateSpecWasteTypeDto {
  @UuidField() waste_type_id: string;
  @IntField(PRICE_OVERRIDE) price_override_amount?: number | null;
}
export class UpdateSpecWasteTypeDto {
  @IntField(PRICE_OVERRIDE) price_override_amount?: number | null;
}

export class WasteTypeSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() code: string;
  @ApiProperty() hazardous: boolean;
  @ApiProperty() active: boolean;
}

export class SpecWasteTypeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) asset_specification_id: string;
  @ApiProperty({ format: 'uuid' }) waste_type_id: string;
  @ApiProperty({ type: WasteTypeSummaryDto }) waste_type: WasteTypeSummaryDto;
  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Minor units; overrides the price book for this waste type.' })
  price_override_amount: number | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(l: AssetSpecificationWasteType, w: WasteType): SpecWasteTypeDto {
    return {
      id: l.id,
      asset_specification_id: l.assetSpecificationId,
      waste_type_id: l.wasteTypeId,
      waste_type: { id: w.id, name: w.name, code: w.code, hazardous: w.hazardous, active: w.active },
      price_override_amount: l.priceOverrideAmount,
      created_at: l.createdAt.toISOString(),
      updated_at: l.updatedAt.toISOString(),
    };
  }
}

type LinkWithType = AssetSpecificationWasteType & { wasteType: WasteType };

@Injectable()
export class SpecWasteTypesService {
  constructor(
    private readonly ds: DataSource,
    private readonly specs: AssetSpecificationsService,
    private readonly wasteTypes: WasteTypesService,
  ) {}

  private linkQuery(companyId: string, specId: string) {
    return scopedQuery(this.ds.manager, AssetSpecificationWasteType, Scope.company(companyId), 'e')
      .innerJoinAndMapOne('e.wasteType', WasteType, 'w', 'w.id = e.wasteTypeId')
      .andWhere('e.assetSpecificationId = :specId', { specId });
  }

  private async one(companyId: string, specId: string, id: string): Promise<SpecWasteTypeDto> {
    const l = (await this.linkQuery(companyId, specId).andWhere('e.id = :id', { id }).getOne()) as LinkWithType | null;
    if (!l) throw ApiError.notFound('Specification waste type');
    return SpecWasteTypeDto.of(l, l.wasteType);
  }

  /** The link of a live specification, locked; 404 otherwise. */
  private async locked(m: EntityManager, companyId: string, specId: string, id: string): Promise<AssetSpecificationWasteType> {
    await this.specs.records.find(companyId, specId, m);
    return findScoped(m, AssetSpecificationWasteType, Scope.company(companyId), id, { what: 'Specification waste type', where: { assetSpecificationId: specId }, lock: true });
  }

  async list(companyId: string, specId: string, query: PageQuery) {
    await this.specs.records.find(companyId, specId);
    const qb = this.linkQuery(companyId, specId);
    if (query.q) qb.andWhere('(w.name ILIKE :q OR w.code ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, {
      sortable: { created_at: 'e.createdAt', name: 'w.name' },
      map: (l) => SpecWasteTypeDto.of(l, (l as LinkWithType).wasteType),
    });
  }

  get(companyId: string, specId: string, id: string) {
    return this.one(companyId, specId, id);
  }

  async create(actor: Actor, companyId: string, specId: string, dto: CreateSpecWasteTypeDto) {
    const id = await runUnit(this.ds, async (m) => {
      // Lock the specification so two requests cannot add the same waste type at once.
      await this.specs.records.find(companyId, specId, m, true);
      await this.wasteTypes.assertOwned(m, companyId, [{ field: 'waste_type_id', id: dto.waste_type_id }]);
      const dup = await m.getRepository(AssetSpecificationWasteType).exists({ where: { assetSpecificationId: specId, wasteTypeId: dto.waste_type_id } });
      if (dup) throw ApiError.conflict('DUPLICATE_WASTE_TYPE', 'This waste type is already allowed in the specification.');
      const saved = await m.save(
        m.create(AssetSpecificationWasteType, { companyId, assetSpecificationId: specId, wasteTypeId: dto.waste_type_id, priceOverrideAmount: dto.price_override_amount ?? null }),
      );
      await this.specs.records.recordEvent(m, actor, { id: specId, companyId }, 'waste_type_added', { waste_type_id: dto.waste_type_id, price_override_amount: saved.priceOverrideAmount });
      return saved.id;
    });
    return this.one(companyId, specId, id);
  }

  async update(actor: Actor, companyId: string, specId: string, id: string, dto: UpdateSpecWasteTypeDto) {
    await runUnit(this.ds, async (m) => {
      const link = await this.locked(m, companyId, specId, id);
      if (dto.price_override_amount !== undefined) {
        await m.update(AssetSpecificationWasteType, { id }, { priceOverrideAmount: dto.price_override_amount, updatedAt: new Date() });
      }
      await this.specs.records.recordEvent(m, actor, { id: specId, companyId }, 'waste_type_updated', { waste_type_id: link.wasteTypeId, price_override_amount: dto.price_override_amount ?? null });
    });
    return this.one(companyId, specId, id);
  }

  async remove(actor: Actor, companyId: string, specId: string, id: string) {
    await runUnit(this.ds, async (m) => {
      const link = await this.locked(m, companyId, specId, id);
      await m.delete(AssetSpecificationWasteType, { id });
      await this.specs.records.recordEvent(m, actor, { id: specId, companyId }, 'waste_type_removed', { waste_type_id: link.wasteTypeId });
    });
  }
}

// ---- Customer view: active specifications with their (active) waste types ----

export class NamedRefDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class CustomerWasteTypeDto extends WasteTypeSummaryDto {
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [String] }) prohibited_items: string[];
  @ApiPropertyOptional({ nullable: true, type: Number }) price_override_amount: number | null;
}

export class CustomerAssetSpecificationDto extends SpecificationSummaryDto {
  @ApiProperty({ type: NamedRefDto }) asset_category: NamedRefDto | null;
  @ApiPropertyOptional({ type: NamedRefDto, nullable: true }) asset_style: NamedRefDto | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) length_mm: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) width_mm: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) height_mm: number | null;
  @ApiProperty({ type: [CustomerWasteTypeDto] }) waste_types: CustomerWasteTypeDto[];
}

/** What an order needs to know of a specification and a waste type (see `CustomerCatalogueService.orderable`). */
export interface Orderable {
  /** The active, live specification, or null. */
  spec: { id: string; name: string } | null;
  /** The active, live waste type, or null. */
  waste: { id: string; name: string } | null;
  /** Whether the waste type is allowed in the specification. */
  allowed: boolean;
  /** The specification's price override for the waste type (minor units), if any. */
  priceOverrideAmount: number | null;
}

@Injectable()
export class CustomerCatalogueService {
  constructor(private readonly ds: DataSource) {}

  private specQuery(companyId: string) {
    return scopedQuery(this.ds.manager, AssetSpecification, Scope.company(companyId), 'e').andWhere('e.active = true');
  }

  /** A page of the company's active specifications (only `ids` when given), `q` on the name. */
  pageOfActive<R>(companyId: string, q: PageQuery, ids: string[] | null, map: (s: AssetSpecification) => R): Promise<Page<R>> {
    const qb = this.specQuery(companyId);
    if (ids) qb.andWhere('e.id IN (:...ids)', { ids: ids.length ? ids : ['00000000-0000-0000-0000-000000000000'] });
    if (q.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { created_at: 'e.createdAt', name: 'e.name', size: 'e.size' }, defaultSort: 'name', map });
  }

  /** The specification and waste type of an order, as the customer may order them (inside the caller's transaction). */
  async orderable(m: EntityManager, companyId: string, specId: string, wasteTypeId: string): Promise<Orderable> {
    const scope = Scope.company(companyId);
    // One statement on the usual path: the specification with the waste type and their link joined.
    const row = await scopedQuery(m, AssetSpecification, scope, 'e')
      .select(['e.id AS spec_id', 'e.name AS spec_name', 'w.id AS waste_id', 'w.name AS waste_name', 'l.id AS link_id', 'l.price_override_amount AS price_override_amount'])
      .leftJoin(WasteType, 'w', 'w.id = :wasteTypeId AND w.company_id = e.company_id AND w.active AND w.deleted_at IS NULL', { wasteTypeId })
      .leftJoin(AssetSpecificationWasteType, 'l', 'l.asset_specification_id = e.id AND l.waste_type_id = w.id')
      .andWhere('e.id = :specId AND e.active', { specId })
      .getRawOne<{ spec_id: string; spec_name: string; waste_id: string | null; waste_name: string | null; link_id: string | null; price_override_amount: number | null }>();
    // Without the specification, the waste type is looked up alone (to name every wrong field).
    const waste = row
      ? row.waste_id && { id: row.waste_id, name: row.waste_name! }
      : await scopedQuery(m, WasteType, scope, 'w').select(['w.id', 'w.name']).andWhere('w.id = :wasteTypeId AND w.active', { wasteTypeId }).getOne();
    return {
      spec: row ? { id: row.spec_id, name: row.spec_name } : null,
      waste: waste ? { id: waste.id, name: waste.name } : null,
      allowed: !!row?.link_id,
      priceOverrideAmount: row?.price_override_amount ?? null,
    };
  }

  /** Names of specifications and waste types by id (any state: orders keep showing what they were placed with). */
  async names(specIds: string[], wasteTypeIds: string[], m: EntityManager = this.ds.manager): Promise<{ specs: Map<string, string>; wasteTypes: Map<string, string> }> {
    // One query at a time: inside a transaction they share one connection.
    const specs = specIds.length ? await m.getRepository(AssetSpecification).find({ select: { id: true, name: true }, where: { id: In(specIds) }, withDeleted: true }) : [];
    const wastes = wasteTypeIds.length ? await m.getRepository(WasteType).find({ select: { id: true, name: true }, where: { id: In(wasteTypeIds) }, withDeleted: true }) : [];
    return { specs: new Map(specs.map((r) => [r.id, r.name])), wasteTypes: new Map(wastes.map((r) => [r.id, r.name])) };
  }

  async listSpecs(companyId: string, query: CustomerAssetSpecificationQuery): Promise<Page<CustomerAssetSpecificationDto>> {
    const qb = this.specQuery(companyId);
    if (query.asset_category_id) qb.andWhere('e.assetCategoryId = :cat', { cat: query.asset_category_id });
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    const page = await paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name', size: 'e.size' } });
    return new Page(await this.expand(companyId, page.items), page.meta);
  }

  async showSpec(companyId: string, id: string): Promise<CustomerAssetSpecificationDto> {
    const spec = await this.specQuery(companyId).andWhere('e.id = :id', { id }).getOne();
    if (!spec) throw ApiError.notFound('Asset specification');
    return (await this.expand(companyId, [spec]))[0];
  }

  /** Adds category, style and the active waste types, in three queries for the whole page. */
  private async expand(companyId: string, specs: AssetSpecification[]): Promise<CustomerAssetSpecificationDto[]> {
    if (!specs.length) return [];
    const ids = specs.map((s) => s.id);
    const [categories, styles, links] = await Promise.all([
      this.ds.getRepository(AssetCategory).find({ where: { companyId, id: In([...new Set(specs.map((s) => s.assetCategoryId))]) }, withDeleted: true }),
      this.ds.getRepository(AssetStyle).find({ where: { companyId, id: In([...new Set(specs.flatMap((s) => (s.assetStyleId ? [s.assetStyleId] : [])))]) }, withDeleted: true }),
      this.ds
        .getRepository(AssetSpecificationWasteType)
        .createQueryBuilder('e')
        .innerJoinAndMapOne('e.wasteType', WasteType, 'w', 'w.id = e.wasteTypeId AND w.active = true')
        .where('e.companyId = :companyId AND e.assetSpecificationId IN (:...ids)', { companyId, ids })
        .orderBy('w.name', 'ASC')
        .getMany() as Promise<LinkWithType[]>,
    ]);
    const ref = (r?: AssetCategory | AssetStyle) => (r ? { id: r.id, name: r.name } : null);
    return specs.map((s) => ({
      ...specificationSummary(s),
      asset_category: ref(categories.find((c) => c.id === s.assetCategoryId)),
      asset_style: ref(styles.find((c) => c.id === s.assetStyleId)),
      length_mm: s.lengthMm,
      width_mm: s.widthMm,
      height_mm: s.heightMm,
      waste_types: links
        .filter((l) => l.assetSpecificationId === s.id)
        .map((l) => ({
          id: l.wasteType.id,
          name: l.wasteType.name,
          code: l.wasteType.code,
          description: l.wasteType.description,
          prohibited_items: l.wasteType.prohibitedItems ?? [],
          hazardous: l.wasteType.hazardous,
          active: l.wasteType.active,
          price_override_amount: l.priceOverrideAmount,
        })),
    }));
  }
}

@ApiTags('Asset specifications')
@Controller('api/v1')
export class AssetSpecificationsController {
  constructor(
    private readonly specs: AssetSpecificationsService,
    private readonly links: SpecWasteTypesService,
  ) {}

  @Get('asset-specifications')
  @Access('CO')
  @Endpoint({ summary: 'List asset specifications (filters: active, asset_category_id, asset_style_id, q on name)', type: AssetSpecificationDto, list: true, errors: [422] })
  list(@CompanyId() companyId: string, @Query() query: AssetSpecificationQuery) {
    return this.specs.list(companyId, query);
  }

  @Post('asset-specifications')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset specification', type: AssetSpecificationDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateAssetSpecificationDto) {
    return this.specs.create(actor, companyId, dto);
  }

  @Get('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset specification', type: AssetSpecificationDto, errors: [404] })
  show(@CompanyId() companyId: string, @IdParam('assetSpecification') id: string) {
    return this.specs.get(companyId, id);
  }

  @Put('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset specification (fields given are changed)', type: AssetSpecificationDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetSpecification') id: string, @Body() dto: UpdateAssetSpecificationDto) {
    return this.specs.update(actor, companyId, id, dto);
  }

  @Delete('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset specification (409 IN_USE while an asset or a running order uses it)', errors: [404, 409], message: 'Asset specification deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetSpecification') id: string) {
    await this.specs.remove(actor, companyId, id);
    return withMessage(null, 'Asset specification deleted.');
  }

  @Get('asset-specifications/:assetSpecification/waste-types')
  @Access('CO')
  @Endpoint({ summary: 'List the waste types allowed in a specification (q on name/code)', type: SpecWasteTypeDto, list: true, errors: [404, 422] })
  listWasteTypes(@CompanyId() companyId: string, @IdParam('assetSpecification') specId: string, @Query() query: PageQuery) {
    return this.links.list(companyId, specId, query);
  }

  @Post('asset-specifications/:assetSpecification/waste-types')
  @Access('CO')
  @Endpoint({ summary: 'Allow a waste type in a specification, with an optional price override', type: SpecWasteTypeDto, status: 201, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_WASTE_TYPE'] } })
  addWasteType(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetSpecification') specId: string, @Body() dto: CreateSpecWasteTypeDto) {
    return this.links.create(actor, companyId, specId, dto);
  }

  @Get('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Show an allowed waste type of a specification', type: SpecWasteTypeDto, errors: [404] })
  showWasteType(@CompanyId() companyId: string, @IdParam('assetSpecification') specId: string, @IdParam('assetSpecificationWasteType') id: string) {
    return this.links.get(companyId, specId, id);
  }

  @Put('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Change the price override of an allowed waste type (null clears it)', type: SpecWasteTypeDto, errors: [404, 422] })
  updateWasteType(
    @CurrentActor() actor: Actor,
    @CompanyId() companyId: string,
    @IdParam('assetSpecification') specId: string,
    @IdParam('assetSpecificationWasteType') id: string,
    @Body() dto: UpdateSpecWasteTypeDto,
  ) {
    return this.links.update(actor, companyId, specId, id, dto);
  }

  @Delete('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Stop allowing a waste type in a specification', errors: [404], message: 'Waste type removed from the specification.' })
  async removeWasteType(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetSpecification') specId: string, @IdParam('assetSpecificationWasteType') id: string) {
    await this.links.remove(actor, companyId, specId, id);
    return withMessage(null, 'Waste type removed from the specification.');
  }
}
