import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, PageQuery, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import type { WriteAudit } from '../../common/records/write-audit';
import { CompanyDto, CompanyWithPlatformDto, CreateCompanyDto } from './company.dto';
import { Company, CompanyStatus } from './company.entity';
import { CompanySummaries, CompanySummaryDto, UsersService } from '../users';
import { runUnit } from '../../database/unit-of-work';

/** The administrators' list of companies: `status`, `q` (name, e-mail), `from`/`to` (created, UTC dates). */
export interface CompanyListFilter extends PageQuery {
  status?: CompanyStatus;
  from?: string;
  to?: string;
}

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
    const company = await runUnit(this.ds, async (m) => {
      if (await this.users.lockCompanyOf(m, actor.id)) throw ApiError.conflict('COMPANY_EXISTS', 'You already have a company.');
      return this.insert(m, actor.id, actor.id, dto);
    });
    return CompanyDto.of(company);
  }

  /**
   * An administrator creates a company with its owner (a new company user, e-mail unique: 409
   * EMAIL_TAKEN) in one transaction, the same rows as registration followed by `/company/create`.
   */
  async createWithOwner(actorId: string, dto: CreateCompanyDto, owner: NewCompanyOwner, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return runUnit(this.ds, async (m) => {
      const user = await this.users.create(m, { type: 'company', name: owner.name, email: owner.email, phone: owner.phone ?? null, password: owner.password ?? null });
      const saved = CompanyWithPlatformDto.withPlatform(await this.insert(m, user.id, actorId, dto));
      await audit?.(m, { id: saved.id, before: null, after: saved });
      return saved;
    });
  }

  /** The company row, the owner's membership and `company.created`, in the caller's transaction. */
  private async insert(m: EntityManager, ownerId: string, actorId: string, dto: CreateCompanyDto): Promise<Company> {
    const saved = await m.save(
      m.create(Company, {
        ownerId,
        name: dto.name,
        email: dto.email ?? null,
        phone: dto.phone ?? null,
        address: dto.address ?? null,
        timezone: dto.timezone ?? 'UTC',
        currency: dto.currency ?? 'USD',
        status: 'active',
      }),
    );
    await this.users.assignCompany(m, ownerId, saved.id);
    await recordEvents(m, { type: 'company.created', aggregateType: 'company', aggregateId: saved.id, companyId: saved.id, actorId, payload: { name: saved.name } });
    return m.findOneByOrFail(Company, { id: saved.id });
  }

  // ------------------------------------------------------------ platform administration (README "Platform administration")

  /** Every company (deleted ones left out), for the platform's administrators. */
  listAcross(query: CompanyListFilter): Promise<Page<CompanyWithPlatformDto>> {
    const qb = this.ds.getRepository(Company).createQueryBuilder('c');
    if (query.status) qb.andWhere('c.status = :status', { status: query.status });
    if (query.q) qb.andWhere('(c.name ILIKE :q OR c.email ILIKE :q)', { q: likePattern(query.q) });
    if (query.from) qb.andWhere(`c.createdAt >= ((:from)::date)::timestamp AT TIME ZONE 'UTC'`, { from: query.from });
    if (query.to) qb.andWhere(`c.createdAt < ((:to)::date + 1)::timestamp AT TIME ZONE 'UTC'`, { to: query.to });
    return paginate(qb, query, { sortable: { created_at: 'c.createdAt', name: 'c.name' }, map: CompanyWithPlatformDto.withPlatform });
  }

  /** A live company with its platform settings, else 404. */
  async withPlatform(id: string, m: EntityManager = this.ds.manager): Promise<CompanyWithPlatformDto> {
    const c = await m.getRepository(Company).findOneBy({ id });
    if (!c) throw ApiError.notFound('Company');
    return CompanyWithPlatformDto.withPlatform(c);
  }

  /**
   * Activates or deactivates a company (repeating its state: 409 INVALID_TRANSITION). The access guard
   * reads the status on every request, so its users' role routes answer 403 COMPANY_INACTIVE at once.
   */
  async setStatus(actorId: string, id: string, to: CompanyStatus, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return runUnit(this.ds, async (m) => {
      const c = await this.lock(m, id);
      if (c.status === to) throw ApiError.invalidTransition(c.status, to, 'Company');
      const before = CompanyWithPlatformDto.withPlatform(c);
      await m.update(Company, { id }, { status: to });
      await recordEvents(m, { type: `company.${to === 'active' ? 'activated' : 'deactivated'}`, aggregateType: 'company', aggregateId: id, companyId: id, actorId, payload: { from: c.status, to } });
      const after = await this.withPlatform(id, m);
      await audit?.(m, { id, before, after });
      return after;
    });
  }

  /** Changes the platform settings (fields given; a flag set to null is removed). */
  async updatePlatform(actorId: string, id: string, changes: PlatformChanges, audit?: WriteAudit): Promise<CompanyWithPlatformDto> {
    return runUnit(this.ds, async (m) => {
      const c = await this.lock(m, id);
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
      if (Object.keys(patch).length) await m.update(Company, { id }, patch);
      await recordEvents(m, { type: 'company.platform_updated', aggregateType: 'company', aggregateId: id, companyId: id, actorId, payload: { fields: Object.keys(changes) } });
      const after = await this.withPlatform(id, m);
      await audit?.(m, { id, before, after });
      return after;
    });
  }

  /** The platform settings payments applies (fee, plan override); null when the company is gone. */
  async platformSettings(companyId: string, m: EntityManager = this.ds.manager): Promise<CompanyPlatformSettings | null> {
    const c = await m.getRepository(Company).findOne({ select: { id: true, platformFeeBps: true, planOverride: true }, where: { id: companyId } });
    return c && { platformFeeBps: c.platformFeeBps, planOverride: c.planOverride };
  }

  /** Reports (admin dashboard): live companies per status, and those created in [from, to] (UTC dates). One statement. */
  async statusCounts(from: string, to: string): Promise<{ status: CompanyStatus; total: number; created: number }[]> {
    const rows = await this.ds.query<{ status: CompanyStatus; total: number; created: number }[]>(
      `SELECT status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created
         FROM companies WHERE deleted_at IS NULL GROUP BY status ORDER BY status`,
      [from, to],
    );
    return rows.map((r) => ({ status: r.status, total: Number(r.total), created: Number(r.created) }));
  }

  private async lock(m: EntityManager, id: string): Promise<Company> {
    const c = await m.findOne(Company, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!c) throw ApiError.notFound('Company');
    return c;
  }
}

/** SQL for the time zone of the company whose id is in `idColumn` (UTC when it is gone), for another module's lists. */
export const companyTimezoneSql = (idColumn: string) => `coalesce((SELECT tz.timezone FROM companies tz WHERE tz.id = ${idColumn}), 'UTC')`;
/** SQL for the plan code an administrator forces on the company whose id is in `idColumn` (null: none), for the plan limits' one statement. */
export const companyPlanOverrideSql = (idColumn: string) => `(SELECT po.plan_override FROM companies po WHERE po.id = ${idColumn})`;
/** SQL for the currency of the company whose id is in `idColumn` (a scalar subquery), so that a report reads it in its own statement. */
export const companyCurrencySql = (idColumn: string) => `(SELECT cc.currency FROM companies cc WHERE cc.id = ${idColumn})`;
