import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Page, withMessage } from '../../common/http/envelope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { UserDto } from '../users';
import { CompanyDto } from './company.dto';
import {
  CompanyDocumentDto,
  CompanySettingsDto,
  DocumentQuery,
  ReplaceDocumentsDto,
  SETTINGS_DOC,
  UpdateCompanyDto,
  UpdateOwnUserDto,
  UpdateSettingsDto,
} from './company-admin.dto';
import { CompanyAdminService } from './company-admin.service';
import { CompanySettingsService } from './company-settings.service';

@ApiTags('Company')
@Controller('api/v1/company')
export class CompanyAdminController {
  constructor(
    private readonly admin: CompanyAdminService,
    private readonly settings: CompanySettingsService,
  ) {}

  @Post('update')
  @Access('CO')
  @Endpoint({ summary: 'Update the caller\'s company (fields given are changed; null clears email, phone, address)', type: CompanyDto, errors: [422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: UpdateCompanyDto) {
    return this.admin.updateCompany(scope, actor.id, dto);
  }

  @Post('user/update')
  @Access('CO')
  @Endpoint({ summary: 'Update the calling company user\'s own name, phone and e-mail (409 EMAIL_TAKEN)', type: UserDto, errors: [409, 422], codes: { 409: ['EMAIL_TAKEN'] } })
  updateUser(@CurrentActor() actor: Actor, @Body() dto: UpdateOwnUserDto) {
    return this.admin.updateOwnUser(actor.id, dto);
  }

  @Get('documents')
  @Access('CO')
  @Endpoint({ summary: 'List the company\'s documents (filters: type, q; sort: name, type, expires_on, created_at)', type: CompanyDocumentDto, list: true, errors: [422] })
  documents(@CurrentScope() scope: Scope, @Query() query: DocumentQuery) {
    return this.admin.listDocuments(scope, query);
  }

  @Post('documents')
  @Access('CO')
  @Endpoint({
    summary: 'Replace the company\'s documents',
    description: 'Body `{documents: [{name, type, url, expires_on?}]}` replaces the whole set (`[]` clears it); answers with the new set, in name order, as one page.',
    type: CompanyDocumentDto,
    list: true,
    errors: [422],
  })
  async replaceDocuments(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: ReplaceDocumentsDto) {
    const items = await this.admin.replaceDocuments(scope, actor.id, dto);
    return new Page(items, { page: 1, per_page: Math.max(items.length, 1), total: items.length, last_page: 1 });
  }

  @Delete('documents/:document')
  @Access('CO')
  @ApiIdParam('document')
  @Endpoint({ summary: 'Delete one of the company\'s documents', errors: [404], message: 'Document deleted.' })
  async removeDocument(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('document') id: string) {
    await this.admin.removeDocument(scope, actor.id, id);
    return withMessage(null, 'Document deleted.');
  }

  @Get('settings')
  @Access('CO')
  @Endpoint({ summary: 'The company\'s settings', description: SETTINGS_DOC, type: CompanySettingsDto })
  showSettings(@CurrentScope() scope: Scope) {
    return this.settings.get(scope);
  }

  @Post('settings')
  @Access('CO')
  @Endpoint({ summary: 'Update some of the company\'s settings (fields given are changed)', description: SETTINGS_DOC, type: CompanySettingsDto, errors: [422] })
  updateSettings(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(scope, actor.id, dto);
  }

  @Post('settings/reset')
  @Access('CO')
  @Endpoint({ summary: 'Restore the default settings (timezone and currency stay the company\'s)', description: SETTINGS_DOC, type: CompanySettingsDto })
  resetSettings(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope) {
    return this.settings.reset(scope, actor.id);
  }
}
