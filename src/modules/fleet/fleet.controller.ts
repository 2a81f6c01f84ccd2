import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { CreateTruckDto, CreateTruckTypeDto, TruckDto, TruckLocationDto, TruckQuery, TruckTypeDto, TruckTypeQuery, UpdateTruckDto, UpdateTruckTypeDto } from './fleet.dto';
import { TrucksService, TruckTypesService } from './fleet.service';

@ApiTags('Truck types')
@Controller('api/v1')
export class TruckTypesController {
  constructor(private readonly types: TruckTypesService) {}

  @Get('truck-types')
  @Access('CO')
  @Endpoint({ summary: 'List truck types (filter: q)', type: TruckTypeDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: TruckTypeQuery) {
    return this.types.list(scope, q);
  }

  @Post('truck-types')
  @Access('CO')
  @Endpoint({ summary: 'Create a truck type with the specifications it can carry', type: TruckTypeDto, status: 201, errors: [422] })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateTruckTypeDto) {
    return this.types.create(actor, scope, dto);
  }

  @Get('truck-types/:truckType')
  @Access('CO')
  @ApiIdParam('truckType')
  @Endpoint({ summary: 'Show a truck type', type: TruckTypeDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('truckType') id: string) {
    return this.types.get(scope, id);
  }

  @Put('truck-types/:truckType')
  @Access('CO')
  @ApiIdParam('truckType')
  @Endpoint({ summary: 'Update a truck type; `asset_specification_ids`, when given, replaces the set', type: TruckTypeDto, errors: [404, 422] })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('truckType') id: string, @Body() dto: UpdateTruckTypeDto) {
    return this.types.update(actor, scope, id, dto);
  }

  @Delete('truck-types/:truckType')
  @Access('CO')
  @ApiIdParam('truckType')
  @Endpoint({ summary: 'Delete a truck type (soft; 409 IN_USE while a truck has it)', errors: [404, 409], codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('truckType') id: string) {
    await this.types.remove(actor, scope, id);
  }
}

@ApiTags('Trucks')
@Controller('api/v1')
export class TrucksController {
  constructor(private readonly trucks: TrucksService) {}

  @Get('trucks')
  @Access('CO')
  @Endpoint({ summary: 'List trucks (filter: status, truck_type_id, home_lot_id, q on plate/name)', type: TruckDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() q: TruckQuery) {
    return this.trucks.list(scope, q);
  }

  @Post('trucks')
  @Access('CO')
  @Endpoint({ summary: 'Create a truck (plate unique per company)', type: TruckDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_PLATE'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateTruckDto) {
    return this.trucks.create(actor, scope, dto);
  }

  @Get('trucks/:truck')
  @Access('CO')
  @ApiIdParam('truck')
  @Endpoint({ summary: 'Show a truck', type: TruckDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('truck') id: string) {
    return this.trucks.get(scope, id);
  }

  @Put('trucks/:truck')
  @Access('CO')
  @ApiIdParam('truck')
  @Endpoint({ summary: 'Update a truck (fields given)', type: TruckDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_PLATE'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('truck') id: string, @Body() dto: UpdateTruckDto) {
    return this.trucks.update(actor, scope, id, dto);
  }

  @Delete('trucks/:truck')
  @Access('CO')
  @ApiIdParam('truck')
  @Endpoint({ summary: 'Delete a truck (soft)', errors: [404, 409], codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('truck') id: string) {
    await this.trucks.remove(actor, scope, id);
  }

  @Put('trucks/:truck/location')
  @Access('CO')
  @ApiIdParam('truck')
  @Endpoint({ summary: 'Record the truck\'s current location', type: TruckDto, errors: [404, 422] })
  location(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('truck') id: string, @Body() dto: TruckLocationDto) {
    return this.trucks.setLocation(actor, scope, id, dto);
  }
}
