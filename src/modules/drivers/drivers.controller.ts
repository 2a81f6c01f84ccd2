import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { CreateMemberDto, MemberDto } from '../customers';
import { MembersService } from '../customers';
import { DriverDto, DriverListQuery, DriverProfileDto, UpdateDriverDto, UpdateDriverProfileDto } from './driver.dto';
import { DriversService } from './drivers.service';

const STATUS_NOTE =
  'Activating an active or deactivating an inactive driver is 409 `INVALID_TRANSITION` (nothing changes). ' +
  "Deactivation takes effect on the driver's next request: role routes answer 403 `USER_INACTIVE`.";

@ApiTags('Drivers')
@Controller('api/v1')
export class DriversController {
  constructor(
    private readonly members: MembersService,
    private readonly drivers: DriversService,
  ) {}

  @Post('driver/create')
  @Access('CO')
  @Endpoint({
    summary: 'Create a driver of the company',
    description: 'With `password` the driver can log in at once; otherwise a code to set one is e-mailed. Past the company\'s plan limit on drivers: 403 `PLAN_LIMIT` (`errors.limit`).',
    type: MemberDto,
    status: 201,
    errors: [403, 409, 422],
    codes: { 403: ['PLAN_LIMIT'], 409: ['EMAIL_TAKEN'] },
  })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateMemberDto) {
    return this.members.create(actor, scope, 'driver', dto);
  }

  @Post('driver/profile/update')
  @Access('DR')
  @Endpoint({ summary: "Update the driver's own profile (name, phone, licence); omitted fields stay, null clears", type: DriverProfileDto, errors: [422] })
  updateProfile(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: UpdateDriverProfileDto) {
    return this.drivers.updateProfile(actor, scope, dto);
  }

  @Get('drivers')
  @Access('CO')
  @Endpoint({ summary: "The company's drivers (`q` on name, e-mail, phone; `status` filter; sort created_at, name, email)", type: DriverDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: DriverListQuery) {
    return this.drivers.list(scope, query);
  }

  @Get('driver/:driverId')
  @Access('CO')
  @ApiIdParam('driverId')
  @Endpoint({ summary: 'A driver of the company', type: DriverDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('driverId') id: string) {
    return this.drivers.show(scope, id);
  }

  @Put('driver/:driverId/update')
  @Access('CO')
  @ApiIdParam('driverId')
  @Endpoint({
    summary: 'Update a driver (user fields, licence, hire date, notes)',
    description: 'Omitted fields stay; null clears an optional field. A changed e-mail is unique among users (409 `EMAIL_TAKEN`) and is marked unverified.',
    type: DriverDto,
    errors: [404, 409, 422],
    codes: { 409: ['EMAIL_TAKEN'] },
  })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('driverId') id: string, @Body() dto: UpdateDriverDto) {
    return this.drivers.update(actor, scope, id, dto);
  }

  @Post('driver/:driverId/activate')
  @Access('CO')
  @ApiIdParam('driverId')
  @Endpoint({ summary: 'Activate a driver', description: STATUS_NOTE, type: DriverDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  activate(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('driverId') id: string) {
    return this.drivers.setStatus(actor, scope, id, 'active');
  }

  @Post('driver/:driverId/deactivate')
  @Access('CO')
  @ApiIdParam('driverId')
  @Endpoint({ summary: 'Deactivate a driver', description: STATUS_NOTE, type: DriverDto, errors: [404, 409], codes: { 409: ['INVALID_TRANSITION'] } })
  deactivate(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('driverId') id: string) {
    return this.drivers.setStatus(actor, scope, id, 'inactive');
  }
}
