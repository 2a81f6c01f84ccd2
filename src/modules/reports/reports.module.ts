import { Module } from '@nestjs/common';
import { AttendanceModule } from '../attendance';
import { CatalogueModule } from '../catalogue';
import { CompaniesModule } from '../companies';
import { CustomersModule } from '../customers';
import { DispatchModule } from '../dispatch';
import { DriversModule } from '../drivers';
import { JobsModule } from '../jobs';
import { OrdersModule } from '../orders';
import { PaymentsModule } from '../payments';
import { UsersModule } from '../users';
import { AdminReportsService } from './admin-reports.service';
import { CompanyReportsService } from './company-reports.service';
import { MemberDashboardsService } from './member-dashboards.service';
import { ReportCountersRepository } from './report-counters.repository';
import { ReportsRepository } from './reports.repository';
import { CollectedSubscriber, JobCountersSubscriber, OrderCountersSubscriber, WorkedTimeSubscriber } from './report-subscribers';
import { AdminReportsController, CompanyReportsController, CustomerDashboardController, DriverDashboardController } from './reports.controller';

/**
 * Reports (layer 7, issue #15): dashboards, analytics and report tables (JSON and CSV) for companies,
 * customers, drivers and administrators. Owns the rollups (`report_daily_counters`,
 * `report_order_facts`) that its event subscribers keep; reads everything else through the owning
 * modules' services.
 */
@Module({
  imports: [UsersModule, CompaniesModule, CustomersModule, DriversModule, CatalogueModule, JobsModule, OrdersModule, DispatchModule, AttendanceModule, PaymentsModule],
  controllers: [CompanyReportsController, CustomerDashboardController, DriverDashboardController, AdminReportsController],
  providers: [ReportCountersRepository, ReportsRepository, CompanyReportsService, MemberDashboardsService, AdminReportsService, OrderCountersSubscriber, CollectedSubscriber, JobCountersSubscriber, WorkedTimeSubscriber],
  exports: [],
})
export class ReportsModule {}
