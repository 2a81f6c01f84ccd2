import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { PricingCatalog } from './pricing-catalog';
import { PaymentTermsController, PoliciesController, PricingProfilesController, TaxesController } from './pricing.controller';
import { PricingProfilesService } from './pricing-profiles.service';
import { PaymentTermRepository, PolicyRepository, PricingProfileRepository, TaxRepository } from './pricing.repository';
import { PaymentTermsService, PoliciesService, TaxesService } from './pricing.service';

/** Taxes, payment terms, policies and pricing profiles; exports the read-side PricingCatalog and PricingProfilesService. */
@Module({
  imports: [CatalogueModule],
  controllers: [TaxesController, PaymentTermsController, PoliciesController, PricingProfilesController],
  providers: [TaxRepository, PaymentTermRepository, PolicyRepository, PricingProfileRepository, TaxesService, PaymentTermsService, PoliciesService, PricingProfilesService, PricingCatalog],
  exports: [PricingCatalog, PricingProfilesService],
})
export class PricingModule {}
