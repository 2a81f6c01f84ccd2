import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { CreateMemberDto, MemberDto } from './member.dto';
import { MembersService } from './members.service';
import { CustomerDto, CustomerListQuery, UpdateCustomerDto } from './customer.dto';
import { CustomersService } from './customers.service';
import { AddressDto, CreateAddressDto } from './customer-address.dto';
import { CustomerAddressesService } from './customer-addresses.service';
import { PageQuery } from '../../common/http/pagination';

const STATUS_NOTE =
  'Activating an active or deactivating an inactive customer is 409 `INVALID_TRANSITION` (nothing changes). ' +
  "Deactivation takes effect on the customer's next request: role routes answer 403 `USER_INACTIVE`.";

@ApiTags('Customers')
@Controller('api/v1')
export class CustomersController {
  constructor(
    private readonly members: MembersService,
    private readonly customers: CustomersService,
    private readonly addresses: CustomerAddressesService,
  ) {}

  @Post('customer/create')
  @Access('CO')
  @Endpoint({
    summary: 'Create a customer of the company',
    description: 'With `password` the customer can log in at once; otherwise a code to set one is e-mailed.',
    type: MemberDto,
    status: 201,
    errors: [409, 422],
    codes: { 409: ['EMAIL_TAKEN'] },
  })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateMemberDto) {
    return this.members.create(actor, scope, 'customer', dto);
  }

  @Get('customers')
  @Access('CO')
  @Endpoint({ summary: "The company's customers (`q` on name, e-mail, phone; `status`, `tax_exempt`, `pricing_profile_id` filters; sort created_at, name, email)", type: CustomerDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: CustomerListQuery) {
    return this.customers.list(scope, query);
  }

  @Get('customer/:customerId/addresses')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({
    summary: "A customer's addresses (sites), for the office (extension)",
    description: "The list the customer sees at `GET /customer/addresses`, for a company user taking an order by phone (issue #25). Another company's customer is 404, a deactivated one 409 `CUSTOMER_INACTIVE`.",
    type: AddressDto,
    list: true,
    errors: [404, 409, 422],
    codes: { 409: ['CUSTOMER_INACTIVE'] },
  })
  listAddresses(@CurrentScope() scope: Scope, @IdParam('customerId') id: string, @Query() query: PageQuery) {
    return this.addresses.listFor(scope, id, query);
  }

  @Post('customer/:customerId/addresses')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({
    summary: 'Add an address (a site) for a customer (extension)',
    description:
      "What the customer does with `POST /customer/addresses`, done by a company user (issue #25: orders taken by phone): the same body and rules (the customer's first address becomes the default), " +
      'recorded with the user as actor (`customer_address.created`). Another company\'s customer is 404, a deactivated one 409 `CUSTOMER_INACTIVE`.',
    type: AddressDto,
    status: 201,
    errors: [404, 409, 422],
    codes: { 409: ['CUSTOMER_INACTIVE'] },
  })
  createAddress(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('customerId') id: string, @Body() dto: CreateAddressDto) {
    return this.addresses.createFor(actor, scope, id, dto);
  }

  @Get('customer/:customerId')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'A customer of the company', type: CustomerDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('customerId') id: string) {
    return this.customers.show(scope, id);
  }

  @Put('customer/:customerId/update')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({
    summary: 'Update a customer (user and billing fields, notes, pricing profile)',
    description: 'Omitted fields stay; null clears an optional field. A changed e-mail is unique among users (409 `EMAIL_TAKEN`) and is marked unverified.',
    type: CustomerDto,
    errors: [404, 409, 422],
    codes: { 409: ['EMAIL_TAKEN'] },
  })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('customerId') id: string, @Body() dto: UpdateCustomerDto) {
    return this.customers.update(actor, scope, id, dto);
  }

  @Post('customer/:customerId/activate')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'Activate a customer', description: STATUS_NOTE, type: CustomerDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  activate(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('customerId') id: string) {
    return this.customers.setStatus(actor, scope, id, 'active');
  }

  @Post('customer/:customerId/deactivate')
  @Access('CO')
  @ApiIdParam('customerId')
  @Endpoint({ summary: 'Deactivate a customer', description: STATUS_NOTE, type: CustomerDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  deactivate(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('customerId') id: string) {
    return this.customers.setStatus(actor, scope, id, 'inactive');
  }
}
