import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { findScoped } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import type { WriteAudit } from '../../common/records/write-audit';
import { UserDto } from '../users';
import { CompanyDto } from './company.dto';
import { Company } from './company.entity';
import { UsersService } from '../users';
import { CompanyDocumentDto, DocumentQuery, ReplaceDocumentsDto, UpdateCompanyDto, UpdateOwnUserDto } from './company-admin.dto';
import { CompanyDocument } from './company-admin.entity';
import { CompanySettingsService } from './company-settings.service';
import { isUniqueViolation } from '../../database/pg-errors';
import { runUnit } from '../../database/unit-of-work';

const emailTaken = () => ApiError.conflict('EMAIL_TAKEN', 'This e-mail address is already registered.');

/** The company's own record, the calling user's profile, and the company's documents. */
@Injectable()
export class CompanyAdminService {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersService,
    private readonly settings: CompanySettingsService,
  ) {}

  /** `audit` (platform administration) is called in the same transaction with the company before and after. */
  async updateCompany(companyId: string, actorId: string, dto: UpdateCompanyDto, audit?: WriteAudit): Promise<CompanyDto> {
    const company = await runUnit(this.ds, async (m) => {
      const c = await m.findOne(Company, { where: { id: companyId }, lock: { mode: 'pessimistic_write' } });
      if (!c) throw ApiError.notFound('Company');
      const before = CompanyDto.of(c);
      if (dto.name !== undefined) c.name = dto.name;
      if (dto.email !== undefined) c.email = dto.email || null;
      if (dto.phone !== undefined) c.phone = dto.phone || null;
      if (dto.address !== undefined) c.address = dto.address || null;
      if (dto.timezone !== undefined) c.timezone = dto.timezone;
      if (dto.currency !== undefined) c.currency = dto.currency;
      const saved = await m.save(c);
      await this.settings.mirrorCompany(m, saved);
      await recordEvents(m, { type: 'company.updated', aggregateType: 'company', aggregateId: companyId, companyId, actorId, payload: { fields: Object.keys(dto) } });
      await audit?.(m, { id: companyId, before, after: CompanyDto.of(saved) });
      return saved;
    });
    return CompanyDto.of(company);
  }

  /** The caller's own name, phone and e-mail (unique; a new address is unverified). */
  async updateOwnUser(actorId: string, dto: UpdateOwnUserDto): Promise<UserDto> {
    return runUnit(this.ds, async (m) => {
      await this.users.updateContact(m, actorId, dto);
      const profile = await this.users.profile(actorId, m);
      await recordEvents(m, { type: 'user.updated', aggregateType: 'user', aggregateId: actorId, companyId: profile.company_id ?? null, actorId, payload: { fields: Object.keys(dto) } });
      return profile;
    });
  }

  async listDocuments(companyId: string, query: DocumentQuery): Promise<Page<CompanyDocumentDto>> {
    const qb = this.ds.getRepository(CompanyDocument).createQueryBuilder('d').where('d.companyId = :companyId', { companyId });
    if (query.type) qb.andWhere('d.type = :type', { type: query.type });
    if (query.q) qb.andWhere('(d.name ILIKE :q OR d.type ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, {
      sortable: { name: 'd.name', type: 'd.type', expires_on: 'd.expiresOn', created_at: 'd.createdAt' },
      defaultSort: 'name',
      map: CompanyDocumentDto.of,
    });
  }

  /** Replaces the whole set; answers with the new set in name order. */
  async replaceDocuments(companyId: string, actorId: string, dto: ReplaceDocumentsDto): Promise<CompanyDocumentDto[]> {
    return runUnit(this.ds, async (m) => {
      // Serialises concurrent replacements of the same company's set.
      await m.query(`SELECT id FROM companies WHERE id = $1 FOR UPDATE`, [companyId]);
      await m.delete(CompanyDocument, { companyId });
      const rows = dto.documents.map((d) => m.create(CompanyDocument, { companyId, name: d.name, type: d.type, url: d.url, expiresOn: d.expires_on ?? null }));
      const saved = rows.length ? await m.save(rows) : [];
      await recordEvents(m, { type: 'company.documents_replaced', aggregateType: 'company', aggregateId: companyId, companyId, actorId, payload: { count: saved.length } });
      return saved.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).map(CompanyDocumentDto.of);
    });
  }

  async removeDocument(companyId: string, actorId: string, id: string): Promise<void> {
    await runUnit(this.ds, async (m) => {
      const doc = await findScoped(m, CompanyDocument, Scope.company(companyId), id, { what: 'Document', lock: true });
      await m.delete(CompanyDocument, { id });
      await recordEvents(m, { type: 'company.document_deleted', aggregateType: 'company', aggregateId: companyId, companyId, actorId, payload: { document_id: id, name: doc.name } });
    });
  }
}
