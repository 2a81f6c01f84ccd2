import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CompanyId, CurrentActor } from '../../common/access/actor';
import { Endpoint } from '../../common/http/openapi';
import { CreateMemberDto, MemberDto } from '../users/member.dto';
import { MembersService } from '../users/members.service';

@ApiTags('Drivers')
@Controller('api/v1')
export class DriversController {
  constructor(private readonly members: MembersService) {}

  @Post('driver/create')
  @Access('CO')
  @Endpoint({
    summary: 'Create a driver of the company',
    description: 'With `password` the driver can log in at once; otherwise a code to set one is e-mailed.',
    type: MemberDto,
    status: 201,
    errors: [409, 422],
  })
  create(@CurrentActor() actor: Actor, @CompanyId() companyId: string, @Body() dto: CreateMemberDto) {
    return this.members.create(actor, companyId, 'driver', dto);
  }
}
