import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import type { WriteAudit } from '../../common/records/write-audit';
import { CompanyDto, CompanyWithPlatformDto, CreateCompanyDto } from './company.dto';
import { Company, CompanyStatus } from './company.entity';
import { CompanySummaries, CompanySummaryDto, UsersService } from '../users';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanyRepository, type CompanyListFilter } from './company.repository';

export type { CompanyListFilter } from './company.repository';

/** The owner user an administrator creates with a company. */
export interface NewCompanyOwner {
  name: string;
  email: string;
  phone?: string;
  password?: string;
}

/** Platform settings changes (undefined = unchanged; a feature flag set to null is removed). */
export interface PlatformChanges {
  platform_fee_bps?: number | null;
  plan_override?: string | null;
  feature_flags?: Record<string, boolean | null>;
}

/** What payments reads of a company's platform settings. */
export interface CompanyPlatformSettings {
  platformFeeBps: number | null;
  planOverride: string | null;
}

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
    private readonly uow: UnitOfWork,
    private readonly companies: CompanyRepository,
    private readonly users: UsersService,
    private readonly summaries: CompanySummaries,
  ) {}

  /** A user's profile shows its company's summary (users asks through `CompanySummaries`). */
  onModuleInit(): void {
    this.summaries.register((scope) => this.summary(scope), CompanyRepository.summarySql);
  }

  /** Id, name and status of a live company; null when it is absent or deleted. */
  async summary(scope: Scope): Promise<CompanySummaryDto | null> {
    const c = await this.companies.find(scope, ['id', 'name', 'status']);
    return c && { id: c.id, name: c.name, status: c.status };
  }

  /** Whether the company exists, is active and is not deleted. */
  async isActive(scope: Scope): Promise<boolean> {
    return this.companies.isActive(scope);
  }

  /** The company's name, even when it is deleted; null when there is no such company. */
  async name(scope: Scope): Promise<string | null> {
    return this.companies.name(scope);
  }

  /** The caller's company: a company user's own, a customer's or a driver's employer. */
  async mine(actor: Actor): Promise<CompanyDto> {
    const company = actor.companyId ? await this.companies.find(Scope.company(actor.companyId)) : null;
    if (!company) throw ApiError.notFound('Company');
    return CompanyDto.of(company);
  }

  /** The company's letterhead (documents): null when the company is gone. */
  async letterhead(scope: Scope): Promise<CompanyLetterhead | null> {
    const c = await this.companies.find(scope, ['id', 'name', 'address', 'phone', 'email', 'timezone']);
    return c && { name: c.name, address: c.address, phone: c.phone, email: c.email, timezone: c.timezone || 'UTC' };
  }

  /** The company's time zone (IANA name); UTC when the company is gone. */
  async timezone(scope: Scope): Promise<string> {
    const company = await this.companies.find(scope, ['id', 'timezone']);
    return company?.timezone ?? 'UTC';
  }

  /** The company's currency (ISO code; what its amounts are in); USD when the company is gone. */
  async currency(scope: Scope): Promise<string> {
    const company = await this.companies.find(scope, ['id', 'currency']);
    return company?.currency ?? 'USD';
  }

  /** A company user creates its company and becomes its owner (once). */
  async create(actor: Actor, dto: CreateCompanyDto): Promise<CompanyDto> {
    if (actor.type !== 'company') throw ApiError.forbidden('WRONG_ACTOR', 'Only company users create a company.');
    const company = await this.uow.transaction(async () => {
      if (await this.users.lockCompanyOf(actor.id)) throw ApiError.conflict('COMPANY_EXISTS', 'You already have a company.');
      return this.insert(actor.id, actor.id, dto);
    });
    return CompanyDto.of(company);
  }

  /**
   * An administrator creates a company with its owner (a new company user, e-mail unique: 409
   * EMAIL_TAKEN) in one transaction, the same rows as registration followed by `/company/create`.
   */
  async createWithOwner(actorId: string, dto: CreateCompanyDto, owner: NewCompanyOwner, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return this.uow.transaction(async (m) => {
      const user = await this.users.create({ type: 'company', name: owner.name, email: owner.email, phone: owner.phone ?? null, password: owner.password ?? null });
      const saved = CompanyWithPlatformDto.withPlatform(await this.insert(user.id, actorId, dto));
      await audit?.(m, { id: saved.id, before: null, after: saved });
      return saved;
    });
  }

  /** The company row, the owner's membership and `company.created`, in the caller's unit. */
  private async insert(ownerId: string, actorId: string, dto: CreateCompanyDto): Promise<Company> {
    const saved = await this.companies.insert({
      ownerId,
      name: dto.name,
      email: dto.email ?? null,
      phone: dto.phone ?? null,
      address: dto.address ?? null,
      timezone: dto.timezone ?? 'UTC',
      currency: dto.currency ?? 'USD',
      status: 'active',
    });
    await this.users.assignCompany(ownerId, Scope.company(saved.id));
    await this.companies.recordEvents({ type: 'company.created', aggregateType: 'company', aggregateId: saved.id, companyId: saved.id, actorId, payload: { name: saved.name } });
    return saved;
  }

  // ------------------------------------------------------------ platform administration (README "Platform administration")

  /** Every company (deleted ones left out), for the platform's administrators. */
  async listAcross(query: CompanyListFilter): Promise<Page<CompanyWithPlatformDto>> {
    const page = await this.companies.page(query);
    return new Page(page.items.map(CompanyWithPlatformDto.withPlatform), page.meta);
  }

  /** A live company with its platform settings, else 404. */
  async withPlatform(scope: Scope): Promise<CompanyWithPlatformDto> {
    const c = await this.companies.find(scope);
    if (!c) throw ApiError.notFound('Company');
    return CompanyWithPlatformDto.withPlatform(c);
  }

  /**
   * Activates or deactivates a company (repeating its state: 409 INVALID_TRANSITION). The access guard
   * reads the status on every request, so its users' role routes answer 403 COMPANY_INACTIVE at once.
   */
  async setStatus(actorId: string, scope: Scope, to: CompanyStatus, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return this.uow.transaction(async (m) => {
      const c = await this.lock(scope);
      if (c.status === to) throw ApiError.invalidTransition(c.status, to, 'Company');
      const before = CompanyWithPlatformDto.withPlatform(c);
      await this.companies.update(scope, { status: to });
      await this.companies.recordEvents({ type: `company.${to === 'active' ? 'activated' : 'deactivated'}`, aggregateType: 'company', aggregateId: c.id, companyId: c.id, actorId, payload: { from: c.status, to } });
      const after = await this.withPlatform(scope);
      await audit?.(m, { id: c.id, before, after });
      return after;
    });
  }

  /** Changes the platform settings (fields given; a flag set to null is removed). */
  async updatePlatform(actorId: string, scope: Scope, changes: PlatformChanges, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return this.uow.transaction(async (m) => {
      const c = await this.lock(scope);
      const before = CompanyWithPlatformDto.withPlatform(c);
      const patch: Partial<Company> = {};
      if (changes.platform_fee_bps !== undefined) patch.platformFeeBps = changes.platform_fee_bps;
      if (changes.plan_override !== undefined) patch.planOverride = changes.plan_override;
      if (changes.feature_flags !== undefined) {
        const flags = { ...(c.featureFlags ?? {}) };
        for (const [k, v] of Object.entries(changes.feature_flags)) {
          if (v === null) delete flags[k];
          else flags[k] = v;
        }
        patch.featureFlags = flags;
      }
      if (Object.keys(patch).length) await this.companies.update(scope, patch);
      await this.companies.recordEvents({ type: 'company.platform_updated', aggregateType: 'company', aggregateId: c.id, companyId: c.id, actorId, payload: { fields: Object.keys(changes) } });
      const after = await this.withPlatform(scope);
      await audit?.(m, { id: c.id, before, after });
      return after;
    });
  }

  /** The platform settings payments applies (fee, plan override); null when the company is gone. */
  async platformSettings(scope: Scope): Promise<CompanyPlatformSettings | null> {
    const c = await this.companies.find(scope, ['id', 'platformFeeBps', 'planOverride']);
    return c && { platformFeeBps: c.platformFeeBps, planOverride: c.planOverride };
  }

  /** Reports (admin dashboard): live companies per status, and those created in [from, to] (UTC dates). One statement. */
  async statusCounts(from: string, to: string): Promise<{ status: CompanyStatus; total: number; created: number }[]> {
    const rows = await this.companies.statusCounts(from, to);
    return rows.map((r) => ({ status: r.status, total: Number(r.total), created: Number(r.created) }));
  }

  private async lock(scope: Scope): Promise<Company> {
    const c = await this.companies.lock(scope);
    if (!c) throw ApiError.notFound('Company');
    return c;
  }
}
