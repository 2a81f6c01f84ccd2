import { Body, Controller, Delete, Get, Param, Post, Put, Query, type Type } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../common/access/access.decorator';
import { Actor, CurrentActor } from '../../common/access/actor';
import { CurrentScope, Scope } from '../../common/access/scope';
import { Page, withMessage } from '../../common/http/envelope';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { Endpoint } from '../../common/http/openapi';
import { LotsService } from './lots.service';
import { StationsService } from './stations.service';
import {
  CreateLotDto,
  CreateStationDto,
  HolidayDto,
  HolidayInputDto,
  HolidayQuery,
  LotDto,
  OpeningExceptionDto,
  OpeningExceptionInputDto,
  ReplaceHolidaysDto,
  SiteQuery,
  StationDto,
  StationQuery,
  UpdateHolidayDto,
  UpdateLotDto,
  UpdateStationDto,
  WeekdayHoursDto,
} from './sites.dto';

/** The whole replaced set as a single page. */
const wholeSet = (items: HolidayDto[]) => new Page(items, { page: 1, per_page: Math.max(items.length, 1), total: items.length, last_page: 1 });

const REPLACE_DOC = 'Replaces the whole set of holidays (dates unique; `[]` clears it) and answers with the new set, in date order, as one page.';

/** The path's weekday and date (not ids: a bad one is 422 naming it). */
const WEEKDAY_PARAM = ApiParam({ name: 'weekday', enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], example: 'sat', description: 'The weekday (`mon`..`sun`; another value is 422).' });
const DATE_PARAM = ApiParam({ name: 'date', schema: { type: 'string', format: 'date', example: '2027-12-24' }, description: 'The date, `YYYY-MM-DD` (another form is 422).' });

const WEEKDAY_DOC = (kind: string) =>
  `Extension (issue #25): sets one weekday's hours of the ${kind} (\`{open, close}\`, or null: closed that weekday) and leaves the other days as they are, instead of replacing the whole \`opening_hours\`. ` +
  `Answers with the ${kind}. A dated exception or a holiday still wins on its date.`;
const EXCEPTION_DOC = (kind: string) =>
  `Extension (issue #25): the ${kind}'s opening on one date, whatever its weekday's hours say: special hours (\`{open, close}\`: open that date), or \`hours: null\` (closed that date; placement, assignment, tickets and route collapse answer as for a holiday, \`HOLIDAY\` with the note as its name). ` +
  'Replaces what the date had (200 either way). A holiday on the same date still closes it.';

/** What the opening routes ask of a lot's or station's service (`SiteService`). */
interface SiteOpening<D> {
  setWeekdayHours(scope: Scope, actorId: string, id: string, weekday: string, dto: WeekdayHoursDto): Promise<D>;
  listExceptions(scope: Scope, siteId: string, query: HolidayQuery): Promise<Page<OpeningExceptionDto>>;
  setException(scope: Scope, actorId: string, siteId: string, date: string, dto: OpeningExceptionInputDto): Promise<OpeningExceptionDto>;
  removeException(scope: Scope, actorId: string, siteId: string, date: string): Promise<void>;
}

/**
 * The opening routes of a lot or a station (extensions, issue #25), one definition for both: one
 * weekday's hours, and the dated opening exceptions (list, set, remove). `LotsController` and
 * `StationsController` extend it with their service; the paths, parameters and documents are each kind's.
 */
