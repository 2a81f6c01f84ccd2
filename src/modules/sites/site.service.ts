import { DataSource, EntityManager, EntityTarget, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { likePattern, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { SiteReference, isReferenced } from './site-references';
import { HolidayEntity, SiteEntity } from './site.entity';
import { ALL_DAY_HOURS, HolidayDto, HolidayInputDto, HolidayQuery, ReplaceHolidaysDto, SiteQuery, UpdateHolidayDto } from './sites.dto';
import { isUniqueViolation } from '../../database/pg-errors';

export type SiteKind = 'lot' | 'station';

/** What tells lots and stations apart for the shared logic. */
export interface SiteConfig<S extends SiteEntity, H extends HolidayEntity> {
  kind: SiteKind;
  label: string;
  site: EntityTarget<S>;
  holiday: EntityTarget<H>;
  /** The holiday's property pointing at its site (`lotId`, `stationId`). */
  parentKey: keyof H & string;
  /** Other modules' columns whose live rows keep the site from being deleted (409 IN_USE). */
  references: SiteReference[];
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
 * CRUD, soft delete and holidays for a kind of site (lot or station). Subclasses add their own
 * fields (`applyFields`), render their response (`render`) and filters (`filter`).
 */
export abstract class SiteService<S extends SiteEntity, H extends HolidayEntity, D, C extends SiteFields & { name: string }, U extends SiteFields> {
  protected constructor(
    protected readonly ds: DataSource,
    protected readonly config: SiteConfig<S, H>,
  ) {}

  /** Copies the kind's own fields from a body onto the entity (validation failures as ApiError). */
  protected abstract applyFields(m: EntityManager, companyId: string, site: S, dto: C | U): Promise<void>;
  /** Saves what lives outside the site row (e.g. a station's waste types), after the row is saved. */
  protected async afterSave(_m: EntityManager, _site: S, _dto: C | U): Promise<void> {}
  /** Response objects for saved rows (batch, so that related data loads in one query). */
  protected abstract render(m: EntityManager, sites: S[]): Promise<D[]>;
  /** Kind-specific list filters. */
  protected async filter(_m: EntityManager, _qb: SelectQueryBuilder<S>, _query: SiteQuery): Promise<void> {}

  // ------------------------------------------------------------------ sites

  async list(companyId: string, query: SiteQuery): Promise<Page<D>> {
    const qb = this.ds.getRepository(this.config.site).createQueryBuilder('s').where('s.companyId = :companyId', { companyId });
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
    return this.write(async (m) => {
      await this.assertNameFree(m, companyId, dto.name);
      const site = m.create(this.config.site, { companyId, openingHours: ALL_DAY_HOURS, active: true } as never) as S;
      this.applyCommon(site, dto);
      await this.applyFields(m, companyId, site, dto);
      const saved = await m.save(site);
      await this.afterSave(m, saved, dto);
      await this.event(m, saved, actorId, 'created', { name: saved.name });
      return (await this.render(m, [saved]))[0];
    });
  }

  async update(companyId: string, actorId: string, id: string, dto: U): Promise<D> {
    return this.write(async (m) => {
      const site = await this.find(m, companyId, id, true);
      if (dto.name !== undefined && dto.name.toLowerCase() !== site.name.toLowerCase()) await this.assertNameFree(m, companyId, dto.name, id);
      this.applyCommon(site, dto);
      await this.applyFields(m, companyId, site, dto);
      const saved = await m.save(site);
      await this.afterSave(m, saved, dto);
      await this.event(m, saved, actorId, 'updated', { fields: Object.keys(dto) });
      return (await this.render(m, [saved]))[0];
    });
  }

  /** Soft delete; 409 IN_USE while live rows of other modules point at it. */
  async remove(companyId: string, actorId: string, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const site = await this.find(m, companyId, id, true);
      if (await isReferenced(m, this.config.references, id)) throw ApiError.inUse(this.config.label);
      await m.softDelete(this.config.site, { id } as never);
      await this.event(m, site, actorId, 'deleted', { name: site.name });
    });
  }

  /** The company's site (not deleted), optionally locked; 404 otherwise. */
  async find(m: EntityManager, companyId: string, id: string, lock = false): Promise<S> {
    const site = await m.getRepository(this.config.site).findOne({
      where: { id, companyId } as never,
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!site) throw ApiError.notFound(this.config.label);
    return site;
  }

  private applyCommon(site: S, dto: SiteFields): void {
    if (dto.name !== undefined) site.name = dto.name;
    if (dto.address !== undefined) site.address = dto.address || null;
    if (dto.latitude !== undefined) site.latitude = dto.latitude;
    if (dto.longitude !== undefined) site.longitude = dto.longitude;
    if (dto.opening_hours !== undefined) site.openingHours = dto.opening_hours;
    if (dto.active !== undefined) site.active = dto.active;
    if ((site.latitude === null || site.latitude === undefined) !== (site.longitude === null || site.longitude === undefined)) {
      throw ApiError.validation({ [site.latitude == null ? 'latitude' : 'longitude']: ['latitude and longitude go together'] });
    }
  }

  private async assertNameFree(m: EntityManager, companyId: string, name: string, exceptId?: string): Promise<void> {
    const table = m.getRepository(this.config.site).metadata.tableName;
    const [taken] = await m.query(
      `SELECT 1 FROM ${table} WHERE company_id = $1 AND lower(name) = lower($2) AND deleted_at IS NULL AND id IS DISTINCT FROM $3`,
      [companyId, name, exceptId ?? null],
    );
    if (taken) throw this.duplicateName();
  }

  private duplicateName() {
    return ApiError.conflict('DUPLICATE_NAME', `A ${this.config.kind} with this name already exists.`);
  }

  /** A transaction whose unique-index races surface as this kind's 409. */
  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ds.transaction(work);
    } catch (e) {
      if (isUniqueViolation(e)) throw this.duplicateName();
      throw e;
    }
  }

  private event(m: EntityManager, site: S, actorId: string, verb: string, payload: Record<string, unknown>) {
    return recordEvents(m, { type: `${this.config.kind}.${verb}`, aggregateType: this.config.kind, aggregateId: site.id, companyId: site.companyId, actorId, payload });
  }

  // ------------------------------------------------------------------ holidays

  async listHolidays(companyId: string, siteId: string, query: HolidayQuery): Promise<Page<HolidayDto>> {
    await this.find(this.ds.manager, companyId, siteId);
    const qb = this.ds.getRepository(this.config.holiday).createQueryBuilder('h').where(`h.${this.config.parentKey} = :siteId AND h.companyId = :companyId`, { siteId, companyId });
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
    await this.ds.transaction(async (m) => {
      await this.find(m, companyId, siteId, true);
      const holiday = await this.findHoliday(m, companyId, siteId, holidayId);
      await m.delete(this.config.holiday, { id: holiday.id } as never);
      await this.holidayEvent(m, companyId, siteId, actorId, 'holiday_deleted', { holiday_id: holiday.id, date: holiday.date });
    });
  }

  private async findHoliday(m: EntityManager, companyId: string, siteId: string, id: string): Promise<H> {
    const holiday = await m.getRepository(this.config.holiday).findOneBy({ id, companyId, [this.config.parentKey]: siteId } as never);
    if (!holiday) throw ApiError.notFound('Holiday');
    return holiday;
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
      return await this.ds.transaction(work);
    } catch (e) {
      if (isUniqueViolation(e)) throw this.duplicateDate();
      throw e;
    }
  }

  private holidayEvent(m: EntityManager, companyId: string, siteId: string, actorId: string, verb: string, payload: Record<string, unknown>) {
    return recordEvents(m, { type: `${this.config.kind}.${verb}`, aggregateType: this.config.kind, aggregateId: siteId, companyId, actorId, payload });
  }
}
