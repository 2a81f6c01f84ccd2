import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InUseRegistry } from '../../common/records/in-use';
import { SiteService } from './site.service';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { Lot, LotHoliday, type OpeningHours } from './site.entity';
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

/** Lots (yards): the shared site logic plus a capacity. */
@Injectable()
export class LotsService extends SiteService<Lot, LotHoliday, LotDto, CreateLotDto, UpdateLotDto> {
  // In use (409 on delete) while catalogue (assets based or located there), fleet (trucks based there)
  // or jobs (unfinished jobs from or to it) say so, through the in-use registry.
  constructor(ds: DataSource, inUse: InUseRegistry) {
    super(ds, { kind: 'lot', label: 'Lot', site: Lot, holiday: LotHoliday, parentKey: 'lotId' }, inUse);
  }

  protected kindValues(dto: CreateLotDto | UpdateLotDto): Partial<Lot> {
    return { capacity: dto.capacity };
  }

  /** The company's active lots (count) and those of them with a position, to serve an order from. */
  async servingCandidates(m: EntityManager, companyId: string, onDate?: string): Promise<{ active: number; positioned: ServingLot[] }> {
    // One statement: with `onDate`, each lot's day (opening hours, holiday) comes along for the chosen lot's check.
    const rows: { id: string; latitude: string | number | null; longitude: string | number | null; opening_hours: OpeningHours | null; holiday: string | null }[] = await scopedQuery(m, Lot, Scope.company(companyId), 's')
      .select(['s.id AS id', 's.latitude AS latitude', 's.longitude AS longitude', 's.openingHours AS opening_hours'])
      .addSelect(onDate ? '(SELECT h.name FROM lot_holidays h WHERE h.lot_id = s.id AND h.date = CAST(:onDate AS date) LIMIT 1)' : 'NULL::text', 'holiday')
      .andWhere('s.active')
      .setParameters(onDate ? { onDate } : {})
      .getRawMany();
    const positioned = rows
      .filter((l) => l.latitude !== null && l.longitude !== null)
      .map((l) => ({ id: l.id, latitude: Number(l.latitude), longitude: Number(l.longitude), day: onDate ? openResult({ active: true, opening_hours: l.opening_hours, holiday: l.holiday }, onDate) : null }));
    return { active: rows.length, positioned };
  }

  /** The company's active lots on a dispatch day (name, position, open that day or why not), by name. One statement. */
  async forDay(companyId: string, date: string, m: EntityManager = this.ds.manager): Promise<SiteDay[]> {
    const rows: { id: string; name: string; latitude: string | number | null; longitude: string | number | null; opening_hours: OpeningHours | null; holiday: string | null }[] = await scopedQuery(m, Lot, Scope.company(companyId), 's')
      .select(['s.id AS id', 's.name AS name', 's.latitude AS latitude', 's.longitude AS longitude', 's.openingHours AS opening_hours'])
      .addSelect('(SELECT h.name FROM lot_holidays h WHERE h.lot_id = s.id AND h.date = CAST(:onDate AS date) LIMIT 1)', 'holiday')
      .andWhere('s.active')
      .setParameters({ onDate: date })
      .orderBy('s.name', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .getRawMany();
    return rows.map((l) => ({
      id: l.id,
      name: l.name,
      latitude: l.latitude === null ? null : Number(l.latitude),
      longitude: l.longitude === null ? null : Number(l.longitude),
      day: openResult({ active: true, opening_hours: l.opening_hours, holiday: l.holiday }, date),
    }));
  }

  protected async render(_m: EntityManager, lots: Lot[]): Promise<LotDto[]> {
    return lots.map(LotDto.of);
  }
}
