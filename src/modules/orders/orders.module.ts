import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue';
import { CompaniesModule } from '../companies';
import { UsersModule } from '../users';
import { CompanyAdminModule } from '../companies';
import { CustomersModule } from '../customers';
import { JobsModule } from '../jobs';
import { PromotionsModule } from '../promotions';
import { PricingModule } from '../pricing';
import { SitesModule } from '../sites';
import { OrderDocumentController } from './order-document.controller';
import { OrderDocumentService } from './order-document.service';
import { CompanyChangeRequestsController, CustomerChangeRequestsController } from './change-requests.controller';
import { ChangeRequestsService } from './change-requests.service';
import { OrderInUseChecks } from './order-in-use';
import { OrderLifecycle } from './order-lifecycle';
import { OrderOperations } from './order-operations';
import { OrderTerms } from './order-terms';
import { CompanyOrdersController, CustomerOrdersController, OrderDetailsController } from './orders.controller';
import { ChangeRequestRepository } from './change-request.repository';
import { OrderBillRepository } from './order-bill.repository';
import { OrderOperationsRepository } from './order-operations.repository';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';
import { OrdersReadModel } from './orders-read-model';

/** Orders: quotes and placement (pricing engine), approval, status history, changes, documents. */
@Module({
  imports: [PricingModule, SitesModule, CompaniesModule, CompanyAdminModule, CatalogueModule, CustomersModule, PromotionsModule, JobsModule, UsersModule],
  controllers: [CustomerOrdersController, CompanyOrdersController, OrderDetailsController, OrderDocumentController, CustomerChangeRequestsController, CompanyChangeRequestsController],
  providers: [OrdersService, OrdersRepository, OrderBillRepository, OrderOperationsRepository, ChangeRequestRepository, OrderTerms, OrderLifecycle, OrderOperations, OrderDocumentService, ChangeRequestsService, OrderInUseChecks, OrdersReadModel],
  exports: [OrdersService, OrderTerms, OrderLifecycle, OrderOperations, OrdersReadModel],
})
export class OrdersModule {}
