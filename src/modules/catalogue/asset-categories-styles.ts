import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Page, withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
import type { BodyRef } from '../../common/access/tenant-policy';
import { PartialInput, TextField } from '../../common/validation/fields';
import type { AssetCategory, AssetStyle } from './catalogue.entities';
import { AssetCategoryStyleRepository, type NamedKind } from './asset-category-style.repository';

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

class NamedCatalogueService {
  constructor(
    private readonly rows: AssetCategoryStyleRepository,
    private readonly kind: NamedKind,
  ) {}

  async list(scope: Scope, query: PageQuery): Promise<Page<NamedDto>> {
    const page = await this.rows.page(this.kind, scope, query);
    return new Page(page.items.map(NamedDto.of), page.meta);
  }

  async get(scope: Scope, id: string) {
    return NamedDto.of(await this.rows.find(this.kind, scope, id));
  }
  async create(actor: Actor, scope: Scope, dto: CreateNamedDto) {
    return NamedDto.of(await this.rows.create(this.kind, actor, scope, { name: dto.name, description: dto.description }));
  }
  async update(actor: Actor, scope: Scope, id: string, dto: UpdateNamedDto) {
    return NamedDto.of(await this.rows.update(this.kind, actor, scope, id, { name: dto.name, description: dto.description }));
  }
  remove(actor: Actor, scope: Scope, id: string) {
    return this.rows.remove(this.kind, actor, scope, id);
  }

  /** Body references must be the company's live rows (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.rows.assertOwned(this.kind, scope, refs);
  }
}

@Injectable()
export class AssetCategoriesService extends NamedCatalogueService {
  constructor(rows: AssetCategoryStyleRepository) {
    super(rows, 'category');
  }
}

@Injectable()
export class AssetStylesService extends NamedCatalogueService {
  constructor(rows: AssetCategoryStyleRepository) {
    super(rows, 'style');
  }
}

@ApiTags('Asset categories')
@Controller('api/v1')
export class AssetCategoriesController {
  constructor(private readonly service: AssetCategoriesService) {}

  @Get('asset-categories')
  @Access('CO')
  @Endpoint({ summary: 'List asset categories (q on name)', type: AssetCategoryDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: PageQuery) {
    return this.service.list(scope, query);
  }

  @Post('asset-categories')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset category', type: AssetCategoryDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateNamedDto) {
    return this.service.create(actor, scope, dto);
  }

  @Get('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset category', type: AssetCategoryDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('assetCategory') id: string) {
    return this.service.get(scope, id);
  }

  @Put('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset category', type: AssetCategoryDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetCategory') id: string, @Body() dto: UpdateNamedDto) {
    return this.service.update(actor, scope, id, dto);
  }

  @Delete('asset-categories/:assetCategory')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset category (409 IN_USE while a specification uses it)', errors: [404, 409], message: 'Asset category deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetCategory') id: string) {
    await this.service.remove(actor, scope, id);
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
  list(@CurrentScope() scope: Scope, @Query() query: PageQuery) {
    return this.service.list(scope, query);
  }

  @Post('asset-styles')
  @Access('CO')
  @Endpoint({ summary: 'Create an asset style', type: AssetStyleDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateNamedDto) {
    return this.service.create(actor, scope, dto);
  }

  @Get('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Show an asset style', type: AssetStyleDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('assetStyle') id: string) {
    return this.service.get(scope, id);
  }

  @Put('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Update an asset style', type: AssetStyleDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetStyle') id: string, @Body() dto: UpdateNamedDto) {
    return this.service.update(actor, scope, id, dto);
  }

  @Delete('asset-styles/:assetStyle')
  @Access('CO')
  @Endpoint({ summary: 'Delete an asset style (409 IN_USE while a specification uses it)', errors: [404, 409], message: 'Asset style deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('assetStyle') id: string) {
    await this.service.remove(actor, scope, id);
    return withMessage(null, 'Asset style deleted.');
  }
}
