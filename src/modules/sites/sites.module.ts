import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { AssetPlaces, CatalogueModule } from '../catalogue';
import { LotsService } from './lots.service';
import { OpeningCalendar } from './opening-calendar.service';
import { LotRepository, StationRepository } from './site.repository';
import { LotsController, StationsController } from './sites.controller';
import { StationsService } from './stations.service';

/** Lots, stations, their holidays, and the opening calendar other modules schedule against. */
@Module({ imports: [CatalogueModule], controllers: [LotsController, StationsController], providers: [LotRepository, StationRepository, LotsService, StationsService, OpeningCalendar], exports: [LotsService, StationsService, OpeningCalendar] })
export class SitesModule implements OnModuleInit {
  constructor(
    private readonly places: AssetPlaces,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
  ) {}

  /** An asset's home lot or location may be a lot or a station: catalogue checks them through these services (in its unit). */
  onModuleInit(): void {
    this.places.register(
      'lot',
      'sites',
      (scope, refs) => this.lots.assertOwned(scope, refs),
      async (scope, id) => this.lots.find(scope, id),
    );
    this.places.register('station', 'sites', (scope, refs) => this.stations.assertOwned(scope, refs));
  }
}
