import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { AssetCategoriesController, AssetCategoriesService, AssetStylesController, AssetStylesService } from './asset-categories-styles';
import { AssetSpecificationsController, AssetSpecificationsService, CustomerCatalogueService, SpecWasteTypesService } from './asset-specifications';
import { AssetPlaces } from './asset-places';
import { AssetsController, AssetsService } from './assets';
import { CustomerCatalogueController } from './customer';
import { WasteTypesController, WasteTypesService } from './waste-types';
import { CatalogueReadModel } from './catalogue-read-model';
import { AvailabilityController, ContainerCalendar, CustomerAvailabilityController } from './container-calendar';
import { ContainerCalendarRepository } from './container-calendar.repository';
import { AssetRepository } from './asset.repository';
import { SpecificationRepository } from './specification.repository';
import { WasteTypeRepository } from './waste-type.repository';
import { AssetCategoryStyleRepository } from './asset-category-style.repository';

/** Waste types, asset categories and styles, asset specifications (with their waste types), assets. */
@Module({
  controllers: [WasteTypesController, AssetCategoriesController, AssetStylesController, AssetSpecificationsController, AssetsController, CustomerCatalogueController, AvailabilityController, CustomerAvailabilityController],
  providers: [WasteTypesService, AssetCategoriesService, AssetStylesService, AssetSpecificationsService, SpecWasteTypesService, CustomerCatalogueService, AssetsService, AssetPlaces, CatalogueReadModel, AssetRepository, SpecificationRepository, WasteTypeRepository, AssetCategoryStyleRepository, ContainerCalendar, ContainerCalendarRepository],
  exports: [AssetsService, ContainerCalendar, WasteTypesService, AssetSpecificationsService, CustomerCatalogueService, AssetPlaces, CatalogueReadModel],
})
export class CatalogueModule {}
