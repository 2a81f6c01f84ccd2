import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { InUseRegistry } from '../../common/records/in-use';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompaniesService } from '../companies';
import { PricingProfilesService } from '../pricing';
import type { UserStatus } from '../users';
import { CustomerDto, CustomerListQuery, CustomerProfileDto, UpdateCustomerDto, UpdateCustomerProfileDto } from './customer.dto';
import { Customer } from './customer.entity';
import { MemberProfiles } from '../users';
import type { Loaded } from './member-directory';
import { CustomerRepository, DEMERIT_BLOCKED_FLAG } from './customer.repository';
import type { PlatformReach } from '../../common/access/tenant-policy';
import type { WriteAudit } from '../../common/records/write-audit';

/** The in-use registry names the pricing profile by id only (its checks take no scope). */
const IN_USE_CHECK = SystemReach.of('an in-use check (the registry names the record by id)');

/** Customers as the company manages them, and a customer's own profile. */
@Injectable()
export class CustomersService implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly customers: CustomerRepository,
    private readonly pricingProfiles: PricingProfilesService,
    private readonly inUse: InUseRegistry,
    private readonly profiles: MemberProfiles,
    private readonly companies: CompaniesService,
  ) {}

  /**
   * A new user of type customer gets its customer row; one who registers by themself must name an
   * active company. A customer assigned a pricing profile keeps it from deletion.
   */
  onModuleInit(): void {
    this.profiles.register(
      'customer',
      (scope, userId) => this.customers.insertProfile(scope, userId),
      async (company) => {
        if (!(await this.companies.isActive(company))) throw ApiError.validation({ company_id: ['does not name an active company'] });
      },
    );
    this.inUse.register('pricing_profile', 'customers', 'a customer assigned the profile', (_m, id) => this.customers.assignedProfile(IN_USE_CHECK, id));
  }

  /** The scope's customer (a customer's scope: only themself) with its user; else 404. */
  find(scope: Scope, id: string): Promise<Loaded<Customer>> {
    return this.customers.find(scope, id);
  }

  async show(scope: Scope, id: string): Promise<CustomerDto> {
    return CustomerDto.of(await this.customers.find(scope, id));
  }

  list(scope: Scope, query: CustomerListQuery): Promise<Page<CustomerDto>> {
    return this.page(scope, query, CustomerDto.of);
  }

  /** The customers of the companies an administrator's `reach` covers, each with its company. */
  listAcross(reach: PlatformReach, query: CustomerListQuery): Promise<Page<CustomerDto & { company_id: string }>> {
    return this.page(reach, query, (c) => ({ ...CustomerDto.of(c), company_id: c.companyId }));
  }

  /** The company of a customer, or null: an administrator names a customer by id alone. */
  companyOf(id: string): Promise<string | null> {
    return this.customers.companyOf(id);
  }

  private page<R>(who: Scope | PlatformReach, query: CustomerListQuery, map: (c: Loaded<Customer>) => R): Promise<Page<R>> {
    return this.customers.page(who, query, map);
  }

  /** `audit` (platform administration) is called in the same transaction with the customer before and after. */
  async update(actor: Actor, scope: Scope, id: string, dto: UpdateCustomerDto, audit?: WriteAudit): Promise<CustomerDto> {
    const saved = await this.uow.transaction(async (m) => {
      const customer = await this.customers.find(scope, id, true);
      const before = CustomerDto.of(customer);
      if (dto.pricing_profile_id) await this.assertPricingProfile(scope, dto.pricing_profile_id);
      const saved = await this.customers.update(actor.id, customer, dto, {
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

  async setStatus(actor: Actor, scope: Scope, id: string, to: UserStatus): Promise<CustomerDto> {
    const saved = await this.uow.transaction(() => this.customers.setStatus(actor.id, scope, id, to));
    return CustomerDto.of(saved);
  }

  async profile(actor: Actor): Promise<CustomerProfileDto> {
    return CustomerProfileDto.of(await this.customers.find(Scope.of(actor), actor.id));
  }

  async updateProfile(actor: Actor, dto: UpdateCustomerProfileDto): Promise<CustomerProfileDto> {
    const saved = await this.uow.transaction(async () => {
      const customer = await this.customers.find(Scope.of(actor), actor.id, true);
      return this.customers.update(actor.id, customer, dto, { billingName: dto.billing_name, billingEmail: dto.billing_email });
    });
    return CustomerProfileDto.of(saved);
  }

  /** The customer's demerit standing (accountability keeps it; placement reads it). Zero and not blocked when the row is absent. */
  async demerit(scope: Scope, customerId: string): Promise<{ points: number; blocked: boolean }> {
    return this.customers.demerit(scope, customerId);
  }

  /**
   * Whether the calling customer's demerit points block new orders (placement). From the caller's statement,
   * which reads the flag this module registers with it (`CALLER_CUSTOMER_SQL`): no statement of its own; from the
   * customer's row for an actor not resolved from a token.
   */
  async orderingBlocked(scope: Scope, actor: Actor): Promise<boolean> {
    if (actor.flags) return actor.flags.includes(DEMERIT_BLOCKED_FLAG);
    return (await this.customers.demerit(scope, actor.id)).blocked;
  }

  /**
   * A company user acting for one of the company's customers (an order or a site taken by phone): the
   * customer's own scope, so that what follows runs the customer's path (its addresses, its price book), with
   * its name and demerit flag. One statement. 404 when `scope`'s company has no such customer; 409
   * `CUSTOMER_INACTIVE` for a deactivated one (who could not act themself either).
   */
  async actingFor(scope: Scope, customerId: string): Promise<{ scope: Scope; name: string; orderingBlocked: boolean }> {
    const customer = await this.customers.find(Scope.company(scope.companyId), customerId);
    if (customer.user.status !== 'active') throw ApiError.conflict('CUSTOMER_INACTIVE', 'The customer is deactivated: activate them first.');
    return { scope: Scope.customer(scope.companyId, customer.id), name: customer.user.name, orderingBlocked: customer.demeritBlocked };
  }

  /** Written by accountability in the unit that changes the customer's violations (or when points leave the window). */
  async setDemerit(scope: Scope, customerId: string, standing: { points: number; blocked: boolean }): Promise<void> {
    await this.customers.setDemerit(scope, customerId, standing);
  }

  /** A live pricing profile of the company (asked of pricing); else 422. */
  private async assertPricingProfile(scope: Scope, id: string): Promise<void> {
    if (!(await this.pricingProfiles.isLive(scope, id))) throw ApiError.validation({ pricing_profile_id: ['not found'] });
  }
}