function SiteOpeningRoutes<D>(kind: 'lot' | 'station', siteType: Type<D>) {
  abstract class OpeningRoutes {
    constructor(protected readonly opening: SiteOpening<D>) {}

    @Put(`${kind}/:${kind}/opening-hours/:weekday`)
    @Access('CO')
    @ApiIdParam(kind)
    @WEEKDAY_PARAM
    @Endpoint({ summary: `Set one weekday's hours of a ${kind} (extension)`, description: WEEKDAY_DOC(kind), type: siteType, errors: [404, 422] })
    setWeekday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam(kind) id: string, @Param('weekday') weekday: string, @Body() dto: WeekdayHoursDto) {
      return this.opening.setWeekdayHours(scope, actor.id, id, weekday, dto);
    }

    @Get(`${kind}/:${kind}/opening-exceptions`)
    @Access('CO')
    @ApiIdParam(kind)
    @Endpoint({ summary: `List a ${kind}'s dated opening exceptions (extension; filters: from, to; sort: date, created_at)`, type: OpeningExceptionDto, list: true, errors: [404, 422] })
    exceptions(@CurrentScope() scope: Scope, @IdParam(kind) id: string, @Query() query: HolidayQuery) {
      return this.opening.listExceptions(scope, id, query);
    }

    @Put(`${kind}/:${kind}/opening-exceptions/:date`)
    @Access('CO')
    @ApiIdParam(kind)
    @DATE_PARAM
    @Endpoint({ summary: `Set a ${kind}'s opening on one date: special hours or closed (extension)`, description: EXCEPTION_DOC(kind), type: OpeningExceptionDto, errors: [404, 422] })
    setException(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam(kind) id: string, @Param('date') date: string, @Body() dto: OpeningExceptionInputDto) {
      return this.opening.setException(scope, actor.id, id, date, dto);
    }

    @Delete(`${kind}/:${kind}/opening-exceptions/:date`)
    @Access('CO')
    @ApiIdParam(kind)
    @DATE_PARAM
    @Endpoint({ summary: `Remove a ${kind}'s opening exception on a date: its weekday's hours apply again (extension; 404 when the date has none)`, errors: [404, 422], message: 'Opening exception deleted.' })
    async removeException(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam(kind) id: string, @Param('date') date: string) {
      await this.opening.removeException(scope, actor.id, id, date);
      return withMessage(null, 'Opening exception deleted.');
    }
  }
  return OpeningRoutes;
}

@ApiTags('Lots')
@Controller('api/v1')
export class LotsController extends SiteOpeningRoutes('lot', LotDto) {
  constructor(private readonly lots: LotsService) {
    super(lots);
  }

  @Get('lots')
  @Access('CO')
  @Endpoint({ summary: 'List lots (filters: active, q on name/address; sort: name, created_at, updated_at)', type: LotDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: SiteQuery) {
    return this.lots.list(scope, query);
  }

  @Post('lot/create')
  @Access('CO')
  @Endpoint({ summary: 'Create a lot (yard)', description: 'Names are unique per company (409 DUPLICATE_NAME). Without opening_hours the lot is open every day, all day.', type: LotDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateLotDto) {
    return this.lots.create(scope, actor.id, dto);
  }

  @Get('lot/:lot')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'Show a lot', type: LotDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('lot') id: string) {
    return this.lots.show(scope, id);
  }

  @Put('lot/:lot/update')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'Update a lot (fields given are changed; opening_hours is replaced as a whole)', type: LotDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string, @Body() dto: UpdateLotDto) {
    return this.lots.update(scope, actor.id, id, dto);
  }

  @Delete('lot/:lot/delete')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'Delete a lot (soft; 409 IN_USE while assets or trucks are based there)', errors: [404, 409], message: 'Lot deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string) {
    await this.lots.remove(scope, actor.id, id);
    return withMessage(null, 'Lot deleted.');
  }

  @Get('lot/:lot/holidays')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'List a lot\'s holidays (filters: from, to, q; sort: date, name, created_at)', type: HolidayDto, list: true, errors: [404, 422] })
  holidays(@CurrentScope() scope: Scope, @IdParam('lot') id: string, @Query() query: HolidayQuery) {
    return this.lots.listHolidays(scope, id, query);
  }

  @Post('lot/:lot/holidays')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'Add a holiday to a lot (409 DUPLICATE_DATE when the date has one)', type: HolidayDto, status: 201, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_DATE'] } })
  addHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string, @Body() dto: HolidayInputDto) {
    return this.lots.addHoliday(scope, actor.id, id, dto);
  }

  @Put('lot/:lot/holidays')
  @Access('CO')
  @ApiIdParam('lot')
  @Endpoint({ summary: 'Replace a lot\'s holidays', description: REPLACE_DOC, type: HolidayDto, list: true, errors: [404, 422] })
  async replaceHolidays(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string, @Body() dto: ReplaceHolidaysDto) {
    return wholeSet(await this.lots.replaceHolidays(scope, actor.id, id, dto));
  }

  @Put('lot/:lot/holidays/:holiday')
  @Access('CO')
  @ApiIdParam('lot')
  @ApiIdParam('holiday')
  @Endpoint({ summary: 'Update a lot holiday', type: HolidayDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_DATE'] } })
  updateHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string, @IdParam('holiday') holidayId: string, @Body() dto: UpdateHolidayDto) {
    return this.lots.updateHoliday(scope, actor.id, id, holidayId, dto);
  }

  @Delete('lot/:lot/holidays/:holiday')
  @Access('CO')
  @ApiIdParam('lot')
  @ApiIdParam('holiday')
  @Endpoint({ summary: 'Delete a lot holiday', errors: [404], message: 'Holiday deleted.' })
  async removeHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('lot') id: string, @IdParam('holiday') holidayId: string) {
    await this.lots.removeHoliday(scope, actor.id, id, holidayId);
    return withMessage(null, 'Holiday deleted.');
  }
}

