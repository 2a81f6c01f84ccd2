/** What other modules may use of customers (never its entities). */
export { CustomersModule } from './customers.module';
export { CustomersService } from './customers.service';
export { CustomerAddressesService } from './customer-addresses.service';
export type { AddressSnapshot } from './customer-address.dto';
export { Loaded } from './member-directory';
export { OptionalLoginEmail } from './member-fields';
export { OptionalName } from './member-fields';
export { MemberProfileDto } from './member-profile.dto';
export { memberProfileFields } from './member-profile.dto';
export { MemberDirectory } from './member-directory';
export { MembersModule } from './members.module';
export { MembersService } from './members.service';
export { CreateMemberDto, MemberDto } from './member.dto';
export { CustomerDto, CustomerListQuery, UpdateCustomerDto } from './customer.dto';
