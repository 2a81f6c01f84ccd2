import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { AssetPlaces, CatalogueModule } from '../catalogue';
import { SitesModule } from '../sites';
import { TrucksController, TruckTypesController } from './fleet.controller';
import { TrucksService, TruckTypesService } from './fleet.service';
import { TruckRepository } from './truck.repository';
import { TruckTypeRepository } from './truck-type.repository';

/** Truck types and trucks. */
@Module({ imports: [CatalogueModule, SitesModule], controllers: [TruckTypesController, TrucksController], providers: [TruckTypesService, TrucksService, TruckTypeRepository, TruckRepository], exports: [TrucksService, TruckTypesService] })
export class FleetModule implements OnModuleInit {
  constructor(
    private readonly places: AssetPlaces,
    private readonly trucks: TrucksService,
  ) {}

  /** An asset may be on a truck: catalogue checks it through the trucks service. */
  onModuleInit(): void {
    this.places.register('truck', 'fleet', (scope, refs) => this.trucks.assertOwned(scope, refs));
  }
}
