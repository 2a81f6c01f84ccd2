import { Scope } from '../../common/access/scope';
import type { BodyRef } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import type { SiteEventPayloads } from './events';
import { isUniqueViolation } from '../../database/pg-errors';
import { UnitOfWork } from '../../database/unit-of-work';
import { HolidayEntity, SiteEntity, WEEKDAYS } from './site.entity';
import { type HolidayVerb, SiteRepository } from './site.repository';
import { HolidayDto, HolidayInputDto, HolidayQuery, OpeningExceptionDto, OpeningExceptionInputDto, ReplaceHolidaysDto, SiteQuery, UpdateHolidayDto, WeekdayHoursDto } from './sites.dto';
import { DATE_MESSAGE, isDateOnly } from '../../common/validation/fields';

export type { SiteConfig, SiteKind } from './site.repository';

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
 * Lots and stations: the rules they share (the position rule, the kind's own fields and children,
 * holidays); their SQL is in the kind's repository (`site.repository.ts`). Subclasses give their own
 * fields (`kindValues`, `validate`, `afterSave`) and response (`render`).
 */
export abstract class SiteService<S extends SiteEntity, H extends HolidayEntity, D, C extends SiteFields & { name: string }, U extends SiteFields> {
  protected constructor(
    protected readonly uow: UnitOfWork,
    protected readonly repo: SiteRepository<S, H>,
  ) {}

  /** The kind's own columns from a body (undefined = unchanged). */
  protected abstract kindValues(dto: C | U): Partial<S>;
  /** Checks what the kind's body refers to (validation failures as ApiError), inside the write. */
  protected async validate(_scope: Scope, _dto: C | U): Promise<void> {}
  /** Saves what lives outside the site row (e.g. a station's waste types), after the row is saved. */
  protected async afterSave(_scope: Scope, _site: S, _dto: C | U): Promise<void> {}
  /** Response objects for the scope's saved rows (batch, so that related data loads in one query). */
  protected abstract render(scope: Scope, sites: S[]): Promise<D[]>;

  // ------------------------------------------------------------------ sites

  async list(scope: Scope, query: SiteQuery): Promise<Page<D>> {
    const page = await this.repo.page(scope, query);
    return new Page(await this.render(scope, page.items), page.meta);
  }

  async show(scope: Scope, id: string): Promise<D> {
    const site = await this.repo.find(scope, id);
    return (await this.render(scope, [site]))[0];
  }

  async create(scope: Scope, actorId: string, dto: C): Promise<D> {
    const saved = await this.repo.create(actorId, scope, this.values(dto), this.hooks(scope, dto));
    return (await this.render(scope, [saved]))[0];
  }

  async update(scope: Scope, actorId: string, id: string, dto: U): Promise<D> {
    const saved = await this.repo.update(actorId, scope, id, this.values(dto), this.hooks(scope, dto));
    return (await this.render(scope, [saved]))[0];
  }

  /** Soft delete; 409 IN_USE while live rows of other modules point at it (their checks in the in-use registry). */
  remove(scope: Scope, actorId: string, id: string): Promise<void> {
    return this.repo.remove(actorId, scope, id);
  }

  /** The scope's site (not deleted), optionally locked (inside a unit of work); 404 otherwise. */
  find(scope: Scope, id: string, lock?: boolean): Promise<S> {
    return this.repo.find(scope, id, lock === true);
  }

  /**
   * Body references (from other modules) must be the scope's live sites of this kind, share-locked
   * until the commit: 422 `not found` on their fields otherwise.
   */
  assertOwned(scope: Scope, refs: readonly BodyRef[]): Promise<void> {
    return this.repo.assertOwned(scope, refs);
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

  private hooks(scope: Scope, dto: C | U) {
    return {
      before: () => this.validate(scope, dto),
      // A position has both coordinates or neither (checked on the row as it will be written).
      prepare: (_m: unknown, site: S) => {
        if ((site.latitude === null || site.latitude === undefined) !== (site.longitude === null || site.longitude === undefined)) {
          throw ApiError.validation({ [site.latitude == null ? 'latitude' : 'longitude']: ['latitude and longitude go together'] });
        }
      },
      after: (_m: unknown, site: S) => this.afterSave(scope, site, dto),
    };
  }

  // ------------------------------------------------------------------ one weekday, one date (issue #25)

  /** One weekday's hours (null: closed), the other days as they are; the site as it now is. 422 for an unknown weekday. */
  async setWeekdayHours(scope: Scope, actorId: string, id: string, weekday: string, dto: WeekdayHoursDto): Promise<D> {
    if (!(WEEKDAYS as readonly string[]).includes(weekday)) throw ApiError.validation({ weekday: [`must be one of ${WEEKDAYS.join(', ')}`] });
    return this.uow.transaction(async () => {
      const site = await this.repo.find(scope, id, true);
      const hours = dto.hours === null ? null : { open: dto.hours.open, close: dto.hours.close };
      const saved = await this.update(scope, actorId, id, { opening_hours: { ...site.openingHours, [weekday]: hours } } as U);
      await this.holidayEvent(scope, id, actorId, 'weekday_hours_set', { weekday, hours });
      return saved;
    });
  }

  /** The site's opening exceptions (filters: from, to), by date; 404 for a site the scope does not reach. */
  async listExceptions(scope: Scope, siteId: string, query: HolidayQuery): Promise<Page<OpeningExceptionDto>> {
    await this.repo.find(scope, siteId);
    return this.repo.listExceptions(scope, siteId, query);
  }

  /** Sets the date's opening (special hours, or closed), replacing what the date had. */
  async setException(scope: Scope, actorId: string, siteId: string, date: string, dto: OpeningExceptionInputDto): Promise<OpeningExceptionDto> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    return this.uow.transaction(async () => {
      // The site's row lock serialises writes of its dates: read, then insert or change.
      await this.repo.find(scope, siteId, true);
      const existing = await this.repo.exceptionAt(scope, siteId, date);
      const hours = dto.hours === null ? null : { open: dto.hours.open, close: dto.hours.close };
      const saved = await this.repo.saveException(scope, siteId, date, { openTime: hours?.open ?? null, closeTime: hours?.close ?? null, note: dto.note ?? null }, existing);
      await this.holidayEvent(scope, siteId, actorId, 'opening_exception_set', { date, hours, note: saved.note });
      return OpeningExceptionDto.of(saved);
    });
  }

