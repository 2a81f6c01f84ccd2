import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { CompaniesModule } from '../companies';
import { PromotionsController } from './promotions.controller';
import { PromotionRepository } from './promotion.repository';
import { PromotionsService } from './promotions.service';

/** Promotion codes and the customer's view of what they apply to. */
@Module({ imports: [CompaniesModule, CatalogueModule], controllers: [PromotionsController], providers: [PromotionsService, PromotionRepository], exports: [PromotionsService] })
export class PromotionsModule {}
