import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { CompanyAdminController } from './company-admin.controller';
import { CompanyAdminService } from './company-admin.service';
import { CompanySettingsService } from './company-settings.service';

/** Company back office: the company record, the caller's profile, documents and settings. */
@Module({ imports: [UsersModule], controllers: [CompanyAdminController], providers: [CompanyAdminService, CompanySettingsService], exports: [CompanySettingsService, CompanyAdminService] })
export class CompanyAdminModule {}
