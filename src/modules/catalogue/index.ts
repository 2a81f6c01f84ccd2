/** What other modules may use of the catalogue (never its entities). */
export { CatalogueModule } from './catalogue.module';
export { AssetsService } from './assets';
export { ContainerCalendar, type ContainerHold } from './container-calendar';
export { AssetSpecificationsService } from './asset-specifications';
export { WasteTypesService } from './waste-types';
export { AssetPlaces } from './asset-places';
export { CustomerCatalogueService, type Orderable } from './asset-specifications';
export { SpecificationSummaryDto } from './asset-specifications';
export { specificationSummary } from './asset-specifications';
export { AssetDto } from './assets';
/** The asset specification row type (the entity class stays inside catalogue). */
export type { AssetSpecification } from './catalogue.entities';
export { AssetQuery, CreateAssetDto, UpdateAssetDto } from './assets';
export { AssetSpecificationDto, AssetSpecificationQuery, CreateAssetSpecificationDto, UpdateAssetSpecificationDto } from './asset-specifications';
export { WasteTypeDto, WasteTypeQuery } from './waste-types';
/** Reads for the reports module (asset utilisation, counts). */
export { CatalogueReadModel } from './catalogue-read-model';
