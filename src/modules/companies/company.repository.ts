import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, PageQuery, paginate } from '../../common/http/pagination';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanyDocument, CompanySettings } from './company-admin.entity';
import { Company, CompanyStatus } from './company.entity';

/** The administrators' list of companies: `status`, `q` (name, e-mail), `from`/`to` (created, UTC dates). */
export interface CompanyListFilter extends PageQuery {
  status?: CompanyStatus;
  from?: string;
  to?: string;
}

/**
 * The `companies` table. The company is the tenant: a `Scope` names it (`Scope.company(id)` for the
 * platform's administrators and the system). Deleted companies are left out unless a method says so.
 */
@Injectable()
export class CompanyRepository extends ModuleRepository {
  constructor(uow: UnitOfWork) {
    super(uow);
  }

  /** The live company, or null; `select` limits the columns read. */
  @GenerateSql({ name: 'all columns', params: () => [Scope.company(SQL_SAMPLE.companyId)] }, { name: 'some columns', params: () => [Scope.company(SQL_SAMPLE.companyId), ['id', 'name', 'timezone']] })
  find(scope: Scope, select?: (keyof Company)[]): Promise<Company | null> {
    return this.m.getRepository(Company).findOne({ ...(select ? { select: Object.fromEntries(select.map((k) => [k, true])) } : {}), where: { id: scope.companyId } });
  }

  /** The company's name, even when it is deleted; null when there is none. */
  async name(scope: Scope): Promise<string | null> {
    const c = await this.m.getRepository(Company).findOne({ select: { id: true, name: true }, where: { id: scope.companyId }, withDeleted: true });
    return c?.name ?? null;
  }

  /** Whether the company exists, is active and is not deleted. */
  isActive(scope: Scope): Promise<boolean> {
    return this.m.getRepository(Company).existsBy({ id: scope.companyId, status: 'active' });
  }

  /** The live company locked (FOR UPDATE) for the rest of the unit, or null. */
  lock(scope: Scope): Promise<Company | null> {
    return this.locked.findOne(Company, { where: { id: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Inserts a company; the row as stored (defaults applied). */
  @GenerateSql({ params: [{ name: 'Acme Hauling', email: 'office@acme.test', timezone: 'America/Chicago', currency: 'USD' }] })
  async insert(values: Partial<Company>): Promise<Company> {
    const saved = await this.m.save(this.m.create(Company, values));
    return this.m.findOneByOrFail(Company, { id: saved.id });
  }

  @GenerateSql({ params: () => [Object.assign(new Company(), { id: SQL_SAMPLE.companyId, name: 'Acme Hauling' })] })
  save(company: Company): Promise<Company> {
    return this.m.save(company);
  }

  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { name: 'Acme Hauling Inc.' }] })
  async update(scope: Scope, patch: Partial<Company>): Promise<void> {
    await this.m.update(Company, { id: scope.companyId }, patch);
  }

  /** Every live company, for the platform's administrators. */
  page(query: CompanyListFilter): Promise<Page<Company>> {
    const qb = this.m.getRepository(Company).createQueryBuilder('c');
    if (query.status) qb.andWhere('c.status = :status', { status: query.status });
    if (query.q) qb.andWhere('(c.name ILIKE :q OR c.email ILIKE :q)', { q: likePattern(query.q) });
    if (query.from) qb.andWhere(`c.createdAt >= ((:from)::date)::timestamp AT TIME ZONE 'UTC'`, { from: query.from });
    if (query.to) qb.andWhere(`c.createdAt < ((:to)::date + 1)::timestamp AT TIME ZONE 'UTC'`, { to: query.to });
    return paginate(qb, query, { sortable: { created_at: 'c.createdAt', name: 'c.name' } });
  }

  /** Live companies per status, and those created in [from, to] (UTC dates). One statement. */
  statusCounts(from: string, to: string): Promise<{ status: CompanyStatus; total: number; created: number }[]> {
    return this.sql(
      `SELECT status, count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1::date AND created_at < $2::date + 1))::int AS created
         FROM companies WHERE deleted_at IS NULL GROUP BY status ORDER BY status`,
      [from, to],
    );
  }

  /**
   * The summary `{id, name, status}` of the live company whose id is in `idColumn`, as a scalar subquery
   * (users composes it into its profile read, one statement; registered through `CompanySummaries`).
   */
  static summarySql(idColumn: string): string {
    return `(SELECT json_build_object('id', c.id, 'name', c.name, 'status', c.status) FROM companies c WHERE c.id = ${idColumn} AND c.deleted_at IS NULL)`;
  }
}

/** `company_settings` (one row per company, absent until first saved) read with its company. */
@Injectable()
export class CompanySettingsRepository extends ModuleRepository {
  constructor(uow: UnitOfWork) {
    super(uow);
  }

