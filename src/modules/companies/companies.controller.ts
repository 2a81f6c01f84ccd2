import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { Endpoint } from '../../common/http/openapi';
import { CompaniesService } from './companies.service';
import { CompanyDto, CreateCompanyDto } from './company.dto';

@ApiTags('Company')
@Controller('api/v1/company')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Get()
  @Access('TOK')
  @Endpoint({ summary: 'The caller\'s company (own, or the one a customer or driver belongs to)', type: CompanyDto, errors: [404] })
  show(@CurrentActor() actor: Actor) {
    return this.companies.mine(actor);
  }

  @Post('create')
  @Access('TOK-T')
  @Endpoint({ summary: 'Create the caller\'s company; the caller becomes its owner', type: CompanyDto, status: 201, errors: [409, 422], codes: { 409: ['COMPANY_EXISTS'] } })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateCompanyDto) {
    return this.companies.create(actor, dto);
  }
}
