import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { PlatformReach } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import type { WriteAudit } from '../../common/records/write-audit';
import { AuthService } from '../auth';
import { AssetSpecificationsService, AssetsService, UpdateAssetDto, UpdateAssetSpecificationDto, WasteTypesService } from '../catalogue';
import { CompaniesService, CompanyAdminService, type CompanyStatus, UpdateCompanyDto } from '../companies';
import { CustomersService, MembersService, UpdateCustomerDto } from '../customers';
import { DriversService, UpdateDriverDto } from '../drivers';
import { OrdersService } from '../orders';
import { SubscriptionsService } from '../payments';
import { AuditEntryRepository } from './audit-entry.repository';
import {
  AdminAssetQuery,
  AdminAssetSpecificationQuery,
  AdminCompanyDetailDto,
  AdminCompanyQuery,
  AdminCreateAssetDto,
  AdminCreateAssetSpecificationDto,
  AdminCreateCompanyDto,
  AdminCreateMemberDto,
  AdminCustomerQuery,
  AdminDriverQuery,
  AdminOrderQuery,
  AdminWasteTypeQuery,
  AuditEntryDto,
  UpdatePlatformSettingsDto,
} from './platform.dto';

/** How many audit entries the company view shows. */
export const COMPANY_AUDIT_ENTRIES = 20;

type TargetType = 'company' | 'customer' | 'driver' | 'asset_specification' | 'asset';


/** The list query without the administrators' own filters (they went into the reach). */
function withoutReach<Q extends { company_id?: string; from?: string; to?: string; status?: string }>(q: Q, keepStatus = true) {
  const { company_id: _c, from: _f, to: _t, ...rest } = q;
  if (!keepStatus) delete (rest as { status?: string }).status;
  return rest;
}

/** `status=active|inactive` of the catalogue lists: their `active` flag. */
const activeOf = (status: string | undefined, active: boolean | undefined) => (status === undefined ? active : status === 'active');

/**
 * Platform administration (issue #15): an administrator's work across companies through the services
 * the companies' own routes use, with the target company as scope (no second implementation of a
 * rule). Every write is recorded in the audit log inside the write's transaction (the services take a
 * `WriteAudit`); lists go through the owning services with a `PlatformReach`.
 */
@Injectable()
export class PlatformService {
  constructor(
    private readonly entries: AuditEntryRepository,
    private readonly companies: CompaniesService,
    private readonly companyAdmin: CompanyAdminService,
    private readonly members: MembersService,
    private readonly customers: CustomersService,
    private readonly drivers: DriversService,
    private readonly specs: AssetSpecificationsService,
    private readonly assets: AssetsService,
    private readonly wasteTypes: WasteTypesService,
    private readonly orders: OrdersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly auth: AuthService,
  ) {}

  /** The audit entry writer of one administrator's action on one kind of record of the `company` scope's company (null: the record's own id is the company). */
  private audit(admin: Actor, action: string, targetType: TargetType, company: Scope | null): WriteAudit {
    return async (_m, change) => {
      await this.entries.insert(company ?? Scope.company(change.id), {
        adminId: admin.id,
        action,
        targetType,
        targetId: change.id,
        before: change.before,
        after: change.after,
      });
    };
  }

  /** The company a create or a list names, as the scope an administrator acts in: 404 when there is none (or it is deleted). */
  private async company(id: string): Promise<Scope> {
    const scope = Scope.company(id);
    if (!(await this.companies.summary(scope))) throw ApiError.notFound('Company');
    return scope;
  }

  /**
   * The reach of a list: the company filter and the creation dates. A company in the path
   * (`…/{companyId}/get`) must exist (404) and wins over `company_id`.
   */
  private async reach(q: { company_id?: string; from?: string; to?: string }, company?: Scope): Promise<PlatformReach> {
    if (company) await this.company(company.companyId);
    return new PlatformReach(company?.companyId ?? q.company_id ?? null, q.from ?? null, q.to ?? null);
  }

  /**
   * Work on a record named by id alone: `work` runs in the record's company's scope (404 as `what` when
   * there is no such record), as the company's own route would; the answer carries `company_id`.
   */
  private async inCompanyOf<R extends object>(find: Promise<string | null>, what: string, work: (company: Scope) => Promise<R>): Promise<R & { company_id: string }> {
    const companyId = await find;
    if (!companyId) throw ApiError.notFound(what);
    return { ...(await work(Scope.company(companyId))), company_id: companyId };
  }

  // ------------------------------------------------------------ companies

  listCompanies(q: AdminCompanyQuery) {
    return this.companies.listAcross(q);
  }

  async showCompany(id: string): Promise<AdminCompanyDetailDto> {
    const company = await this.companies.withPlatform(Scope.company(id));
    const entries = await this.entries.latestOf(Scope.company(id), COMPANY_AUDIT_ENTRIES);
    return { ...company, audit: entries.map(AuditEntryDto.of) };
  }

  /** The company and its owner; without a password the owner is mailed a code to set one (after the commit). */
  async createCompany(admin: Actor, dto: AdminCreateCompanyDto) {
    const { owner, ...company } = dto;
    const created = await this.companies.createWithOwner(admin.id, company, owner, this.audit(admin, 'company.created', 'company', null));
    if (!owner.password) {
      await this.auth.sendPasswordCode(owner.email, `Your ${created.name} account`, `A platform administrator created ${created.name} with you as its owner. Set your password at /auth/reset-password with this code`);
    }
    return created;
  }

