import type { Type } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Scope } from '../../common/access/scope';
import { type BodyRef, findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { CompanyRecords } from '../../common/records/company-records';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import type { SiteEventPayloads } from './events';
import { recordEvents } from '../../common/outbox/outbox';
import { InUseRegistry } from '../../common/records/in-use';
import { HolidayEntity, SiteEntity } from './site.entity';
import { ALL_DAY_HOURS, HolidayDto, HolidayInputDto, HolidayQuery, ReplaceHolidaysDto, SiteQuery, UpdateHolidayDto } from './sites.dto';
import { isUniqueViolation } from '../../database/pg-errors';
import { runUnit } from '../../database/unit-of-work';

export type SiteKind = 'lot' | 'station';
/** The site events' verbs (`lot.created`, `station.holiday_deleted`, … in the event catalogue). */
type HolidayVerb = keyof SiteEventPayloads;

/** What tells lots and stations apart for the shared logic. */
export interface SiteConfig<S extends SiteEntity, H extends HolidayEntity> {
  kind: SiteKind;
  label: string;
  site: Type<S>;
  holiday: EntityTarget<H>;
  /** The holiday's property pointing at its site (`lotId`, `stationId`). */
  parentKey: keyof H & string;
}

/** Body fields common to lots and stations. */
export interface SiteFields {
  name?: string;
  address?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  opening_hours?: SiteEntity['openingHours'];
  active?: boolean;
}


/**
 * Lots and stations: their rows through the one persistence base for company records
 * (`CompanyRecords`: tenancy, unique name, IN_USE from the in-use registry, events), plus what only
 * sites have: the position rule, the kind's own fields and children, and holidays. Subclasses give
 * their own fields (`kindValues`, `validate`, `afterSave`), response (`render`) and filters (`filter`).
 */
export abstract class SiteService<S extends SiteEntity, H extends HolidayEntity, D, C extends SiteFields & { name: string }, U extends SiteFields> {
  protected readonly records: CompanyRecords<S, SiteKind>;

  protected constructor(
    protected readonly ds: DataSource,
    protected readonly config: SiteConfig<S, H>,
    /** Other modules register what keeps a lot or station from deletion (409 IN_USE). */
    protected readonly inUse: InUseRegistry,
  ) {
    this.records = new CompanyRecords<S, SiteKind>(ds, {
      entity: config.site,
      what: config.label,
      event: config.kind,
      nullable: ['address', 'latitude', 'longitude'],
      unique: [{ property: 'name', index: `uq_${config.kind}s_company_name`, code: 'DUPLICATE_NAME', message: `A ${config.kind} with this name already exists.` }],
      inUse: (m, row) => inUse.isUsed(m, config.kind, row.id),
      defaults: { openingHours: ALL_DAY_HOURS, active: true } as Partial<S>,
    });
  }

  /** The kind's own columns from a body (undefined = unchanged). */
  protected abstract kindValues(dto: C | U): Partial<S>;
  /** Checks what the kind's body refers to (validation failures as ApiError), inside the write. */
  protected async validate(_m: EntityManager, _companyId: string, _dto: C | U): Promise<void> {}
  /** Saves what lives outside the site row (e.g. a station's waste types), after the row is saved. */
  protected async afterSave(_m: EntityManager, _site: S, _dto: C | U): Promise<void> {}
  /** Response objects for saved rows (batch, so that related data loads in one query). */
  protected abstract render(m: EntityManager, sites: S[]): Promise<D[]>;
  /** Kind-specific list filters. */
  protected async filter(_m: EntityManager, _qb: SelectQueryBuilder<S>, _query: SiteQuery): Promise<void> {}

  // ------------------------------------------------------------------ sites

  async list(companyId: string, query: SiteQuery): Promise<Page<D>> {
    const qb = this.records.query(companyId, 's');
    if (query.active !== undefined) qb.andWhere('s.active = :active', { active: query.active });
    if (query.q) qb.andWhere('(s.name ILIKE :q OR s.address ILIKE :q)', { q: likePattern(query.q) });
    await this.filter(this.ds.manager, qb, query);
    const page = await paginate(qb, query, {
      sortable: { name: 's.name', created_at: 's.createdAt', updated_at: 's.updatedAt' },
      defaultSort: 'name',
    });
    return new Page(await this.render(this.ds.manager, page.items), page.meta);
  }

  async show(companyId: string, id: string): Promise<D> {
    const site = await this.find(this.ds.manager, companyId, id);
    return (await this.render(this.ds.manager, [site]))[0];
  }

  async create(companyId: string, actorId: string, dto: C): Promise<D> {
    const saved = await this.records.create({ id: actorId }, companyId, this.values(dto), this.hooks(companyId, dto));
    return (await this.render(this.ds.manager, [saved]))[0];
  }

  async update(companyId: string, actorId: string, id: string, dto: U): Promise<D> {
    const saved = await this.records.update({ id: actorId }, companyId, id, this.values(dto), this.hooks(companyId, dto));
    return (await this.render(this.ds.manager, [saved]))[0];
  }

  /** Soft delete; 409 IN_USE while live rows of other modules point at it (their checks in the in-use registry). */
  remove(companyId: string, actorId: string, id: string): Promise<void> {
    return this.records.remove({ id: actorId }, companyId, id);
  }

  /** The company's site (not deleted), optionally locked; 404 otherwise. */
  find(m: EntityManager, companyId: string, id: string, lock = false): Promise<S> {
    return this.records.find(companyId, id, m, lock);
  }

  /**
   * Body references (from other modules) must be the company's live sites of this kind, share-locked
   * until the commit: 422 `not found` on their fields otherwise.
   */
  assertOwned(m: EntityManager, companyId: string, refs: readonly BodyRef[]): Promise<void> {
    return this.records.assertOwned(m, companyId, refs);
  }

  private values(dto: SiteFields & (C | U)): Partial<S> {
    return {
      name: dto.name,
      address: dto.address === undefined ? undefined : dto.address || null,
      latitude: dto.latitude,
      longitude: dto.longitude,
      openingHours: dto.opening_hours,
      active: dto.active,
      ...this.kindValues(dto),
    } as Partial<S>;
  }

  private hooks(companyId: string, dto: C | U) {
    return {
      before: (m: EntityManager) => this.validate(m, companyId, dto),
      // A position has both coordinates or neither (checked on the row as it will be written).
      prepare: (_m: EntityManager, site: S) => {
        if ((site.latitude === null || site.latitude === undefined) !== (site.longitude === null || site.longitude === undefined)) {
          throw ApiError.validation({ [site.latitude == null ? 'latitude' : 'longitude']: ['latitude and longitude go together'] });
        }
      },
      after: (m: EntityManager, site: S) => this.afterSave(m, site, dto),
    };
  }

  // ------------------------------------------------------------------ holidays

  async listHolidays(companyId: string, siteId: string, query: HolidayQuery): Promise<Page<HolidayDto>> {
    await this.find(this.ds.manager, companyId, siteId);
    const qb = scopedQuery(this.ds.manager, this.config.holiday, Scope.company(companyId), 'h').andWhere(`h.${this.config.parentKey} = :siteId`, { siteId });
    if (query.from) qb.andWhere('h.date >= :from', { from: query.from });
    if (query.to) qb.andWhere('h.date <= :to', { to: query.to });
    if (query.q) qb.andWhere('h.name ILIKE :q', { q: likePattern(query.q) });
    return paginate(qb, query, { sortable: { date: 'h.date', name: 'h.name', created_at: 'h.createdAt' }, defaultSort: 'date', map: HolidayDto.of });
  }

  async addHoliday(companyId: string, actorId: string, siteId: string, dto: HolidayInputDto): Promise<HolidayDto> {
    return this.holidayWrite(async (m) => {
      await this.find(m, companyId, siteId, true);
      await this.assertDateFree(m, siteId, dto.date);
      const saved = await m.save(m.create(this.config.holiday, { companyId, [this.config.parentKey]: siteId, date: dto.date, name: dto.name } as never) as H);
      await this.holidayEvent(m, companyId, siteId, actorId, 'holiday_created', { holiday_id: saved.id, date: saved.date, name: saved.name });
      return HolidayDto.of(saved);
    });
  }

  /** Replaces the whole set of holidays; answers with the new set in date order. */
  async replaceHolidays(companyId: string, actorId: string, siteId: string, dto: ReplaceHolidaysDto): Promise<HolidayDto[]> {
    const seen = new Map<string, number>();
    const errors: Record<string, string[]> = {};
    dto.holidays.forEach((h, i) => {
      if (seen.has(h.date)) errors[`holidays.${i}.date`] = [`duplicates holidays.${seen.get(h.date)}.date`];
      else seen.set(h.date, i);
    });
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    return this.holidayWrite(async (m) => {
      await this.find(m, companyId, siteId, true);
      await m.delete(this.config.holiday, { [this.config.parentKey]: siteId } as never);
      const rows = dto.holidays.map((h) => m.create(this.config.holiday, { companyId, [this.config.parentKey]: siteId, date: h.date, name: h.name } as never) as H);
      const saved = rows.length ? await m.save(rows) : [];
      await this.holidayEvent(m, companyId, siteId, actorId, 'holidays_replaced', { count: saved.length });
      return saved.sort((a, b) => a.date.localeCompare(b.date)).map(HolidayDto.of);
    });
  }

  async updateHoliday(companyId: string, actorId: string, siteId: string, holidayId: string, dto: UpdateHolidayDto): Promise<HolidayDto> {
    return this.holidayWrite(async (m) => {
      await this.find(m, companyId, siteId, true);
      const holiday = await this.findHoliday(m, companyId, siteId, holidayId);
      if (dto.date !== undefined && dto.date !== holiday.date) await this.assertDateFree(m, siteId, dto.date);
      if (dto.date !== undefined) holiday.date = dto.date;
      if (dto.name !== undefined) holiday.name = dto.name;
      const saved = await m.save(holiday);
      await this.holidayEvent(m, companyId, siteId, actorId, 'holiday_updated', { holiday_id: saved.id, date: saved.date, name: saved.name });
      return HolidayDto.of(saved);
    });
  }

  async removeHoliday(companyId: string, actorId: string, siteId: string, holidayId: string): Promise<void> {
    await runUnit(this.ds, async (m) => {
      await this.find(m, companyId, siteId, true);
      const holiday = await this.findHoliday(m, companyId, siteId, holidayId);
      await m.delete(this.config.holiday, { id: holiday.id } as never);
      await this.holidayEvent(m, companyId, siteId, actorId, 'holiday_deleted', { holiday_id: holiday.id, date: holiday.date });
    });
  }

  private async findHoliday(m: EntityManager, companyId: string, siteId: string, id: string): Promise<H> {
    return findScoped(m, this.config.holiday, Scope.company(companyId), id, { what: 'Holiday', where: { [this.config.parentKey]: siteId } as never });
  }

  private async assertDateFree(m: EntityManager, siteId: string, date: string): Promise<void> {
    const taken = await m.getRepository(this.config.holiday).existsBy({ [this.config.parentKey]: siteId, date } as never);
    if (taken) throw this.duplicateDate(date);
  }

  private duplicateDate(date?: string) {
    return ApiError.conflict('DUPLICATE_DATE', `This ${this.config.kind} already has a holiday${date ? ` on ${date}` : ' on that date'}.`);
  }

  private async holidayWrite<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await runUnit(this.ds, work);
    } catch (e) {
      if (isUniqueViolation(e)) throw this.duplicateDate();
      throw e;
    }
  }

  private holidayEvent(m: EntityManager, companyId: string, siteId: string, actorId: string, verb: HolidayVerb, payload: SiteEventPayloads[HolidayVerb]) {
    return recordEvents(m, { type: `${this.config.kind}.${verb}`, aggregateType: this.config.kind, aggregateId: siteId, companyId, actorId, payload });
  }
}
