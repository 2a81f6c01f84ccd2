import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { InUseRegistry } from '../../common/records/in-use';
import { CompaniesService } from '../companies';
import { PricingProfilesService } from '../pricing';
import type { UserStatus } from '../users';
import { CustomerDto, CustomerListQuery, CustomerProfileDto, UpdateCustomerDto, UpdateCustomerProfileDto } from './customer.dto';
import { Customer } from './customer.entity';
import { MemberProfiles, UsersService } from '../users';
import { Loaded, MemberDirectory } from './member-directory';
import type { PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';
import { runUnit } from '../../database/unit-of-work';

/** Customers as the company manages them, and a customer's own profile. */
@Injectable()
export class CustomersService implements OnModuleInit {
  readonly directory: MemberDirectory<Customer>;

  constructor(
    private readonly ds: DataSource,
    private readonly pricingProfiles: PricingProfilesService,
    private readonly inUse: InUseRegistry,
    users: UsersService,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompaniesService,
  ) {
    this.directory = new MemberDirectory(Customer, 'customer', 'Customer', users);
  }

  /**
   * A new user of type customer gets its customer row; one who registers by themself must name an
   * active company. A customer assigned a pricing profile keeps it from deletion.
   */
  onModuleInit(): void {
    this.profiles.register(
      'customer',
      async (m, user) => void (await m.insert(Customer, { id: user.id, companyId: user.companyId })),
      async (m, companyId) => {
        if (!(await this.companies.isActive(companyId, m))) throw ApiError.validation({ company_id: ['does not name an active company'] });
      },
    );
    this.inUse.register('pricing_profile', 'customers', 'a customer assigned the profile', (m, id) => m.existsBy(Customer, { pricingProfileId: id }));
  }

  async show(companyId: string, id: string): Promise<CustomerDto> {
    return CustomerDto.of(await this.directory.find(this.ds.manager, Scope.company(companyId), id));
  }

  list(companyId: string, query: CustomerListQuery): Promise<Page<CustomerDto>> {
    return this.page(companyId, query, CustomerDto.of);
  }

  /** The customers of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: CustomerListQuery): Promise<Page<CustomerDto & { company_id: string }>> {
    return this.page(reach, query, (c) => ({ ...CustomerDto.of(c), company_id: c.companyId }));
  }

  /** The company of a customer, or null: an administrator names a customer by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.directory.companyOf(this.ds.manager, id);
  }

  private page<R>(companyId: string | PlatformReach, query: CustomerListQuery, map: (c: Loaded<Customer>) => R): Promise<Page<R>> {
    return this.directory.list(this.ds.manager, companyId, query, map, (qb) => {
      if (query.tax_exempt !== undefined) qb.andWhere('p.taxExempt = :taxExempt', { taxExempt: query.tax_exempt });
      if (query.pricing_profile_id) qb.andWhere('p.pricingProfileId = :pp', { pp: query.pricing_profile_id });
    });
  }

  /** `audit` (platform administration) is called in the same transaction with the customer before and after. */
  async update(actor: Actor, companyId: string, id: string, dto: UpdateCustomerDto, audit?: WriteAudit): Promise<CustomerDto> {
    const saved = await runUnit(this.ds, async (m) => {
      const customer = await this.directory.find(m, Scope.company(companyId), id, true);
      const before = CustomerDto.of(customer);
      if (dto.pricing_profile_id) await this.assertPricingProfile(m, companyId, dto.pricing_profile_id);
      const saved = await this.directory.update(m, actor.id, customer, dto, {
        billingName: dto.billing_name,
        billingEmail: dto.billing_email,
        taxExempt: dto.tax_exempt,
        notes: dto.notes,
        pricingProfileId: dto.pricing_profile_id,
      });
      await audit?.(m, { id, before, after: CustomerDto.of(saved) });
      return saved;
    });
    return CustomerDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<CustomerDto> {
    const saved = await runUnit(this.ds, (m) => this.directory.setStatus(m, actor.id, companyId, id, to));
    return CustomerDto.of(saved);
  }

  async profile(actor: Actor, companyId: string): Promise<CustomerProfileDto> {
    return CustomerProfileDto.of(await this.directory.find(this.ds.manager, Scope.of(actor), actor.id));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateCustomerProfileDto): Promise<CustomerProfileDto> {
    const saved = await runUnit(this.ds, async (m) => {
      const customer = await this.directory.find(m, Scope.of(actor), actor.id, true);
      return this.directory.update(m, actor.id, customer, dto, { billingName: dto.billing_name, billingEmail: dto.billing_email });
    });
    return CustomerProfileDto.of(saved);
  }

  /** The customer's demerit standing (accountability keeps it; placement reads it). Zero and not blocked when the row is absent. */
  async demerit(m: EntityManager, companyId: string, customerId: string): Promise<{ points: number; blocked: boolean }> {
    const row = await m.findOne(Customer, { select: { id: true, demeritPoints: true, demeritBlocked: true }, where: { id: customerId, companyId } });
    return { points: row?.demeritPoints ?? 0, blocked: row?.demeritBlocked ?? false };
  }

  /** The SQL of `demerit` as a JSON object {points, blocked} (a scalar subquery; arguments are SQL), for a read that composes it into its own statement. */
  static demeritSql(companyId: string, customerId: string): string {
    return `coalesce((SELECT json_build_object('points', dc.demerit_points, 'blocked', dc.demerit_blocked) FROM customers dc WHERE dc.id = ${customerId} AND dc.company_id = ${companyId}), json_build_object('points', 0, 'blocked', false))`;
  }

  /** Written by accountability in the transaction that changes the customer's violations (or when points leave the window). */
  async setDemerit(m: EntityManager, companyId: string, customerId: string, standing: { points: number; blocked: boolean }): Promise<void> {
    await m.update(Customer, { id: customerId, companyId }, { demeritPoints: standing.points, demeritBlocked: standing.blocked });
  }

  /** A live pricing profile of the company (asked of pricing); else 422. */
  private async assertPricingProfile(m: EntityManager, companyId: string, id: string): Promise<void> {
    if (!(await this.pricingProfiles.isLive(Scope.company(companyId), id))) throw ApiError.validation({ pricing_profile_id: ['not found'] });
  }
}
