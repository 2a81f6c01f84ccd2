export { ReportsModule } from './reports.module';
