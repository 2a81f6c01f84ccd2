/** What other modules may use of companies (never its entities). */
export { CompaniesModule } from './companies.module';
export { CompaniesService, type CompanyLetterhead, type CompanyListFilter, type CompanyPlatformSettings, type NewCompanyOwner, type PlatformChanges } from './companies.service';
export { COMPANY_STATUSES, CompanyDto, CompanyWithPlatformDto, CreateCompanyDto, PlatformSettingsDto, type CompanyStatus } from './company.dto';
export { CompanyAdminModule } from './company-admin.module';
export { CompanySettingsService } from './company-settings.service';
export { CompanyAdminService } from './company-admin.service';
export { UpdateCompanyDto } from './company-admin.dto';

export type { CompanySettingsDto } from './company-admin.dto';
