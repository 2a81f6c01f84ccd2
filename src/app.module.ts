import { OrdersModule } from './modules/orders/orders.module';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from './common/common.module';
import { moduleEntities } from './app.entities';
import { AppConfig } from './config/app-config';
import { DatabaseTarget, databaseTarget, openDataSource } from './database/data-source-options';
import { AdminModule } from './modules/admin/admin.module';
import { AuthModule } from './modules/auth/auth.module';
import { CatalogueModule } from './modules/catalogue/catalogue.module';
import { QrCodesModule } from './modules/qr-codes/qr-codes.module';
import { CompaniesModule } from './modules/companies/companies.module';
import { CustomersModule } from './modules/customers/customers.module';
import { DocsModule } from './modules/docs/docs.module';
import { DriversModule } from './modules/drivers/drivers.module';
import { HealthModule } from './modules/health/health.module';
import { MediaModule } from './modules/media/media.module';
import { FleetModule } from './modules/fleet/fleet.module';
import { JobsModule } from './modules/jobs/jobs.module';
import { AttendanceModule } from './modules/attendance/attendance.module';
import { DispatchModule } from './modules/dispatch/dispatch.module';
import { LeavesModule } from './modules/leaves/leaves.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { PricingModule } from './modules/pricing/pricing.module';
import { PromotionsModule } from './modules/promotions/promotions.module';
import { SitesModule } from './modules/sites/sites.module';
import { CompanyAdminModule } from './modules/companies/company-admin.module';
import { AccountabilityModule } from './modules/accountability';
import { CommunicationModule } from './modules/communication';
import { PlatformModule } from './modules/platform';
import { ReportsModule } from './modules/reports';

/** Feature modules, one folder each under src/modules. A new module is added here. */
export const FEATURE_MODULES = [AuthModule, AdminModule, CompaniesModule, CatalogueModule, QrCodesModule, CustomersModule, DriversModule, HealthModule, DocsModule, SitesModule, CompanyAdminModule, MediaModule, PricingModule, FleetModule, PromotionsModule, JobsModule, OrdersModule, AttendanceModule, DispatchModule, PaymentsModule, LeavesModule, AccountabilityModule, CommunicationModule, PlatformModule, ReportsModule];

@Module({})
export class AppModule {
  /** `extraModules`: test-only modules (probe controllers); production passes none. */
  static forRoot(config: AppConfig, extraModules: Type[] = []): DynamicModule {
    let target: DatabaseTarget;
    return {
      module: AppModule,
      imports: [
        CommonModule.forRoot(config),
        DiscoveryModule,
        TypeOrmModule.forRootAsync({
          // The embedded data folder is locked here, before PGlite opens it (refused: DataFolderLockError, main.ts exits 75).
          useFactory: async () => (target = await databaseTarget(config, { opener: 'server', entities: moduleEntities() })).options,
          // Opened and migrated here; destroying the DataSource also closes the embedded database.
          dataSourceFactory: async () => openDataSource(target),
        }),
        ...FEATURE_MODULES,
        ...extraModules,
      ],
    };
  }
}
