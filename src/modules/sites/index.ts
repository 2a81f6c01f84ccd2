/** What other modules may use of sites (never its entities). */
export { SitesModule } from './sites.module';
export { LotsService } from './lots.service';
export { StationsService } from './stations.service';
export { OpeningCalendar } from './opening-calendar.service';
