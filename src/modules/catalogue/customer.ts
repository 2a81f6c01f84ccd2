import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
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
  listSpecs(@CurrentScope() scope: Scope, @Query() query: CustomerAssetSpecificationQuery) {
    return this.catalogue.listSpecs(Scope.company(scope.companyId), query);
  }

  @Get('asset-specifications/:assetSpecification')
  @Access('CU')
  @Endpoint({ summary: 'Show an active asset specification with its allowed waste types', type: CustomerAssetSpecificationDto, errors: [404] })
  showSpec(@CurrentScope() scope: Scope, @IdParam('assetSpecification') id: string) {
    return this.catalogue.showSpec(Scope.company(scope.companyId), id);
  }

  @Get('waste-types')
  @Access('CU')
  @Endpoint({ summary: 'List the active waste types (filters: hazardous, q)', type: WasteTypeDto, list: true, errors: [422] })
  listWasteTypes(@CurrentScope() scope: Scope, @Query() query: CustomerWasteTypeQuery) {
    return this.wasteTypes.listActive(Scope.company(scope.companyId), query);
  }

  @Get('waste-types/:wasteType')
  @Access('CU')
  @Endpoint({ summary: 'Show an active waste type', type: WasteTypeDto, errors: [404] })
  async showWasteType(@CurrentScope() scope: Scope, @IdParam('wasteType') id: string) {
    const w = await this.wasteTypes.get(Scope.company(scope.companyId), id);
    if (!w.active) throw ApiError.notFound('Waste type');
    return w;
  }
}
