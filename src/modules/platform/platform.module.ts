import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { CatalogueModule } from '../catalogue';
import { CompaniesModule, CompanyAdminModule } from '../companies';
import { CustomersModule } from '../customers';
import { DriversModule } from '../drivers';
import { OrdersModule } from '../orders';
import { PaymentsModule } from '../payments';
import { AdminCompaniesController, AdminRecordsController } from './platform.controller';
import { PlatformService } from './platform.service';
import { AuditEntryRepository } from './audit-entry.repository';

/**
 * Platform (layer 7, issue #15): administration across companies through the services the companies'
 * own routes use, with an audit log of every write (README "Platform administration").
 */
@Module({
  imports: [AuthModule, CatalogueModule, CompaniesModule, CompanyAdminModule, CustomersModule, DriversModule, OrdersModule, PaymentsModule],
  controllers: [AdminCompaniesController, AdminRecordsController],
  providers: [PlatformService, AuditEntryRepository],
  exports: [],
})
export class PlatformModule {}
