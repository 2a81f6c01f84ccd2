import { DynamicModule, Module, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from './common/common.module';
import { AppConfig } from './config/app-config';
import { DatabaseTarget, databaseTarget, openDataSource } from './database/data-source-options';
import { AdminModule } from './modules/admin/admin.module';
import { AuthModule } from './modules/auth/auth.module';
import { CompaniesModule } from './modules/companies/companies.module';
import { CustomersModule } from './modules/customers/customers.module';
import { DocsModule } from './modules/docs/docs.module';
import { DriversModule } from './modules/drivers/drivers.module';
import { HealthModule } from './modules/health/health.module';

/** Feature modules, one folder each under src/modules. A new module is added here. */
export const FEATURE_MODULES = [AuthModule, AdminModule, CompaniesModule, CustomersModule, DriversModule, HealthModule, DocsModule];

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
          useFactory: () => (target = databaseTarget(config)).options,
          // Opened and migrated here; destroying the DataSource also closes the embedded database.
          dataSourceFactory: async () => openDataSource(target),
        }),
        ...FEATURE_MODULES,
        ...extraModules,
      ],
    };
  }
}
