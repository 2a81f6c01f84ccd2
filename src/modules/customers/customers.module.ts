import './events'; // this module's domain events, declared into the event catalogue (src/common/outbox/event-catalogue.ts)
import { Module, OnModuleInit } from '@nestjs/common';
import { AssetPlaces, CatalogueModule } from '../catalogue';
import { PricingModule } from '../pricing';
import { MembersModule } from './members.module';
import { CustomerAddressesService } from './customer-addresses.service';
import { CustomerSelfController } from './customer-self.controller';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';
import { CustomerAddressRepository } from './customer-address.repository';
import { CALLER_CUSTOMER_SQL, CustomerRepository } from './customer.repository';
import { ActorResolver } from '../../common/access/jwt.strategy';

// CustomerSelfController first: its literal paths (customer/profile…) must precede customer/:customerId.
@Module({
  imports: [MembersModule, PricingModule, CatalogueModule],
  controllers: [CustomerSelfController, CustomersController],
  providers: [CustomerRepository, CustomerAddressRepository, CustomersService, CustomerAddressesService],
  exports: [CustomersService, CustomerAddressesService, MembersModule],
})
export class CustomersModule implements OnModuleInit {
  constructor(
    private readonly places: AssetPlaces,
    private readonly addresses: CustomerAddressesService,
    private readonly actors: ActorResolver,
  ) {}

  /** The customer's part of the caller's statement (src/common/access/jwt.strategy.ts `CallerSql`). An asset may be at a customer address; a company user places it, so any address of the company will do. */
  onModuleInit(): void {
    this.actors.registerCallerSql('customer', CALLER_CUSTOMER_SQL);
    this.places.register('customer_address', 'customers', (scope, refs) => this.addresses.assertOwned(scope, refs));
  }
}
