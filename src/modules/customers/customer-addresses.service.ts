import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import type { BodyRef } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { PageQuery } from '../../common/http/pagination';
import { InUseRegistry } from '../../common/records/in-use';
import { UnitOfWork } from '../../database/unit-of-work';
import { recordEvents } from '../../common/outbox/outbox';
import { AddressDto, AddressSnapshot, CreateAddressDto } from './customer-address.dto';
import { CustomerAddressRepository } from './customer-address.repository';
import { CustomerRepository } from './customer.repository';
import { CustomersService } from './customers.service';

type WithTerms = { address: AddressSnapshot; customer: { taxExempt: boolean; pricingProfileId: string | null } };

/**
 * A customer's own addresses. Exactly one live address is the default (the first one automatically);
 * default changes lock the customer row so that two requests cannot both set one.
 */
@Injectable()
export class CustomerAddressesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly addresses: CustomerAddressRepository,
    private readonly customers: CustomerRepository,
    private readonly inUse: InUseRegistry,
    private readonly members: CustomersService,
  ) {}

  /** The caller's addresses (a customer's scope: their own). */
  async list(scope: Scope, query: PageQuery): Promise<Page<AddressDto>> {
    const page = await this.addresses.page(scope, query);
    return new Page(page.items.map(AddressDto.of), page.meta);
  }

  /** The addresses of the company's customer `customerId`, for a company user (404 when not the company's; 409 `CUSTOMER_INACTIVE`). */
  async listFor(scope: Scope, customerId: string, query: PageQuery): Promise<Page<AddressDto>> {
    return this.list((await this.members.actingFor(scope, customerId)).scope, query);
  }

  /** A company user adds an address (a site) for the company's customer `customerId`, as the customer would (issue #25: phone orders). */
  async createFor(actor: Actor, scope: Scope, customerId: string, dto: CreateAddressDto): Promise<AddressDto> {
    return this.create(actor, (await this.members.actingFor(scope, customerId)).scope, dto);
  }

  /**
   * A new address of the scope's customer (the caller, or the customer a company user acts for: `scope` is
   * then that customer's, `actor` the user, named by the event). The first live one becomes the default.
   */
  async create(actor: Actor, scope: Scope, dto: CreateAddressDto): Promise<AddressDto> {
    const customerId = scope.customerId;
    if (!customerId) throw ApiError.forbidden('WRONG_ACTOR', "Addresses are a customer's: add one as the customer or for a customer (POST /customer/{customerId}/addresses).");
    const saved = await this.uow.transaction(async (m) => {
      await this.lockCustomer(scope, customerId);
      const isDefault = (await this.addresses.liveCount(scope, customerId)) === 0 || dto.is_default === true;
      if (isDefault) await this.addresses.clearDefault(scope, customerId);
      const address = await this.addresses.insert(scope, {
        customerId,
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
      });
      await recordEvents(m, { type: 'customer_address.created', aggregateType: 'customer_address', aggregateId: address.id, companyId: scope.companyId, actorId: actor.id, payload: { customer_id: customerId, is_default: isDefault } });
      return address;
    });
    return AddressDto.of(saved);
  }

  /**
   * Soft delete; 409 IN_USE while an order that is still running (pending to delivered) or a
   * relocation job goes there (orders and jobs register those checks in the in-use registry). When the default goes, the most recent remaining address becomes the default.
   */
  async remove(actor: Actor, scope: Scope, id: string): Promise<void> {
    await this.uow.transaction(async (m) => {
      await this.lockCustomer(scope, actor.id);
      const address = await this.addresses.find(Scope.of(actor), id);
      await this.inUse.assertUnused(m, 'customer_address', id, 'Address');
      await this.addresses.softDelete(scope, id);
      let newDefault: string | null = null;
      if (address.isDefault) {
        const next = await this.addresses.latest(scope, actor.id);
        if (next) {
          await this.addresses.makeDefault(scope, next.id);
          newDefault = next.id;
        }
      }
      await recordEvents(m, { type: 'customer_address.deleted', aggregateType: 'customer_address', aggregateId: id, companyId: scope.companyId, actorId: actor.id, payload: { customer_id: actor.id, new_default_id: newDefault } });
    });
  }

  async makeDefault(actor: Actor, scope: Scope, id: string): Promise<AddressDto> {
    const saved = await this.uow.transaction(async (m) => {
      await this.lockCustomer(scope, actor.id);
      const address = await this.addresses.find(Scope.of(actor), id);
      if (address.isDefault) return address;
      await this.addresses.clearDefault(scope, actor.id);
      await this.addresses.makeDefault(scope, id);
      await recordEvents(m, { type: 'customer_address.default_changed', aggregateType: 'customer_address', aggregateId: id, companyId: scope.companyId, actorId: actor.id, payload: { customer_id: actor.id } });
      return this.addresses.find(Scope.of(actor), id);
    });
    return AddressDto.of(saved);
  }

  /**
   * The customer's live address as an order keeps it (a snapshot), or null when `scope` does not
   * reach it (another customer's, deleted, absent). Inside a unit of work, read through it.
   */
  async snapshot(scope: Scope, id: string): Promise<AddressSnapshot | null> {
    return (await this.withTerms(scope, id))?.address ?? null;
  }

  /**
   * The address snapshot with its customer's pricing terms (tax exemption, assigned price book) in one
   * statement, for pricing an order; null when `scope` does not reach the address.
   */
  async snapshotWithTerms(scope: Scope, id: string): Promise<WithTerms | null> {
    return this.withTerms(scope, id);
  }

  /**
   * Body references (from other modules) must be live addresses that `scope` reaches, share-locked
   * until the commit: a customer's scope reaches only their own addresses, a company's scope all the
   * company's. 422 `not found` on their fields otherwise.
   */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.addresses.assertReachable(scope, refs);
  }

  /** Dispatch: positions of the scope's live addresses by id (relocation destinations for the route planner). One statement. */
  async positions(scope: Scope, ids: readonly string[]): Promise<Map<string, { latitude: number; longitude: number }>> {
    if (!ids.length) return new Map();
    const rows = await this.addresses.positions(scope, ids);
    return new Map(rows.map((r) => [r.id, { latitude: Number(r.latitude), longitude: Number(r.longitude) }]));
  }

  private async withTerms(scope: Scope, id: string): Promise<WithTerms | null> {
    const a = await this.addresses.withCustomer(scope, id);
    if (!a) return null;
    const c = a.customerRow;
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

  /** Serialises default changes of one customer. */
  private async lockCustomer(scope: Scope, customerId: string): Promise<void> {
    if (!(await this.customers.lock(scope, customerId))) throw ApiError.notFound('Customer');
  }
}
