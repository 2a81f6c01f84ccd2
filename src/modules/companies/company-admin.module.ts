import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { CompanyAdminController } from './company-admin.controller';
import { CompanyAdminService } from './company-admin.service';
import { CompanySettingsService } from './company-settings.service';
import { CompanyDocumentRepository, CompanyRepository, CompanySettingsRepository } from './company.repository';

/** Company back office: the company record, the caller's profile, documents and settings. */
@Module({ imports: [UsersModule], controllers: [CompanyAdminController], providers: [CompanyRepository, CompanySettingsRepository, CompanyDocumentRepository, CompanyAdminService, CompanySettingsService], exports: [CompanySettingsService, CompanyAdminService] })
export class CompanyAdminModule {}
