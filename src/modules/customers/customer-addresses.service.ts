import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { PageQuery, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { AddressDto, CreateAddressDto } from './customer-address.dto';
import { CustomerAddress } from './customer-address.entity';

/**
 * A customer's own addresses. Exactly one live address is the default (the first one automatically);
 * default changes lock the customer row so that two requests cannot both set one.
 */
@Injectable()
export class CustomerAddressesService {
  constructor(private readonly ds: DataSource) {}

  list(actor: Actor, companyId: string, query: PageQuery): Promise<Page<AddressDto>> {
    const qb = this.ds
      .getRepository(CustomerAddress)
      .createQueryBuilder('a')
      .where('a.customerId = :customerId AND a.companyId = :companyId', { customerId: actor.id, companyId });
    return paginate(qb, query, {
      sortable: { created_at: 'a.createdAt', label: 'a.label', city: 'a.city', is_default: 'a.isDefault' },
      map: AddressDto.of,
    });
  }

  async create(actor: Actor, companyId: string, dto: CreateAddressDto): Promise<AddressDto> {
    const saved = await this.ds.transaction(async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const [{ count }] = await m.query(`SELECT count(*)::int AS count FROM customer_addresses WHERE customer_id = $1 AND deleted_at IS NULL`, [actor.id]);
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
   * relocation job goes there. When the default goes, the most recent remaining address becomes the default.
   */
  async remove(actor: Actor, companyId: string, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const address = await this.own(m, actor, companyId, id);
      const [used] = await m.query(
        `SELECT 1 FROM orders WHERE address_id = $1 AND status IN ('pending', 'approved', 'scheduled', 'delivered')
         UNION ALL SELECT 1 FROM jobs WHERE destination_address_id = $1 AND status IN ('unassigned', 'assigned', 'in_progress') LIMIT 1`,
        [id],
      );
      if (used) throw ApiError.inUse('Address');
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
    const saved = await this.ds.transaction(async (m) => {
      await this.lockCustomer(m, actor.id, companyId);
      const address = await this.own(m, actor, companyId, id);
      if (address.isDefault) return address;
      await this.clearDefault(m, actor.id);
      await m.update(CustomerAddress, { id }, { isDefault: true });
      await recordEvents(m, { type: 'customer_address.default_changed', aggregateType: 'customer_address', aggregateId: id, companyId, actorId: actor.id, payload: { customer_id: actor.id } });
      return this.own(m, actor, companyId, id);
    });
    return AddressDto.of(saved);
  }

  /** The caller's live address; another customer's (or a deleted one) is a 404. */
  private async own(m: EntityManager, actor: Actor, companyId: string, id: string): Promise<CustomerAddress> {
    const address = await m.getRepository(CustomerAddress).findOne({ where: { id, customerId: actor.id, companyId } });
    if (!address) throw ApiError.notFound('Address');
    return address;
  }

  /** Serialises default changes of one customer. */
  private async lockCustomer(m: EntityManager, customerId: string, companyId: string): Promise<void> {
    const [row] = await m.query(`SELECT id FROM customers WHERE id = $1 AND company_id = $2 FOR UPDATE`, [customerId, companyId]);
    if (!row) throw ApiError.notFound('Customer');
  }

  private async clearDefault(m: EntityManager, customerId: string): Promise<void> {
    await m.query(`UPDATE customer_addresses SET is_default = false, updated_at = now() WHERE customer_id = $1 AND is_default AND deleted_at IS NULL`, [customerId]);
  }
}
