import { Module } from '@nestjs/common';
import { MembersModule } from '../users/members.module';
import { CustomerAddressesService } from './customer-addresses.service';
import { CustomerSelfController } from './customer-self.controller';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';

// CustomerSelfController first: its literal paths (customer/profile…) must precede customer/:customerId.
@Module({
  imports: [MembersModule],
  controllers: [CustomerSelfController, CustomersController],
  providers: [CustomersService, CustomerAddressesService],
  exports: [CustomersService],
})
export class CustomersModule {}