  /** Removes the date's exception (its weekday's hours apply again); 404 when it has none. */
  async removeException(scope: Scope, actorId: string, siteId: string, date: string): Promise<void> {
    if (!isDateOnly(date)) throw ApiError.validation({ date: [DATE_MESSAGE] });
    await this.uow.transaction(async () => {
      await this.repo.find(scope, siteId, true);
      const existing = await this.repo.exceptionAt(scope, siteId, date);
      if (!existing) throw ApiError.notFound('Opening exception');
      await this.repo.deleteException(scope, existing);
      await this.holidayEvent(scope, siteId, actorId, 'opening_exception_deleted', { date });
    });
  }

  // ------------------------------------------------------------------ holidays

  async listHolidays(scope: Scope, siteId: string, query: HolidayQuery): Promise<Page<HolidayDto>> {
    await this.repo.find(scope, siteId);
    return this.repo.listHolidays(scope, siteId, query);
  }

  async addHoliday(scope: Scope, actorId: string, siteId: string, dto: HolidayInputDto): Promise<HolidayDto> {
    return this.holidayWrite(async () => {
      await this.repo.find(scope, siteId, true);
      await this.assertDateFree(siteId, dto.date);
      const saved = await this.repo.addHoliday(scope, siteId, { date: dto.date, name: dto.name });
      await this.holidayEvent(scope, siteId, actorId, 'holiday_created', { holiday_id: saved.id, date: saved.date, name: saved.name });
      return HolidayDto.of(saved);
    });
  }

  /** Replaces the whole set of holidays; answers with the new set in date order. */
  async replaceHolidays(scope: Scope, actorId: string, siteId: string, dto: ReplaceHolidaysDto): Promise<HolidayDto[]> {
    const seen = new Map<string, number>();
    const errors: Record<string, string[]> = {};
    dto.holidays.forEach((h, i) => {
      if (seen.has(h.date)) errors[`holidays.${i}.date`] = [`duplicates holidays.${seen.get(h.date)}.date`];
      else seen.set(h.date, i);
    });
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    return this.holidayWrite(async () => {
      await this.repo.find(scope, siteId, true);
      const saved = await this.repo.replaceHolidays(scope, siteId, dto.holidays);
      await this.holidayEvent(scope, siteId, actorId, 'holidays_replaced', { count: saved.length });
      return saved.sort((a, b) => a.date.localeCompare(b.date)).map(HolidayDto.of);
    });
  }

  async updateHoliday(scope: Scope, actorId: string, siteId: string, holidayId: string, dto: UpdateHolidayDto): Promise<HolidayDto> {
    return this.holidayWrite(async () => {
      await this.repo.find(scope, siteId, true);
      const holiday = await this.repo.findHoliday(scope, siteId, holidayId);
      if (dto.date !== undefined && dto.date !== holiday.date) await this.assertDateFree(siteId, dto.date);
      if (dto.date !== undefined) holiday.date = dto.date;
      if (dto.name !== undefined) holiday.name = dto.name;
      const saved = await this.repo.saveHoliday(holiday);
      await this.holidayEvent(scope, siteId, actorId, 'holiday_updated', { holiday_id: saved.id, date: saved.date, name: saved.name });
      return HolidayDto.of(saved);
    });
  }

  async removeHoliday(scope: Scope, actorId: string, siteId: string, holidayId: string): Promise<void> {
    await this.uow.transaction(async () => {
      await this.repo.find(scope, siteId, true);
      const holiday = await this.repo.findHoliday(scope, siteId, holidayId);
      await this.repo.deleteHoliday(holiday);
      await this.holidayEvent(scope, siteId, actorId, 'holiday_deleted', { holiday_id: holiday.id, date: holiday.date });
    });
  }

  private async assertDateFree(siteId: string, date: string): Promise<void> {
    if (await this.repo.holidayOn(siteId, date)) throw this.duplicateDate(date);
  }

  private duplicateDate(date?: string) {
    return ApiError.conflict('DUPLICATE_DATE', `This ${this.repo.config.kind} already has a holiday${date ? ` on ${date}` : ' on that date'}.`);
  }

  private async holidayWrite<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.uow.transaction(work);
    } catch (e) {
      if (isUniqueViolation(e)) throw this.duplicateDate();
      throw e;
    }
  }

  private holidayEvent(scope: Scope, siteId: string, actorId: string, verb: HolidayVerb, payload: SiteEventPayloads[HolidayVerb]) {
    return this.repo.recordEvent(scope, siteId, actorId, verb, payload);
  }
}
