import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
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
  list(@CompanyId() companyId: string, @Query() q: PromotionQuery) {
    return this.promotions.list(companyId, q);
  }

  @Post('promotions/create')
  @Access('CO')
  @Endpoint({ summary: 'Create a promotion (code unique per company, case-insensitive)', type: PromotionDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreatePromotionDto) {
    return this.promotions.create(actor, companyId, dto);
  }

  @Get('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Show a promotion', type: PromotionDto, errors: [404] })
  show(@CompanyId() companyId: string, @IdParam('promotion') id: string) {
    return this.promotions.get(companyId, id);
  }

  @Put('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Update a promotion; `asset_specification_ids`, when given, replaces the set', type: PromotionDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_CODE'] } })
  update(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('promotion') id: string, @Body() dto: UpdatePromotionDto) {
    return this.promotions.update(actor, companyId, id, dto);
  }

  @Delete('promotions/:promotion')
  @Access('CO')
  @ApiIdParam('promotion')
  @Endpoint({ summary: 'Delete a promotion (soft)', errors: [404] })
  async remove(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @IdParam('promotion') id: string) {
    await this.promotions.remove(actor, companyId, id);
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
  specifications(@CompanyId() companyId: string, @IdParam('promotion') id: string, @Query() q: PromotionSpecificationQuery) {
    return this.promotions.specificationsForCustomer(companyId, id, q);
  }
}
