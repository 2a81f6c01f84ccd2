import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CompanyAdminModule } from '../companies';
import { CustomersModule } from '../customers';
import { MediaModule } from '../media';
import { OrdersModule } from '../orders';
import { PaymentsModule } from '../payments';
import { PricingModule } from '../pricing';
import { CompanyAccountabilityController, CustomerAccountabilityController } from './accountability.controller';
import { CreditWaivedFee, RecomputeOnSettings } from './accountability.subscribers';
import { DemeritService } from './demerit.service';
import { DisputesService } from './disputes.service';
import { ViolationsService } from './violations.service';

/**
 * Accountability (layer 6, issue #14): policy violations recorded on orders (the fee on the order's
 * bill through `OrderOperations`), disputes, and demerit points (the customer's standing, copied to
 * the customer for placement's `DEMERIT_BLOCKED`). A waived fee paid beyond the order's new total is
 * credited to the wallet through payments' `LedgerService` (same layer; payments never imports this).
 */
@Module({
  imports: [CompanyAdminModule, CustomersModule, MediaModule, OrdersModule, PaymentsModule, PricingModule],
  controllers: [CompanyAccountabilityController, CustomerAccountabilityController],
  providers: [DemeritService, ViolationsService, DisputesService, CreditWaivedFee, RecomputeOnSettings],
  exports: [DemeritService, ViolationsService],
})
export class AccountabilityModule {}
