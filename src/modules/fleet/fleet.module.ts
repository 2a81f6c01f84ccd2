import { Module } from '@nestjs/common';
import { TrucksController, TruckTypesController } from './fleet.controller';
import { TrucksService, TruckTypesService } from './fleet.service';

/** Truck types and trucks. */
@Module({ controllers: [TruckTypesController, TrucksController], providers: [TruckTypesService, TrucksService], exports: [TrucksService] })
export class FleetModule {}
