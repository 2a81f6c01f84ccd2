import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { assertReachable, type BodyRef, findScoped, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { PageQuery, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { InUseRegistry } from '../../common/records/in-use';
import { AddressDto, AddressSnapshot, CreateAddressDto } from './customer-address.dto';
import { CustomerAddress } from './customer-address.entity';
import { Customer } from './customer.entity';
import { runUnit } from '../../database/unit-of-work';

/**
 * A customer's own addresses. Exactly one live address is the default (the first one automatically);
 * default changes lock the customer row so that two requests cannot both set one.
 */
@Injectable()
export class CustomerAddressesService {
  constructor(
    private readonly ds: DataSource,
    private readonly inUse: InUseRegistry,
  ) {}

  list(actor: Actor, companyId: string, query: PageQuery): Promise<Page<AddressDto>> {
    const qb = scopedQuery(this.ds.manager, CustomerAddress, Scope.of(actor), 'a');
    return paginate(qb, query, {
      sortable: { created_at: 'a.createdAt', label: 'a.label', city: 'a.city', is_default: 'a.isDefault' },
      map: AddressDto.of,
    });
  }

  async create(actor: Actor, companyId: string, dto: CreateAddressDto): Promise<AddressDto> {
    const saved = await runUnit(this.ds, async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const [{ count }] = await m.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM customer_addresses WHERE customer_id = $1 AND deleted_at IS NULL`, [actor.id]);
      const isDefault = count === 0 || dto.is_default === true;
      if (isDefault) await this.clearDefault(m, actor.id);
      const address = await m.save(
        m.create(CustomerAddress, {
          companyId,
          customerId: actor.id,
          label: dto.label ?? null,
          line1: dto.line1,
          line2: dto.line2 ?? null,
          city: dto.city,
          region: dto.region ?? null,
          postalCode: dto.postal_code ?? null,
          country: dto.country ?? null,
          latitude: dto.latitude,
          longitude: dto.longitude,
          instructions: dto.instructions ?? null,
          isDefault,
        }),
      );
      await recordEvents(m, { type: 'customer_address.created', aggregateType: 'customer_address', aggregateId: address.id, companyId, actorId: actor.id, payload: { customer_id: actor.id, is_default: isDefault } });
      return address;
    });
    return AddressDto.of(saved);
  }

  /**
   * Soft delete; 409 IN_USE while an order that is still running (pending to delivered) or a
   * relocation job goes there (orders and jobs register those checks in the in-use registry). When the default goes, the most recent remaining address becomes the default.
   */
  async remove(actor: Actor, companyId: string, id: string): Promise<void> {
    await runUnit(this.ds, async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const address = await this.own(m, actor, id);
      await this.inUse.assertUnused(m, 'customer_address', id, 'Address');
      await m.update(CustomerAddress, { id }, { deletedAt: new Date(), isDefault: false });
      let newDefault: string | null = null;
      if (address.isDefault) {
        const next = await m.getRepository(CustomerAddress).findOne({ where: { customerId: actor.id, deletedAt: IsNull() }, order: { createdAt: 'DESC', id: 'ASC' } });
        if (next) {
          await m.update(CustomerAddress, { id: next.id }, { isDefault: true });
          newDefault = next.id;
        }
      }
      await recordEvents(m, { type: 'customer_address.deleted', aggregateType: 'customer_address', aggregateId: id, companyId, actorId: actor.id, payload: { customer_id: actor.id, new_default_id: newDefault } });
    });
  }

  async makeDefault(actor: Actor, companyId: string, id: string): Promise<AddressDto> {
    const saved = await runUnit(this.ds, async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const address = await this.own(m, actor, id);
      if (address.isDefault) return address;
      await this.clearDefault(m, actor.id);
      await m.update(CustomerAddress, { id }, { isDefault: true });
      await recordEvents(m, { type: 'customer_address.default_changed', aggregateType: 'customer_address', aggregateId: id, companyId, actorId: actor.id, payload: { customer_id: actor.id } });
      return this.own(m, actor, id);
    });
    return AddressDto.of(saved);
  }

  /**
   * The customer's live address as an order keeps it (a snapshot), or null when `scope` does not
   * reach it (another customer's, deleted, absent). Inside the caller's transaction.
   */
  async snapshot(m: EntityManager, scope: Scope, id: string): Promise<AddressSnapshot | null> {
    return (await this.snapshotWithTerms(m, scope, id))?.address ?? null;
  }

  /**
   * The address snapshot with its customer's pricing terms (tax exemption, assigned price book) in one
   * statement, for pricing an order; null when `scope` does not reach the address.
   */
  async snapshotWithTerms(m: EntityManager, scope: Scope, id: string): Promise<{ address: AddressSnapshot; customer: { taxExempt: boolean; pricingProfileId: string | null } } | null> {
    const a = await scopedQuery(m, CustomerAddress, scope, 'a')
      .leftJoinAndMapOne('a.customerRow', Customer, 'c', 'c.id = a.customerId')
      .andWhere('a.id = :id', { id })
      .getOne();
    if (!a) return null;
    const c = (a as CustomerAddress & { customerRow?: Customer }).customerRow;
    return {
      address: {
        label: a.label,
        line1: a.line1,
        line2: a.line2,
        city: a.city,
        region: a.region,
        postal_code: a.postalCode,
        country: a.country,
        latitude: Number(a.latitude),
        longitude: Number(a.longitude),
        instructions: a.instructions,
      },
      customer: { taxExempt: !!c?.taxExempt, pricingProfileId: c?.pricingProfileId ?? null },
    };
  }

  /**
   * Body references (from other modules) must be live addresses that `scope` reaches, share-locked
   * until the commit: a customer's scope reaches only their own addresses, a company's scope all the
   * company's. 422 `not found` on their fields otherwise.
   */
  assertOwned(m: EntityManager, scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return assertReachable(m, CustomerAddress, scope, refs);
  }

  /** Dispatch: positions of the company's live addresses by id (relocation destinations for the route planner). One statement. */
  async positions(m: EntityManager, companyId: string, ids: readonly string[]): Promise<Map<string, { latitude: number; longitude: number }>> {
    if (!ids.length) return new Map();
    const rows: { id: string; latitude: string | number; longitude: string | number }[] = await scopedQuery(m, CustomerAddress, Scope.company(companyId), 'a')
      .select(['a.id AS id', 'a.latitude AS latitude', 'a.longitude AS longitude'])
      .andWhere('a.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getRawMany();
    return new Map(rows.map((r) => [r.id, { latitude: Number(r.latitude), longitude: Number(r.longitude) }]));
  }

  /** The caller's live address; another customer's (or a deleted one) is a 404. */
  private own(m: EntityManager, actor: Actor, id: string): Promise<CustomerAddress> {
    return findScoped(m, CustomerAddress, Scope.of(actor), id, { what: 'Address' });
  }

  /** Serialises default changes of one customer. */
  private async lockCustomer(m: EntityManager, customerId: string, companyId: string): Promise<void> {
    const [row] = await m.query<{ id: string }[]>(`SELECT id FROM customers WHERE id = $1 AND company_id = $2 FOR UPDATE`, [customerId, companyId]);
    if (!row) throw ApiError.notFound('Customer');
  }

  private async clearDefault(m: EntityManager, customerId: string): Promise<void> {
    await m.query(`UPDATE customer_addresses SET is_default = false, updated_at = now() WHERE customer_id = $1 AND is_default AND deleted_at IS NULL`, [customerId]);
  }
}
