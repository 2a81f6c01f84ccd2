import { Asset, AssetCategory, AssetHistory, AssetSpecification, AssetSpecificationWasteType, AssetStyle, ContainerReservation, WasteType } from './catalogue.entities';

/**
 * This module's entities (its tables). Every data source gets them from here (src/app.entities.ts loads
 * the `ENTITIES` of each module's entities.ts); a new entity of the module is added to this list.
 */
export const ENTITIES = [Asset, AssetCategory, AssetHistory, AssetSpecification, AssetSpecificationWasteType, AssetStyle, ContainerReservation, WasteType];
