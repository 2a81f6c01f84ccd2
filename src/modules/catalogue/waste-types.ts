import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Page, withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
import type { BodyRef, PlatformReach } from '../../common/access/tenant-policy';
import { BoolField, BoolQuery, PartialInput, TextField } from '../../common/validation/fields';
import type { WasteType } from './catalogue.entities';
import { WasteTypeRepository } from './waste-type.repository';

export class CreateWasteTypeDto {
  @TextField({ example: 'Construction debris' }) name: string;
  @TextField({ max: 50, example: 'CND', description: 'Unique per company (case-insensitive).' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { message: 'may contain only letters, digits, ".", "_" and "-"' })
  code: string;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) description?: string | null;
  @ApiPropertyOptional({ type: [String], example: ['paint', 'batteries'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(200, { each: true })
  prohibited_items?: string[];
  @BoolField({ optional: true, example: false }) hazardous?: boolean;
  @BoolField({ optional: true, example: true }) active?: boolean;
}

export class UpdateWasteTypeDto extends PartialInput(CreateWasteTypeDto) {}

export class WasteTypeQuery extends PageQuery {
  @BoolQuery() hazardous?: boolean;
  @BoolQuery() active?: boolean;
}

export class WasteTypeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() code: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ type: [String] }) prohibited_items: string[];
  @ApiProperty() hazardous: boolean;
  @ApiProperty() active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(w: WasteType): WasteTypeDto {
    return {
      id: w.id,
      name: w.name,
      code: w.code,
      description: w.description,
      prohibited_items: w.prohibitedItems ?? [],
      hazardous: w.hazardous,
      active: w.active,
      created_at: w.createdAt.toISOString(),
      updated_at: w.updatedAt.toISOString(),
    };
  }
}

const values = (dto: UpdateWasteTypeDto): Partial<WasteType> => ({
  name: dto.name,
  code: dto.code,
  description: dto.description,
  prohibitedItems: dto.prohibited_items === null ? [] : dto.prohibited_items,
  hazardous: dto.hazardous,
  active: dto.active,
});

/**
 * The company's waste types (the records through `WasteTypeRepository`), and the checks and names other
 * modules ask of them.
 */
@Injectable()
export class WasteTypesService {
  constructor(private readonly wasteTypes: WasteTypeRepository) {}

  /** The waste types of the companies an administrator's `reach` covers, each with its company. */
  async listAcross(reach: PlatformReach, query: WasteTypeQuery): Promise<Page<WasteTypeDto & { company_id: string }>> {
    const page = await this.wasteTypes.page(reach, query);
    return new Page(page.items.map((w) => ({ ...WasteTypeDto.of(w), company_id: w.companyId })), page.meta);
  }

  /** The company's waste types (filters: hazardous, active, q on name/code). */
  async list(scope: Scope, query: WasteTypeQuery): Promise<Page<WasteTypeDto>> {
    const page = await this.wasteTypes.page(scope, query);
    return new Page(page.items.map(WasteTypeDto.of), page.meta);
  }

  /** The company's active waste types, by name (a customer's list; filters: hazardous, q). */
  async listActive(scope: Scope, query: WasteTypeQuery): Promise<Page<WasteTypeDto>> {
    const page = await this.wasteTypes.page(scope, { ...query, active: true }, 'name');
    return new Page(page.items.map(WasteTypeDto.of), page.meta);
  }

  async get(scope: Scope, id: string): Promise<WasteTypeDto> {
    return WasteTypeDto.of(await this.wasteTypes.find(scope, id));
  }
  async create(actor: Actor, scope: Scope, dto: CreateWasteTypeDto): Promise<WasteTypeDto> {
    return WasteTypeDto.of(await this.wasteTypes.create(actor, scope, values(dto)));
  }
  async update(actor: Actor, scope: Scope, id: string, dto: UpdateWasteTypeDto): Promise<WasteTypeDto> {
    return WasteTypeDto.of(await this.wasteTypes.update(actor, scope, id, values(dto)));
  }
  remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    return this.wasteTypes.remove(actor, scope, id);
  }

  /** Body references must be the company's live waste types (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.wasteTypes.assertOwned(scope, refs);
  }

  /** Of `ids`, those that are live waste types of the company (references from other modules' bodies). */
  async liveIds(scope: Scope, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.wasteTypes.liveIds(scope, ids);
    return new Set(rows.map((r) => r.id));
  }

  /** Id and name of the scope's company's waste types (deleted ones too, for history), by name then id. */
  async refs(scope: Scope, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (!ids.length) return [];
    const rows = await this.wasteTypes.refs(scope, ids);
    return rows.map((r) => ({ id: r.id, name: r.name }));
  }
}


@ApiTags('Waste types')
@Controller('api/v1')
export class WasteTypesController {
  constructor(private readonly wasteTypes: WasteTypesService) {}

  @Get('waste-types')
  @Access('CO')
  @Endpoint({ summary: 'List waste types (filters: hazardous, active, q on name/code)', type: WasteTypeDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: WasteTypeQuery) {
    return this.wasteTypes.list(scope, query);
  }

  @Post('waste-types')
  @Access('CO')
  @Endpoint({ summary: 'Create a waste type', type: WasteTypeDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateWasteTypeDto) {
    return this.wasteTypes.create(actor, scope, dto);
  }

  @Get('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Show a waste type', type: WasteTypeDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('wasteType') id: string) {
    return this.wasteTypes.get(scope, id);
  }

  @Put('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Update a waste type (fields given are changed)', type: WasteTypeDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('wasteType') id: string, @Body() dto: UpdateWasteTypeDto) {
    return this.wasteTypes.update(actor, scope, id, dto);
  }

  @Delete('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Delete a waste type (409 IN_USE while a specification allows it or a station accepts it)', errors: [404, 409], message: 'Waste type deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('wasteType') id: string) {
    await this.wasteTypes.remove(actor, scope, id);
    return withMessage(null, 'Waste type deleted.');
  }
}
