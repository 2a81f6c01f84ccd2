import { Injectable, type Type } from '@nestjs/common';
import { EntityTarget, SelectQueryBuilder } from 'typeorm';
import { Scope, SystemReach } from '../../common/access/scope';
import { type BodyRef, findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import type { SiteEventPayloads } from './events';
import { recordEvents } from '../../common/outbox/outbox';
import { CompanyRecords, type WriteHooks } from '../../common/records/company-records';
import { InUseRegistry } from '../../common/records/in-use';
import { ModuleRepository } from '../../database/repository';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { UnitOfWork } from '../../database/unit-of-work';
import { HolidayEntity, Lot, LotHoliday, LotOpeningException, type OpeningExceptionEntity, type OpeningHours, SiteEntity, Station, StationHoliday, StationOpeningException } from './site.entity';
import type { DateException } from './opening-calendar.service';
import { ALL_DAY_HOURS, HolidayDto, HolidayQuery, OpeningExceptionDto, SiteQuery, StationQuery } from './sites.dto';

export type SiteKind = 'lot' | 'station';
/** The site events' verbs (`lot.created`, `station.holiday_deleted`, … in the event catalogue). */
export type HolidayVerb = keyof SiteEventPayloads;

/** What tells lots and stations apart for the shared logic. */
export interface SiteConfig<S extends SiteEntity, H extends HolidayEntity> {
  kind: SiteKind;
  label: string;
  site: Type<S>;
  holiday: EntityTarget<H>;
  /** The holiday's property pointing at its site (`lotId`, `stationId`). */
  parentKey: keyof H & string;
  /** The dated opening exceptions (`lot_opening_exceptions`…), pointing at their site by the same property as holidays. */
  exception: Type<OpeningExceptionEntity>;
}

/** The columns of a site's exception on the date of `param` as one jsonb value (null when none), for the site aliased `s`. */
const EXCEPTION_SQL = (table: string, parentColumn: string, param: string) =>
  `(SELECT jsonb_build_object('open', e.open_time, 'close', e.close_time, 'note', e.note) FROM ${table} e WHERE e.${parentColumn} = s.id AND e.date = CAST(:${param} AS date))`;

/** A site's row as the opening calendar reads it (its holiday on the date asked for, or null). */
export interface SiteOpening {
  active: boolean;
  opening_hours: OpeningHours | null;
  holiday: string | null;
  exception: DateException | null;
}

/** A site's row on a dispatch day (raw: numbers may come back as text). */
export interface SiteDayRow {
  id: string;
  name: string;
  latitude: string | number | null;
  longitude: string | number | null;
  opening_hours: OpeningHours | null;
  holiday: string | null;
  exception: DateException | null;
}

/**
 * The SQL of lots and stations (and their holidays), shared by the two kinds: the rows through the one
 * persistence base for company records (`CompanyRecords`: tenancy, unique name, IN_USE from the in-use
 * registry, events), lists, holidays and the opening calendar's reads. Each kind's repository adds its own.
 */
export abstract class SiteRepository<S extends SiteEntity, H extends HolidayEntity> extends ModuleRepository {
  private readonly records: CompanyRecords<S, SiteKind>;

  protected constructor(
    uow: UnitOfWork,
    /** Other modules register what keeps a lot or station from deletion (409 IN_USE). */
    inUse: InUseRegistry,
    readonly config: SiteConfig<S, H>,
  ) {
    super(uow);
    this.records = new CompanyRecords<S, SiteKind>(uow.ds, {
      entity: config.site,
      what: config.label,
      event: config.kind,
      nullable: ['address', 'latitude', 'longitude'],
      unique: [{ property: 'name', index: `uq_${config.kind}s_company_name`, code: 'DUPLICATE_NAME', message: `A ${config.kind} with this name already exists.` }],
      inUse: (m, row) => inUse.isUsed(m, config.kind, row.id),
      defaults: { openingHours: ALL_DAY_HOURS, active: true } as Partial<S>,
    });
  }

  // ------------------------------------------------------------------ sites

  /** The scope's live site, else 404; `lock` takes a row lock (inside a unit of work). */
  find(scope: Scope, id: string, lock = false): Promise<S> {
    return this.records.find(scope.companyId, id, lock ? this.locked : this.m, lock);
  }

  /** Body references must be the scope's live sites of this kind, share-locked until the commit (422 otherwise). */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(this.m, scope.companyId, refs);
  }

  /** Inserts a site with its unique name checked, its hooks run and `<kind>.created` recorded, in one unit. */
  create(actorId: string, scope: Scope, values: Partial<S>, hooks: WriteHooks<S, null>): Promise<S> {
    return this.records.create({ id: actorId }, scope.companyId, values, hooks);
  }

  /** Locks, changes and saves a site (hooks, `<kind>.updated`), in one unit. */
  update(actorId: string, scope: Scope, id: string, values: Partial<S>, hooks: WriteHooks<S, S>): Promise<S> {
    return this.records.update({ id: actorId }, scope.companyId, id, values, hooks);
  }

  /** Soft delete; 409 IN_USE while the in-use registry says so. */
  remove(actorId: string, scope: Scope, id: string): Promise<void> {
    return this.records.remove({ id: actorId }, scope.companyId, id);
  }

  /** A page of the scope's sites (filters: active, q on name/address, and the kind's own). */
  async page(scope: Scope, query: SiteQuery): Promise<Page<S>> {
    const qb = scopedQuery(this.m, this.config.site, scope, 's');
    if (query.active !== undefined) qb.andWhere('s.active = :active', { active: query.active });
    if (query.q) qb.andWhere('(s.name ILIKE :q OR s.address ILIKE :q)', { q: likePattern(query.q) });
    this.filter(qb, query);
    const page = await paginate(qb, query, {
      sortable: { name: 's.name', created_at: 's.createdAt', updated_at: 's.updatedAt' },
      defaultSort: 'name',
    });
    return new Page(page.items, page.meta);
  }

  /** The kind's own list filters. */
  @GenerateSql.skip('a part of page(): adds its filters')
  protected filter(_qb: SelectQueryBuilder<S>, _query: SiteQuery): void {}

  // ------------------------------------------------------------------ holidays

  listHolidays(scope: Scope, siteId: string, query: HolidayQuery): Promise<Page<HolidayDto>> {
    const qb = scopedQuery(this.m, this.config.holiday, scope, 'h').andWhere(`h.${this.config.parentKey} = :siteId`, { siteId });
    if (query.from) qb.andWhere('h.date >= :from', { from: query.from });
    if (query.to) qb.andWhere('h.date <= :to', { to: query.to });
    if (query.q) qb.andWhere('h.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { date: 'h.date', name: 'h.name', created_at: 'h.createdAt' }, defaultSort: 'date', map: HolidayDto.of });
  }

  /** The site's holiday, else 404. */
  findHoliday(scope: Scope, siteId: string, id: string): Promise<H> {
    return findScoped(this.m, this.config.holiday, scope, id, { what: 'Holiday', where: { [this.config.parentKey]: siteId } as never });
  }

  /** Whether the site has a holiday on `date`. */
  holidayOn(siteId: string, date: string): Promise<boolean> {
    return this.m.getRepository(this.config.holiday).existsBy({ [this.config.parentKey]: siteId, date } as never);
  }

  addHoliday(scope: Scope, siteId: string, values: { date: string; name: string }): Promise<H> {
    return this.m.save(this.m.create(this.config.holiday, { companyId: scope.companyId, [this.config.parentKey]: siteId, ...values } as never) as H);
  }

  /** Replaces the site's holidays by `holidays` (in one unit); the saved rows. */
  async replaceHolidays(scope: Scope, siteId: string, holidays: readonly { date: string; name: string }[]): Promise<H[]> {
    const m = this.locked;
    await m.delete(this.config.holiday, { [this.config.parentKey]: siteId } as never);
    const rows = holidays.map((h) => m.create(this.config.holiday, { companyId: scope.companyId, [this.config.parentKey]: siteId, date: h.date, name: h.name } as never) as H);
    return rows.length ? m.save(rows) : [];
  }

  saveHoliday(holiday: H): Promise<H> {
    return this.m.save(holiday);
  }

  async deleteHoliday(holiday: H): Promise<void> {
    await this.m.delete(this.config.holiday, { id: holiday.id } as never);
  }

  /** Records `<kind>.<verb>` about a site, in the open unit. */
  recordEvent(scope: Scope, siteId: string, actorId: string, verb: HolidayVerb, payload: SiteEventPayloads[HolidayVerb]): Promise<void> {
    return recordEvents(this.locked, { type: `${this.config.kind}.${verb}`, aggregateType: this.config.kind, aggregateId: siteId, companyId: scope.companyId, actorId, payload });
  }

  // ------------------------------------------------------------------ opening exceptions (dated)

  /** The subselect of the site's (alias `s`) exception on the date of parameter `param`, as one jsonb value. */
  @GenerateSql.skip('a part of the opening reads: a subselect, no statement')
  protected exceptionOn(param: string): string {
    const md = this.m.getRepository(this.config.exception).metadata;
    return EXCEPTION_SQL(md.tableName, md.findColumnWithPropertyName(this.config.parentKey as string)!.databaseName, param);
  }

  /** A page of the site's opening exceptions (filters: from, to), by date. */
  listExceptions(scope: Scope, siteId: string, query: HolidayQuery): Promise<Page<OpeningExceptionDto>> {
    const qb = scopedQuery(this.m, this.config.exception, scope, 'e').andWhere(`e.${this.config.parentKey} = :siteId`, { siteId });
    if (query.from) qb.andWhere('e.date >= :from', { from: query.from });
    if (query.to) qb.andWhere('e.date <= :to', { to: query.to });
    return paginate(qb, query, { sortable: { date: 'e.date', created_at: 'e.createdAt' }, defaultSort: 'date', map: OpeningExceptionDto.of });
  }

  /** The site's exception on `date`, or null. */
  exceptionAt(scope: Scope, siteId: string, date: string): Promise<OpeningExceptionEntity | null> {
    return this.m.findOne(this.config.exception, { where: { companyId: scope.companyId, [this.config.parentKey]: siteId, date } as never });
  }

  /** Writes the site's exception on `date` (a new row, or the existing one changed); the saved row. The caller holds the site's row lock. */
  saveException(scope: Scope, siteId: string, date: string, values: Pick<OpeningExceptionEntity, 'openTime' | 'closeTime' | 'note'>, existing: OpeningExceptionEntity | null): Promise<OpeningExceptionEntity> {
    const row = existing ?? this.m.create(this.config.exception, { companyId: scope.companyId, [this.config.parentKey]: siteId, date } as never);
    Object.assign(row, values);
    return this.m.save(row);
  }

  /** Deletes the site's exception row. */
  async deleteException(scope: Scope, row: OpeningExceptionEntity): Promise<void> {
    await this.m.delete(this.config.exception, { id: row.id, companyId: scope.companyId });
  }

  // ------------------------------------------------------------------ the opening calendar

  /** The site's activity, opening hours, holiday and opening exception on `date` (one statement); undefined when the scope reaches no such live site. */
  opening(scope: Scope, id: string, date: string): Promise<SiteOpening | undefined> {
    return scopedQuery(this.m, this.config.site, scope, 's')
      .leftJoin(this.config.holiday as Type<H>, 'h', `h.${this.config.parentKey} = s.id AND h.date = CAST(:date AS date)`, { date })
      .select(['s.active AS active', 's.openingHours AS opening_hours', 'h.name AS holiday'])
      .addSelect(this.exceptionOn('date'), 'exception')
      .andWhere('s.id = :id', { id })
      .getRawOne<SiteOpening>();
  }

  /** The scope's active sites without a holiday on `date` (id, opening hours, the date's exception), by name. One statement. */
  withoutHolidayOn(scope: Scope, date: string): Promise<{ id: string; opening_hours: OpeningHours; exception: DateException | null }[]> {
    const holidays = this.m.getRepository(this.config.holiday).metadata;
    const parent = holidays.findColumnWithPropertyName(this.config.parentKey)!.databaseName;
    return scopedQuery(this.m, this.config.site, scope, 's')
      .select(['s.id AS id', 's.openingHours AS opening_hours'])
      .addSelect(this.exceptionOn('date'), 'exception')
      .andWhere('s.active')
      .andWhere(`NOT EXISTS (SELECT 1 FROM ${holidays.tableName} h WHERE h.${parent} = s.id AND h.date = CAST(:date AS date))`, { date })
      .orderBy('s.name')
      .addOrderBy('s.id')
      .getRawMany();
  }

  /** The scope's active sites on a dispatch day with their holiday that day, by name (one statement); `extra` adds columns. */
  protected dayRows<R extends SiteDayRow>(scope: Scope, date: string, extra?: (qb: SelectQueryBuilder<S>) => void): Promise<R[]> {
    const holidays = this.m.getRepository(this.config.holiday).metadata;
    const parent = holidays.findColumnWithPropertyName(this.config.parentKey)!.databaseName;
    const qb = scopedQuery(this.m, this.config.site, scope, 's')
      .select(['s.id AS id', 's.name AS name', 's.latitude AS latitude', 's.longitude AS longitude', 's.openingHours AS opening_hours'])
      .addSelect(`(SELECT h.name FROM ${holidays.tableName} h WHERE h.${parent} = s.id AND h.date = CAST(:onDate AS date) LIMIT 1)`, 'holiday')
      .addSelect(this.exceptionOn('onDate'), 'exception');
    extra?.(qb);
    return qb.andWhere('s.active').setParameters({ onDate: date }).orderBy('s.name', 'ASC').addOrderBy('s.id', 'ASC').getRawMany<R>();
  }
}

/** Lots' SQL. */
@Injectable()
export class LotRepository extends SiteRepository<Lot, LotHoliday> {
  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow, inUse, { kind: 'lot', label: 'Lot', site: Lot, holiday: LotHoliday, parentKey: 'lotId', exception: LotOpeningException });
  }

  /** The scope's active lots (position, opening hours) with, given `onDate`, each one's holiday that day. One statement. */
  @GenerateSql({ name: 'without a day', params: () => [Scope.company(SQL_SAMPLE.companyId)] }, { name: 'on a day', params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.date] })
  servingRows(scope: Scope, onDate?: string): Promise<{ id: string; latitude: string | number | null; longitude: string | number | null; opening_hours: OpeningHours | null; holiday: string | null; exception: DateException | null }[]> {
    // Placement's: prepared (planned once per connection).
    const qb = scopedQuery(this.m, Lot, scope, 's')
      .select(['s.id AS id', 's.latitude AS latitude', 's.longitude AS longitude', 's.openingHours AS opening_hours'])
      .addSelect(onDate ? '(SELECT h.name FROM lot_holidays h WHERE h.lot_id = s.id AND h.date = CAST(:onDate AS date) LIMIT 1)' : 'NULL::text', 'holiday')
      .addSelect(onDate ? this.exceptionOn('onDate') : 'NULL::jsonb', 'exception')
      .andWhere('s.active')
      .setParameters(onDate ? { onDate } : {});
    return this.preparedRows('sites_serving', qb);
  }

  /** The scope's active lots on a dispatch day (see `dayRows`). */
  forDay(scope: Scope, date: string): Promise<SiteDayRow[]> {
    return this.dayRows(scope, date);
  }
}

