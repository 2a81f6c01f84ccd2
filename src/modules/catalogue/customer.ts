import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CompanyId } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { paginate, PageQuery } from '../../common/http/pagination';
import { BoolQuery } from '../../common/validation/fields';
import { CustomerAssetSpecificationDto, CustomerAssetSpecificationQuery, CustomerCatalogueService } from './asset-specifications';
import { WasteTypeDto, WasteTypesService } from './waste-types';

export class CustomerWasteTypeQuery extends PageQuery {
  @BoolQuery() hazardous?: boolean;
}

/** What a customer may order: the active specifications and waste types of its company. */
@ApiTags('Customer catalogue')
@Controller('api/v1/customer')
export class CustomerCatalogueController {
  constructor(
    private readonly catalogue: CustomerCatalogueService,
    private readonly wasteTypes: WasteTypesService,
  ) {}

  @Get('asset-specifications')
  @Access('CU')
  @Endpoint({ summary: 'List the active asset specifications, with their allowed waste types (filters: asset_category_id, q)', type: CustomerAssetSpecificationDto, list: true, errors: [422] })
  listSpecs(@CompanyId() companyId: string, @Query() query: CustomerAssetSpecificationQuery) {
    return this.catalogue.listSpecs(companyId, query);
  }

  @Get('asset-specifications/:assetSpecification')
  @Access('CU')
  @Endpoint({ summary: 'Show an active asset specification with its allowed waste types', type: CustomerAssetSpecificationDto, errors: [404] })
  showSpec(@CompanyId() companyId: string, @IdParam('assetSpecification') id: string) {
    return this.catalogue.showSpec(companyId, id);
  }

  @Get('waste-types')
  @Access('CU')
  @Endpoint({ summary: 'List the active waste types (filters: hazardous, q)', type: WasteTypeDto, list: true, errors: [422] })
  listWasteTypes(@CompanyId() companyId: string, @Query() query: CustomerWasteTypeQuery) {
    return paginate(this.wasteTypes.filtered(companyId, { ...query, active: true }), query, {
      sortable: { created_at: 'e.createdAt', name: 'e.name', code: 'e.code' },
      defaultSort: 'name',
      map: WasteTypeDto.of,
    });
  }

  @Get('waste-types/:wasteType')
  @Access('CU')
  @Endpoint({ summary: 'Show an active waste type', type: WasteTypeDto, errors: [404] })
  async showWasteType(@CompanyId() companyId: string, @IdParam('wasteType') id: string) {
    const w = await this.wasteTypes.get(companyId, id);
    if (!w.active) throw ApiError.notFound('Waste type');
    return w;
  }
}
