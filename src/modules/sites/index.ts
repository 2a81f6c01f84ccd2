/** What other modules may use of sites (never its entities). */
export { SitesModule } from './sites.module';
export { LotsService, type ServingLot } from './lots.service';
export type { SiteDay, StationDay } from './lots.service';
export type { OpenResult } from './opening-calendar.service';
export { StationsService } from './stations.service';
export { OpeningCalendar, assertOpenResult } from './opening-calendar.service';