  async updateCompany(admin: Actor, id: string, dto: UpdateCompanyDto) {
    await this.companyAdmin.updateCompany(Scope.company(id), admin.id, dto, this.audit(admin, 'company.updated', 'company', Scope.company(id)));
    return this.companies.withPlatform(Scope.company(id));
  }

  setCompanyStatus(admin: Actor, id: string, to: CompanyStatus) {
    return this.companies.setStatus(admin.id, Scope.company(id), to, this.audit(admin, to === 'active' ? 'company.activated' : 'company.deactivated', 'company', Scope.company(id)));
  }

  async updatePlatform(admin: Actor, id: string, dto: UpdatePlatformSettingsDto) {
    if (dto.plan_override && !(await this.subscriptions.planExists(dto.plan_override))) throw ApiError.validation({ plan_override: ['is not a plan code'] });
    return this.companies.updatePlatform(admin.id, Scope.company(id), dto, this.audit(admin, 'company.platform_updated', 'company', Scope.company(id)));
  }

  // ------------------------------------------------------------ customers and drivers

  async createMember(admin: Actor, type: 'customer' | 'driver', dto: AdminCreateMemberDto) {
    const { company_id, ...member } = dto;
    const company = await this.company(company_id);
    return this.members.create(admin, company, type, member, this.audit(admin, `${type}.created`, type, company));
  }

  async listCustomers(q: AdminCustomerQuery, company?: Scope) {
    return this.customers.listAcross(await this.reach(q, company), withoutReach(q));
  }

  showCustomer(id: string) {
    return this.inCompanyOf(this.customers.companyOf(id), 'Customer', (company) => this.customers.show(company, id));
  }

  updateCustomer(admin: Actor, id: string, dto: UpdateCustomerDto) {
    return this.inCompanyOf(this.customers.companyOf(id), 'Customer', (company) => this.customers.update(admin, company, id, dto, this.audit(admin, 'customer.updated', 'customer', company)));
  }

  async listDrivers(q: AdminDriverQuery, company?: Scope) {
    return this.drivers.listAcross(await this.reach(q, company), withoutReach(q));
  }

  showDriver(id: string) {
    return this.inCompanyOf(this.drivers.companyOf(id), 'Driver', (company) => this.drivers.show(company, id));
  }

  updateDriver(admin: Actor, id: string, dto: UpdateDriverDto) {
    return this.inCompanyOf(this.drivers.companyOf(id), 'Driver', (company) => this.drivers.update(admin, company, id, dto, this.audit(admin, 'driver.updated', 'driver', company)));
  }

  // ------------------------------------------------------------ catalogue

  async listSpecifications(q: AdminAssetSpecificationQuery, company?: Scope) {
    return this.specs.listAcross(await this.reach(q, company), { ...withoutReach(q, false), active: activeOf(q.status, q.active) });
  }

  async createSpecification(admin: Actor, dto: AdminCreateAssetSpecificationDto) {
    const { company_id, ...spec } = dto;
    const company = await this.company(company_id);
    return { ...(await this.specs.create(admin, company, spec, this.audit(admin, 'asset_specification.created', 'asset_specification', company))), company_id: company.companyId };
  }

  showSpecification(id: string) {
    return this.inCompanyOf(this.specs.companyOf(id), 'Asset specification', (company) => this.specs.get(company, id));
  }

  updateSpecification(admin: Actor, id: string, dto: UpdateAssetSpecificationDto) {
    return this.inCompanyOf(this.specs.companyOf(id), 'Asset specification', (company) => this.specs.update(admin, company, id, dto, this.audit(admin, 'asset_specification.updated', 'asset_specification', company)));
  }

  async listAssets(q: AdminAssetQuery, company?: Scope) {
    return this.assets.listAcross(await this.reach(q, company), withoutReach(q));
  }

  async createAsset(admin: Actor, dto: AdminCreateAssetDto) {
    const { company_id, ...asset } = dto;
    const company = await this.company(company_id);
    return { ...(await this.assets.create(admin, company, asset, this.audit(admin, 'asset.created', 'asset', company))), company_id: company.companyId };
  }

  showAsset(id: string) {
    return this.inCompanyOf(this.assets.companyOf(id), 'Asset', (company) => this.assets.get(company, id));
  }

  updateAsset(admin: Actor, id: string, dto: UpdateAssetDto) {
    return this.inCompanyOf(this.assets.companyOf(id), 'Asset', (company) => this.assets.update(admin, company, id, dto, this.audit(admin, 'asset.updated', 'asset', company)));
  }

  async listWasteTypes(q: AdminWasteTypeQuery) {
    return this.wasteTypes.listAcross(await this.reach(q), { ...withoutReach(q, false), active: activeOf(q.status, q.active) });
  }

  // ------------------------------------------------------------ orders (read only)

  async listOrders(q: AdminOrderQuery, company?: Scope) {
    return this.orders.listAcross(await this.reach(q, company), withoutReach(q));
  }

  showOrder(id: string) {
    return this.inCompanyOf(this.orders.companyOf(new PlatformReach(), id), 'Order', (company) => this.orders.full(company, id));
  }
}
