import { Module } from '@nestjs/common';
import { CompanyAdminModule } from '../company-admin/company-admin.module';
import { PricingModule } from '../pricing/pricing.module';
import { SitesModule } from '../sites/sites.module';
import { OrderDocumentController } from './order-document.controller';
import { OrderDocumentService } from './order-document.service';
import { CompanyChangeRequestsController, CustomerChangeRequestsController } from './change-requests.controller';
import { ChangeRequestsService } from './change-requests.service';
import { OrderLifecycle } from './order-lifecycle';
import { OrderTerms } from './order-terms';
import { CompanyOrdersController, CustomerOrdersController, OrderDetailsController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Orders: quotes and placement (pricing engine), approval, status history, changes, documents. */
@Module({
  imports: [PricingModule, SitesModule, CompanyAdminModule],
  controllers: [CustomerOrdersController, CompanyOrdersController, OrderDetailsController, OrderDocumentController, CustomerChangeRequestsController, CompanyChangeRequestsController],
  providers: [OrdersService, OrderTerms, OrderLifecycle, OrderDocumentService, ChangeRequestsService],
  exports: [OrdersService, OrderTerms, OrderLifecycle],
})
export class OrdersModule {}
