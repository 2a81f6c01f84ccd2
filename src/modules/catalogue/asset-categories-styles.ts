import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource, EntityManager } from 'typeorm';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { likePattern, paginate, PageQuery } from '../../common/http/pagination';
import type { RecordEventPrefix } from '../../common/outbox/event-catalogue';
import type { BodyRef } from '../../common/access/tenant-policy';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry, type RecordKind } from '../../common/records/in-use';
import { PartialInput, TextField } from '../../common/validation/fields';
import { AssetCategory, AssetStyle } from './catalogue.entities';

/** Asset categories (roll-off, front-load…) and styles (open top, enclosed…): a name and a description. */
export class CreateNamedDto {
  @TextField({ example: 'Roll-off' }) name: string;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) description?: string | null;
}
export class UpdateNamedDto extends PartialInput(CreateNamedDto) {}

export class NamedDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(r: AssetCategory | AssetStyle): NamedDto {
    return { id: r.id, name: r.name, description: r.description, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() };
  }
}
export class AssetCategoryDto extends NamedDto {}
export class AssetStyleDto extends NamedDto {}

class NamedCatalogueService<E extends AssetCategory | AssetStyle> {
  private readonly records: CompanyRecords<E>;
  constructor(ds: DataSource, inUse: InUseRegistry, entity: new () => E, what: string, event: RecordKind & RecordEventPrefix, index: string, specColumn: string) {
    this.records = new CompanyRecords<E>(ds, {
      entity,
      what,
      event,
      nullable: ['description'],
      unique: [{ property: 'name', index, code: 'DUPLICATE_NAME', message: `${what} with this name already exists.` }],
      // A live specification of this category (style), or what other modules register.
      inUse: async (m, row) =>
        !!(await m.query<{ '?column?': number }[]>(`SELECT 1 FROM asset_specifications WHERE ${specColumn} = $1 AND deleted_at IS NULL LIMIT 1`, [row.id]))[0] || (await inUse.isUsed(m, event, row.id)),
    });
  }

  list(companyId: string, query: PageQuery) {
    const qb = this.records.query(companyId, 'e');
    if (query.q) qb.andWhere('e.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { created_at: 'e.createdAt', name: 'e.name' }, map: NamedDto.of });
  }

  async get(companyId: string, id: string) {
    return NamedDto.of(await this.records.find(companyId, id));
  }
  async create(actor: Actor, companyId: string, dto: CreateNamedDto) {
    return NamedDto.of(await this.records.create(actor, companyId, { name: dto.name, description: dto.description } as Partial<E>));
  }
  async update(actor: Actor, companyId: string, id: string, dto: UpdateNamedDto) {
    return NamedDto.of(await this.records.update(actor, companyId, id, { name: dto.name, description: dto.description } as Partial<E>));
  }
  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }

  /** Body references must be the company's live rows (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }
}

@Injectable()
export class AssetCategoriesService extends NamedCatalogueService<AssetCategory> {
  constructor(ds: DataSource, inUse: InUseRegistry) {
    super(ds, inUse, AssetCategory, 'Asset category', 'asset_category', 'uq_asset_categories_company_name', 'asset_category_id');
  }
}

@Injectable()
export class AssetStylesService extends NamedCatalogueService<AssetStyle> {
  constructor(ds: DataSource, inUse: InUseRegistry) {
    super(ds, inUse, AssetStyle, 'Asset style', 'asset_style', 'uq_asset_styles_company_name', 'asset_style_id');
  }
}

@ApiTags('Asset categories')
@Controller('api/v1')
export class AssetCategoriesController {
  constructor(private readonly service: AssetCategoriesService) {}

  @Get('asset-categories')
  @Access('CO')
  @Endpoint({ summary: 'List asset categories (q on name)', type: AssetCategoryDto, list: true, errors: [422] })
  list(@CompanyId() companyId: string, @Query() query: PageQuery) {
    return this.service.list(companyId, query);
  }

  @Post('asset-categories')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset category', type: AssetCategoryDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateNamedDto) {
    return this.service.create(actor, companyId, dto);
  }

  @Get('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset category', type: AssetCategoryDto, errors: [404] })
  show(@CompanyId() companyId: string, @IdParam('assetCategory') id: string) {
    return this.service.get(companyId, id);
  }

  @Put('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset category', type: AssetCategoryDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetCategory') id: string, @Body() dto: UpdateNamedDto) {
    return this.service.update(actor, companyId, id, dto);
  }

  @Delete('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset category (409 IN_USE while a specification uses it)', errors: [404, 409], message: 'Asset category deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetCategory') id: string) {
    await this.service.remove(actor, companyId, id);
    return withMessage(null, 'Asset category deleted.');
  }
}

@ApiTags('Asset styles')
@Controller('api/v1')
export class AssetStylesController {
  constructor(private readonly service: AssetStylesService) {}

  @Get('asset-styles')
  @Access('CO')
  @Endpoint({ summary: 'List asset styles (q on name)', type: AssetStyleDto, list: true, errors: [422] })
  list(@CompanyId() companyId: string, @Query() query: PageQuery) {
    return this.service.list(companyId, query);
  }

  @Post('asset-styles')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset style', type: AssetStyleDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateNamedDto) {
    return this.service.create(actor, companyId, dto);
  }

  @Get('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset style', type: AssetStyleDto, errors: [404] })
  show(@CompanyId() companyId: string, @IdParam('assetStyle') id: string) {
    return this.service.get(companyId, id);
  }

  @Put('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset style', type: AssetStyleDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetStyle') id: string, @Body() dto: UpdateNamedDto) {
    return this.service.update(actor, companyId, id, dto);
  }

  @Delete('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset style (409 IN_USE while a specification uses it)', errors: [404, 409], message: 'Asset style deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('assetStyle') id: string) {
    await this.service.remove(actor, companyId, id);
    return withMessage(null, 'Asset style deleted.');
  }
}
