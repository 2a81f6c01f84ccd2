import { Injectable, OnModuleInit } from '@nestjs/common';
import { MemberProfiles, UsersService } from '../users';
import { CompaniesService } from '../companies';
import { ApiError } from '../../common/http/api-error';
import { PlanLimits } from '../../common/records/plan-limits';
import { DataSource, EntityManager } from 'typeorm';
import { assertReachable, scopedQuery, type BodyRef, type PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
import { MemberDirectory } from '../customers';
import type { UserStatus } from '../users';
import { DriverDto, DriverListQuery, DriverProfileDto, UpdateDriverDto, UpdateDriverProfileDto } from './driver.dto';
import { Driver } from './driver.entity';
import { runUnit } from '../../database/unit-of-work';

/** Drivers as the company manages them, and a driver's own profile. */
@Injectable()
export class DriversService implements OnModuleInit {
  readonly directory: MemberDirectory<Driver>;

  constructor(
    private readonly ds: DataSource,
    users: UsersService,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompaniesService,
    private readonly limits: PlanLimits,
  ) {
    this.directory = new MemberDirectory(Driver, 'driver', 'Driver', users);
  }

  onModuleInit(): void {
    // A driver who registers by themself (none today: /auth/register takes customers) must name an active company.
    this.profiles.register(
      'driver',
      async (m, user) => {
        // The company's plan limits its drivers (403 PLAN_LIMIT; README "Subscriptions and plans").
        await this.limits.assertBelow(m, user.companyId, 'drivers', () => m.count(Driver, { where: { companyId: user.companyId } }));
        await m.insert(Driver, { id: user.id, companyId: user.companyId });
      },
      async (m, companyId) => {
        if (!(await this.companies.isActive(companyId, m))) throw ApiError.validation({ company_id: ['does not name an active company'] });
      },
    );
  }

  async show(companyId: string, id: string): Promise<DriverDto> {
    return DriverDto.of(await this.directory.find(this.ds.manager, Scope.company(companyId), id));
  }

  list(companyId: string, query: DriverListQuery): Promise<Page<DriverDto>> {
    return this.directory.list(this.ds.manager, companyId, query, DriverDto.of);
  }

  /** The drivers of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: DriverListQuery): Promise<Page<DriverDto & { company_id: string }>> {
    return this.directory.list(this.ds.manager, reach, query, (d) => ({ ...DriverDto.of(d), company_id: d.companyId }));
  }

  /** The company of a driver, or null: an administrator names a driver by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.directory.companyOf(this.ds.manager, id);
  }

  /** `audit` (platform administration) is called in the same transaction with the driver before and after. */
  async update(actor: Actor, companyId: string, id: string, dto: UpdateDriverDto, audit?: WriteAudit): Promise<DriverDto> {
    const saved = await runUnit(this.ds, async (m) => {
      const driver = await this.directory.find(m, Scope.company(companyId), id, true);
      const before = DriverDto.of(driver);
      const saved = await this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on, hiredOn: dto.hired_on, notes: dto.notes });
      await audit?.(m, { id, before, after: DriverDto.of(saved) });
      return saved;
    });
    return DriverDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<DriverDto> {
    return DriverDto.of(await runUnit(this.ds, (m) => this.directory.setStatus(m, actor.id, companyId, id, to)));
  }

  /**
   * Body references must be active drivers of the company (their user active), share-locked until the
   * commit (a deactivation waits): 422 naming the field otherwise (`not found`, `is inactive`). One statement.
   */
  async assertActive(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows: { id: string; status: string }[] = await scopedQuery(m, Driver, Scope.company(companyId), 'p')
      .innerJoin('p.user', 'u')
      .select('p.id', 'id')
      .addSelect('u.status', 'status')
      .andWhere('p.id IN (:...driverIds)', { driverIds: ids })
      .setLock('pessimistic_read', undefined, ['p'])
      .getRawMany();
    const status = new Map(rows.map((r) => [r.id.toLowerCase(), r.status]));
    const errors: Record<string, string[]> = {};
    for (const r of refs) {
      const s = r.id ? status.get(r.id.toLowerCase()) : 'active';
      if (s !== 'active') errors[r.field] = [s === undefined ? 'not found' : 'is inactive'];
    }
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  /** Body references must be drivers of the company, active or not (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(m, Driver, Scope.company(companyId), refs);
  }

  /** The company's drivers (id, name, e-mail, phone, status), by name; `activeOnly` leaves out inactive ones. One statement. */
  async roster(companyId: string, o: { activeOnly?: boolean } = {}, m: EntityManager = this.ds.manager): Promise<{ id: string; name: string; email: string; phone: string | null; status: UserStatus }[]> {
    const qb = scopedQuery(m, Driver, Scope.company(companyId), 'p')
      .innerJoin('p.user', 'u')
      .select(['p.id AS id', 'u.name AS name', 'u.email AS email', 'u.phone AS phone', 'u.status AS status'])
      .orderBy('u.name', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (o.activeOnly) qb.andWhere(`u.status = 'active'`);
    return qb.getRawMany();
  }

  /** Reports (companies report): drivers per company (idx_drivers_company_id). */
  async countsByCompany(companyIds: readonly string[], m: EntityManager = this.ds.manager): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    const rows = await m.query<{ company_id: string; n: number }[]>(`SELECT company_id, count(*)::int AS n FROM drivers WHERE company_id = ANY($1) GROUP BY company_id`, [[...companyIds]]);
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateDriverProfileDto): Promise<DriverProfileDto> {
    const saved = await runUnit(this.ds, async (m) => {
      const driver = await this.directory.find(m, Scope.of(actor), actor.id, true);
      return this.directory.update(m, actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on });
    });
    return DriverProfileDto.of(saved);
  }
}
