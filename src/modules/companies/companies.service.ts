import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { recordEvents } from '../../common/outbox/outbox';
import { CompanyDto, CreateCompanyDto } from './company.dto';
import { Company } from './company.entity';
import { CompanySummaries, CompanySummaryDto, UsersService } from '../users';

/** What a document prints of its company. */
export interface CompanyLetterhead {
  name: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  timezone: string;
}

@Injectable()
export class CompaniesService implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly users: UsersService,
    private readonly summaries: CompanySummaries,
  ) {}

  /** A user's profile shows its company's summary (users asks through `CompanySummaries`). */
  onModuleInit(): void {
    this.summaries.register(
      (m, companyId) => this.summary(companyId, m),
      (idColumn) => `(SELECT json_build_object('id', c.id, 'name', c.name, 'status', c.status) FROM companies c WHERE c.id = ${idColumn} AND c.deleted_at IS NULL)`,
    );
  }

  /** Id, name and status of a live company; null when it is absent or deleted. */
  async summary(companyId: string, m: EntityManager = this.ds.manager): Promise<CompanySummaryDto | null> {
    const c = await m.getRepository(Company).findOne({ select: { id: true, name: true, status: true }, where: { id: companyId } });
    return c && { id: c.id, name: c.name, status: c.status };
  }

  /** Whether the company exists, is active and is not deleted. */
  async isActive(companyId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return m.getRepository(Company).existsBy({ id: companyId, status: 'active' });
  }

  /** The company's name, even when it is deleted; null when there is no such company. */
  async name(companyId: string, m: EntityManager = this.ds.manager): Promise<string | null> {
    const c = await m.getRepository(Company).findOne({ select: { id: true, name: true }, where: { id: companyId }, withDeleted: true });
    return c?.name ?? null;
  }

  /** The caller's company: a company user's own, a customer's or a driver's employer. */
  async mine(actor: Actor): Promise<CompanyDto> {
    const company = actor.companyId ? await this.ds.getRepository(Company).findOneBy({ id: actor.companyId }) : null;
    if (!company) throw ApiError.notFound('Company');
    return CompanyDto.of(company);
  }

  /** The company's letterhead (documents): null when the company is gone. */
  async letterhead(companyId: string, m: EntityManager = this.ds.manager): Promise<CompanyLetterhead | null> {
    const c = await m.getRepository(Company).findOne({ select: { id: true, name: true, address: true, phone: true, email: true, timezone: true }, where: { id: companyId } });
    return c && { name: c.name, address: c.address, phone: c.phone, email: c.email, timezone: c.timezone || 'UTC' };
  }

  /** The company's time zone (IANA name); UTC when the company is gone. */
  async timezone(companyId: string, m: EntityManager = this.ds.manager): Promise<string> {
    const company = await m.getRepository(Company).findOne({ select: { id: true, timezone: true }, where: { id: companyId } });
    return company?.timezone ?? 'UTC';
  }

  /** A company user creates its company and becomes its owner (once). */
  async create(actor: Actor, dto: CreateCompanyDto): Promise<CompanyDto> {
    if (actor.type !== 'company') throw ApiError.forbidden('WRONG_ACTOR', 'Only company users create a company.');
    const company = await this.ds.transaction(async (m) => {
      if (await this.users.lockCompanyOf(m, actor.id)) throw ApiError.conflict('COMPANY_EXISTS', 'You already have a company.');
      const saved = await m.save(
        m.create(Company, {
          ownerId: actor.id,
          name: dto.name,
          email: dto.email ?? null,
          phone: dto.phone ?? null,
          address: dto.address ?? null,
          timezone: dto.timezone ?? 'UTC',
          currency: dto.currency ?? 'USD',
          status: 'active',
        }),
      );
      await this.users.assignCompany(m, actor.id, saved.id);
      await recordEvents(m, { type: 'company.created', aggregateType: 'company', aggregateId: saved.id, companyId: saved.id, actorId: actor.id, payload: { name: saved.name } });
      return saved;
    });
    return CompanyDto.of(company);
  }
}