  /** The company with its settings row (null until first saved), in one statement; null without a live company. */
  async withSettings(scope: Scope): Promise<{ company: Company; row: CompanySettings | null } | null> {
    // On every placement and many routes: prepared (planned once per connection).
    const company = await this.hot(
      'companies_settings',
      this.m.getRepository(Company).createQueryBuilder('c').leftJoinAndMapOne('c.settingsRow', CompanySettings, 's', 's.companyId = c.id').where('c.id = :companyId', { companyId: scope.companyId }),
    ).getOne();
    return company && { company, row: (company as Company & { settingsRow?: CompanySettings }).settingsRow ?? null };
  }

  /** The scope's company's settings row, created with the company's timezone and currency if absent, locked for the unit. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { timezone: 'UTC', currency: 'USD' }] })
  async lockRow(scope: Scope, company: Pick<Company, 'timezone' | 'currency'>): Promise<CompanySettings> {
    const m = this.locked;
    await m.query(`INSERT INTO company_settings (company_id, timezone, currency) VALUES ($1, $2, $3) ON CONFLICT (company_id) DO NOTHING`, [scope.companyId, company.timezone, company.currency]);
    return m.findOneOrFail(CompanySettings, { where: { companyId: scope.companyId }, lock: { mode: 'pessimistic_write' } });
  }

  @GenerateSql({ params: () => [Object.assign(new CompanySettings(), { companyId: SQL_SAMPLE.companyId, timezone: 'UTC', currency: 'USD' })] })
  save(row: CompanySettings): Promise<CompanySettings> {
    return this.m.save(row);
  }

  /** Keeps the settings' copy of timezone/currency in step with the scope's company. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { timezone: 'UTC', currency: 'USD' }] })
  async mirror(scope: Scope, company: Pick<Company, 'timezone' | 'currency'>): Promise<void> {
    await this.m.update(CompanySettings, { companyId: scope.companyId }, { timezone: company.timezone, currency: company.currency });
  }
}

/** `company_documents` (the company's set, replaced as a whole). */
@Injectable()
export class CompanyDocumentRepository extends ModuleRepository {
  constructor(uow: UnitOfWork) {
    super(uow);
  }

  page(scope: Scope, query: PageQuery & { type?: string }): Promise<Page<CompanyDocument>> {
    const qb = scopedQuery(this.m, CompanyDocument, scope, 'd');
    if (query.type) qb.andWhere('d.type = :type', { type: query.type });
    if (query.q) qb.andWhere('(d.name ILIKE :q OR d.type ILIKE :q)', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { name: 'd.name', type: 'd.type', expires_on: 'd.expiresOn', created_at: 'd.createdAt' }, defaultSort: 'name' });
  }

  /** Replaces the company's documents (inside the unit that locked the company); the saved rows. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [{ name: 'Permit', type: 'permit', url: 'https://files.example/permit.pdf', expiresOn: SQL_SAMPLE.date }]] })
  async replace(scope: Scope, documents: readonly Pick<CompanyDocument, 'name' | 'type' | 'url' | 'expiresOn'>[]): Promise<CompanyDocument[]> {
    const m = this.locked;
    await m.delete(CompanyDocument, { companyId: scope.companyId });
    const rows = documents.map((d) => m.create(CompanyDocument, { companyId: scope.companyId, ...d }));
    return rows.length ? m.save(rows) : [];
  }

  /** The scope's document, locked for the unit; else 404. */
  lock(scope: Scope, id: string): Promise<CompanyDocument> {
    return findScoped(this.locked, CompanyDocument, scope, id, { what: 'Document', lock: true });
  }

  /** Deletes the scope's document (locked by `lock` in the caller's unit). */
  async delete(scope: Scope, id: string): Promise<void> {
    await this.m.delete(CompanyDocument, { id, companyId: scope.companyId });
  }
}

/**
 * The company's part of the caller's statement (`CallerSql#company`, registered by CompaniesModule): the
 * user's live company as `co`; a company user has the role record when the company has its owner.
 */
export const CALLER_COMPANY_SQL = {
  join: 'LEFT JOIN companies co ON co.id = u.company_id AND co.deleted_at IS NULL',
  columns: 'co.status AS company_status, co.timezone AS company_timezone',
  roleRecord: 'co.id IS NOT NULL AND co.owner_id IS NOT NULL',
};
