import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
import type { WriteAudit } from '../../common/records/write-audit';
import { UserDto } from '../users';
import { CompanyDto } from './company.dto';
import { UsersService } from '../users';
import { CompanyDocumentDto, DocumentQuery, ReplaceDocumentsDto, UpdateCompanyDto, UpdateOwnUserDto } from './company-admin.dto';
import { CompanySettingsService } from './company-settings.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanyDocumentRepository, CompanyRepository } from './company.repository';

const emailTaken = () => ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');

/** The company's own record, the calling user's profile, and the company's documents. */
@Injectable()
export class CompanyAdminService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly companies: CompanyRepository,
    private readonly documents: CompanyDocumentRepository,
    private readonly users: UsersService,
    private readonly settings: CompanySettingsService,
  ) {}

  /** `audit` (platform administration) is called in the same transaction with the company before and after. */
  async updateCompany(scope: Scope, actorId: string, dto: UpdateCompanyDto, audit?: WriteAudit): Promise<CompanyDto> {
    const company = await this.uow.transaction(async (m) => {
      const c = await this.companies.lock(scope);
      if (!c) throw ApiError.notFound('Company');
      const before = CompanyDto.of(c);
      if (dto.name !== undefined) c.name = dto.name;
      if (dto.email !== undefined) c.email = dto.email || null;
      if (dto.phone !== undefined) c.phone = dto.phone || null;
      if (dto.address !== undefined) c.address = dto.address || null;
      if (dto.timezone !== undefined) c.timezone = dto.timezone;
      if (dto.currency !== undefined) c.currency = dto.currency;
      const saved = await this.companies.save(c);
      await this.settings.mirrorCompany(scope, saved);
      await this.companies.recordEvents({ type: 'company.updated', aggregateType: 'company', aggregateId: scope.companyId, companyId: scope.companyId, actorId, payload: { fields: Object.keys(dto) } });
      await audit?.(m, { id: scope.companyId, before, after: CompanyDto.of(saved) });
      return saved;
    });
    return CompanyDto.of(company);
  }

  /** The caller's own name, phone and e-mail (unique; a new address is unverified). */
  async updateOwnUser(actorId: string, dto: UpdateOwnUserDto): Promise<UserDto> {
    return this.uow.transaction(async () => {
      await this.users.updateContact(null, actorId, dto);
      const profile = await this.users.profile(actorId);
      await this.companies.recordEvents({ type: 'user.updated', aggregateType: 'user', aggregateId: actorId, companyId: profile.company_id ?? null, actorId, payload: { fields: Object.keys(dto) } });
      return profile;
    });
  }

  async listDocuments(scope: Scope, query: DocumentQuery): Promise<Page<CompanyDocumentDto>> {
    const page = await this.documents.page(scope, query);
    return new Page(page.items.map(CompanyDocumentDto.of), page.meta);
  }

  /** Replaces the whole set; answers with the new set in name order. */
  async replaceDocuments(scope: Scope, actorId: string, dto: ReplaceDocumentsDto): Promise<CompanyDocumentDto[]> {
    return this.uow.transaction(async () => {
      // Serialises concurrent replacements of the same company's set.
      await this.companies.lock(scope);
      const saved = await this.documents.replace(scope, dto.documents.map((d) => ({ name: d.name, type: d.type, url: d.url, expiresOn: d.expires_on ?? null })));
      await this.companies.recordEvents({ type: 'company.documents_replaced', aggregateType: 'company', aggregateId: scope.companyId, companyId: scope.companyId, actorId, payload: { count: saved.length } });
      return saved.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).map(CompanyDocumentDto.of);
    });
  }

  async removeDocument(scope: Scope, actorId: string, id: string): Promise<void> {
    await this.uow.transaction(async () => {
      const doc = await this.documents.lock(scope, id);
      await this.documents.delete(scope, id);
      await this.companies.recordEvents({ type: 'company.document_deleted', aggregateType: 'company', aggregateId: scope.companyId, companyId: scope.companyId, actorId, payload: { document_id: id, name: doc.name } });
    });
  }
}
