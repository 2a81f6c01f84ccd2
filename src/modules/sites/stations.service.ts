import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { ApiError } from '../../common/http/api-error';
import { InUseRegistry } from '../../common/records/in-use';
import { WasteTypesService } from '../catalogue';
import { SiteService } from './site.service';
import { Station, StationHoliday, type OpeningHours } from './site.entity';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { openResult } from './opening-calendar.service';
import type { StationDay } from './lots.service';
import { CreateStationDto, StationDto, StationQuery, UpdateStationDto, WasteTypeRefDto } from './sites.dto';

/** Stations (dump sites): the shared site logic plus accepted waste types and a dump cost. */
@Injectable()
export class StationsService extends SiteService<Station, StationHoliday, StationDto, CreateStationDto, UpdateStationDto> implements OnModuleInit {
  // In use (409 on delete) while catalogue (assets located there) says so, through the in-use registry.
  // (Jobs register no station check: the jobs table has no station column yet; dispatch adds one.)
  constructor(
    ds: DataSource,
    inUse: InUseRegistry,
    private readonly wasteTypes: WasteTypesService,
  ) {
    super(ds, { kind: 'station', label: 'Station', site: Station, holiday: StationHoliday, parentKey: 'stationId' }, inUse);
  }

  /** A live station that accepts a waste type keeps it from deletion. */
  onModuleInit(): void {
    this.inUse.register('waste_type', 'sites', 'a live station accepting the waste type', async (m, id) => {
      const [hit] = await m.query<{ '?column?': number }[]>(
        `SELECT 1 FROM station_waste_types sw JOIN stations st ON st.id = sw.station_id AND st.deleted_at IS NULL WHERE sw.waste_type_id = $1 LIMIT 1`,
        [id],
      );
      return !!hit;
    });
  }

  /** Whether the station accepts the waste type (dispatch: a station ticket must be for waste the station takes). One statement. */
  async accepts(m: EntityManager, stationId: string, wasteTypeId: string): Promise<boolean> {
    const [hit] = await m.query<{ '?column?': number }[]>(`SELECT 1 FROM station_waste_types WHERE station_id = $1 AND waste_type_id = $2 LIMIT 1`, [stationId, wasteTypeId]);
    return !!hit;
  }

  /** The company's active stations on a dispatch day (name, position, open that day or why not, accepted waste types), by name. One statement. */
  async forDay(companyId: string, date: string, m: EntityManager = this.ds.manager): Promise<StationDay[]> {
    const rows: { id: string; name: string; latitude: string | number | null; longitude: string | number | null; opening_hours: OpeningHours | null; holiday: string | null; waste_type_ids: string | null }[] = await scopedQuery(m, Station, Scope.company(companyId), 's')
      .select(['s.id AS id', 's.name AS name', 's.latitude AS latitude', 's.longitude AS longitude', 's.openingHours AS opening_hours'])
      .addSelect('(SELECT h.name FROM station_holidays h WHERE h.station_id = s.id AND h.date = CAST(:onDate AS date) LIMIT 1)', 'holiday')
      .addSelect(`(SELECT coalesce(string_agg(sw.waste_type_id::text, ',' ORDER BY sw.waste_type_id), '') FROM station_waste_types sw WHERE sw.station_id = s.id)`, 'waste_type_ids')
      .andWhere('s.active')
      .setParameters({ onDate: date })
      .orderBy('s.name', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .getRawMany();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      latitude: r.latitude === null ? null : Number(r.latitude),
      longitude: r.longitude === null ? null : Number(r.longitude),
      day: openResult({ active: true, opening_hours: r.opening_hours, holiday: r.holiday }, date),
      wasteTypeIds: r.waste_type_ids ? r.waste_type_ids.split(',') : [],
    }));
  }

  protected kindValues(dto: CreateStationDto | UpdateStationDto): Partial<Station> {
    return { dumpCostPerTonneAmount: dto.dump_cost_per_tonne_amount };
  }

  /** The accepted waste types must be the company's live ones (422 otherwise). */
  protected async validate(m: EntityManager, companyId: string, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids?.length) {
      const ids = dto.waste_type_ids.map((id) => id.toLowerCase());
      const known = await this.wasteTypes.liveIds(m, companyId, ids);
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) throw ApiError.validation({ waste_type_ids: missing.map((id) => `waste type ${id} not found`) });
    }
  }

  protected async afterSave(m: EntityManager, station: Station, dto: CreateStationDto | UpdateStationDto): Promise<void> {
    if (dto.waste_type_ids === undefined) return;
    await m.query(`DELETE FROM station_waste_types WHERE station_id = $1`, [station.id]);
    if (dto.waste_type_ids.length) {
      await m.query(
        `INSERT INTO station_waste_types (station_id, waste_type_id, company_id) SELECT $1, unnest($2::uuid[]), $3`,
        [station.id, dto.waste_type_ids.map((id) => id.toLowerCase()), station.companyId],
      );
    }
  }

  protected async filter(_m: EntityManager, qb: SelectQueryBuilder<Station>, query: StationQuery): Promise<void> {
    if (query.waste_type_id) {
      qb.andWhere(`EXISTS (SELECT 1 FROM station_waste_types swt WHERE swt.station_id = s.id AND swt.waste_type_id = :wasteTypeId)`, { wasteTypeId: query.waste_type_id.toLowerCase() });
    }
  }

  protected async render(m: EntityManager, stations: Station[]): Promise<StationDto[]> {
    const byStation = new Map<string, WasteTypeRefDto[]>();
    if (stations.length) {
      const links: { station_id: string; waste_type_id: string }[] = await m.query(`SELECT station_id, waste_type_id FROM station_waste_types WHERE station_id = ANY($1::uuid[])`, [
        stations.map((s) => s.id),
      ]);
      // Names through catalogue, by name then id; each station's list keeps that order.
      for (const w of await this.wasteTypes.refs(m, [...new Set(links.map((l) => l.waste_type_id))])) {
        for (const l of links) if (l.waste_type_id === w.id) (byStation.get(l.station_id) ?? byStation.set(l.station_id, []).get(l.station_id)!).push(w);
      }
    }
    return stations.map((s) => StationDto.of(s, byStation.get(s.id) ?? []));
  }
}
