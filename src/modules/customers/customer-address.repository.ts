import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere, IsNull } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { assertReachable, type BodyRef, findScoped, scopeConditions, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { PageQuery, paginate } from '../../common/http/pagination';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { CustomerAddress } from './customer-address.entity';
import { Customer } from './customer.entity';

/** The `customer_addresses` table. A customer's scope reaches only their own addresses, a company's all the company's. */
@Injectable()
export class CustomerAddressRepository extends ModuleRepository {
  constructor(uow: UnitOfWork) {
    super(uow);
  }

  page(scope: Scope, query: PageQuery): Promise<Page<CustomerAddress>> {
    return paginate(scopedQuery(this.m, CustomerAddress, scope, 'a'), query, {
      sortable: { created_at: 'a.createdAt', label: 'a.label', city: 'a.city', is_default: 'a.isDefault' },
    });
  }

  /** The scope's live address, else 404. */
  find(scope: Scope, id: string): Promise<CustomerAddress> {
    return findScoped(this.m, CustomerAddress, scope, id, { what: 'Address' });
  }

  /** How many live addresses the customer has among those `scope` reaches. */
  async liveCount(scope: Scope, customerId: string): Promise<number> {
    const params: unknown[] = [customerId];
    const [{ count }] = await this.sql<{ count: number }>(`SELECT count(*)::int AS count FROM customer_addresses WHERE customer_id = $1 AND ${sqlReach(this.m, scope, params)} AND deleted_at IS NULL`, params);
    return count;
  }

  /** A new address in the scope's company. */
  @GenerateSql({ params: () => [Scope.customer(SQL_SAMPLE.companyId, SQL_SAMPLE.id), { customerId: SQL_SAMPLE.id, label: 'Yard', line1: '1 Main St', city: 'Springfield', latitude: 39.8, longitude: -89.6 }] })
  insert(scope: Scope, values: Omit<Partial<CustomerAddress>, 'companyId'>): Promise<CustomerAddress> {
    return this.m.save(this.m.create(CustomerAddress, { ...values, companyId: scope.companyId }));
  }

  /** Soft delete of an address `scope` reaches (it stops being the default). */
  async softDelete(scope: Scope, id: string): Promise<void> {
    await this.m.update(CustomerAddress, { ...reached(this.m, scope), id }, { deletedAt: new Date(), isDefault: false });
  }

  /** An address `scope` reaches becomes the default. */
  async makeDefault(scope: Scope, id: string): Promise<void> {
    await this.m.update(CustomerAddress, { ...reached(this.m, scope), id }, { isDefault: true });
  }

  /** The customer's most recent live address among those `scope` reaches, or null. */
  latest(scope: Scope, customerId: string): Promise<CustomerAddress | null> {
    return this.m.getRepository(CustomerAddress).findOne({ where: { ...reached(this.m, scope), customerId, deletedAt: IsNull() }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  /** The customer's live addresses (among those `scope` reaches) stop being the default. */
  async clearDefault(scope: Scope, customerId: string): Promise<void> {
    const params: unknown[] = [customerId];
    await this.sql(`UPDATE customer_addresses SET is_default = false, updated_at = now() WHERE customer_id = $1 AND ${sqlReach(this.m, scope, params)} AND is_default AND deleted_at IS NULL`, params);
  }

  /** The scope's live address with its customer's row (pricing terms), in one statement; null when the scope does not reach it. */
  async withCustomer(scope: Scope, id: string): Promise<(CustomerAddress & { customerRow?: Customer }) | null> {
    // Placement's: prepared (planned once per connection).
    return this.hot('customers_address', scopedQuery(this.m, CustomerAddress, scope, 'a').leftJoinAndMapOne('a.customerRow', Customer, 'c', 'c.id = a.customerId').andWhere('a.id = :id', { id })).getOne();
  }

  /** Body references must be live addresses the scope reaches, share-locked until the commit (422 otherwise). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), [{ field: 'address_id', id: SQL_SAMPLE.id }]] })
  assertReachable(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(this.m, CustomerAddress, scope, refs);
  }

  /** Positions of the scope's live addresses by id. One statement. */
  positions(scope: Scope, ids: readonly string[]): Promise<{ id: string; latitude: string | number; longitude: string | number }[]> {
    return scopedQuery(this.m, CustomerAddress, scope, 'a')
      .select(['a.id AS id', 'a.latitude AS latitude', 'a.longitude AS longitude'])
      .andWhere('a.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getRawMany();
  }
}

/** The tenant policy's conditions for the addresses `scope` reaches; 404 for a scope that reaches none. */
function reached(m: EntityManager, scope: Scope): FindOptionsWhere<CustomerAddress> {
  const where = scopeWhere(m, CustomerAddress, scope);
  if (!where) throw ApiError.notFound('Address');
  return where;
}

/** The same conditions as SQL text on `customer_addresses`, their values appended to `params`; 404 for a scope that reaches none. */
function sqlReach(m: EntityManager, scope: Scope, params: unknown[]): string {
  const s = scopeConditions(m, CustomerAddress, scope);
  if (!s) throw ApiError.notFound('Address');
  return s.conditions.map((c) => `${c.column} = $${params.push(c.value)}`).join(' AND ');
}
