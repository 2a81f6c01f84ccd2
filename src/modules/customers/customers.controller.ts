import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { Endpoint } from '../../common/http/openapi';
import { CreateMemberDto, MemberDto } from '../users/member.dto';
import { MembersService } from '../users/members.service';

@ApiTags('Customers')
@Controller('api/v1')
export class CustomersController {
  constructor(private readonly members: MembersService) {}

  @Post('customer/create')
  @Access('CO')
  @Endpoint({
    summary: 'Create a customer of the company',
    description: 'With `password` the customer can log in at once; otherwise a code to set one is e-mailed.',
    type: MemberDto,
    status: 201,
    errors: [409, 422],
  })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateMemberDto) {
    return this.members.create(actor, companyId, 'customer', dto);
  }
}
