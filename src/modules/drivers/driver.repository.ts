import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { assertReachable, scopedQuery, type BodyRef, PlatformReach } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { type Loaded, MemberDirectory } from '../customers';
import { UsersService, type UserStatus } from '../users';
import type { DriverListQuery } from './driver.dto';
import { Driver } from './driver.entity';

/** A driver of the company as dispatch lists it. */
export interface DriverRosterRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  status: UserStatus;
}

/** The company scope the statement snapshots run with (test/database/sql-snapshots.spec.ts). */
const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/**
 * The `drivers` table (docs/data-layer.md). Reads and writes of a driver with its user go through the
 * members' directory (customers' helper, shared with customers), always on the unit's manager.
 */
@Injectable()
export class DriverRepository extends ModuleRepository {
  private readonly directory: MemberDirectory<Driver>;

  constructor(uow: UnitOfWork, users: UsersService) {
    super(uow);
    this.directory = new MemberDirectory(uow, Driver, 'driver', 'Driver', users);
  }

  /** The driver with its user, for the scope (404 otherwise). */
  find(scope: Scope, id: string): Promise<Loaded<Driver>> {
    return this.directory.find(scope, id);
  }

  /** The driver with its user, its profile row locked (FOR UPDATE) for the rest of the unit; 404 otherwise. */
  lock(scope: Scope, id: string): Promise<Loaded<Driver>> {
    return this.directory.find(scope, id, true);
  }

  /** A page of the scope's drivers, or of the companies an administrator's `reach` covers. */
  @GenerateSql({ name: 'a company', params: [SAMPLE_SCOPE, {}, (d: unknown) => d] }, { name: 'with filters', params: [SAMPLE_SCOPE, { q: 'ann', status: 'active', sort: 'name' }, (d: unknown) => d] })
  list<R>(who: Scope | PlatformReach, query: DriverListQuery, map: (d: Loaded<Driver>) => R): Promise<Page<R>> {
    return this.directory.list(who, query, map);
  }

  /** The company of a driver, or null. */
  companyOf(id: string): Promise<string | null> {
    return this.directory.companyOf(id);
  }

  /** Applies user and profile changes to a locked driver; records `driver.updated` when anything changed. */
  @GenerateSql({ params: () => [SQL_SAMPLE.actorId, { id: SQL_SAMPLE.id, companyId: SQL_SAMPLE.companyId, user: { id: SQL_SAMPLE.id } }, { name: 'Ann' }, { notes: 'night shifts' }] })
  update(actorId: string, driver: Loaded<Driver>, user: Parameters<MemberDirectory<Driver>['update']>[2], profile: Partial<Driver>): Promise<Loaded<Driver>> {
    return this.directory.update(actorId, driver, user, profile);
  }

  /** Activates or deactivates the scope's driver (409 when it already is); records the event. */
  @GenerateSql({ params: [SQL_SAMPLE.actorId, SAMPLE_SCOPE, SQL_SAMPLE.id, 'inactive'] })
  setStatus(actorId: string, scope: Scope, id: string, to: UserStatus): Promise<Loaded<Driver>> {
    return this.directory.setStatus(actorId, scope, id, to);
  }

  /** The company's driver profiles (the plan limit's count). */
  count(scope: Scope): Promise<number> {
    return this.m.count(Driver, { where: { companyId: scope.companyId } });
  }

  /** The driver profile of a new `driver` user of the scope's company. */
  async insert(scope: Scope, userId: string): Promise<void> {
    await this.locked.insert(Driver, { id: userId, companyId: scope.companyId });
  }

  /** The user status of each of the scope's drivers among `ids`, the profile rows share-locked (FOR SHARE) until the commit. One statement. */
  statuses(scope: Scope, ids: string[]): Promise<{ id: string; status: string }[]> {
    return scopedQuery(this.m, Driver, scope, 'p')
      .innerJoin('p.user', 'u')
      .select('p.id', 'id')
      .addSelect('u.status', 'status')
      .andWhere('p.id IN (:...driverIds)', { driverIds: ids })
      .setLock('pessimistic_read', undefined, ['p'])
      .getRawMany();
  }

  /** Body references must be the scope's drivers, share-locked until the commit (422 on their fields otherwise). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ field: 'driver_id', id: SQL_SAMPLE.id }]] })
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(this.m, Driver, scope, refs);
  }

  /** The scope's drivers (id, name, e-mail, phone, status), by name. One statement. */
  @GenerateSql({ name: 'all', params: [SAMPLE_SCOPE, false] }, { name: 'active only', params: [SAMPLE_SCOPE, true] })
  roster(scope: Scope, activeOnly: boolean): Promise<DriverRosterRow[]> {
    const qb = scopedQuery(this.m, Driver, scope, 'p')
      .innerJoin('p.user', 'u')
      .select(['p.id AS id', 'u.name AS name', 'u.email AS email', 'u.phone AS phone', 'u.status AS status'])
      .orderBy('u.name', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (activeOnly) qb.andWhere(`u.status = 'active'`);
    return qb.getRawMany();
  }

  /** Drivers per company among `companyIds` that the administrator's `reach` covers (idx_drivers_company_id). One statement. */
  @GenerateSql({ params: () => [new PlatformReach(), [SQL_SAMPLE.companyId]] })
  async countsByCompany(reach: PlatformReach, companyIds: readonly string[]): Promise<Map<string, number>> {
    const ids = reach.companyId ? companyIds.filter((id) => id === reach.companyId) : [...companyIds];
    const rows = await this.sql<{ company_id: string; n: number }>(`SELECT company_id, count(*)::int AS n FROM drivers WHERE company_id = ANY($1) GROUP BY company_id`, [ids]);
    return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
  }
}

/** The driver's part of the caller's statement (`CallerSql#driver`, registered by DriversModule): the driver record of `u`. */
export const CALLER_DRIVER_SQL = { join: "LEFT JOIN drivers d ON d.id = u.id AND u.type = 'driver'", roleRecord: 'd.id IS NOT NULL' };
