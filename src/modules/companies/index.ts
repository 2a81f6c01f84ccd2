/** What other modules may use of companies (never its entities). */
export { CompaniesModule } from './companies.module';
export { CompaniesService, type CompanyLetterhead } from './companies.service';
export { CompanyDto } from './company.dto';
export { CompanyAdminModule } from './company-admin.module';
export { CompanySettingsService } from './company-settings.service';
export type { CompanySettingsDto } from './company-admin.dto';
