/** What other modules may use of fleet (never its entities). */
export { FleetModule } from './fleet.module';
export { TrucksService, TruckTypesService } from './fleet.service';
export type { TruckForDispatch } from './fleet.service';
