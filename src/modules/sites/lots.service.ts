import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { UnitOfWork } from '../../database/unit-of-work';
import { SiteService } from './site.service';
import { Lot, LotHoliday } from './site.entity';
import { LotRepository, type SiteDayRow } from './site.repository';
import { openResult, type OpenResult } from './opening-calendar.service';
import { CreateLotDto, LotDto, UpdateLotDto } from './sites.dto';

/** An active lot with a position; `day`: whether it is open on the date asked for (null when none was). */
export interface ServingLot {
  id: string;
  latitude: number;
  longitude: number;
  day: OpenResult | null;
}

/** A lot or station on a dispatch day: name, position (null when it has none), and that day's opening. */
export interface SiteDay {
  id: string;
  name: string;
  latitude: number | null;
  longitude: number | null;
  day: OpenResult;
}

/** A station on a dispatch day, with the waste types it accepts. */
export interface StationDay extends SiteDay {
  wasteTypeIds: string[];
}

/** A site's row on a dispatch day as the dispatch board reads it. */
export function siteDay(r: SiteDayRow, date: string): SiteDay {
  return {
    id: r.id,
    name: r.name,
    latitude: r.latitude === null ? null : Number(r.latitude),
    longitude: r.longitude === null ? null : Number(r.longitude),
    day: openResult({ active: true, opening_hours: r.opening_hours, holiday: r.holiday, exception: r.exception }, date),
  };
}

/** Lots (yards): the shared site logic plus a capacity. */
@Injectable()
export class LotsService extends SiteService<Lot, LotHoliday, LotDto, CreateLotDto, UpdateLotDto> {
  // In use (409 on delete) while catalogue (assets based or located there), fleet (trucks based there)
  // or jobs (unfinished jobs from or to it) say so, through the in-use registry (the repository asks it).
  constructor(uow: UnitOfWork, private readonly lots: LotRepository) {
    super(uow, lots);
  }

  protected kindValues(dto: CreateLotDto | UpdateLotDto): Partial<Lot> {
    return { capacity: dto.capacity };
  }

  /** The scope's active lots (count) and those of them with a position, to serve an order from. One statement. */
  async servingCandidates(scope: Scope, onDate?: string): Promise<{ active: number; positioned: ServingLot[] }> {
    // With `onDate`, each lot's day (opening hours, holiday) comes along for the chosen lot's check.
    const rows = await this.lots.servingRows(scope, onDate);
    const positioned = rows
      .filter((l) => l.latitude !== null && l.longitude !== null)
      .map((l) => ({ id: l.id, latitude: Number(l.latitude), longitude: Number(l.longitude), day: onDate ? openResult({ active: true, opening_hours: l.opening_hours, holiday: l.holiday, exception: l.exception }, onDate) : null }));
    return { active: rows.length, positioned };
  }

  /** The scope's active lots on a dispatch day (name, position, open that day or why not), by name. One statement. */
  async forDay(scope: Scope, date: string): Promise<SiteDay[]> {
    return (await this.lots.forDay(scope, date)).map((r) => siteDay(r, date));
  }

  protected async render(_scope: Scope, lots: Lot[]): Promise<LotDto[]> {
    return lots.map(LotDto.of);
  }
}
