import { Injectable, OnModuleInit } from '@nestjs/common';
import { In } from 'typeorm';
import { InUseRegistry } from '../../common/records/in-use';
import { ONGOING_STATUSES, Order } from './order.entity';

/**
 * What running orders (pending to delivered) keep from deletion, registered in the in-use registry:
 * their address and their asset specification. (Their waste type is not protected: deleting one used
 * by a running order has never been refused.)
 */
@Injectable()
export class OrderInUseChecks implements OnModuleInit {
  constructor(private readonly inUse: InUseRegistry) {}

  onModuleInit(): void {
    const running = { status: In(ONGOING_STATUSES) };
    this.inUse.register('customer_address', 'orders', 'a running order to the address', (m, id) => m.existsBy(Order, { addressId: id, ...running }));
    this.inUse.register('asset_specification', 'orders', 'a running order of the specification', (m, id) => m.existsBy(Order, { assetSpecificationId: id, ...running }));
  }
}
