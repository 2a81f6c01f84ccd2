/** What other modules may use of promotions (never its entities). */
export { PromotionsModule } from './promotions.module';
export { PromotionsService, type RedeemablePromotion } from './promotions.service';
