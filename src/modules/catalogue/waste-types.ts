import { Body, Controller, Delete, Get, Injectable, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { DataSource, EntityManager, In } from 'typeorm';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { withMessage } from '../../common/http/envelope';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { likePattern, paginate, PageQuery } from '../../common/http/pagination';
import type { BodyRef, PlatformReach } from '../../common/access/tenant-policy';
import { CompanyRecords } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { BoolField, BoolQuery, PartialInput, TextField } from '../../common/validation/fields';
import { WasteType } from './catalogue.entities';

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

@Injectable()
export class WasteTypesService {
  private readonly records: CompanyRecords<WasteType>;
  constructor(ds: DataSource, inUse: InUseRegistry) {
    this.records = new CompanyRecords(ds, {
      entity: WasteType,
      what: 'Waste type',
      event: 'waste_type',
      nullable: ['description'],
      unique: [{ property: 'code', index: 'uq_waste_types_company_code', code: 'DUPLICATE_CODE', message: 'A waste type with this code already exists.' }],
      // Allowed in a live specification, or what other modules register (accepted by a live station).
      inUse: async (m, row) => {
        const [hit] = await m.query<{ '?column?': number }[]>(
          `SELECT 1 FROM asset_specification_waste_types l JOIN asset_specifications s ON s.id = l.asset_specification_id AND s.deleted_at IS NULL
            WHERE l.waste_type_id = $1 LIMIT 1`,
          [row.id],
        );
        return !!hit || (await inUse.isUsed(m, 'waste_type', row.id));
      },
    });
  }

  /** The waste types of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: WasteTypeQuery) {
    return paginate(this.filtered(reach, query), query, {
      sortable: { created_at: 'e.createdAt', name: 'e.name', code: 'e.code' },
      map: (w) => ({ ...WasteTypeDto.of(w), company_id: w.companyId }),
    });
  }

  /** Filters shared by the company, customer and administrators' lists. */
  filtered(companyId: string | PlatformReach, query: WasteTypeQuery) {
    const qb = this.records.query(companyId, 'e');
    if (query.hazardous !== undefined) qb.andWhere('e.hazardous = :hazardous', { hazardous: query.hazardous });
    if (query.active !== undefined) qb.andWhere('e.active = :active', { active: query.active });
    if (query.q) qb.andWhere('(e.name ILIKE :q OR e.code ILIKE :q)', { q: likePattern(query.q) });
    return qb;
  }

  list(companyId: string, query: WasteTypeQuery) {
    return paginate(this.filtered(companyId, query), query, {
      sortable: { created_at: 'e.createdAt', name: 'e.name', code: 'e.code' },
      map: WasteTypeDto.of,
    });
  }

  async get(companyId: string, id: string) {
    return WasteTypeDto.of(await this.records.find(companyId, id));
  }
  async create(actor: Actor, companyId: string, dto: CreateWasteTypeDto) {
    return WasteTypeDto.of(await this.records.create(actor, companyId, values(dto)));
  }
  async update(actor: Actor, companyId: string, id: string, dto: UpdateWasteTypeDto) {
    return WasteTypeDto.of(await this.records.update(actor, companyId, id, values(dto)));
  }
  remove(actor: Actor, companyId: string, id: string) {
    return this.records.remove(actor, companyId, id);
  }

  /** Body references must be the company's live waste types (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }

  /** Of `ids`, those that are live waste types of the company (references from other modules' bodies). */
  async liveIds(m: EntityManager, companyId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await m.find(WasteType, { select: { id: true }, where: { companyId, id: In([...ids]) } });
    return new Set(rows.map((r) => r.id));
  }

  /** Id and name of waste types (deleted ones too, for history), by name then id. */
  async refs(m: EntityManager, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (!ids.length) return [];
    const rows = await m.find(WasteType, { select: { id: true, name: true }, where: { id: In([...ids]) }, withDeleted: true, order: { name: 'ASC', id: 'ASC' } });
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
  list(@CompanyId() companyId: string, @Query() query: WasteTypeQuery) {
    return this.wasteTypes.list(companyId, query);
  }

  @Post('waste-types')
  @Access('CO')
  @Endpoint({ summary: 'Create a waste type', type: WasteTypeDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateWasteTypeDto) {
    return this.wasteTypes.create(actor, companyId, dto);
  }

  @Get('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Show a waste type', type: WasteTypeDto, errors: [404] })
  show(@CompanyId() companyId: string, @IdParam('wasteType') id: string) {
    return this.wasteTypes.get(companyId, id);
  }

  @Put('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Update a waste type (fields given are changed)', type: WasteTypeDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('wasteType') id: string, @Body() dto: UpdateWasteTypeDto) {
    return this.wasteTypes.update(actor, companyId, id, dto);
  }

  @Delete('waste-types/:wasteType')
  @Access('CO')
  @Endpoint({ summary: 'Delete a waste type (409 IN_USE while a specification allows it or a station accepts it)', errors: [404, 409], message: 'Waste type deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('wasteType') id: string) {
    await this.wasteTypes.remove(actor, companyId, id);
    return withMessage(null, 'Waste type deleted.');
  }
}
