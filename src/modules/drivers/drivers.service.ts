import { Injectable, OnModuleInit } from '@nestjs/common';
import { MemberProfiles } from '../users';
import { CompaniesService } from '../companies';
import { ApiError } from '../../common/http/api-error';
import { PlanLimits } from '../../common/records/plan-limits';
import { type BodyRef, type PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { Page } from '../../common/http/envelope';
import type { UserStatus } from '../users';
import { UnitOfWork } from '../../database/unit-of-work';
import { DriverDto, DriverListQuery, DriverProfileDto, UpdateDriverDto, UpdateDriverProfileDto } from './driver.dto';
import { DriverRepository, type DriverRosterRow } from './driver.repository';

/** Drivers as the company manages them, and a driver's own profile. */
@Injectable()
export class DriversService implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly drivers: DriverRepository,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompaniesService,
    private readonly limits: PlanLimits,
  ) {}

  onModuleInit(): void {
    // A driver who registers by themself (none today: /auth/register takes customers) must name an active company.
    this.profiles.register(
      'driver',
      async (scope, userId) => {
        // The company's plan limits its drivers (403 PLAN_LIMIT; README "Subscriptions and plans"); PlanLimits (common) takes the unit's manager.
        await this.limits.assertBelow(scope, 'drivers', () => this.drivers.count(scope));
        await this.drivers.insert(scope, userId);
      },
      async (company) => {
        if (!(await this.companies.isActive(company))) throw ApiError.validation({ company_id: ['does not name an active company'] });
      },
    );
  }

  async show(scope: Scope, id: string): Promise<DriverDto> {
    return DriverDto.of(await this.drivers.find(scope, id));
  }

  list(scope: Scope, query: DriverListQuery): Promise<Page<DriverDto>> {
    return this.drivers.list(scope, query, DriverDto.of);
  }

  /** The drivers of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: DriverListQuery): Promise<Page<DriverDto & { company_id: string }>> {
    return this.drivers.list(reach, query, (d) => ({ ...DriverDto.of(d), company_id: d.companyId }));
  }

  /** The company of a driver, or null: an administrator names a driver by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.drivers.companyOf(id);
  }

  /** `audit` (platform administration) is called in the same transaction with the driver before and after. */
  async update(actor: Actor, scope: Scope, id: string, dto: UpdateDriverDto, audit?: WriteAudit): Promise<DriverDto> {
    const saved = await this.uow.transaction(async (m) => {
      const driver = await this.drivers.lock(scope, id);
      const before = DriverDto.of(driver);
      const saved = await this.drivers.update(actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on, hiredOn: dto.hired_on, notes: dto.notes });
      await audit?.(m, { id, before, after: DriverDto.of(saved) });
      return saved;
    });
    return DriverDto.of(saved);
  }

  async setStatus(actor: Actor, scope: Scope, id: string, to: UserStatus): Promise<DriverDto> {
    return DriverDto.of(await this.uow.transaction(() => this.drivers.setStatus(actor.id, scope, id, to)));
  }

  /** The scope's driver, its row locked (FOR UPDATE) until the commit of the caller's unit of work; 404 otherwise. */
  async lock(scope: Scope, id: string): Promise<void> {
    await this.drivers.lock(scope, id);
  }

  /**
   * Body references must be active drivers of the company (their user active), share-locked until the
   * commit (a deactivation waits): 422 naming the field otherwise (`not found`, `is inactive`). One statement.
   */
  async assertActive(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    const ids = [...new Set(refs.map((r) => r.id?.toLowerCase()).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const rows = await this.drivers.statuses(scope, ids);
    const status = new Map(rows.map((r) => [r.id.toLowerCase(), r.status]));
    const errors: Record<string, string[]> = {};
    for (const r of refs) {
      const s = r.id ? status.get(r.id.toLowerCase()) : 'active';
      if (s !== 'active') errors[r.field] = [s === undefined ? 'not found' : 'is inactive'];
    }
    if (Object.keys(errors).length) throw ApiError.validation(errors);
  }

  /** Body references must be drivers of the company, active or not (share-locked until the commit): 422 `not found` on their fields otherwise. */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.drivers.assertOwned(scope, refs);
  }

  /** The company's drivers (id, name, e-mail, phone, status), by name; `activeOnly` leaves out inactive ones. One statement. */
  roster(scope: Scope, o: { activeOnly?: boolean } = {}): Promise<DriverRosterRow[]> {
    return this.drivers.roster(scope, !!o.activeOnly);
  }

  /** Reports (companies report): drivers per company among `companyIds` that the administrator's `reach` covers (idx_drivers_company_id). */
  async countsByCompany(reach: PlatformReach, companyIds: readonly string[]): Promise<Map<string, number>> {
    if (!companyIds.length) return new Map();
    return this.drivers.countsByCompany(reach, companyIds);
  }

  /** The driver's own profile (the scope is the driver's). */
  async updateProfile(actor: Actor, scope: Scope, dto: UpdateDriverProfileDto): Promise<DriverProfileDto> {
    const saved = await this.uow.transaction(async () => {
      const driver = await this.drivers.lock(scope, actor.id);
      return this.drivers.update(actor.id, driver, dto, { licenseNumber: dto.license_number, licenseExpiresOn: dto.license_expires_on });
    });
    return DriverProfileDto.of(saved);
  }
}
