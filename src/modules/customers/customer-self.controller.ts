import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PageQuery } from '../../common/http/pagination';
import { AddressDto, CreateAddressDto } from './customer-address.dto';
import { CustomerAddressesService } from './customer-addresses.service';
import { CustomerProfileDto, UpdateCustomerProfileDto } from './customer.dto';
import { CustomersService } from './customers.service';

/**
 * The customer's own profile and addresses. Declared before CustomersController so that the literal
 * `customer/profile` and `customer/addresses` are matched before `customer/:customerId`.
 */
@ApiTags('Customer self-service')
@Controller('api/v1/customer')
export class CustomerSelfController {
  constructor(
    private readonly customers: CustomersService,
    private readonly addresses: CustomerAddressesService,
  ) {}

  @Get('profile')
  @Access('CU')
  @Endpoint({ summary: "The customer's own profile", type: CustomerProfileDto })
  profile(@CurrentActor() actor: Actor) {
    return this.customers.profile(actor);
  }

  @Put('profile')
  @Access('CU')
  @Endpoint({ summary: 'Update the own profile (name, phone, billing name and e-mail); omitted fields stay, null clears', type: CustomerProfileDto, errors: [422] })
  updateProfile(@CurrentActor() actor: Actor, @Body() dto: UpdateCustomerProfileDto) {
    return this.customers.updateProfile(actor, dto);
  }

  @Get('addresses')
  @Access('CU')
  @Endpoint({ summary: "The customer's addresses", type: AddressDto, list: true, errors: [422] })
  listAddresses(@CurrentScope() scope: Scope, @Query() query: PageQuery) {
    return this.addresses.list(scope, query);
  }

  @Post('addresses')
  @Access('CU')
  @Endpoint({ summary: 'Add an address (the first one becomes the default)', type: AddressDto, status: 201, errors: [422] })
  createAddress(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateAddressDto) {
    return this.addresses.create(actor, scope, dto);
  }

  @Delete('addresses/:address')
  @Access('CU')
  @ApiIdParam('address')
  @Endpoint({ summary: 'Delete an address (soft; a deleted default passes to the most recent remaining address; 409 IN_USE while a running order goes there)', errors: [404, 409], codes: { 409: ['IN_USE'] } })
  async deleteAddress(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('address') id: string) {
    await this.addresses.remove(actor, scope, id);
    return null;
  }

  @Post('addresses/:address/default')
  @Access('CU')
  @ApiIdParam('address')
  @Endpoint({ summary: 'Make an address the default (exactly one per customer)', type: AddressDto, errors: [404] })
  makeDefault(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('address') id: string) {
    return this.addresses.makeDefault(actor, scope, id);
  }
}
