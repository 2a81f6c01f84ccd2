import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsUrl, MaxLength } from 'class-validator';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { CurrentScope, Scope } from '../../common/access/scope';
import type { BodyRef, PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import { Page, withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
import { BoolField, BoolQuery, EnumField, IntField, PartialInput, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { AssetCategoriesService, AssetStylesService } from './asset-categories-styles';
import { WasteTypesService } from './waste-types';
import { SIZE_UNITS, type AssetCategory, type AssetSpecification, type AssetSpecificationWasteType, type AssetStyle, type SizeUnit, type WasteType } from './catalogue.entities';
import { UnitOfWork } from '../../database/unit-of-work';
import { SpecificationRepository } from './specification.repository';

const CHECK_AVAILABILITY =
  'Whether placement, approval, change requests and assignment refuse (409 `NO_CONTAINER_AVAILABLE`) an order no container of this specification is free for ' +
  '(the container calendar): null (the default) automatic, refused as soon as the company records a live container of it (not retired), so a fleet not recorded yet keeps taking orders; ' +
  'true always (no container recorded: none is free); false never (the order is held on the calendar, only assignment refuses).';

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
  @BoolField({
    nullable: true,
    example: null,
    description: CHECK_AVAILABILITY,
  })
  check_availability?: boolean | null;
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
  @ApiProperty({ nullable: true, type: Boolean, example: null, description: CHECK_AVAILABILITY }) check_availability: boolean | null;
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
      check_availability: s.checkAvailability,
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
  checkAvailability: dto.check_availability,
});

/** The included weight cannot exceed the maximum weight. */
function checkWeights(s: Partial<AssetSpecification>): void {
  if (s.maxWeightKg != null && s.includedWeightKg != null && s.includedWeightKg > s.maxWeightKg) {
    throw ApiError.validation({ included_weight_kg: ['must not exceed max_weight_kg'] });
  }
}

@Injectable()
export class AssetSpecificationsService {
  constructor(
    private readonly categories: AssetCategoriesService,
    private readonly styles: AssetStylesService,
    private readonly specifications: SpecificationRepository,
  ) {}

  async list(scope: Scope, query: AssetSpecificationQuery): Promise<Page<AssetSpecificationDto>> {
    const page = await this.specifications.page(scope, query);
    return new Page(page.items.map(AssetSpecificationDto.of), page.meta);
  }

  /** The specifications of the companies an administrator's `reach` covers, each with its company. */
  async listAcross(reach: PlatformReach, query: AssetSpecificationQuery): Promise<Page<AssetSpecificationDto & { company_id: string }>> {
    const page = await this.specifications.page(reach, query);
    return new Page(page.items.map((s) => ({ ...AssetSpecificationDto.of(s), company_id: s.companyId })), page.meta);
  }

  /** The company of a live specification, or null: an administrator names one by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.specifications.companyOf(id);
  }

  async get(scope: Scope, id: string): Promise<AssetSpecificationDto> {
    return AssetSpecificationDto.of(await this.specifications.find(scope, id));
  }

  /** `audit` (platform administration) records the write in its transaction. */
  async create(actor: Pick<Actor, 'id'>, scope: Scope, dto: CreateAssetSpecificationDto, audit?: WriteAudit): Promise<AssetSpecificationDto> {
    const values = specValues(dto);
    checkWeights(values);
    return AssetSpecificationDto.of(
      await this.specifications.create(actor, scope, values, { before: () => this.checkRefs(scope, dto), ...(audit && { audit: { write: audit, view: AssetSpecificationDto.of } }) }),
    );
  }

  async update(actor: Pick<Actor, 'id'>, scope: Scope, id: string, dto: UpdateAssetSpecificationDto, audit?: WriteAudit): Promise<AssetSpecificationDto> {
    const values = specValues(dto);
    const row = await this.specifications.update(actor, scope, id, values, {
      ...(audit && { audit: { write: audit, view: AssetSpecificationDto.of } }),
      before: async (_m, current) => {
        checkWeights({
          maxWeightKg: values.maxWeightKg !== undefined ? values.maxWeightKg : current.maxWeightKg,
          includedWeightKg: values.includedWeightKg !== undefined ? values.includedWeightKg : current.includedWeightKg,
        });
        await this.checkRefs(scope, dto);
      },
    });
    return AssetSpecificationDto.of(row);
  }

  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.specifications.remove(actor, scope, id);
  }

  /** Body references must be the company's live specifications (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.specifications.assertOwned(scope, refs);
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
  private async checkRefs(scope: Scope, dto: UpdateAssetSpecificationDto): Promise<void> {
    await this.categories.assertOwned(scope, [{ field: 'asset_category_id', id: dto.asset_category_id }]);
    await this.styles.assertOwned(scope, [{ field: 'asset_style_id', id: dto.asset_style_id }]);
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

@Injectable()
export class SpecWasteTypesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly specifications: SpecificationRepository,
    private readonly wasteTypes: WasteTypesService,
  ) {}

  private async one(scope: Scope, specId: string, id: string): Promise<SpecWasteTypeDto> {
    const l = await this.specifications.findLink(scope, specId, id);
    if (!l) throw ApiError.notFound('Specification waste type');
    return SpecWasteTypeDto.of(l, l.wasteType);
  }

  /** The link of a live specification, locked; 404 otherwise. */
  private async locked(scope: Scope, specId: string, id: string): Promise<AssetSpecificationWasteType> {
    await this.specifications.find(scope, specId);
    return this.specifications.lockLink(scope, specId, id);
  }

  async list(scope: Scope, specId: string, query: PageQuery): Promise<Page<SpecWasteTypeDto>> {
    await this.specifications.find(scope, specId);
    const page = await this.specifications.linkPage(scope, specId, query);
    return new Page(page.items.map((l) => SpecWasteTypeDto.of(l, l.wasteType)), page.meta);
  }

  get(scope: Scope, specId: string, id: string) {
    return this.one(scope, specId, id);
  }

  async create(actor: Actor, scope: Scope, specId: string, dto: CreateSpecWasteTypeDto) {
    const companyId = scope.companyId;
    const id = await this.uow.transaction(async () => {
      // Lock the specification so two requests cannot add the same waste type at once.
      await this.specifications.find(scope, specId, true);
      await this.wasteTypes.assertOwned(scope, [{ field: 'waste_type_id', id: dto.waste_type_id }]);
      if (await this.specifications.linkExists(scope, specId, dto.waste_type_id)) throw ApiError.conflict('DUPLICATE_WASTE_TYPE', 'This waste type is already allowed in the specification.');
      const saved = await this.specifications.insertLink(scope, { assetSpecificationId: specId, wasteTypeId: dto.waste_type_id, priceOverrideAmount: dto.price_override_amount ?? null });
      await this.specifications.recordEvent(actor, { id: specId, companyId }, 'waste_type_added', { waste_type_id: dto.waste_type_id, price_override_amount: saved.priceOverrideAmount });
      return saved.id;
    });
    return this.one(scope, specId, id);
  }

  async update(actor: Actor, scope: Scope, specId: string, id: string, dto: UpdateSpecWasteTypeDto) {
    await this.uow.transaction(async () => {
      const link = await this.locked(scope, specId, id);
      if (dto.price_override_amount !== undefined) {
        await this.specifications.updateLink(scope, id, { priceOverrideAmount: dto.price_override_amount, updatedAt: new Date() });
      }
      await this.specifications.recordEvent(actor, { id: specId, companyId: scope.companyId }, 'waste_type_updated', { waste_type_id: link.wasteTypeId, price_override_amount: dto.price_override_amount ?? null });
    });
    return this.one(scope, specId, id);
  }

  async remove(actor: Actor, scope: Scope, specId: string, id: string) {
    await this.uow.transaction(async () => {
      const link = await this.locked(scope, specId, id);
      await this.specifications.deleteLink(scope, id);
      await this.specifications.recordEvent(actor, { id: specId, companyId: scope.companyId }, 'waste_type_removed', { waste_type_id: link.wasteTypeId });
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
  constructor(private readonly specifications: SpecificationRepository) {}

  /** A page of the company's active specifications (only `ids` when given), `q` on the name, by name unless the query sorts. */
  pageOfActive<R>(scope: Scope, q: PageQuery, ids: string[] | null, map: (s: AssetSpecification) => R): Promise<Page<R>>;
  async pageOfActive<R>(scope: Scope, q: PageQuery, ids: string[] | null, map: (s: AssetSpecification) => R): Promise<Page<R>> {
    const page = await this.specifications.activePage(scope, { page: q.page, per_page: q.per_page, sort: q.sort, q: q.q }, ids, 'name');
    return new Page(page.items.map(map), page.meta);
  }

  /** The specification and waste type of an order, as the customer may order them (inside the caller's unit of work). */
  orderable(scope: Scope, specId: string, wasteTypeId: string): Promise<Orderable>;
  async orderable(who: Scope, specId: string, wasteTypeId: string): Promise<Orderable> {
    const scope = Scope.company(who.companyId);
    // One statement on the usual path: the specification with the waste type and their link joined.
    const row = await this.specifications.orderable(scope, specId, wasteTypeId);
    // Without the specification, the waste type is looked up alone (to name every wrong field).
    const waste = row ? row.waste_id && { id: row.waste_id, name: row.waste_name! } : await this.specifications.activeWasteType(scope, wasteTypeId);
    return {
      spec: row ? { id: row.spec_id, name: row.spec_name } : null,
      waste: waste ? { id: waste.id, name: waste.name } : null,
      allowed: !!row?.link_id,
      priceOverrideAmount: row?.price_override_amount ?? null,
    };
  }

  /**
   * Names of the scope's company's specifications and waste types by id (any state: orders keep showing
   * what they were placed with), in the open unit of work if any.
   */
  async names(scope: Scope, specIds: string[], wasteTypeIds: string[]): Promise<{ specs: Map<string, string>; wasteTypes: Map<string, string> }> {
    // One query at a time: inside a transaction they share one connection.
    const specs = specIds.length ? await this.specifications.specNames(scope, specIds) : [];
    const wastes = wasteTypeIds.length ? await this.specifications.wasteTypeNames(scope, wasteTypeIds) : [];
    return { specs: new Map(specs.map((r) => [r.id, r.name])), wasteTypes: new Map(wastes.map((r) => [r.id, r.name])) };
  }

  async listSpecs(scope: Scope, query: CustomerAssetSpecificationQuery): Promise<Page<CustomerAssetSpecificationDto>> {
    const page = await this.specifications.activePage(scope, query, null);
    return new Page(await this.expand(scope, page.items), page.meta);
  }

  async showSpec(scope: Scope, id: string): Promise<CustomerAssetSpecificationDto> {
    const spec = await this.specifications.findActive(scope, id);
    if (!spec) throw ApiError.notFound('Asset specification');
    return (await this.expand(scope, [spec]))[0];
  }

  /** Adds category, style and the active waste types, in three queries for the whole page. */
  private async expand(scope: Scope, specs: AssetSpecification[]): Promise<CustomerAssetSpecificationDto[]> {
    if (!specs.length) return [];
    const { categories, styles, links } = await this.specifications.expansions(scope, specs);
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
  list(@CurrentScope() scope: Scope, @Query() query: AssetSpecificationQuery) {
    return this.specs.list(scope, query);
  }

  @Post('asset-specifications')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset specification', type: AssetSpecificationDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateAssetSpecificationDto) {
    return this.specs.create(actor, scope, dto);
  }

  @Get('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset specification', type: AssetSpecificationDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('assetSpecification') id: string) {
    return this.specs.get(scope, id);
  }

  @Put('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset specification (fields given are changed)', type: AssetSpecificationDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetSpecification') id: string, @Body() dto: UpdateAssetSpecificationDto) {
    return this.specs.update(actor, scope, id, dto);
  }

  @Delete('asset-specifications/:assetSpecification')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset specification (409 IN_USE while an asset or a running order uses it)', errors: [404, 409], message: 'Asset specification deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetSpecification') id: string) {
    await this.specs.remove(actor, scope, id);
    return withMessage(null, 'Asset specification deleted.');
  }

  @Get('asset-specifications/:assetSpecification/waste-types')
  @Access('CO')
  @Endpoint({ summary: 'List the waste types allowed in a specification (q on name/code)', type: SpecWasteTypeDto, list: true, errors: [404, 422] })
  listWasteTypes(@CurrentScope() scope: Scope, @IdParam('assetSpecification') specId: string, @Query() query: PageQuery) {
    return this.links.list(scope, specId, query);
  }

  @Post('asset-specifications/:assetSpecification/waste-types')
  @Access('CO')
  @Endpoint({ summary: 'Allow a waste type in a specification, with an optional price override', type: SpecWasteTypeDto, status: 201, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_WASTE_TYPE'] } })
  addWasteType(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetSpecification') specId: string, @Body() dto: CreateSpecWasteTypeDto) {
    return this.links.create(actor, scope, specId, dto);
  }

  @Get('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Show an allowed waste type of a specification', type: SpecWasteTypeDto, errors: [404] })
  showWasteType(@CurrentScope() scope: Scope, @IdParam('assetSpecification') specId: string, @IdParam('assetSpecificationWasteType') id: string) {
    return this.links.get(scope, specId, id);
  }

  @Put('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Change the price override of an allowed waste type (null clears it)', type: SpecWasteTypeDto, errors: [404, 422] })
  updateWasteType(
    @CurrentActor() actor: Actor,
    @CurrentScope() scope: Scope,
    @IdParam('assetSpecification') specId: string,
    @IdParam('assetSpecificationWasteType') id: string,
    @Body() dto: UpdateSpecWasteTypeDto,
  ) {
    return this.links.update(actor, scope, specId, id, dto);
  }

  @Delete('asset-specifications/:assetSpecification/waste-types/:assetSpecificationWasteType')
  @Access('CO')
  @Endpoint({ summary: 'Stop allowing a waste type in a specification', errors: [404], message: 'Waste type removed from the specification.' })
  async removeWasteType(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetSpecification') specId: string, @IdParam('assetSpecificationWasteType') id: string) {
    await this.links.remove(actor, scope, specId, id);
    return withMessage(null, 'Waste type removed from the specification.');
  }
}
