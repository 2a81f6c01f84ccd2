import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { UserStatus } from '../users/user.entity';
import { CustomerDto, CustomerListQuery, CustomerProfileDto, UpdateCustomerDto, UpdateCustomerProfileDto } from './customer.dto';
import { Customer } from './customer.entity';
import { MemberDirectory } from './member-directory';

/** Customers as the company manages them, and a customer's own profile. */
@Injectable()
export class CustomersService {
  readonly directory = new MemberDirectory(Customer, 'customer', 'Customer');

  constructor(private readonly ds: DataSource) {}

  async show(companyId: string, id: string): Promise<CustomerDto> {
    return CustomerDto.of(await this.directory.find(this.ds.manager, companyId, id));
  }

  list(companyId: string, query: CustomerListQuery): Promise<Page<CustomerDto>> {
    return this.directory.list(this.ds.manager, companyId, query, CustomerDto.of, (qb) => {
      if (query.tax_exempt !== undefined) qb.andWhere('p.taxExempt = :taxExempt', { taxExempt: query.tax_exempt });
      if (query.pricing_profile_id) qb.andWhere('p.pricingProfileId = :pp', { pp: query.pricing_profile_id });
    });
  }

  async update(actor: Actor, companyId: string, id: string, dto: UpdateCustomerDto): Promise<CustomerDto> {
    const saved = await this.ds.transaction(async (m) => {
      const customer = await this.directory.find(m, companyId, id, true);
      if (dto.pricing_profile_id) await this.assertPricingProfile(m, companyId, dto.pricing_profile_id);
      return this.directory.update(m, actor.id, customer, dto, {
        billingName: dto.billing_name,
        billingEmail: dto.billing_email,
        taxExempt: dto.tax_exempt,
        notes: dto.notes,
        pricingProfileId: dto.pricing_profile_id,
      });
    });
    return CustomerDto.of(saved);
  }

  async setStatus(actor: Actor, companyId: string, id: string, to: UserStatus): Promise<CustomerDto> {
    const saved = await this.ds.transaction((m) => this.directory.setStatus(m, actor.id, companyId, id, to));
    return CustomerDto.of(saved);
  }

  async profile(actor: Actor, companyId: string): Promise<CustomerProfileDto> {
    return CustomerProfileDto.of(await this.directory.find(this.ds.manager, companyId, actor.id));
  }

  async updateProfile(actor: Actor, companyId: string, dto: UpdateCustomerProfileDto): Promise<CustomerProfileDto> {
    const saved = await this.ds.transaction(async (m) => {
      const customer = await this.directory.find(m, companyId, actor.id, true);
      return this.directory.update(m, actor.id, customer, dto, { billingName: dto.billing_name, billingEmail: dto.billing_email });
    });
    return CustomerProfileDto.of(saved);
  }

  /** A pricing profile of the company (pricing_profiles, when that catalogue is installed); else 422. */
  private async assertPricingProfile(m: EntityManager, companyId: string, id: string): Promise<void> {
    const [table] = await m.query(`SELECT to_regclass('pricing_profiles') IS NOT NULL AS present`);
    const [row] = table?.present
      ? await m.query(`SELECT to_jsonb(p) AS p FROM pricing_profiles p WHERE p.id = $1 AND p.company_id = $2`, [id, companyId])
      : [];
    if (!row || row.p.deleted_at) throw ApiError.validation({ pricing_profile_id: ['not found'] });
  }
}
