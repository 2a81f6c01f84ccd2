import { Module } from '@nestjs/common';
import { LotsService } from './lots.service';
import { OpeningCalendar } from './opening-calendar.service';
import { LotsController, StationsController } from './sites.controller';
import { StationsService } from './stations.service';

/** Lots, stations, their holidays, and the opening calendar other modules schedule against. */
@Module({ controllers: [LotsController, StationsController], providers: [LotsService, StationsService, OpeningCalendar], exports: [LotsService, StationsService, OpeningCalendar] })
export class SitesModule {}
