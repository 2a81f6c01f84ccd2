import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { PricingProfilesService } from './pricing-profiles.service';
import {
  CreatePaymentTermDto,
  CreatePolicyDto,
  CreatePricingProfileDto,
  CreateTaxDto,
  PaymentTermDto,
  PaymentTermQuery,
  PolicyDto,
  PolicyQuery,
  PricingProfileDto,
  PricingProfileQuery,
  TaxDto,
  TaxQuery,
  UpdatePaymentTermDto,
  UpdatePolicyDto,
  UpdatePricingProfileDto,
  UpdateTaxDto,
} from './pricing.dto';
import { PaymentTermsService, PoliciesService, TaxesService } from './pricing.service';

@ApiTags('Taxes')
@Controller('api/v1')
export class TaxesController {
  constructor(private readonly taxes: TaxesService) {}

  @Get('taxes')
  @Access('CO')
  @Endpoint({ summary: 'List taxes (filter: applies_to, q)', type: TaxDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: TaxQuery) {
    return this.taxes.list(scope, q);
  }

  @Post('taxes')
  @Access('CO')
  @Endpoint({ summary: 'Create a tax', type: TaxDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateTaxDto) {
    return this.taxes.create(actor, scope, dto);
  }

  @Get('taxes/:tax')
  @Access('CO')
  @ApiIdParam('tax')
  @Endpoint({ summary: 'Show a tax', type: TaxDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('tax') id: string) {
    return this.taxes.get(scope, id);
  }

  @Put('taxes/:tax')
  @Access('CO')
  @ApiIdParam('tax')
  @Endpoint({ summary: 'Update a tax (fields given)', type: TaxDto, errors: [404, 422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('tax') id: string, @Body() dto: UpdateTaxDto) {
    return this.taxes.update(actor, scope, id, dto);
  }

  @Delete('taxes/:tax')
  @Access('CO')
  @ApiIdParam('tax')
  @Endpoint({ summary: 'Delete a tax (soft)', errors: [404, 409] })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('tax') id: string) {
    await this.taxes.remove(actor, scope, id);
  }
}

@ApiTags('Payment terms')
@Controller('api/v1')
export class PaymentTermsController {
  constructor(private readonly terms: PaymentTermsService) {}

  @Get('payment-terms')
  @Access('CO')
  @Endpoint({ summary: 'List payment terms (filter: q)', type: PaymentTermDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: PaymentTermQuery) {
    return this.terms.list(scope, q);
  }

  @Post('payment-terms')
  @Access('CO')
  @Endpoint({ summary: 'Create a payment term', type: PaymentTermDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreatePaymentTermDto) {
    return this.terms.create(actor, scope, dto);
  }

  @Get('payment-terms/:paymentTerm')
  @Access('CO')
  @ApiIdParam('paymentTerm')
  @Endpoint({ summary: 'Show a payment term', type: PaymentTermDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('paymentTerm') id: string) {
    return this.terms.get(scope, id);
  }

  @Put('payment-terms/:paymentTerm')
  @Access('CO')
  @ApiIdParam('paymentTerm')
  @Endpoint({ summary: 'Update a payment term (fields given)', type: PaymentTermDto, errors: [404, 422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('paymentTerm') id: string, @Body() dto: UpdatePaymentTermDto) {
    return this.terms.update(actor, scope, id, dto);
  }

  @Delete('payment-terms/:paymentTerm')
  @Access('CO')
  @ApiIdParam('paymentTerm')
  @Endpoint({ summary: 'Delete a payment term (soft)', errors: [404, 409] })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('paymentTerm') id: string) {
    await this.terms.remove(actor, scope, id);
  }
}

@ApiTags('Policies')
@Controller('api/v1')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  @Get('policies')
  @Access('CO')
  @Endpoint({ summary: 'List policies (filter: category, active, q)', type: PolicyDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: PolicyQuery) {
    return this.policies.list(scope, q);
  }

  @Post('policies')
  @Access('CO')
  @Endpoint({ summary: 'Create a policy', type: PolicyDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreatePolicyDto) {
    return this.policies.create(actor, scope, dto);
  }

  @Get('policies/:policy')
  @Access('CO')
  @ApiIdParam('policy')
  @Endpoint({ summary: 'Show a policy', type: PolicyDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('policy') id: string) {
    return this.policies.get(scope, id);
  }

  @Put('policies/:policy')
  @Access('CO')
  @ApiIdParam('policy')
  @Endpoint({ summary: 'Update a policy (fields given)', type: PolicyDto, errors: [404, 422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('policy') id: string, @Body() dto: UpdatePolicyDto) {
    return this.policies.update(actor, scope, id, dto);
  }

  @Delete('policies/:policy')
  @Access('CO')
  @ApiIdParam('policy')
  @Endpoint({ summary: 'Delete a policy (soft)', errors: [404, 409] })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('policy') id: string) {
    await this.policies.remove(actor, scope, id);
  }
}

@ApiTags('Pricing profiles')
@Controller('api/v1')
export class PricingProfilesController {
  constructor(private readonly profiles: PricingProfilesService) {}

  @Get('pricing-profiles')
  @Access('CO')
  @Endpoint({ summary: 'List pricing profiles with their items (filter: is_default, q)', type: PricingProfileDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: PricingProfileQuery) {
    return this.profiles.list(scope, q);
  }

  @Post('pricing-profiles')
  @Access('CO')
  @Endpoint({ summary: 'Create a pricing profile (price book) with its items', type: PricingProfileDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreatePricingProfileDto) {
    return this.profiles.create(actor, scope, dto);
  }

  @Get('pricing-profiles/:pricingProfile')
  @Access('CO')
  @ApiIdParam('pricingProfile')
  @Endpoint({ summary: 'Show a pricing profile with its items', type: PricingProfileDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('pricingProfile') id: string) {
    return this.profiles.get(scope, id);
  }

  @Put('pricing-profiles/:pricingProfile')
  @Access('CO')
  @ApiIdParam('pricingProfile')
  @Endpoint({ summary: 'Update a pricing profile; `items`, when given, replaces the whole item set', type: PricingProfileDto, errors: [404, 422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('pricingProfile') id: string, @Body() dto: UpdatePricingProfileDto) {
    return this.profiles.update(actor, scope, id, dto);
  }

  @Delete('pricing-profiles/:pricingProfile')
  @Access('CO')
  @ApiIdParam('pricingProfile')
  @Endpoint({ summary: 'Delete a pricing profile (soft; 409 IN_USE while assigned to a customer)', errors: [404, 409], codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('pricingProfile') id: string) {
    await this.profiles.remove(actor, scope, id);
  }
}
