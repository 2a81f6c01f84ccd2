import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { CreatePromotionDto, PromotionDto, PromotionQuery, PromotionSpecificationDto, PromotionSpecificationQuery, UpdatePromotionDto } from './promotions.dto';
import { PromotionsService } from './promotions.service';

@ApiTags('Promotions')
@Controller('api/v1')
export class PromotionsController {
  constructor(private readonly promotions: PromotionsService) {}

  @Get('promotions')
  @Access('CO')
  @Endpoint({ summary: 'List promotions (filter: active, q on code/name)', type: PromotionDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: PromotionQuery) {
    return this.promotions.list(scope, q);
  }

  @Post('promotions/create')
  @Access('CO')
  @Endpoint({ summary: 'Create a promotion (code unique per company, case-insensitive)', type: PromotionDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreatePromotionDto) {
    return this.promotions.create(actor, scope, dto);
  }

  @Get('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Show a promotion', type: PromotionDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('promotion') id: string) {
    return this.promotions.get(scope, id);
  }

  @Put('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Update a promotion; `asset_specification_ids`, when given, replaces the set', type: PromotionDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('promotion') id: string, @Body() dto: UpdatePromotionDto) {
    return this.promotions.update(actor, scope, id, dto);
  }

  @Delete('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Delete a promotion (soft)', errors: [404] })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('promotion') id: string) {
    await this.promotions.remove(actor, scope, id);
  }

  @Get('customer/promotions/:promotion/asset-specifications')
  @Access('CU')
  @ApiIdParam('promotion')
  @Endpoint({
    summary: 'The active specifications a promotion applies to (all active ones when it lists none)',
    description: 'An inactive, expired, not yet valid or unknown promotion is 404.',
    type: PromotionSpecificationDto,
    list: true,
    errors: [404, 422],
  })
  specifications(@CurrentScope() scope: Scope, @IdParam('promotion') id: string, @Query() q: PromotionSpecificationQuery) {
    return this.promotions.specificationsForCustomer(scope, id, q);
  }
}