/** Stations' SQL, with the waste types they accept (`station_waste_types`, this module's link table). */
@Injectable()
export class StationRepository extends SiteRepository<Station, StationHoliday> {
  constructor(uow: UnitOfWork, inUse: InUseRegistry) {
    super(uow, inUse, { kind: 'station', label: 'Station', site: Station, holiday: StationHoliday, parentKey: 'stationId', exception: StationOpeningException });
  }

  @GenerateSql.skip('a part of page(): adds its filters')
  protected filter(qb: SelectQueryBuilder<Station>, query: StationQuery): void {
    if (query.waste_type_id) {
      qb.andWhere(`EXISTS (SELECT 1 FROM station_waste_types swt WHERE swt.station_id = s.id AND swt.waste_type_id = :wasteTypeId)`, { wasteTypeId: query.waste_type_id.toLowerCase() });
    }
  }

  /** The scope's active stations on a dispatch day (see `dayRows`), with their accepted waste types (comma-separated ids). */
  forDay(scope: Scope, date: string): Promise<(SiteDayRow & { waste_type_ids: string | null })[]> {
    return this.dayRows(scope, date, (qb) =>
      qb.addSelect(`(SELECT coalesce(string_agg(sw.waste_type_id::text, ',' ORDER BY sw.waste_type_id), '') FROM station_waste_types sw WHERE sw.station_id = s.id)`, 'waste_type_ids'),
    );
  }