@ApiTags('Stations')
@Controller('api/v1')
export class StationsController extends SiteOpeningRoutes('station', StationDto) {
  constructor(private readonly stations: StationsService) {
    super(stations);
  }

  @Get('stations')
  @Access('CO')
  @Endpoint({ summary: 'List stations (filters: active, waste_type_id, q on name/address; sort: name, created_at, updated_at)', type: StationDto, list: true, errors: [422] })
  list(@CurrentScope() scope: Scope, @Query() query: StationQuery) {
    return this.stations.list(scope, query);
  }

  @Post('station/create')
  @Access('CO')
  @Endpoint({ summary: 'Create a station (dump site)', description: 'Names are unique per company (409 DUPLICATE_NAME); waste_type_ids must be the company\'s (422). Without opening_hours the station is open every day, all day.', type: StationDto, status: 201, errors: [409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  create(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @Body() dto: CreateStationDto) {
    return this.stations.create(scope, actor.id, dto);
  }

  @Get('station/:station')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'Show a station', type: StationDto, errors: [404] })
  show(@CurrentScope() scope: Scope, @IdParam('station') id: string) {
    return this.stations.show(scope, id);
  }

  @Put('station/:station/update')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'Update a station (fields given are changed; opening_hours and waste_type_ids are replaced as a whole)', type: StationDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_NAME'] } })
  update(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string, @Body() dto: UpdateStationDto) {
    return this.stations.update(scope, actor.id, id, dto);
  }

  @Delete('station/:station/delete')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'Delete a station (soft; 409 IN_USE while unfinished jobs or assets are there)', errors: [404, 409], message: 'Station deleted.', codes: { 409: ['IN_USE'] } })
  async remove(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string) {
    await this.stations.remove(scope, actor.id, id);
    return withMessage(null, 'Station deleted.');
  }

  @Get('station/:station/holidays')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'List a station\'s holidays (filters: from, to, q; sort: date, name, created_at)', type: HolidayDto, list: true, errors: [404, 422] })
  holidays(@CurrentScope() scope: Scope, @IdParam('station') id: string, @Query() query: HolidayQuery) {
    return this.stations.listHolidays(scope, id, query);
  }

  @Post('station/:station/holidays')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'Add a holiday to a station (409 DUPLICATE_DATE when the date has one)', type: HolidayDto, status: 201, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_DATE'] } })
  addHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string, @Body() dto: HolidayInputDto) {
    return this.stations.addHoliday(scope, actor.id, id, dto);
  }

  @Put('station/:station/holidays')
  @Access('CO')
  @ApiIdParam('station')
  @Endpoint({ summary: 'Replace a station\'s holidays', description: REPLACE_DOC, type: HolidayDto, list: true, errors: [404, 422] })
  async replaceHolidays(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string, @Body() dto: ReplaceHolidaysDto) {
    return wholeSet(await this.stations.replaceHolidays(scope, actor.id, id, dto));
  }

  @Put('station/:station/holidays/:holiday')
  @Access('CO')
  @ApiIdParam('station')
  @ApiIdParam('holiday')
  @Endpoint({ summary: 'Update a station holiday', type: HolidayDto, errors: [404, 409, 422], codes: { 409: ['DUPLICATE_DATE'] } })
  updateHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string, @IdParam('holiday') holidayId: string, @Body() dto: UpdateHolidayDto) {
    return this.stations.updateHoliday(scope, actor.id, id, holidayId, dto);
  }

  @Delete('station/:station/holidays/:holiday')
  @Access('CO')
  @ApiIdParam('station')
  @ApiIdParam('holiday')
  @Endpoint({ summary: 'Delete a station holiday', errors: [404], message: 'Holiday deleted.' })
  async removeHoliday(@CurrentActor() actor: Actor, @CurrentScope() scope: Scope, @IdParam('station') id: string, @IdParam('holiday') holidayId: string) {
    await this.stations.removeHoliday(scope, actor.id, id, holidayId);
    return withMessage(null, 'Holiday deleted.');
  }
}
