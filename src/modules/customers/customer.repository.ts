import { Injectable } from '@nestjs/common';
import { Scope, SystemReach } from '../../common/access/scope';
import { PlatformReach } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { UsersService, type UserStatus } from '../users';
import { CustomerListQuery } from './customer.dto';
import { Customer } from './customer.entity';
import { type Loaded, MemberDirectory, type UserChanges } from './member-directory';

/**
 * The `customers` table: the customer profile rows, through the member directory (the profile joined
 * with its user, shared with drivers) for reads and writes of a member, plus the demerit standing and
 * the row lock that serialises a customer's address defaults.
 */
@Injectable()
export class CustomerRepository extends ModuleRepository {
  /** The directory of customers (its statements run on the unit's manager, like this repository's). */
  readonly directory: MemberDirectory<Customer>;

  constructor(uow: UnitOfWork, users: UsersService) {
    super(uow);
    this.directory = new MemberDirectory(uow, Customer, 'customer', 'Customer', users);
  }

  /** The customer with its user, for the scope (another company's, or another customer's: 404); `lock` inside a unit. */
  find(scope: Scope, id: string, lock = false): Promise<Loaded<Customer>> {
    return this.directory.find(scope, id, lock);
  }

  /** The company of a customer, or null. */
  companyOf(id: string): Promise<string | null> {
    return this.directory.companyOf(id);
  }

  /** A page of the scope's customers (or, for an administrator, of the companies `reach` covers): the directory's filters, `tax_exempt`, `pricing_profile_id`. */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), { page: 1, per_page: 20 }, (c: unknown) => c] })
  page<R>(who: Scope | PlatformReach, query: CustomerListQuery, map: (c: Loaded<Customer>) => R): Promise<Page<R>> {
    return this.directory.list(who, query, map, (qb) => {
      if (query.tax_exempt !== undefined) qb.andWhere('p.taxExempt = :taxExempt', { taxExempt: query.tax_exempt });
      if (query.pricing_profile_id) qb.andWhere('p.pricingProfileId = :pp', { pp: query.pricing_profile_id });
    });
  }

  /** Applies user and profile changes and records `customer.updated` (inside a unit). */
  @GenerateSql.skip('the member directory writes (MemberDirectory#update): its statements are those of DriverRepository.update, sampled there')
  update(actorId: string, customer: Loaded<Customer>, user: UserChanges, profile: Partial<Customer>): Promise<Loaded<Customer>> {
    return this.directory.update(actorId, customer, user, profile);
  }

  /** Activates or deactivates the scope's customer (inside a unit); 409 when it is already so. */
  setStatus(actorId: string, scope: Scope, id: string, to: UserStatus): Promise<Loaded<Customer>> {
    return this.directory.setStatus(actorId, scope, id, to);
  }

  /** The customer row of a new customer user (in the unit that creates the user). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id] })
  async insertProfile(scope: Scope, userId: string): Promise<void> {
    await this.m.insert(Customer, { id: userId, companyId: scope.companyId });
  }

  /** Whether any customer is assigned the pricing profile (an in-use check: the registry names the profile by id only). */
  @GenerateSql({ params: () => [SystemReach.of('an in-use check of a pricing profile'), SQL_SAMPLE.id] })
  assignedProfile(reach: SystemReach, pricingProfileId: string): Promise<boolean> {
    return this.m.existsBy(Customer, { pricingProfileId });
  }

  /** The customer's demerit standing; zero and not blocked when the row is absent. One statement. */
  async demerit(scope: Scope, customerId: string): Promise<{ points: number; blocked: boolean }> {
    const row = await this.m.findOne(Customer, { select: { id: true, demeritPoints: true, demeritBlocked: true }, where: { id: customerId, companyId: scope.companyId } });
    return { points: row?.demeritPoints ?? 0, blocked: row?.demeritBlocked ?? false };
  }

  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, { points: 3, blocked: false }] })
  async setDemerit(scope: Scope, customerId: string, standing: { points: number; blocked: boolean }): Promise<void> {
    await this.m.update(Customer, { id: customerId, companyId: scope.companyId }, { demeritPoints: standing.points, demeritBlocked: standing.blocked });
  }

  /** Locks the customer's row (FOR UPDATE) for the rest of the unit; false when the scope's company has no such customer. */
  async lock(scope: Scope, customerId: string): Promise<boolean> {
    const [row] = await this.locked.query<{ id: string }[]>(`SELECT id FROM customers WHERE id = $1 AND company_id = $2 FOR UPDATE`, [customerId, scope.companyId]);
    return !!row;
  }
}

/** The customer's part of the caller's statement (`CallerSql#customer`, registered by CustomersModule): the customer record of `u`. */
/** The caller flag of a customer whose demerit points block new orders (`Actor#flags`; `CustomersService#orderingBlocked`). */
export const DEMERIT_BLOCKED_FLAG = 'demerit_blocked';
export const CALLER_CUSTOMER_SQL = {
  join: "LEFT JOIN customers cu ON cu.id = u.id AND u.type = 'customer'",
  roleRecord: 'cu.id IS NOT NULL',
  flags: { [DEMERIT_BLOCKED_FLAG]: 'cu.demerit_blocked' },
};