  /** Whether the station accepts the waste type; with a scope, only among the scope's company's links. One statement. */
  async accepts(stationId: string, wasteTypeId: string, scope?: Scope): Promise<boolean> {
    const [hit] = scope
      ? await this.sql<{ '?column?': number }>(`SELECT 1 FROM station_waste_types WHERE station_id = $1 AND waste_type_id = $2 AND company_id = $3 LIMIT 1`, [stationId, wasteTypeId, scope.companyId])
      : await this.sql<{ '?column?': number }>(`SELECT 1 FROM station_waste_types WHERE station_id = $1 AND waste_type_id = $2 LIMIT 1`, [stationId, wasteTypeId]);
    return !!hit;
  }

  /** Whether a live station accepts the waste type (what keeps it from deletion: an in-use check, the registry names the waste type by id only). One statement. */
  @GenerateSql({ params: () => [SystemReach.of('an in-use check of a waste type'), SQL_SAMPLE.id] })
  async anyLiveAccepts(reach: SystemReach, wasteTypeId: string): Promise<boolean> {
    const [hit] = await this.sql<{ '?column?': number }>(
      `SELECT 1 FROM station_waste_types sw JOIN stations st ON st.id = sw.station_id AND st.deleted_at IS NULL WHERE sw.waste_type_id = $1 LIMIT 1`,
      [wasteTypeId],
    );
    return !!hit;
  }

  /** Replaces the accepted waste types of the scope's company's station (inside the station's write unit). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId), SQL_SAMPLE.id, [SQL_SAMPLE.otherId]] })
  async replaceWasteTypes(scope: Scope, stationId: string, wasteTypeIds: readonly string[]): Promise<void> {
    const m = this.locked;
    await m.query(`DELETE FROM station_waste_types WHERE station_id = $1 AND company_id = $2`, [stationId, scope.companyId]);
    if (wasteTypeIds.length) {
      await m.query(`INSERT INTO station_waste_types (station_id, waste_type_id, company_id) SELECT $1, unnest($2::uuid[]), $3`, [stationId, [...wasteTypeIds], scope.companyId]);
    }
  }

  /** The waste-type links of the scope's company's stations (one statement). */
  wasteTypeLinks(scope: Scope, stationIds: readonly string[]): Promise<{ station_id: string; waste_type_id: string }[]> {
    if (!stationIds.length) return Promise.resolve([]);
    return this.sql(`SELECT station_id, waste_type_id FROM station_waste_types WHERE station_id = ANY($1::uuid[]) AND company_id = $2`, [[...stationIds], scope.companyId]);
  }
}
