import { Injectable, OnModuleInit } from '@nestjs/common';
import { SystemReach } from '../../common/access/scope';
import { InUseRegistry } from '../../common/records/in-use';
import { OrdersRepository } from './orders.repository';

/**
 * What running orders (pending to delivered) keep from deletion, registered in the in-use registry:
 * their address and their asset specification. (Their waste type is not protected: deleting one used
 * by a running order has never been refused.)
 */
@Injectable()
export class OrderInUseChecks implements OnModuleInit {
  constructor(
    private readonly inUse: InUseRegistry,
    private readonly orders: OrdersRepository,
  ) {}

  onModuleInit(): void {
    // The registry names the record by its id alone (no tenant): the check is a lookup of any company's orders pointing at it.
    const reach = SystemReach.of('in-use check of a record named by its id');
    this.inUse.register('customer_address', 'orders', 'a running order to the address', (_m, id) => this.orders.runningUses(reach, 'addressId', id));
    this.inUse.register('asset_specification', 'orders', 'a running order of the specification', (_m, id) => this.orders.runningUses(reach, 'assetSpecificationId', id));
  }
}
